"""PHH: our writer, our reader and the ``python -m engine.phh replay`` command.

Random hands are checked three ways: our PHH read back by our reader replays to the same events
and stacks; PokerKit (the format's reference implementation) loads the same text to the same
final stacks; and a seat's own PHH never shows a card that seat did not see.

PokerKit follows different rules in a few corners, so the PokerKit comparison recognises exactly
these situations (the same list as ``test_pokerkit_diff.py``) and adapts or skips only them:

- R9: with a short big blind, PokerKit prices the call and the minimum raise from the largest
  blind actually posted. Skipped when nobody posted the full big blind and somebody then put
  chips in preflop (a fold changes nothing).
- R12: heads-up with equal blinds posted in full, PokerKit lets the big blind act first. Skipped.
- R16: PokerKit counts short all ins from the round's last full raise; after three or more short
  all ins it may refuse a raise we allow. Skipped when such a raise happened. (Its other R16
  difference, an under-size first bet reopening the betting, only allows more than we do, so it
  never stops our actions from replaying and needs no exception.)
- R24: PokerKit gives the whole odd-chip remainder of a split to one winner, and merges pots
  whose remaining contenders are the same players before splitting. Adapted: every player not
  in a split with odd chips must match exactly, the winners of those splits must match in total
  and each within the number of odd chips.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from collections import defaultdict
from pathlib import Path

import pytest
from pokerkit import HandHistory

from engine.events import MUCK, SHOW
from engine.hand import Hand
from engine.phh import PhhError
from engine.phh.command import main
from engine.phh.read import read_phh
from engine.phh.replay import replay_phh
from engine.phh.write import phh_order, to_phh
from tests.engine.helpers import make_hand, play
from tests.engine.phh_hands import (
    compare_with_pokerkit,
    our_stacks,
    phh,
    pokerkit_final_stacks,
    pokerkit_play,
    random_hands,
)

DATA = Path(__file__).parent / "data" / "phh"
ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------------------ writer
def test_round_trip_of_random_hands_gives_the_same_events_and_stacks() -> None:
    for hand in random_hands(seed=11, count=300):
        text = to_phh(hand)
        replay = replay_phh(read_phh(text))
        assert replay.hand.events == hand.events, text
        assert replay.finishing_stacks == our_stacks(hand), text
        assert replay.starting_stacks == [
            hand.settings.stacks[hand.seats.index(seat)] for seat in phh_order(hand)
        ]


def test_pokerkit_replays_our_files_to_the_same_final_stacks() -> None:
    outcomes: dict[str, int] = defaultdict(int)
    rng = random.Random(5)
    for hand in random_hands(seed=23, count=300):
        outcomes[compare_with_pokerkit(hand, to_phh(hand))] += 1
        # A seat's own history (other hands "????" until shown) replays the same in PokerKit.
        outcomes[compare_with_pokerkit(hand, to_phh(hand, viewer=rng.choice(hand.seats)))] += 1
    assert outcomes["strict"] >= 480, dict(outcomes)  # the exceptions stay exceptions
    assert outcomes["adapted"] + outcomes["skipped"] > 0


def test_heads_up_p1_is_the_big_blind_and_the_button_is_last() -> None:
    hand = make_hand({2: 500, 5: 700}, button=5, holes={2: "AsAd", 5: "KcKh"})
    play(hand, "5 call", "2 check")
    text = to_phh(hand)
    assert "seats = [3, 6]" in text  # PHH counts seats from 1
    assert "blinds_or_straddles = [10, 20]" in text
    assert "starting_stacks = [500, 700]" in text
    assert '"d dh p1 AsAd"' in text and '"d dh p2 KcKh"' in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state = HandHistory.loads(text).create_state()
    assert state.bets == [20, 10]  # PokerKit agrees: p1 posted the big blind


def test_actions_are_written_as_phh_notation() -> None:
    hand = make_hand(
        {1: 1000, 2: 1000, 3: 300},
        button=3,
        holes={1: "AsKd", 2: "7c2d", 3: "QhQs"},
        board="KhTs8c2s3d",
    )
    play(hand, "3 raise 60", "1 raise 180", "2 fold", "3 all_in", "1 call")
    text = to_phh(hand)
    assert read_phh(text).actions  # valid PHH
    lines = [a.text for a in read_phh(text).actions]
    assert lines == [
        "d dh p1 AsKd", "d dh p2 7c2d", "d dh p3 QhQs",
        "p3 cbr 60", "p1 cbr 180", "p2 f", "p3 cbr 300", "p1 cc",
        "p1 sm AsKd", "p3 sm QhQs",
        "d db KhTs8c", "d db 2s", "d db 3d",
    ]
    assert "finishing_stacks = [1320, 980, 0]" in text
    assert "winnings = [620, 0, 0]" in text


def test_r28_a_hand_that_cannot_win_is_written_as_a_muck() -> None:
    hand = make_hand(
        {1: 1000, 2: 1000}, button=2, holes={1: "AsAd", 2: "7c2d"}, board="KhTs9c4s3d"
    )
    play(hand, "2 call", "1 check", "1 bet 20", "2 call", "1 check", "2 check", "1 check")
    play(hand, "2 check")
    lines = [a.text for a in read_phh(to_phh(hand)).actions]
    assert lines[-2:] == ["p1 sm AsAd", "p2 sm"]  # the river was checked: p1 shows first
    assert pokerkit_final_stacks(to_phh(hand)) == our_stacks(hand)


def test_names_and_extra_fields_are_written_and_pokerkit_accepts_them() -> None:
    hand = make_hand({1: 1000, 4: 1000, 6: 1000}, button=1)
    play(hand, "1 fold", "4 fold")
    text = to_phh(
        hand,
        names={1: 'Asha "the rock"', 4: "Bikash", 6: "Chandra\\"},
        extra={"table": "K7Q2", "seat_count": 6, "currency": "XPC", "_rules": "R1-R35"},
    )
    assert 'players = ["Bikash", "Chandra\\\\", "Asha \\"the rock\\""]' in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        history = HandHistory.loads(text)
    assert history.table == "K7Q2" and history.seat_count == 6
    assert history.players == ["Bikash", "Chandra\\", 'Asha "the rock"']
    assert history.user_defined_fields == {"_rules": "R1-R35"}
    assert history.hand == 1 and history.seats == [5, 7, 2]  # PHH counts seats from 1
    with pytest.raises(ValueError, match="cannot be replaced"):
        to_phh(hand, extra={"actions": []})


def test_a_running_hand_is_written_so_far_without_finishing_stacks() -> None:
    hand = make_hand({1: 1000, 2: 1000, 3: 1000}, button=3)
    play(hand, "3 call", "1 call")
    text = to_phh(hand, viewer=1)
    assert "finishing_stacks" not in text and "winnings" not in text
    assert [a.text for a in read_phh(text).actions][3:] == ["p3 cc", "p1 cc"]


# ------------------------------------------------------------------------------ privacy
def hidden_cards(hand: Hand, viewer: int) -> set[str]:
    shown = {e.seat for e in hand.events if e.kind == SHOW}
    return {
        str(card)
        for i, seat in enumerate(hand.seats)
        if seat != viewer and seat not in shown
        for card in hand.hole[i]
    }


def test_privacy_a_viewer_file_shows_no_card_of_an_opponent_who_did_not_show() -> None:
    checked = 0
    for hand in random_hands(seed=31, count=200):
        for viewer in hand.seats:
            text = to_phh(hand, viewer=viewer)
            secret = hidden_cards(hand, viewer)
            written = {
                str(card)
                for action in read_phh(text).actions
                for card in action.cards
                if card is not None
            }
            assert not secret & written, text
            assert not any(card in text for card in secret), text
            own = hand.hole[hand.seats.index(viewer)]
            assert all(str(card) in written for card in own)
            checked += len(secret)
    assert checked > 1000


def test_privacy_a_spectator_file_shows_only_hands_shown_at_showdown() -> None:
    hand = make_hand(
        {1: 1000, 2: 1000, 3: 1000},
        button=3,
        holes={1: "AsAd", 2: "7c2d", 3: "KcKh"},
        board="QhTs9c4s3d",
    )
    play(hand, "3 call", "1 call", "2 fold")
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, "check")
    text = to_phh(hand, viewer=None)
    assert "7c2d" in text  # the full history has everything
    spectator = to_phh(hand, viewer=99)
    assert not any(card in spectator for card in ("7c", "2d", "Kc", "Kh"))
    assert '"d dh p1 ????"' in spectator and '"p1 sm AsAd"' in spectator


def test_viewer_files_replay_unless_a_hidden_hand_must_be_compared() -> None:
    replayed = refused = 0
    for hand in random_hands(seed=41, count=200):
        viewer = hand.seats[0]
        mucked = {e.seat for e in hand.events if e.kind == MUCK} - {viewer}
        text = to_phh(hand, viewer=viewer)
        if mucked:
            with pytest.raises(PhhError, match="must compare them at showdown"):
                replay_phh(read_phh(text))
            refused += 1
        else:
            assert replay_phh(read_phh(text)).finishing_stacks == our_stacks(hand), text
            replayed += 1
    assert replayed > 150 and refused > 0


DEAL3 = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (phh(DEAL3, variant='"FT"'), "the variant 'FT' is not no-limit Texas hold'em ('NT')"),
        ("[1]\n" + phh(DEAL3), "the file holds several hands; give one hand per file"),
        ('variant = "NT"\n', "the file lacks the required field(s): antes, blinds_or_straddles"),
        (phh(DEAL3, antes="[0, 0, 1]"), "antes are not played at this table (R35)"),
        (phh(DEAL3, antes="2"), "antes are not played at this table (R35)"),
        (
            phh(DEAL3, blinds_or_straddles="[10, 20, 40]"),
            "straddles are not played at this table (R35): only two blinds",
        ),
        (
            phh(DEAL3, blinds_or_straddles="[0, 20, 0]"),
            "this table needs a small blind and a big blind, both more than zero",
        ),
        (phh(DEAL3, blinds_or_straddles="[30, 20, 0]"), "the small blind (30) is bigger"),
        (phh(DEAL3, stacks="[1000, inf, 1000]"), "an unknown (infinite) amount"),
        (phh(DEAL3, stacks="[1000, 0, 1000]"), "every starting stack must be more than zero"),
        (phh(DEAL3, stacks="[1000]"), "starting_stacks must list 2 to 22 players' chips"),
        (phh(["d dh p4 AsKd"]), "action 1 ('d dh p4 AsKd'): 'p4' is not one of the players"),
        (phh(["d dh p1 AsXd"]), "action 1 ('d dh p1 AsXd'): 'Xd' is not a card"),
        (phh(["d dh p1 AsK"]), "'AsK' is not a list of cards like AsKd"),
        (phh([*DEAL3, "p3 sd"]), "draws and bring-ins are not part of no-limit hold'em"),
        (phh([*DEAL3, "p3 raise 60"]), "action 4 ('p3 raise 60'): this is not a PHH action"),
        (phh([*DEAL3, "p3 cbr lots"]), "action 4 ('p3 cbr lots'): 'lots' is not an amount"),
        (phh([*DEAL3, "p3 cbr 0"]), "a bet or raise must be more than zero"),
        (phh(DEAL3, players='["Asha"]'), "players must list 3 names"),
    ],
)
def test_files_this_table_cannot_read_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(PhhError) as caught:
        read_phh(text)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (
            ["d dh p1 AsKd", "d dh p2 AsQd", "d dh p3 ????", "p3 f", "p1 f"],
            "the card As appears twice in the hand",
        ),
        (
            ["d dh p1 AsKd", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f", "p1 sm AsQd"],
            "p1 shows Qd but was dealt AsKd",
        ),
        ([*DEAL3, "p1 cc"], "action 4 ('p1 cc') is illegal at this table: p3 is to act, not p1"),
        ([*DEAL3, "p3 cc", "p1 cc", "d db 2c3c4c"], "action 6 ('d db 2c3c4c') does not fit this"
         " table's play: p2 is still to act in this betting round"),
        ([*DEAL3, "p3 f", "p1 f", "p2 cc"], "action 6 ('p2 cc') is illegal at this table: This "
         "hand is over."),
        ([*DEAL3, "p3 f", "p1 f", "d db 2c3c4c"], "action 6 ('d db 2c3c4c') does not fit this "
         "table's play: the hand is already over at this table"),
        (["d dh p1 AsKd", "d dh p2 QsQd", "d dh p3 7h2c", "p3 f", "p1 cc", "p2 cc",
          "d db 2d3c4c", "p1 cc", "p2 cc", "d db 5c", "p1 cc", "p2 cc", "p1 cc", "p2 cc"],
         "the file gives 4 of the 5 board cards, but this table must compare hands at showdown"),
        ([*DEAL3, "p3 cc", "p1 cc", "p2 cbr 30"], "The smallest raise is to 40"),
        ([*DEAL3, "p3 cbr 1001"], "You can put in at most 1000 this round (all in)."),
        ([*DEAL3, "p3 cc", "p1 cc", "p2 cc", "d db 2c3c4c", "p1 cbr 10"],
         "The smallest bet is to 20 (or all in for 980)."),
        ([*DEAL3, "p3 cc"], "the file ends before the hand is over: p1 is to act"),
    ],
)
def test_replays_this_table_cannot_make_are_refused_naming_the_action(
    actions: list[str], message: str
) -> None:
    with pytest.raises(PhhError) as caught:
        replay_phh(read_phh(phh(actions)))
    assert message in str(caught.value)


def test_r35_antes_and_straddles_are_refused() -> None:
    for name, reason in (("antes.phh", "antes"), ("straddle.phh", "straddles")):
        with pytest.raises(PhhError, match=f"^{reason} are not played at this table"):
            read_phh((DATA / name).read_text())


def test_r16_a_raise_after_a_short_all_in_that_did_not_reopen_is_refused() -> None:
    with pytest.raises(PhhError, match=r"action 7 .* The betting was not reopened"):
        replay_phh(read_phh((DATA / "short_all_in_not_reopened.phh").read_text()))


def test_r28_show_and_muck_lines_from_elsewhere_are_information_only() -> None:
    """At the other table p2 mucked the winning hand; this table shows it and pays it (R28)."""
    text = phh(
        ["d dh p1 ????", "d dh p2 AsAd", "d dh p3 KsKd", "p3 cc", "p1 f", "p2 cc",
         "d db 2c7d9h", "p2 cc", "p3 cc", "d db 3s", "p2 cc", "p3 cc", "d db 4h", "p2 cc",
         "p3 cc", "p3 sm KsKd", "p2 sm"],
    )
    replay = replay_phh(read_phh(text))
    assert replay.finishing_stacks == [990, 1030, 980]
    # R28 here: p2 shows first (first left of the button still in) and p3's kings are mucked.
    # Without seat numbers in the file, p1..p3 sit in this table's seats 0..2.
    assert [e.seat for e in replay.hand.events if e.kind == SHOW] == [1]
    assert [e.seat for e in replay.hand.events if e.kind == MUCK] == [2]


def test_shown_cards_fill_in_unknown_hole_cards() -> None:
    text = phh(
        ["d dh p1 ????", "d dh p2 ????", "p2 cc", "p1 cc", "d db 2c7d9h", "p1 cc", "p2 cc",
         "d db 3s", "p1 cc", "p2 cc", "d db Kh", "p1 cc", "p2 cc", "p1 sm As??", "p1 sm ??Ad",
         "p2 sm QcQd"],
        stacks="[500, 500]",
        blinds_or_straddles="[10, 20]",
    )
    replay = replay_phh(read_phh(text))
    assert replay.finishing_stacks == [520, 480]
    assert [str(c) for c in replay.hand.hole[0]] == ["As", "Ad"]


def test_seat_numbers_are_used_when_they_agree_with_the_button_else_positions() -> None:
    good = read_phh(phh(DEAL3, seats="[6, 2, 4]"))
    assert good.seats == (5, 1, 3)  # PHH counts seats from 1, this table from 0
    assert read_phh(phh(DEAL3, seats="[2, 6, 4]")).seats == (0, 1, 2)
    assert read_phh(phh(DEAL3, seats="[2, 2, 4]")).seats == (0, 1, 2)
    replay = replay_phh(read_phh(phh([*DEAL3, "p3 f", "p1 f"], seats="[6, 2, 4]")))
    assert replay.hand.settings.button == 3
    assert replay.finishing_stacks == [990, 1010, 1000]


def test_scale_multiplies_every_amount() -> None:
    text = (DATA / "decimal_amounts.phh").read_text()
    hand = read_phh(text, scale=100)
    assert (hand.small_blind, hand.big_blind, hand.min_bet) == (25, 50, 50)
    assert hand.starting_stacks == (5000, 4875, 2010)
    assert [a.amount for a in hand.actions if a.verb == "cbr"] == [150, 200]
    with pytest.raises(PhhError, match=r"after scaling by 10; multiply every amount by 100"):
        read_phh(text, scale=10)
    with pytest.raises(PhhError, match="whole number of at least 1"):
        read_phh(text, scale=0)


def test_the_scale_asked_for_covers_every_amount_in_the_file() -> None:
    text = phh([*DEAL3, "p3 cbr 0.125"], stacks="[10.5, 10, 10]")
    with pytest.raises(PhhError) as caught:
        read_phh(text)
    assert str(caught.value) == (
        "starting_stacks: the amount 10.5 is not a whole number of chips; "
        "multiply every amount by 1000 (--scale 1000)"
    )
    assert read_phh(text, scale=1000).actions[-1].amount == 125


def test_our_reader_reads_what_pokerkit_writes() -> None:
    for name in ("heads_up_all_in", "three_way_side_pot", "other_site_unknown_cards"):
        history, state = pokerkit_play((DATA / f"{name}.phh").read_text())
        written = HandHistory.from_game_state(history.create_game(), state).dumps()
        assert replay_phh(read_phh(written)).finishing_stacks == list(state.stacks)


# ------------------------------------------------------------------------------ command line
GOOD = {
    "heads_up_all_in.phh": ([1000, 800], [1800, 0]),
    "three_way_side_pot.phh": ([200, 500, 500], [600, 0, 600]),
    "other_site_unknown_cards.phh": ([5000] * 4, [4950, 4900, 3300, 6850]),
}
BAD = {
    "antes.phh": "antes are not played at this table (R35)",
    "straddle.phh": "straddles are not played at this table (R35): only two blinds",
    "raise_below_minimum.phh": "action 4 ('p3 cbr 30') is illegal at this table: "
    "The smallest raise is to 40 (or all in for 1000).",
    "short_all_in_not_reopened.phh": "action 7 ('p3 cbr 400') is illegal at this table: "
    "The betting was not reopened: you may only call or fold.",
    "unknown_hand_at_showdown.phh": "p1's hole cards are not in the file, but this table must "
    "compare them at showdown",
    "incomplete.phh": "the file ends before the hand is over: p1 is to act",
    "decimal_amounts.phh": "starting_stacks: the amount 48.75 is not a whole number of chips; "
    "multiply every amount by 100 (--scale 100)",
}


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, object]]]:
    code = main(["replay", *args])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_cli_prints_players_and_stacks_for_good_files(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(DATA / name) for name in GOOD]
    code, lines = run_main(capsys, *paths)
    assert code == 0
    assert lines == [
        {"file": path, "players": len(start), "starting_stacks": start, "finishing_stacks": end}
        for path, (start, end) in zip(paths, GOOD.values(), strict=True)
    ]


def test_good_sample_files_agree_with_pokerkit() -> None:
    for name, (_, end) in GOOD.items():
        assert pokerkit_final_stacks((DATA / name).read_text()) == end


@pytest.mark.parametrize(("name", "error"), sorted(BAD.items()))
def test_cli_prints_a_readable_error_for_files_it_cannot_replay(
    capsys: pytest.CaptureFixture[str], name: str, error: str
) -> None:
    path = str(DATA / name)
    code, lines = run_main(capsys, path)
    assert code == 1
    assert lines == [{"file": path, "error": error}]


def test_cli_scale_turns_dollars_into_whole_chips(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "decimal_amounts.phh")
    code, lines = run_main(capsys, "--scale", "100", path)
    assert code == 0
    assert lines == [
        {
            "file": path,
            "players": 3,
            "starting_stacks": [5000, 4875, 2010],
            "finishing_stacks": [4975, 4725, 2185],
        }
    ]
    code, lines = run_main(capsys, "--scale", "10", path)
    assert code == 1
    assert lines[0]["error"] == (
        "starting_stacks: the amount 48.75 is not a whole number of chips after scaling by 10; "
        "multiply every amount by 100 (--scale 100)"
    )


def test_cli_reports_unreadable_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.phh")
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    code, lines = run_main(capsys, missing, str(binary), str(DATA / "not_phh.phh"))
    assert code == 1
    assert lines[0] == {
        "file": missing, "error": "the file cannot be read: No such file or directory"
    }
    assert str(lines[1]["error"]).startswith("the file cannot be read: ")
    assert str(lines[2]["error"]).startswith("the file is not valid PHH (TOML): ")


def test_cli_runs_as_a_module_and_exits_1_when_any_file_fails() -> None:
    good = str(DATA / "heads_up_all_in.phh")
    command = [sys.executable, "-m", "engine.phh", "replay"]
    ok = subprocess.run([*command, good], cwd=ROOT, capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["finishing_stacks"] == [1800, 0]
    mixed = subprocess.run(
        [*command, good, str(DATA / "antes.phh")],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert mixed.returncode == 1
    assert [("error" in json.loads(line)) for line in mixed.stdout.splitlines()] == [False, True]
