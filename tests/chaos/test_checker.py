"""The chaos soak's checker (benchmarks/chaos/checker.py) on small records with planted breaches.

Each test builds a table's hands with ``engine`` (a seeded deck, everyone calling or checking),
the frames its players were sent and the actions they sent, plants one breach, and asserts the
checker names it with its table, hand and version; the clean record passes.
"""

from __future__ import annotations

import copy
from typing import Any

from benchmarks.chaos.checker import check
from benchmarks.chaos.evidence import Report
from benchmarks.chaos.players import away_seats
from engine.cards import shuffled_deck
from engine.hand import Hand
from engine.hand_settings import HandSettings
from tests.chaos.records import PERSONS, TABLE, TURN, build


def _only(report: Report, invariant: str) -> list[Any]:
    found = [b for b in report.breaches if b.invariant == invariant]
    assert found, f"no {invariant} breach among {[str(b) for b in report.breaches]}"
    return found


def _version_of(events: list[dict[str, Any]], hand: int) -> int:
    return min(int(e["version"]) for e in events if e["e"] == "frame" and e["hand"] == hand)


def test_a_clean_record_passes() -> None:
    events, db = build()
    report = check(events, db)
    assert report.breaches == []
    assert report.figures["hands"] == 2
    assert report.figures["actions_told_counted"] > 0


def test_chips_not_conserved_from_one_hand_to_the_next() -> None:
    events, db = build()
    db.hands[TABLE][1]["players"][0]["stack"] += 10
    found = _only(check(events, db), "chips")
    assert (found[0].table, found[0].hand, found[0].version) == (
        TABLE, 2, _version_of(events, 2))


def test_a_hand_that_does_not_replay_to_its_stored_result() -> None:
    events, db = build()
    final = db.hands[TABLE][0]["final_stacks"]
    final["1"], final["2"] = final["1"] - 20, final["2"] + 20  # chips still add up
    found = _only(check(events, db), "replay")
    assert (found[0].table, found[0].hand, found[0].version) == (
        TABLE, 1, _version_of(events, 1))


def test_an_action_shown_to_a_player_but_missing_from_the_history() -> None:
    events, db = build()
    record = db.hands[TABLE][1]["record"]
    db.hands[TABLE][1] = {**db.hands[TABLE][1], "final_stacks": None,
                          "record": {**record, "actions": record["actions"][:2]}}
    db.tables[TABLE]["state"] = {**db.tables[TABLE]["state"], "hand": db.hands[TABLE][1]["record"]}
    found = _only(check(events, db), "lost")
    assert {b.table for b in found} == {TABLE} and {b.hand for b in found} == {2}
    assert all(b.version is not None and b.version > _version_of(events, 2) + 1 for b in found)


def test_an_action_applied_twice() -> None:
    events, db = build()
    sent = next(e for e in events if e["e"] == "sent" and e["hand"] == 1)
    at = events.index(sent)
    events[at + 2:at + 2] = [{**sent, "resend": True, "t": sent["t"] + 0.5},
                             {**events[at + 1], "t": sent["t"] + 0.6}]
    found = _only(check(events, db), "twice")
    assert (found[0].table, found[0].hand, found[0].version) == (TABLE, 1, sent["version"])


def test_an_action_of_a_persons_seat_that_no_tap_explains() -> None:
    events, db = build()
    sent = next(e for e in events if e["e"] == "sent" and e["hand"] == 2)
    events = [e for e in events if e.get("id") != sent["id"]]  # never tapped: came from nowhere
    found = _only(check(events, db), "twice")
    assert (found[0].table, found[0].hand, found[0].version) == (TABLE, 2, sent["version"])


def test_a_deadline_fired_twice() -> None:
    events, db = build()
    db.tables[TABLE]["recent_actions"] = ["timed-out-9-1-check", "x", "timed-out-9-1-check"]
    found = _only(check(events, db), "deadline")
    assert (found[0].table, found[0].version) == (TABLE, 9)
    assert found[0].hand is not None


def test_a_table_stuck_after_the_last_fault() -> None:
    events, db = build()
    last = max(e["t"] for e in events)
    stuck_at = max(e["version"] for e in events if e["e"] == "frame")
    for e in events:
        if e["e"] in ("end", "stuck"):
            e["t"] = last + TURN + 15
    events.append({"t": 0.5, "e": "fault", "kind": "redis_stop", "start": 0.2, "end": 0.5,
                   "detail": ""})
    found = _only(check(events, db), "deadline")
    assert (found[0].table, found[0].hand, found[0].version) == (TABLE, 2, stuck_at)


