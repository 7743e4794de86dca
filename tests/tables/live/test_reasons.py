"""Computer players who say why (issue 27): their public reasons kept with their actions at a
learning table, told on a tap in the viewer's language, never with a hidden card or what the
bot worked out from its own cards while they are hidden."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from engine.history import replay
from tables import claims, clock, computer
from tables.cache import load_snapshot
from tables.live import reasons as told
from tables.models import ChatMessage, Hand, Table
from tables.write import host, lobby, path
from tests.tables.helpers import allowed_cards, cards_in, game_of, phone_of
from tests.tables.helpers.driver import seat_people_now

pytestmark = pytest.mark.django_db

PRIVATE_KEYS = ("motive", "strength", "equity", "options")
# What the bot worked out from its hidden cards, in the words the app would use for it.
PRIVATE_WORDS = ("My hand was", "bluff", "equity", "chance to win")


def computer_game(level: str = "hard", seats: int = 4) -> tuple[Table, Client]:
    """Asha against the computer, on a phone (a test client holding her session)."""
    table, sessions = seat_people_now(
        [["Asha"]], lobby.TableSettings(seat_count=seats, computer_level=level),
        Table.Mode.COMPUTER,
    )
    phone = phone_of(sessions[0])
    return table, phone


def friends_game() -> tuple[Table, list[Any], list[Client]]:
    table, sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4))
    phones = []
    for session in sessions:
        phone = phone_of(session)
        phones.append(phone)
    return table, sessions, phones


def step(table: Table) -> Table:
    """Fire the table's next deadline (a computer acts, a person times out, a hand is dealt)."""
    table.refresh_from_db()
    assert clock.tick(timezone.now() + timedelta(minutes=5)) == 1
    table.refresh_from_db()
    return table


def why(phone: Client, table: Table, seat: int) -> tuple[int, str]:
    response = phone.get(reverse("tables:why", args=[table.code, seat]))
    return response.status_code, response.content.decode()


def frame(phone: Client, table: Table) -> str:
    return phone.get(reverse("tables:frame", args=[table.code])).content.decode()


def computer_seats(table: Table) -> list[int]:
    return [s.position for s in table.seats.all() if s.is_computer]


def test_each_computer_action_is_kept_with_its_public_reason_and_the_hand_keeps_them() -> None:
    table, _phone = computer_game()
    bots = set(computer_seats(table))
    seen = 0
    for _ in range(400):
        table = step(table)
        game = game_of(table)
        hand = game.hand
        assert hand is not None
        for kept in table.bot_reasons:
            # (the last hand's stay until a computer acts in this one: only this hand's count)
            assert kept["hand"] in (game.hand_number, game.hand_number - 1)
            if kept["hand"] != game.hand_number:
                continue
            action = hand.actions[kept["i"]]
            assert action.seat == kept["seat"] and action.seat in bots
            assert kept["action"] == action.kind.value
            assert not set(PRIVATE_KEYS) & set(kept)
        seen += len(table.bot_reasons)
        if Hand.objects.filter(table=table, ended_at__isnull=False).count() >= 3:
            break
    assert seen > 0
    finished = list(Hand.objects.filter(table=table, ended_at__isnull=False))
    assert finished and any(row.reasons for row in finished)
    for row in finished:
        record = replay(row.record)
        bot_actions = [i for i, a in enumerate(record.actions) if a.seat in bots]
        assert sorted(r["i"] for r in row.reasons) == bot_actions
        for r in row.reasons:
            assert r["hand"] == row.number and r["action"] == record.actions[r["i"]].kind.value


@override_settings(TABLES_SEED="reasons")
def test_the_table_asks_the_same_decision_with_or_without_the_reason() -> None:
    table, _phone = computer_game("hard")
    compared = 0
    for _ in range(80):
        if table.deadline_kind == Table.Deadline.BOT:
            plain = computer.decide_for(table)
            action, reason = computer.explained_for(table)
            assert action is not None and plain == action
            assert reason is not None and reason["seat"] == action.seat
            compared += 1
        table = step(table)
    assert compared > 10


