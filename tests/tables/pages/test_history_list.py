"""The hand list: your two cards, the board, your result and the winning hand's name on each
hand, and a filter for the hands you played to the flop or further (P3: only what you saw)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from engine.hand import Hand as EngineHand
from engine.history import replay
from tables.models import Hand, Table
from tables.pages.history import Access, _hand_summary, saw_flop
from tests.engine.helpers import check_down, make_hand, play
from tests.tables.helpers import cards_in
from tests.tables.helpers.pages import ended_hands, friends_played, page_text

pytestmark = pytest.mark.django_db


def _items(html: str) -> dict[int, str]:
    """Each listed hand's number -> its list item's HTML."""
    items = re.findall(r"<li><a href=\"[^\"]*/hands/(\d+)/[^\"]*\"(.*?)</a></li>", html, re.S)
    return {int(number): body for number, body in items}


def test_each_hand_shows_your_cards_the_board_and_no_one_elses() -> None:
    table, (asha, _bikash) = friends_played(6)
    html = asha.get(reverse("tables:history", args=[table.code])).content.decode()
    items = _items(html)
    rows = list(Hand.objects.filter(table=table, ended_at__isnull=False))
    assert len(items) == len(rows) >= 6
    for row in rows:
        hand = replay(row.record)
        item = page_text(items[row.number])
        mine = {str(c) for c in hand.hole[hand.seats.index(0)]}
        board = {str(c) for c in hand.board}
        assert {str(c) for c in cards_in(item)} == mine | board, row.number


def _summary(hand: EngineHand, viewer: int) -> dict[str, Any]:
    row = Hand(number=1, players=[{"seat": s, "name": f"P{s}"} for s in hand.seats])
    return _hand_summary(row, hand, Access(Table(code="ABCDEF"), viewer, (viewer,)), "/x/")


def test_a_showdown_names_the_winning_hand_and_a_fold_names_none() -> None:
    shown = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                      holes={0: "AsAd", 1: "KcKh", 2: "7c2d"}, board="AhKd9s4c3h")
    play(shown, "0 call", "1 call", "2 fold")
    check_down(shown)
    summary = _summary(shown, 2)
    assert summary["cards"] == ["7c", "2d"]
    assert summary["board"] == ["Ah", "Kd", "9s", "4c", "3h"]
    assert summary["winning_hand"] == "Three of a kind, aces"
    assert summary["result"] == -20 and not summary["saw_flop"]
    assert _summary(shown, 0)["saw_flop"] and _summary(shown, 0)["result"] == 40

    folded = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0, holes={0: "AsAd"})
    play(folded, "0 raise 100", "1 fold", "2 fold")
    summary = _summary(folded, 0)
    assert summary["winning_hand"] == "" and summary["board"] == [] and summary["result"] == 30


def test_the_filter_keeps_the_hands_you_played_to_the_flop() -> None:
    table, (asha, _bikash) = friends_played(8)
    url = reverse("tables:history", args=[table.code])
    every = _items(asha.get(url).content.decode())
    flop = _items(asha.get(url + "?flop=1").content.decode())
    wanted = {
        row.number for row in Hand.objects.filter(table=table, ended_at__isnull=False)
        if saw_flop(replay(row.record), 0)
    }
    assert set(flop) == wanted
    assert set(flop) <= set(every)
    assert 'aria-current="page"' in asha.get(url + "?flop=1").content.decode()


def test_a_hand_folded_before_the_flop_was_not_played_to_it() -> None:
    table, _clients = friends_played(8)
    checked = 0
    for _row, hand in ended_hands(table):
        for seat in hand.seats:
            folded_early = any(
                e.kind == "action" and e.action == "fold" and e.seat == seat
                and e.street == "preflop" for e in hand.events
            )
            assert saw_flop(hand, seat) == (len(hand.board) >= 3 and not folded_early)
            checked += 1
    assert checked >= 8
