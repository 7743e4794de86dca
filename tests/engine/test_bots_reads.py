"""The hard player's picture of each opponent: counted from hand views, shrunk to a prior,
rebuilt from the history after a restart, and told in plain words."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest

from engine.bots import describe_opponents
from engine.bots.counts import Counts, count_hand
from engine.bots.reads import (
    WEIGHT_HANDS,
    Profile,
    clear_cache,
    model_from_past,
    observed_ratio,
    prior_for,
    summary,
)
from engine.views import hand_view
from tests.engine.bot_spots import history
from tests.engine.helpers import make_hand, play


def scripted_hand() -> dict[str, Any]:
    """Seat 0 opens, seat 1 calls, the big blind folds; seat 0 bets the flop and seat 1 calls;
    seat 1 bets the turn, seat 0 raises and seat 1 folds."""
    hand = make_hand({0: 2000, 1: 2000, 2: 2000}, button=0, board="Kh7c2dQs")
    # Three-handed: seat 1 is the small blind, seat 2 the big blind, seat 0 (button) acts first.
    play(hand, "0 raise 60", "1 call", "2 fold", "1 check", "0 bet 80", "1 call",
         "1 bet 200", "0 raise 600", "1 fold")
    assert hand.finished
    return hand_view(hand, 2)


def test_one_hand_adds_the_expected_counts() -> None:
    counts = count_hand(scripted_hand())
    assert counts[0] == Counts(hands=1, vpip=1, pfr=1, aggressive=2, calls=0, decisions=2,
                               faced=1, folded=0, flops=1, showdowns=0)
    assert counts[1] == Counts(hands=1, vpip=1, pfr=0, aggressive=1, calls=1, decisions=4,
                               faced=2, folded=1, flops=1, showdowns=0)
    assert counts[2] == Counts(hands=1, vpip=0, pfr=0, flops=0)


def test_a_big_blind_walk_is_not_a_hand_with_a_choice() -> None:
    hand = make_hand({0: 2000, 1: 2000, 2: 2000}, button=0)
    play(hand, "0 fold", "1 fold")
    counts = count_hand(hand_view(hand, 0))
    assert counts[2].hands == 0 and counts[1].hands == 1 and counts[0].hands == 1


def test_showdown_is_counted_for_players_still_in_at_the_end() -> None:
    hand = make_hand({0: 2000, 1: 2000}, button=0, holes={0: "AsAd", 1: "KsKd"}, board="2c7h9dJsQc")
    play(hand, "0 call", "1 check", "1 check", "0 check", "1 check", "0 check", "1 bet 40",
         "0 call")
    counts = count_hand(hand_view(hand, 1))
    assert counts[0].flops == counts[0].showdowns == 1
    assert counts[1].showdowns == 1 and counts[0].calls == 1 and counts[0].faced == 1


def test_rates_are_shrunk_towards_the_prior_while_the_sample_is_small() -> None:
    prior = prior_for(6)
    empty = Profile.of(Counts(), prior)
    assert (empty.vpip, empty.pfr, empty.fold_to_bet) == pytest.approx(
        (prior.vpip, prior.pfr, prior.fold_to_bet)
    )
    few = Profile.of(Counts(hands=3, vpip=3), prior)
    assert prior.vpip < few.vpip < 0.5  # three hands played of three: still not "plays 100%"
    many = Profile.of(Counts(hands=400, vpip=400), prior)
    assert many.vpip > 0.97
    assert few.vpip == pytest.approx((3 + prior.vpip * WEIGHT_HANDS) / (3 + WEIGHT_HANDS))


def test_opens_are_counted_against_a_typical_players_from_the_same_seats() -> None:
    # Six seats, the button (seat 0) deals: seat 3 acts first (five behind him), seat 4 limps,
    # seat 5 raises over him (an open: nobody had raised), seat 0 re-raises (no open chance: he
    # faced a raise), the blinds fold, the big blind (seat 2) with no free option.
    hand = make_hand(dict.fromkeys(range(6), 2000), button=0)
    play(hand, "3 fold", "4 call", "5 raise 80", "0 raise 240", "1 fold", "2 fold", "4 fold",
         "5 fold")
    counts = count_hand(hand_view(hand, 1))
    assert (counts[3].open_chances, counts[3].opens) == (1, 0)
    assert counts[3].open_expected == pytest.approx(0.16)
    assert (counts[4].open_chances, counts[4].opens) == (1, 0)
    assert (counts[5].open_chances, counts[5].opens) == (1, 1)
    assert counts[5].open_expected == pytest.approx(0.27)
    assert counts[0].open_chances == 0 and counts[0].pre_reraised == 1
    assert counts[1].open_chances == 0 and counts[2].open_chances == 0
    # A big blind who checks his free option after a limp had no chance to open either.
    limped = make_hand({0: 2000, 1: 2000}, button=0)
    play(limped, "0 call", "1 check")
    counts = count_hand(hand_view(limped, 1))
    assert (counts[0].open_chances, counts[0].opens) == (1, 0)
    assert counts[0].open_expected == pytest.approx(0.8)
    assert counts[1].open_chances == 0


def test_the_opening_read_is_shrunk_towards_a_typical_player_by_the_chances_seen() -> None:
    def opening(chances: int, opens: int, expected: float) -> float:
        counts = Counts(open_chances=chances, opens=opens, open_expected=expected)
        return Profile.of(counts, prior_for(6)).open_ratio

    assert opening(0, 0, 0.0) == pytest.approx(1.0)
    # Heads-up a typical player opens 80% from the button: opening 75% is nearly typical.
    assert opening(40, 30, 32.0) == pytest.approx(
        (30 + WEIGHT_HANDS * 0.8) / (32 + WEIGHT_HANDS * 0.8))
    # Opening every hand from the first seat of six (typical: 16%, so 6.25 times as many): the
    # read comes near that after 40 chances, not after 4.
    assert opening(40, 40, 6.4) > 4.5
    assert 1.5 < opening(4, 4, 0.64) < 2.5
    assert observed_ratio(4, 4, 0.64) == pytest.approx(opening(4, 4, 0.64))
    # Until the chances to open add up, the read leans on how often he raised at all (PFR).
    raiser = Profile.of(Counts(hands=30, vpip=15, pfr=15, open_chances=2, opens=2,
                               open_expected=0.5), prior_for(6))
    assert raiser.open_ratio == pytest.approx(
        observed_ratio(2, 2, 0.5, raiser.pfr / prior_for(6).pfr))
    assert raiser.open_ratio > 2.0


def test_calls_of_one_raise_are_counted_against_a_typical_players() -> None:
    # Heads-up: the button opens, the big blind calls (a typical player calls 55%); then the
    # big blind re-raises in the next hand (a chance to call that he did not take).
    called = make_hand({0: 2000, 1: 2000}, button=0)
    play(called, "0 raise 60", "1 call")
    counts = count_hand(hand_view(called, 0))
    assert (counts[1].call_chances, counts[1].raise_calls) == (1, 1)
    assert counts[1].call_expected == pytest.approx(0.55)
    assert counts[0].call_chances == 0
    raised = make_hand({0: 2000, 1: 2000}, button=0)
    play(raised, "0 raise 60", "1 raise 180", "0 fold")
    counts = count_hand(hand_view(raised, 0))
    assert (counts[1].call_chances, counts[1].raise_calls) == (1, 0)
    assert counts[0].call_chances == 0  # he faced a re-raise, not one raise
    # A big blind who called 5 of 40 raises heads-up (typical: 22 of 40) reads about half as wide.
    tight = Profile.of(Counts(call_chances=40, raise_calls=5, call_expected=22.0), prior_for(2))
    assert 0.3 < tight.call_ratio < 0.5


def test_describe_opponents_tells_a_calling_station_from_a_tight_folder() -> None:
    station = describe_opponents(history("always-call"), 0)
    folder = describe_opponents(history("tight-folder"), 0)
    assert set(station) == {1} and set(folder) == {1}
    s, f = station[1], folder[1]
    for key in ("hands", "vpip", "pfr", "aggression", "bet_rate", "fold_to_bet", "showdown",
                "estimate",
                "style", "summary"):
        assert key in s and key in f
    assert s["vpip"] == 1.0 and s["pfr"] == 0.0 and s["fold_to_bet"] == 0.0
    assert s["summary"].startswith("plays 100% of hands")
    assert "calls often" in s["summary"] and "rarely raises before the flop" in s["summary"]
    assert "seldom folds to a bet" in s["summary"]
    assert s["style"] == "loose_passive"
    assert f["vpip"] is not None and f["vpip"] < 0.2
    assert f["summary"].startswith(f"plays {round(100 * f['vpip'])}% of hands")
    assert f["estimate"]["vpip"] > f["vpip"]  # shrunk up towards the heads-up prior


def test_the_model_survives_a_restart_and_repeated_calls_are_cheap() -> None:
    past = history("maniac", 50)
    before = describe_opponents(past, 0)
    clear_cache()
    restored = json.loads(json.dumps(past))  # as rebuilt from stored hands
    assert describe_opponents(restored, 0) == before
    first = model_from_past(restored, 0)
    started = time.perf_counter()
    for _ in range(100):
        assert model_from_past(restored, 0) is first
    assert time.perf_counter() - started < 0.5
    grown = model_from_past(restored[:-1], 0).copy()
    grown.add_hand(restored[-1], 0)
    assert grown.counts == first.counts


def test_different_histories_with_the_same_ends_give_different_models() -> None:
    past = history("loose-caller", 8)
    folder = history("tight-folder", 8)
    middle = next(i for i in range(1, 7) if count_hand(past[i])[1] != count_hand(folder[i])[1])
    other = copy.deepcopy(past)
    other[middle] = copy.deepcopy(folder[middle])
    assert past[0] == other[0] and past[-1] == other[-1]
    assert model_from_past(past, 0).counts != model_from_past(other, 0).counts


def test_summary_of_an_unseen_player() -> None:
    assert summary(Profile.typical(4)) == "not seen playing yet"
    text = summary(Profile.of(Counts(hands=4, vpip=2, pfr=0), prior_for(4)))
    assert text == "plays 50% of hands, rarely raises before the flop (only a few hands seen)"
