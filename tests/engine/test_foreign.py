"""Hands from elsewhere for the replayer (issue 18, engine.foreign): this table's own PHH files
come back as the same hand, with only the cards the file gives, and what this table cannot play
is refused with a reason."""

from __future__ import annotations

import pytest

from engine.events import AWARD, DEAL_HOLE, MUCK, SHOW
from engine.foreign import MAX_BYTES, foreign_hand
from engine.hand import Hand
from engine.phh import PhhError
from engine.phh.read import read_phh
from engine.phh.replay import replay_phh
from engine.phh.write import to_phh
from tests.engine.phh_hands import phh, random_hands


def awards(events: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["seat"], e["amount"]) for e in events if e["kind"] == AWARD]


def visible(hand: Hand, viewer: int | None) -> set[str]:
    """Cards the viewer saw: the board, their own cards, hands shown (P3)."""
    seen = {str(c) for c in hand.board}
    for i, seat in enumerate(hand.seats):
        if seat == viewer or seat in hand.shown_seats():
            seen |= {str(c) for c in hand.hole[i]}
    return seen


def cards_of(events: list[dict[str, object]]) -> set[str]:
    return {str(c) for e in events if e["kind"] != AWARD for c in e.get("cards", ())}  # type: ignore[attr-defined]


def test_every_players_own_file_replays_to_the_same_hand_with_only_their_cards() -> None:
    mucks = 0
    for hand in random_hands(seed=41, count=200):
        mucks += any(e.kind == MUCK for e in hand.events)
        for viewer in hand.seats:
            back = foreign_hand(to_phh(hand, viewer=viewer))
            assert back.viewer == viewer
            assert back.hand.final_stacks == hand.final_stacks
            assert awards(back.events) == [(a.seat, a.amount) for a in hand.awards]
            assert [str(c) for c in back.hand.board] == [str(c) for c in hand.board]
            assert cards_of(back.events) == visible(hand, viewer)
            dealt = {e["seat"] for e in back.events if e["kind"] == DEAL_HOLE and "cards" in e}
            assert dealt == {viewer}
    assert mucks >= 3  # a mucked hand, hidden in the file, replays too (it loses here as well)


def test_a_full_history_replays_with_every_hole_card() -> None:
    for hand in random_hands(seed=7, count=60):
        back = foreign_hand(to_phh(hand, names={s: f"Player {s}" for s in hand.seats}))
        assert back.viewer is None
        assert back.hand.final_stacks == hand.final_stacks
        assert cards_of(back.events) == {str(c) for cards in hand.hole for c in cards} | {
            str(c) for c in hand.board
        }
        assert back.names == {s: f"Player {s}" for s in hand.seats}


def test_a_hidden_mucked_hand_gets_the_weakest_cards_left_and_loses() -> None:
    text = phh(
        ["d dh p1 ????", "d dh p2 AsAd", "d dh p3 ????", "p3 cc", "p1 f", "p2 cc",
         "d db 2c7d9h", "p2 cc", "p3 cc", "d db 3s", "p2 cc", "p3 cc", "d db 4h", "p2 cc",
         "p3 cc", "p2 sm AsAd", "p3 sm"],
    )
    with pytest.raises(PhhError, match="must compare them at showdown"):
        replay_phh(read_phh(text))  # the command line still refuses to guess
    back = foreign_hand(text)
    assert back.hand.final_stacks == {0: 990, 1: 1030, 2: 980}
    assert [e["seat"] for e in back.events if e["kind"] == MUCK] == [2]
    assert cards_of(back.events) == {"As", "Ad", "2c", "7d", "9h", "3s", "4h"}


def test_a_hidden_hand_this_table_would_show_is_refused() -> None:
    """All in, every hand is turned up here (R21): a hand the file hides cannot be shown."""
    text = phh(
        ["d dh p1 ????", "d dh p2 AsAd", "d dh p3 ????", "p3 cbr 1000", "p1 f", "p2 cc",
         "d db 2c7d9h", "d db 3s", "d db 4h", "p2 sm AsAd", "p3 sm"],
    )
    with pytest.raises(PhhError, match="p3's hole cards are not in the file, but this table "
                                       "shows them at showdown"):
        foreign_hand(text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('variant = "NT"\nantes = = [0, 0]\nactions = []\n', "(at line 2, column 9)"),
        (phh([], variant='"FT"'), "the variant 'FT' is not no-limit Texas hold'em"),
        (phh(["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p1 cc"]),
         "action 4 ('p1 cc') is illegal at this table: p3 is to act, not p1"),
        ("x" * (MAX_BYTES + 1), "larger than 64 KB"),
        (phh([], antes="[5, 5, 5]"), "antes are not played at this table (R35)"),
    ],
)
def test_what_this_table_cannot_replay_is_refused_with_a_reason(text: str, says: str) -> None:
    with pytest.raises(PhhError) as caught:
        foreign_hand(text)
    assert says in str(caught.value)


def test_shown_cards_from_the_file_appear_only_when_this_table_shows_them() -> None:
    text = phh(
        ["d dh p1 ????", "d dh p2 ????", "d dh p3 KsKd", "p3 cc", "p1 f", "p2 cc",
         "d db 2c7d9h", "p2 cc", "p3 cc", "d db 3s", "p2 cc", "p3 cc", "d db 4h", "p2 cc",
         "p3 cc", "p2 sm AsAd", "p3 sm KsKd"],
    )
    back = foreign_hand(text)
    assert back.viewer == 2
    deal = {e["seat"]: e.get("cards") for e in back.events if e["kind"] == DEAL_HOLE}
    assert deal == {0: None, 1: None, 2: ["Ks", "Kd"]}
    shows = [(e["seat"], e["cards"]) for e in back.events if e["kind"] == SHOW]
    assert shows == [(1, ["As", "Ad"])]