def test_a_player_not_converged_within_5_s_of_the_last_fault() -> None:
    events, db = build()
    versions = sorted({e["version"] for e in events if e["e"] == "frame"})
    target = versions[len(versions) // 2]
    moment = next(e["t"] for e in events if e["e"] == "frame" and e["version"] == target)
    # p2 was shown the version only 8 s after the fault ended
    for e in events:
        if e["e"] == "frame" and e["player"] == "p2" and e["version"] >= target:
            e["t"] += 8.0
    events += [{"t": moment - 1, "e": "fault", "kind": "daphne_kill", "start": moment - 3,
                "end": moment, "detail": ""},
               {"t": moment, "e": "snapshot", "versions": {str(TABLE): target}}]
    found = _only(check(events, db), "converge")
    assert (found[0].table, found[0].version) == (TABLE, target)
    assert found[0].hand is not None and "p2" in found[0].detail


def _late_after(kind: str, late: float, last: bool) -> Report:
    """p2 shown the table's version of a ``kind`` fault's end ``late`` s after it (then, unless
    ``last``, a quick fault after it)."""
    events, db = build()
    versions = sorted({e["version"] for e in events if e["e"] == "frame"})
    target = versions[len(versions) // 3]
    moment = next(e["t"] for e in events if e["e"] == "frame" and e["version"] == target)
    for e in events:
        if e["e"] == "frame" and e["player"] == "p2" and e["version"] >= target:
            e["t"] += late
    events += [{"t": moment - 1, "e": "fault", "kind": kind, "start": moment - 3,
                "end": moment, "detail": ""},
               {"t": moment, "e": "snapshot", "versions": {str(TABLE): target}}]
    if not last:
        after = moment + late + 2
        events += [{"t": after, "e": "fault", "kind": "daphne_kill", "start": after - 1,
                    "end": after, "detail": ""},
                   {"t": after, "e": "snapshot", "versions": {str(TABLE): 1}}]
    return check(events, db)


def test_every_phone_current_within_3_s_of_a_redis_promotion_even_before_the_last_fault(
) -> None:
    found = _only(_late_after("redis_failover", 4.0, last=False), "converge")
    assert found[0].table == TABLE and "p2" in found[0].detail
    assert "promotion" in found[0].detail
    assert not [b for b in _late_after("redis_failover", 2.0, last=False).breaches
                if b.invariant == "converge"]
    # another fault than the last is only reported, not bounded
    assert not [b for b in _late_after("daphne_kill", 4.0, last=False).breaches
                if b.invariant == "converge"]


def test_another_players_hole_card_seen_before_it_was_shown() -> None:
    events, db = build()
    hand = Hand(HandSettings(1, (1, 2, 3), (1000, 1000, 1000), 1, 10, 20), shuffled_deck(seed=1))
    frame = next(e for e in events if e["e"] == "frame" and e["player"] == "p1")
    frame["cards"] = [*frame["cards"], str(hand.hole[hand.index_of(2)][0])]
    found = _only(check(events, db), "hole_cards")
    assert (found[0].table, found[0].hand, found[0].version) == (TABLE, 1, frame["version"])


def test_a_5xx_outside_every_fault_window() -> None:
    events, db = build()
    events += [{"t": 3.0, "e": "http", "path": "/t/ABC123/", "status": 500, "friendly": False,
                "took": 0.1},
               {"t": 4.0, "e": "http", "path": "/healthz", "status": 200, "friendly": False,
                "took": 0.1}]
    found = _only(check(events, db), "http")
    assert len(found) == 1 and found[0].table == TABLE and "500" in found[0].detail


def test_during_a_database_outage_only_the_apps_own_error_page_and_healthz_503() -> None:
    events, db = build()
    events.append({"t": 2.0, "e": "fault", "kind": "pg_fast", "start": 1.0, "end": 10.0,
                   "detail": ""})
    fine = [("/t/ABC123/", 503, True), ("/healthz", 503, False)]
    bad = [("/t/ABC123/", 500, False), ("/", 0, False), ("/healthz", 200, False)]
    for n, (path, status, friendly) in enumerate([*fine, *bad]):
        events.append({"t": 4.0 + n * 0.1, "e": "http", "path": path, "status": status,
                       "friendly": friendly, "took": 0.05})
    found = _only(check(copy.deepcopy(events), db), "http")
    assert len(found) == len(bad)
    assert any("500" in b.detail for b in found) and any("nothing" in b.detail for b in found)
    assert any("/healthz said 200" in b.detail for b in found)


def test_a_time_out_seen_only_on_reconnecting_is_not_taken_for_an_early_one() -> None:
    events, db = build()
    sent = next(e for e in events if e["e"] == "sent" and e["hand"] == 2)
    version = sent["version"]
    events = [e for e in events if e.get("id") != sent["id"]]  # the seat's own time-out
    assert _only(check(copy.deepcopy(events), db), "twice")  # seen live 1 s apart: too early
    # Both players were away: they came back and saw versions v and v + 1 at once.
    for e in events:
        if e["e"] == "frame" and e["version"] in (version, version + 1):
            e["t"] = 100.0 + (e["version"] - version) * 0.1
    frames = [e for e in events if e["e"] == "frame" and e["version"] in (version, version + 1)]
    events = [e for e in events if e not in frames]
    for player in ("p1", "p2"):
        events.append({"t": 99.9, "e": "conn", "table": TABLE, "player": player,
                       "seat": int(player[1]), "state": "open"})
        events += [f for f in frames if f["player"] == player and f["version"] == version]
    events += [f for f in frames if f["version"] == version + 1]
    events.sort(key=lambda e: e["t"])
    report = check(events, db)
    assert not [b for b in report.breaches if b.invariant == "twice"], report.breaches


def _a_check_nobody_tapped(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int, int]:
    """A person's check in hand 2 that no tap of theirs explains (the table checked for them),
    1 s after the turn began; the events without that tap, its seat and its version."""
    sent = next(e for e in events if e["e"] == "sent" and e["hand"] == 2 and e["kind"] == "check")
    return [e for e in events if e.get("id") != sent["id"]], sent["seat"], sent["version"]


def test_p1_an_away_seat_acted_for_at_once_is_not_taken_for_an_early_deadline() -> None:
    # The soak's one breach of 2026-12-03 (table 2 hand 3 version 43): the seat had timed out
    # twice, once before any phone was connected (never seen), so it was away and the table
    # acted for it after TABLES_AWAY_PAUSE; the frames of that version drew it away.
    events, db = build()
    events, seat, version = _a_check_nobody_tapped(events)
    for e in events:
        if e["e"] == "frame" and version - 2 <= e["version"] <= version:
            e["away"] = [seat]
    report = check(events, db)
    assert [b for b in report.breaches if b.invariant == "twice"] == [], report.breaches
    assert report.figures["time_outs"] == 1
    # A record without the away state (older frames) only counts time-outs in a row seen
    # whole: none here, so it is flagged (the false breach the away state takes away).
    for e in events:
        e.pop("away", None)
    assert _only(check(events, db), "twice")


def test_p1_a_seat_not_drawn_away_acted_for_before_its_time_is_still_flagged() -> None:
    events, db = build()
    events, seat, version = _a_check_nobody_tapped(events)
    other = next(p for p in PERSONS if p != seat)
    for e in events:
        if e["e"] == "frame":
            # away before and after, and another seat away at that very version: not this one
            if e["version"] in (version - 2, version + 1):
                e["away"] = [seat]
            elif e["version"] == version:
                e["away"] = [other]
    found = _only(check(events, db), "twice")
    assert (found[0].table, found[0].hand, found[0].version) == (TABLE, 2, version)
    assert f"seat {seat} check after 1.0 s" in found[0].detail


def test_a_frame_draws_the_seats_away() -> None:
    # as components/seat.html draws an opponent, and table/_waiting_bar.html an away viewer
    seat = '<li><div class="seat{} seat--folded"\n     data-seat="{}"><span>x</span></div></li>'
    text = seat.format(" seat--away", 2) + seat.format("", 4)
    assert away_seats(text, 1) == [2]
    assert away_seats(text + '<button data-testid="come-back">', 1) == [1, 2]
    assert away_seats("<div>no seats drawn</div>", 1) is None


def test_a_frame_draws_the_viewer_away_at_their_own_turn() -> None:
    # The seed-3 soak in CI (2026-12-03): an away seat acted for after the 0.6 s pause (P1) at
    # its own turn, the only frames of that version its own, with the action bar and no "I'm
    # back": its own place (table/_me.html) says it.
    seat = '<li><div class="seat"\n     data-seat="{}"><span>x</span></div></li>'
    me = '<div class="me seat--turn{}" id="me" data-testid="me" data-seat="1">'
    assert away_seats(seat.format(2) + me.format(" seat--away"), 1) == [1]
    assert away_seats(seat.format(2) + me.format(""), 1) == []
