"""The action logs kept between versions (tables.cache.logs): one a table and language, of
the hand it describes; the next hand's log takes its place."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tables.cache import logs


@dataclass
class Lines:
    made: int
    lines: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.lines)


def test_a_table_keeps_one_log_a_language_and_the_next_hand_replaces_it() -> None:
    logs._logs.clear()
    made: list[Lines] = []

    def make() -> Lines:
        made.append(Lines(len(made)))
        return made[-1]

    def grow(events: list[str]) -> Callable[[Lines], list[str]]:
        def read(log: Lines) -> list[str]:
            log.lines += events[log.count:]
            return list(log.lines)

        return read

    key = (7, "created", "en")
    hand_one = (1, b"deal-1", ((0, "Asha"), (1, "Bikash")))
    assert logs.read_log(key, 1, make, grow(["a"]), hand_one) == ["a"]
    assert logs.read_log(key, 2, make, grow(["a", "b"]), hand_one) == ["a", "b"]
    assert len(made) == 1  # grown, not started again
    hand_two = (2, b"deal-2", ((0, "Asha"), (1, "Bikash")))
    assert logs.read_log(key, 1, make, grow(["c"]), hand_two) == ["c"]
    assert len(made) == 2 and len(logs._logs) == 1  # the first hand's log is gone
    # Asked for again (a connection drawing an older version), the first hand's is redone.
    assert logs.read_log(key, 2, make, grow(["a", "b"]), hand_one) == ["a", "b"]
    assert len(made) == 3 and len(logs._logs) == 1
    logs.read_log((7, "created", "ne"), 1, make, grow(["क"]), hand_one)
    assert len(logs._logs) == 2  # one a language
    logs._logs.clear()
