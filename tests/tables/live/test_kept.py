"""Parts a phone keeps between frames (tables.live.kept): a frame sent as kept parts, made
whole as static/js/live.js makes it, is the frame; parts that did not change are not sent."""

from __future__ import annotations

import dataclasses
import re

from tables.cache import Snapshot
from tables.live.frames import FrameOptions, render_frame
from tables.live.kept import KeptParts, wants_parts, whole
from tables.live.perspective import PassState, perspective
from tests.tables.helpers.frames import played, same


def _frame(snapshot: Snapshot, mine: list[int], kept: KeptParts | None) -> str:
    persp = perspective(snapshot, mine, PassState())
    options = FrameOptions(join_url="/t/K7Q4MX/", language="en")
    return str(render_frame(snapshot, persp, options, kept))


def test_frames_sent_as_kept_parts_are_the_frames_in_fewer_bytes() -> None:
    viewers: list[list[int]] = [[0], [1], [2], []]
    servers = [KeptParts() for _ in viewers]
    pages: list[dict[str, str]] = [{} for _ in viewers]
    sent = drawn = kept_markers = 0
    for snapshot in played(6, seed=11):
        for mine, server, page in zip(viewers, servers, pages, strict=True):
            text = _frame(snapshot, mine, server)
            frame = _frame(snapshot, mine, None)
            made = whole(text, page)
            assert made is not None
            assert same(made) == same(frame)
            assert "<x-" not in made
            sent += len(text)
            drawn += len(frame)
            kept_markers += text.count("<x-k ")
    assert kept_markers > 0
    assert sent < drawn * 0.7, (sent, drawn)


def test_a_new_socket_is_sent_every_part_and_a_changed_part_again() -> None:
    versions = played(2, seed=3)
    server = KeptParts()
    first = _frame(versions[0], [0], server)
    assert "<x-k " not in first and first.count("<x-p ") >= 6
    again = _frame(versions[0], [0], server)
    # Nothing changed: every part by its marker, but the action bar's (a new action id for
    # every frame drawn on your turn: a tap on an older frame is told apart).
    assert set(re.findall(r'<x-p n="([\w-]+)">', again)) <= {"bar"}
    assert again.count("<x-k ") >= 6
    later = _frame(versions[1], [0], server)
    changed = set(re.findall(r'<x-p n="([\w-]+)">', later))
    assert changed and changed < set(re.findall(r'<x-p n="([\w-]+)">', first))
    assert set(re.findall(r'<x-p n="([\w-]+)">', _frame(versions[1], [0], server))) <= {"bar"}
    assert "<x-k " not in _frame(versions[1], [0], KeptParts())


def test_a_name_that_looks_like_a_marker_is_only_text() -> None:
    snapshot = played(1, seed=5)[0]
    seats = dict(snapshot.seats)
    trick = '</x-p><x-k n="seat-1"></x-k>'
    seats[1] = dataclasses.replace(seats[1], name=trick)
    snapshot = dataclasses.replace(snapshot, seats=seats, memo={})
    server, page = KeptParts(), dict[str, str]()
    made = whole(_frame(snapshot, [0], server), page)
    assert made is not None and same(made) == same(_frame(snapshot, [0], None))
    assert trick not in made and "&lt;/x-p&gt;" in made


def test_a_marker_for_a_part_the_page_does_not_hold_asks_for_a_whole_frame() -> None:
    assert whole('<x-k n="seat-2"></x-k>', {}) is None
    assert whole('<x-k n="seat-2"></x-k>', {"seat-2": "<li>x</li>"}) == "<li>x</li>"


def test_only_a_socket_that_asks_keeps_parts() -> None:
    assert wants_parts(b"v=12&parts=1") and wants_parts(b"parts=1")
    assert not wants_parts(b"v=12") and not wants_parts(None) and not wants_parts(b"parts=0")