def test_a_tap_during_the_hand_tells_only_what_the_table_sees() -> None:
    """The frames a person gets and the reasons they read: no card of a computer player's but
    those shown, nothing the bot worked out from its own cards."""
    table, phone = computer_game("hard", seats=5)
    asha = claims_seat(table)
    read = 0
    for _ in range(300):
        table = step(table)
        game = game_of(table)
        hand = game.hand
        assert hand is not None
        allowed = allowed_cards(table.state, asha)
        text = frame(phone, table)
        assert cards_in(text) <= allowed
        for seat in computer_seats(table):
            status, answer = why(phone, table, seat)
            if status != 200:
                continue
            read += 1
            assert cards_in(answer) <= allowed
            shown = seat in hand.shown_seats()
            if not shown:
                assert not any(word in answer for word in PRIVATE_WORDS), answer
            assert 'data-testid="why-lines"' in answer
            lines = re.findall(r"<li>(.*?)</li>", answer)
            assert lines and all(lines)
        if read >= 25 and game.hand_number >= 3:
            break
    assert read >= 25


def test_a_badge_is_drawn_on_a_computer_players_last_action() -> None:
    table, phone = computer_game("medium")
    for _ in range(60):
        table = step(table)
        if table.bot_reasons and game_of(table).hand_running:
            last = told.last_reasons(load_snapshot(table.id))  # type: ignore[arg-type]
            if last:
                break
    assert last
    text = frame(phone, table)
    with_badge = set()
    for part in re.split(r'<div class="seat(?=[ "])', text)[1:]:
        found = re.match(r'[^"]*"\s+data-seat="(\d+)"', part)
        if found and 'data-why' in part.split("</li>")[0]:
            with_badge.add(int(found.group(1)))
    assert with_badge == set(last)


def test_once_a_computers_cards_are_shown_its_strength_is_said_in_coarse_words() -> None:
    table, phone = computer_game("easy", seats=3)  # the easy player goes to showdown often
    for _ in range(3000):
        table = step(table)
        game = game_of(table)
        hand = game.hand
        if hand is None or not hand.finished:
            continue
        for seat in set(hand.shown_seats()) & set(computer_seats(table)):
            status, answer = why(phone, table, seat)
            if status == 200:
                assert "My hand was" in answer
                assert cards_in(answer) <= allowed_cards(table.state, claims_seat(table))
                return
    raise AssertionError("no computer player's cards were shown")


def test_the_reasons_speak_nepali() -> None:
    table, phone = computer_game("hard")
    phone.cookies["django_language"] = "ne"
    for _ in range(100):
        table = step(table)
        for seat in computer_seats(table):
            status, answer = why(phone, table, seat)
            if status == 200:
                lines = re.findall(r"<li>(.*?)</li>", answer)
                assert lines and all(re.search("[\u0900-\u097f]", line) for line in lines)
                return
    raise AssertionError("no reason was told")


def test_a_friends_table_says_nothing_until_the_host_turns_learning_on() -> None:
    table, sessions, phones = friends_game()
    bots = computer_seats(table)
    for _ in range(30):
        table = step(table)
    assert table.bot_reasons == [] and 'data-why' not in frame(phones[0], table)
    assert all(why(phones[1], table, seat)[0] == 404 for seat in bots)
    asha, bikash = (claims.session_hashes(s) for s in sessions)
    with pytest.raises(path.Refused) as refused:
        host.set_learning(table.id, bikash, True)
    assert refused.value.code == "not_host"
    host.set_learning(table.id, asha, True)
    table.refresh_from_db()
    assert table.learning
    assert ChatMessage.objects.filter(table=table, event="learning_on").exists()
    for _ in range(200):
        table = step(table)
        if table.bot_reasons:
            break
    assert table.bot_reasons
    host.set_learning(table.id, asha, False)
    table.refresh_from_db()
    assert not table.learning and table.bot_reasons == []


def test_against_the_computer_the_switch_is_always_on() -> None:
    table, sessions = seat_people_now(
        [["Asha"]], lobby.TableSettings(seat_count=3), Table.Mode.COMPUTER
    )
    with pytest.raises(path.Refused) as refused:
        host.set_learning(table.id, claims.session_hashes(sessions[0]), False)
    assert refused.value.code == "always_learning"


def test_hands_kept_before_the_reasons_still_load_and_replay() -> None:
    table, phone = computer_game("medium")
    for _ in range(400):
        table = step(table)
        if Hand.objects.filter(table=table, ended_at__isnull=False).count() >= 2:
            break
    row = Hand.objects.filter(table=table, ended_at__isnull=False).first()
    assert row is not None
    record = row.record
    Hand.objects.filter(pk=row.pk).update(reasons=[])  # as a hand from before issue 27
    row.refresh_from_db()
    assert row.reasons == [] and row.record == record
    assert replay(row.record).finished
    page = phone.get(reverse("tables:hand", args=[table.code, row.number]))
    assert page.status_code == 200


def claims_seat(table: Table) -> int:
    person = next(s for s in table.seats.all() if not s.is_computer)
    return person.position
