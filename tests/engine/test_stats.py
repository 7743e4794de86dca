"""The players' statistics, counted on hand-made hands from the public events alone."""

from __future__ import annotations

import json

from engine.stats import (
    PublicHand,
    Tally,
    figures,
    summarize,
    summary_from_dict,
    summary_to_dict,
    total,
)
from tests.engine.helpers import make_hand, play


def _three_bet_hand() -> PublicHand:
    # Button 0, small blind 1, big blind 2: seat 0 acts first preflop.
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 raise 60", "1 raise 180", "2 fold", "0 fold")
    assert hand.finished
    return PublicHand.of(hand)


def _showdown_hand() -> PublicHand:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                     holes={0: "AhAd", 1: "KhKd", 2: "7c2d"}, board="2c7s9d3cJs")
    play(hand, "0 call", "1 call", "2 check",
         "1 bet 40", "2 call", "0 call",
         "1 check", "2 check", "0 check",
         "1 check", "2 check", "0 check")
    assert hand.finished
    return PublicHand.of(hand)


def test_a_three_bet_and_a_fold_to_it_are_counted_for_who_made_and_faced_them() -> None:
    s = summarize(_three_bet_hand())
    opener, three_bettor, blind = s.tallies[0], s.tallies[1], s.tallies[2]
    assert (opener.vpip, opener.pfr, opener.three_bet_chances) == (1, 1, 0)
    assert (opener.fold_to_three_bet_chances, opener.folds_to_three_bet) == (1, 1)
    assert (three_bettor.vpip, three_bettor.pfr) == (1, 1)
    assert (three_bettor.three_bet_chances, three_bettor.three_bets) == (1, 1)
    # The big blind acted only once two raises were in: no chance to three-bet, no VPIP.
    assert (blind.vpip, blind.three_bet_chances, blind.three_bets) == (0, 0, 0)
    # Uncalled 120 went back; the pot was 60 + 60 + 20.
    assert (opener.net, three_bettor.net, blind.net) == (-60, 80, -20)
    assert s.pot == 140 and s.winners == (1,)
    assert three_bettor.biggest_pot == 140 and three_bettor.pots_won == 1
    assert all(t.flops_seen == 0 and t.showdowns == 0 for t in s.tallies.values())
    assert s.after == {0: 940, 1: 1080, 2: 980}


def test_a_showdown_counts_the_mucked_hand_without_knowing_its_cards() -> None:
    public = _showdown_hand()
    text = json.dumps(public.to_dict())
    assert '"Ah"' not in text and '"Ad"' not in text  # seat 0 mucked: never public
    s = summarize(public)
    assert [t.flops_seen for t in s.tallies.values()] == [1, 1, 1]
    assert [t.showdowns for t in s.tallies.values()] == [1, 1, 1]
    assert [t.showdowns_won for t in s.tallies.values()] == [0, 0, 1]
    assert [t.vpip for t in s.tallies.values()] == [1, 1, 0]  # the big blind only checked
    assert [t.postflop_aggressive for t in s.tallies.values()] == [0, 1, 0]
    assert [t.postflop_calls for t in s.tallies.values()] == [1, 0, 1]
    assert s.pot == 180 and s.winners == (2,)
    assert [x.seat for x in s.shown] == [1, 2]
    assert s.shown[1].name.startswith("Two pair")
    assert sorted(s.shown[1].best) == sorted(["7c", "7s", "2d", "2c", "Js"])


def test_figures_carry_their_sample_sizes_and_tallies_add_up() -> None:
    hands = [summarize(_three_bet_hand()), summarize(_showdown_hand())]
    by_seat = total(hands)
    t = by_seat[0]
    assert t.hands == 2 and t.vpip == 2 and t.pfr == 1
    line = {f.key: f for f in figures(t)}
    assert (line["vpip"].value, line["vpip"].sample) == (100.0, 2)
    assert (line["pfr"].value, line["pfr"].sample) == (50.0, 2)
    assert (line["fold_to_three_bet"].value, line["fold_to_three_bet"].sample) == (100.0, 1)
    assert line["three_bet"].value is None and line["three_bet"].sample == 0
    assert line["aggression"].value == 0.0 and line["aggression"].sample == 1
    assert (line["showdown"].value, line["showdown"].sample) == (100.0, 1)
    assert (line["won_showdown"].value, line["won_showdown"].sample) == (0.0, 1)
    assert line["per_100"].value == 100.0 * (-60 - 60) / 2
    assert line["biggest_pot"].value is None  # seat 0 never took a pot
    seat1 = {f.key: f for f in figures(by_seat[1])}
    assert seat1["aggression"].value is None  # bets but no call: no factor
    assert seat1["biggest_pot"].value == 140.0


def test_a_hand_summary_survives_a_json_round_trip() -> None:
    s = summarize(_showdown_hand())
    again = summary_from_dict(json.loads(json.dumps(summary_to_dict(s))))
    assert again == s
    assert Tally.from_dict(s.tallies[1].to_dict()) == s.tallies[1]


def test_calling_or_folding_to_one_raise_is_a_three_bet_chance_not_taken() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 raise 60", "1 call", "2 fold")
    s = summarize(PublicHand.of(hand))
    assert [(t.three_bet_chances, t.three_bets) for t in s.tallies.values()] == [
        (0, 0), (1, 0), (1, 0),
    ]
    assert s.tallies[0].fold_to_three_bet_chances == 0


def test_fold_to_three_bet_counts_only_a_fold_to_exactly_the_three_bet() -> None:
    """As trackers count it: a four-bet by a third player before the opener acts again takes
    the hand out of the sample; a call of the three-bet is a chance not taken."""
    four_bet = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(four_bet, "0 raise 60", "1 raise 180", "2 raise 500", "0 fold")
    opener = summarize(PublicHand.of(four_bet)).tallies[0]
    assert (opener.fold_to_three_bet_chances, opener.folds_to_three_bet) == (0, 0)
    called = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(called, "0 raise 60", "1 raise 180", "2 fold", "0 call")
    opener = summarize(PublicHand.of(called)).tallies[0]
    assert (opener.fold_to_three_bet_chances, opener.folds_to_three_bet) == (1, 0)
