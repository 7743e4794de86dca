"""The soak's record is written from the players' event loop and from the threads that ask for
pages at once (benchmarks/chaos/record.py): every event arrives whole, one JSON line each."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from benchmarks.chaos.record import Recorder, load


def test_events_written_from_many_threads_at_once_are_each_one_whole_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "record.jsonl"
    recorder = Recorder(path)
    start = threading.Barrier(8)

    def write(writer: int) -> None:
        start.wait()
        for n in range(2_000):
            recorder.add("http", path=f"/t/{writer}/{n}", status=200, text="x" * (n % 300))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    recorder.close()
    events = load(path)
    assert len(events) == len(recorder.events) == 16_000
    assert {e["path"] for e in events} == {f"/t/{w}/{n}" for w in range(8) for n in range(2_000)}


def test_the_plain_and_the_failover_soak_started_together_write_different_files() -> None:
    from benchmarks.chaos.soak import out_paths

    plain, failover = out_paths(3, patroni=False), out_paths(3, patroni=True)
    assert not set(plain) & set(failover)
    assert all(str(os.getpid()) in path.name for path in (*plain, *failover))
