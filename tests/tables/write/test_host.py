"""The host's controls during a game (tables.write.host): through the one write path, refused with a
reason to anyone but the host, and written in the table's log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import claims, clock
from tables.cache import load_snapshot
from tables.live import talk as live_talk
from tables.models import (
    MIN_RESUME_SECONDS,
    ChatMessage,
    FormerClaim,
    Hand,
    ModerationAction,
    Seat,
    Table,
)
from tables.write import host as host_controls
from tables.write import lobby, moderation, path, talk
from tests.tables.helpers import Phone, game_of
from tests.tables.helpers.driver import seat_people, seat_people_now

pytestmark = pytest.mark.django_db(transaction=True)


def _game() -> tuple[Table, list[str], list[str]]:
    """Asha (host) and Bikash on their own phones, two computers; a hand running, a person's
    clock ticking (the computers moved until then)."""
    table, sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4))
    for _ in range(50):
        table.refresh_from_db()
        if table.deadline_kind == Table.Deadline.TURN:
            break
        clock.fire(table.id, table.version, table.next_deadline)
    assert table.deadline_kind == Table.Deadline.TURN
    return table, claims.session_hashes(sessions[0]), claims.session_hashes(sessions[1])


def _log(table: Table) -> list[tuple[str, str, str]]:
    return [
        (m.event, m.name, m.detail.get("other", ""))
        for m in ChatMessage.objects.filter(table=table).exclude(event="")
    ]


def _refused(code: str, write, *args) -> None:  # type: ignore[no-untyped-def]
    table = Table.objects.get(pk=args[0])
    with pytest.raises(path.Refused) as refused:
        write(*args)
    assert refused.value.code == code and refused.value.message
    assert Table.objects.get(pk=table.pk).version == table.version  # nothing changed


def test_the_host_pauses_for_everyone_and_the_clock_stops() -> None:
    table, asha, _bikash = _game()
    assert table.next_deadline is not None
    left = (table.next_deadline - timezone.now()).total_seconds()
    host_controls.pause_game(table.id, asha)
    table.refresh_from_db()
    assert table.paused and table.version > 0
    assert not Table.objects.due(timezone.now() + timedelta(hours=1)).filter(pk=table.pk).exists()
    pause = ModerationAction.objects.get(action=ModerationAction.HOST_PAUSE)
    assert pause.detail["host"] == "Asha" and pause.detail["remaining"] <= left
    snapshot = load_snapshot(table.id)
    assert snapshot is not None and snapshot.paused_by == "Asha"
    assert _log(table) == [("paused", "Asha", "")]


def test_only_the_host_pauses_resumes_or_ends() -> None:
    table, asha, bikash = _game()
    _refused("not_host", host_controls.pause_game, table.id, bikash)
    _refused("not_host", host_controls.end_game, table.id, bikash)
    _refused("not_host", host_controls.pause_game, table.id, [])  # a spectator
    host_controls.pause_game(table.id, asha)
    _refused("not_host", host_controls.resume_game, table.id, bikash)
    _refused("already_paused", host_controls.pause_game, table.id, asha)
    assert _log(table) == [("paused", "Asha", "")]


def test_resuming_gives_back_the_time_that_was_left() -> None:
    table, asha, _bikash = _game()
    host_controls.pause_game(table.id, asha)
    left = ModerationAction.objects.get(action=ModerationAction.HOST_PAUSE).detail["remaining"]
    host_controls.resume_game(table.id, asha)
    table.refresh_from_db()
    assert not table.paused
    expected = timezone.now() + timedelta(seconds=max(left, MIN_RESUME_SECONDS))
    assert table.next_deadline is not None
    assert abs((table.next_deadline - expected).total_seconds()) < 2
    assert [e for e, _n, _o in _log(table)] == ["paused", "resumed"]
    _refused("not_paused", host_controls.resume_game, table.id, asha)


def test_the_host_cannot_resume_a_moderators_pause() -> None:
    table, asha, _bikash = _game()
    moderation.pause_clock(table.id, None, "a complaint")
    _refused("moderator_pause", host_controls.resume_game, table.id, asha)
    assert load_snapshot(table.id).paused_by is None  # type: ignore[union-attr]


def test_ending_now_calls_off_the_hand_and_ranks_by_chips() -> None:
    table, asha, _bikash = _game()
    running = game_of(Table.objects.get(pk=table.pk)).hand_number
    cancelled = host_controls.end_game(table.id, asha)
    table.refresh_from_db()
    assert cancelled == running and table.status == Table.Status.FINISHED
    game = game_of(table)
    assert game.finished and not game.hand_running
    hand = Hand.objects.get(table=table, number=running)
    assert {p["seat"]: p["stack"] for p in hand.players} == {
        s: st.stack for s, st in game.seats.items()
    }  # every chip back where it was when the hand began
    assert Hand.objects.get(table=table, number=running).cancelled
    standings = game.standings()
    assert len(standings) == 4 and {s.seat for s in standings} == {0, 1, 2, 3}
    assert _log(table) == [("ended", "Asha", "")]
    _refused("not_playing", host_controls.end_game, table.id, asha)


def test_an_away_persons_seat_goes_to_the_computer_with_its_chips() -> None:
    table, asha, bikash = _game()
    _refused("not_away", host_controls.computer_plays, table.id, asha, 1)
    Seat.objects.filter(table=table, position=1).update(away=True)
    Table.objects.filter(pk=table.pk).update(version=table.version + 1)  # (as a write would)
    _refused("not_host", host_controls.computer_plays, table.id, bikash, 1)
    _refused("no_person", host_controls.computer_plays, table.id, asha, 2)  # a computer already
    stack = game_of(Table.objects.get(pk=table.pk)).seats[1].stack
    host_controls.computer_plays(table.id, asha, 1)
    seat = Seat.objects.get(table=table, position=1)
    assert seat.is_computer and not seat.claim_hash
    table.refresh_from_db()
    assert game_of(table).seats[1].stack == stack and not game_of(table).seats[1].is_person
    assert FormerClaim.objects.get(table=table, position=1).name == "Bikash"
    assert _log(table) == [("computer", "Asha", "Bikash")]


def test_the_host_role_passes_to_another_person() -> None:
    table, asha, bikash = _game()
    _refused("no_person", host_controls.pass_host, table.id, asha, 2)  # a computer
    _refused("no_person", host_controls.pass_host, table.id, asha, 0)  # herself
    _refused("not_host", host_controls.pass_host, table.id, bikash, 1)
    host_controls.pass_host(table.id, asha, 1)
    assert Table.objects.get(pk=table.pk).host_position == 1
    _refused("not_host", host_controls.pause_game, table.id, asha)
    host_controls.pause_game(table.id, bikash)
    assert _log(table) == [("host", "Asha", "Bikash"), ("paused", "Bikash", "")]


async def test_a_pause_from_the_hosts_phone_shows_on_every_phone() -> None:
    table, sessions = await seat_people(
        [["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4)
    )
    asha, bikash = phones = [Phone(table.code, str(s.session_key)) for s in sessions]
    for phone in phones:
        await phone.connect()
    await bikash.send({"type": "host", "do": "pause"})
    refusal = await bikash.next()
    assert refusal.notice_code == "not_host" and "Only the host" in refusal.text
    await asha.send({"type": "host", "do": "pause"})
    # Every phone: the table redrawn (paused, by whom) and the log's line; the host's phone
    # also its controls as they stand now.
    for phone, count in ((asha, 3), (bikash, 2)):
        text = "".join([(await phone.next()).text for _ in range(count)])
        assert "Paused by Asha" in text and 'data-event="paused"' in text
        assert "Asha paused the game." in text
        assert ('data-testid="host-resume"' in text) == (phone is asha)
    await bikash.send({"type": "host", "do": "menu"})
    assert 'data-testid="host-menu"' in (empty := await bikash.next()).text
    assert "host-resume" not in empty.text
    await bikash.send({"type": "host", "do": "dance"})
    assert (await bikash.next()).notice_code == "unknown_control"
    for phone in phones:
        await phone.close()


def test_event_lines_are_said_in_each_language() -> None:
    line = talk.Line(1, 0, "Asha", "", "", "computer", "Bikash")
    english = live_talk.line_html(line, "en")
    nepali = live_talk.line_html(line, "ne")
    assert "Asha let the computer play for Bikash." in english
    assert "Asha" in nepali and "Bikash" in nepali and "let the computer" not in nepali
