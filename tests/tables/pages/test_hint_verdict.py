"""The hint says what its figures mean for the decision in front of the player: the share a
call must win to break even, the hand's chance, and whether, on the odds alone, calling wins or
loses chips in the long run, in English and in Nepali."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.advice import HandHelp
from tables.draw.explain import hint_lines
from tests.tables.helpers import first_person_turn
from tests.tables.helpers.pages import started


def spot(need: float | None, equity: float) -> HandHelp:
    return HandHelp(
        street="flop", hand=None, draws=[], to_call=0 if need is None else 20, pot=75,
        need=need, equity=equity, against="range", ranged=[1],
    )


def test_a_call_that_wins_too_rarely_is_said_to_lose_chips() -> None:
    with translation.override("en"):
        last = hint_lines(spot(0.21, 0.17), {1: "Bikash"})[-1]
    assert last == (
        "You need to win 21% of the time to break even on this call; your hand wins about "
        "17%: on the odds alone, calling loses chips in the long run."
    )


def test_a_call_that_wins_often_enough_is_said_to_win_chips() -> None:
    with translation.override("en"):
        last = hint_lines(spot(0.21, 0.35), {1: "Bikash"})[-1]
    assert "need to win 21%" in last and "about 35%" in last
    assert last.endswith("calling wins chips in the long run.")


def test_nothing_to_call_says_checking_is_free() -> None:
    with translation.override("en"):
        lines = hint_lines(spot(None, 0.4), {1: "Bikash"})
    assert lines[-1] == "Nothing to call: checking costs you nothing."
    assert not any("break even" in line for line in lines)


def test_the_verdict_speaks_nepali() -> None:
    with translation.override("ne"):
        loses = hint_lines(spot(0.21, 0.17), {1: "Bikash"})[-1]
        wins = hint_lines(spot(0.21, 0.35), {1: "Bikash"})[-1]
        free = hint_lines(spot(None, 0.4), {1: "Bikash"})[-1]
    for line in (loses, wins, free):
        assert re.search("[\u0900-\u097f]", line)
        assert not re.search("[A-Za-z]", line), line
    assert loses != wins and "चिप घट्छ" in loses and "चिप बढ्छ" in wins


@pytest.mark.django_db
def test_the_hint_page_ends_with_the_verdict() -> None:
    table, clients = started("Asha", "Bikash", seats=3)
    _version, seat = first_person_turn(table.id)
    response = clients[seat].get(reverse("tables:hint", args=[table.code]))
    lines = re.findall(r"<li>(.*?)</li>", response.content.decode())
    assert response.status_code == 200 and lines
    assert "in the long run" in lines[-1] or "checking costs you nothing" in lines[-1]
    assert Client().get(reverse("tables:hint", args=[table.code])).status_code == 403
