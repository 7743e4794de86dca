"""Exports: PokerStars text, PHH and the results CSV, from every seat's point of view (P3).

Random games (``engine.game.Game``, 2-6 seats, random legal actions, short and deep stacks) are
exported hand by hand, each hand rebuilt from its stored record as the site does. Every
PokerStars text is read back by the small parser below, which knows only the format: it
refuses any line it does not recognise, checks every amount against the chips in front of the
player (a call is what was owed or all that was left, ``raises X to Y`` raises by ``X`` over
the bet faced), and works out the pot and each player's final stack; those must match the
engine. The same text also goes through PokerKit's own PokerStars parser, and the PHH export
through ``pokerkit.HandHistory.loads``; both must replay to the engine's final stacks except
in hands that meet one of PokerKit's known rule differences (R9 short big blind, R12, R16,
R24 odd chips: the detectors and the adapted comparison live with the PHH tests).
Privacy: no export holds a card its viewer did not see.
"""

from __future__ import annotations

import csv
import io
import random
import re
import tomllib
import warnings
from collections import defaultdict, deque
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from pokerkit import HandHistory

from engine.actions import ActionKind
from engine.cards import parse_cards
from engine.evaluator import evaluate
from engine.events import MUCK, SHOW
from engine.export import (
    CSV_HEADER,
    SPECTATOR,
    HandMeta,
    describe,
    export_names,
    format_time,
    game_results_csv,
    phh_game,
    phh_hand,
    pokerstars_game,
    pokerstars_hand,
)
from engine.game import Game, GameSettings
from engine.hand import Hand
from engine.history import hand_record, replay
from tests.engine.helpers import check_down, make_hand, play
from tests.engine.phh_hands import compare_with_pokerkit, pokerkit_differs, stacks_agree
from tests.engine.pokerstars import (
    Parsed,
    parse,
    split_hands,
)

# Names with no two-character run that looks like a card (no "As", no "Th"), so any card
# token found in an export is a real card.
NAMES = {0: "Pia", 1: "Ole", 2: "Uma", 3: "Eun", 4: "Mo", 5: "Xi"}
START = datetime(2026, 11, 29, 13, 5, tzinfo=UTC)
CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][shdc])(?![A-Za-z0-9])")


def meta(hand: Hand, table: str = "Friday night") -> HandMeta:
    return HandMeta(9_000 + hand.settings.hand_number, table, START)


# ------------------------------------------------------------------------------ random games
def random_game(rng: random.Random) -> Iterator[Hand]:
    """Every hand of one game played with random legal actions, rebuilt from its record."""
    seats = rng.sample(range(6), rng.randint(2, 6))
    settings = GameSettings(
        blind_every=rng.choice((5, 10)),
        max_hands=rng.choice((None, 30)),
        starting_stack=rng.choice((60, 300, 1000, 1000)),
    )
    game = Game(settings, {s: rng.random() < 0.5 for s in seats}, rng=rng)
    aggression = rng.random()
    while not game.finished:
        hand = game.start_hand(seed=rng.randrange(2**32))
        while not hand.finished:
            legal = hand.legal_actions()
            assert legal is not None
            r = rng.random()
            passive = ActionKind.CHECK if legal.can_check else ActionKind.CALL
            if r < 0.3 and not legal.can_check:
                game.act(legal.seat, ActionKind.FOLD)
            elif legal.bet_or_raise is None or legal.min_to is None or legal.max_to is None:
                game.act(legal.seat, passive)
            elif r < 0.35 + 0.2 * aggression:
                top = min(legal.max_to, legal.min_to * 3)
                game.act(legal.seat, legal.bet_or_raise, rng.randint(legal.min_to, top))
            elif r < 0.36 + 0.25 * aggression:
                game.act(legal.seat, ActionKind.ALL_IN)
            else:
                game.act(legal.seat, passive)
        yield replay(hand_record(hand))


def random_hands(seed: int, games: int) -> list[Hand]:
    rng = random.Random(seed)
    return [hand for _ in range(games) for hand in random_game(rng)]


def viewers(hand: Hand) -> list[int | None]:
    return [None, SPECTATOR, *hand.seats]


# ------------------------------------------------------------------------------ checks
def check_pokerstars(hand: Hand, text: str, viewer: int | None) -> Parsed:
    """The text against the format's own arithmetic, then against the engine."""
    p = parse(text)
    names = export_names(hand.seats, NAMES)
    seat_of = {name: seat for seat, name in names.items()}
    s = hand.settings
    assert (p.hand_id, p.blinds, p.button) == (9_000 + s.hand_number, (s.small_blind, s.big_blind),
                                               s.button + 1)
    assert p.seats == {names[seat]: seat + 1 for seat in hand.seats}
    # The pot: what went in (less uncalled bets) is the total, all of it collected, and each
    # pot of the breakdown collected in full.
    assert p.total == p.put_in == sum(p.collected.values()) == sum(hand.total) > 0
    if p.pots:
        assert sum(p.pots.values()) == p.total and len(p.pots) >= 2
        labels = {"Main pot": "main pot", "Side pot": "side pot"}
        assert {labels.get(k, k.lower()): v for k, v in p.pots.items()} == p.collected_by_pot
    else:
        assert set(p.collected_by_pot) == {"pot"}
    assert {seat_of[n]: chips for n, chips in p.final.items()} == hand.final_stacks
    # Cards: the board in full, hole cards only the viewer's (all of them for staff).
    board = [str(c) for c in hand.board]
    assert p.board == board and p.summary_board == board
    hole = {seat: [str(c) for c in hand.hole[i]] for i, seat in enumerate(hand.seats)}
    expect_dealt = {names[st]: hole[st] for st in hand.seats if viewer is None or st == viewer}
    assert p.dealt == expect_dealt
    shown = {e.seat: list(e.cards) for e in hand.events if e.kind == SHOW and e.seat is not None}
    assert p.shown == {names[seat]: cards for seat, cards in shown.items()}
    for name, cards in p.shown.items():
        assert p.descriptions[name] == describe(evaluate(parse_cards(cards + board)))
    assert p.mucked == [names[e.seat] for e in hand.events if e.kind == MUCK and e.seat is not None]
    # The summary: one line per player, winners with what they won.
    assert set(p.summary) == {seat + 1 for seat in hand.seats}
    for name, won in p.collected.items():
        line = p.summary[p.seats[name]]
        assert f"({won})" in line, (line, won)
    return p


def privacy_cards(hand: Hand, viewer: int | None) -> set[str]:
    """The cards ``viewer`` saw: the board, the shown hands and their own hole cards."""
    seen = {str(c) for c in hand.board}
    seen |= {c for e in hand.events if e.kind == SHOW for c in e.cards}
    for i, seat in enumerate(hand.seats):
        if viewer is None or seat == viewer:
            seen |= {str(c) for c in hand.hole[i]}
    return seen


def phh_cards(text: str) -> set[str]:
    found: set[str] = set()
    for action in tomllib.loads(text)["actions"]:
        words = action.split()
        if words[-2:-1] == ["dh"] or words[-2:-1] == ["sm"] or words[-2:-1] == ["db"]:
            found |= {words[-1][k : k + 2] for k in range(0, len(words[-1]), 2)}
        elif len(words) == 4 and words[1] == "dh":
            found |= {words[3][k : k + 2] for k in range(0, len(words[3]), 2)}
    return found - {"??"}


def pokerkit_stars_stacks(text: str) -> dict[str, int]:
    """PokerKit's own PokerStars parser, played to the end: name -> final stack."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (history,) = HandHistory.from_pokerstars(text, error_status=True)
        state = deque(history, maxlen=1)[0]
    assert history.players is not None
    return dict(zip(history.players, (int(s) for s in state.stacks), strict=True))


def compare_stars_with_pokerkit(hand: Hand, text: str) -> str:
    """Like ``compare_with_pokerkit`` for the PokerStars text; skips the same hands."""
    if pokerkit_differs(hand):
        return "skipped"
    names = export_names(hand.seats, NAMES)
    ours = {names[seat]: chips for seat, chips in hand.final_stacks.items()}
    return stacks_agree(hand, ours, pokerkit_stars_stacks(text), names.__getitem__, text)


# ------------------------------------------------------------------------------ random tests
@pytest.mark.parametrize("seed", [1, 2])
def test_every_exported_hand_of_random_games_parses_back_consistent(seed: int) -> None:
    hands = random_hands(seed, games=25)
    side_pots = showdowns = 0
    for hand in hands:
        for viewer in viewers(hand):
            p = check_pokerstars(hand, pokerstars_hand(hand, NAMES, meta(hand), viewer), viewer)
        side_pots += bool(p.pots)
        showdowns += bool(p.shown)
    assert len(hands) > 200 and side_pots > 10 and showdowns > 80


@pytest.mark.parametrize("seed", [3, 4])
def test_no_export_holds_a_card_its_viewer_did_not_see(seed: int) -> None:
    checked = 0
    for hand in random_hands(seed, games=20):
        burnt = {str(c) for c in hand.burnt}
        for viewer in viewers(hand):
            allowed = privacy_cards(hand, viewer)
            stars = pokerstars_hand(hand, NAMES, meta(hand), viewer)
            assert set(CARD.findall(stars)) <= allowed, stars
            phh = phh_hand(hand, NAMES, meta(hand), viewer)
            assert phh_cards(phh) <= allowed, phh
            assert not burnt & (set(CARD.findall(stars)) | phh_cards(phh))
            if viewer is not None:
                checked += len({str(c) for h in hand.hole for c in h} - allowed)
    assert checked > 1000  # many hidden cards were really kept out


@pytest.mark.slow
@pytest.mark.parametrize("seed", [5, 6])
def test_exports_replay_in_pokerkit_to_the_engines_final_stacks(seed: int) -> None:
    outcomes: defaultdict[str, int] = defaultdict(int)
    for hand in random_hands(seed, games=20):
        for viewer in (None, hand.seats[0]):
            text = phh_hand(hand, NAMES, meta(hand), viewer)
            mucked = {e.seat for e in hand.events if e.kind == MUCK} - {viewer}
            if viewer is None or not mucked:  # PokerKit must see a mucked hand to kill it
                outcomes["phh " + compare_with_pokerkit(hand, text)] += 1
            stars = pokerstars_hand(hand, NAMES, meta(hand), viewer)
            if viewer is None:  # PokerKit's parser needs every hole card to replay a showdown
                outcomes["stars " + compare_stars_with_pokerkit(hand, stars)] += 1
    assert outcomes["phh strict"] > 300 and outcomes["stars strict"] > 150, outcomes
    skipped = outcomes["phh skipped"] + outcomes["stars skipped"]
    assert skipped < 0.1 * sum(outcomes.values()), outcomes


def test_a_whole_game_exports_as_one_file_of_hands_in_order() -> None:
    hands = random_hands(7, games=1)
    items = [(hand, meta(hand), NAMES) for hand in hands]
    for viewer in (None, SPECTATOR, hands[0].seats[0]):
        text = pokerstars_game(items, viewer)
        parts = split_hands(text)
        assert len(parts) == len(hands)
        for hand, part in zip(hands, parts, strict=True):
            check_pokerstars(hand, part + "\n", viewer)
    phhs = phh_game(items, hands[0].seats[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = list(HandHistory.loads_all(phhs))
    assert [h.hand for h in loaded] == [9_000 + h.settings.hand_number for h in hands]


# ------------------------------------------------------------------------------ the format
def side_pot_hand() -> Hand:
    """Asha (seat 0) all in for 200, Bikash (1) for 500, Chandra (2) and Dev (3) call 800;
    Chandra bets the flop and Dev folds."""
    hand = make_hand(
        {0: 200, 1: 500, 2: 2000, 3: 2000},
        button=3,
        holes={0: "AsAd", 1: "KsKd", 2: "QsQd", 3: "7c2d"},
        board="Ah8c4d9s3h",
    )
    play(hand, "2 raise 800", "3 call", "0 all_in", "1 all_in")
    play(hand, "2 bet 300", "3 fold")
    return hand


def test_side_pots_are_collected_and_summed_by_name() -> None:
    hand = side_pot_hand()
    names = {0: "Asha", 1: "Bikash", 2: "Chandra", 3: "Dev"}
    text = pokerstars_hand(hand, names, HandMeta(77, "Friday", START), viewer=3)
    assert "Chandra: raises 780 to 800\n" in text
    assert "Asha: calls 190 and is all-in\n" in text
    assert "Bikash: calls 480 and is all-in\n" in text
    assert "Uncalled bet (300) returned to Chandra\n" in text
    assert "Chandra collected 600 from side pot-2\n" in text  # Dev's folded chips
    assert "Bikash collected 900 from side pot-1\n" in text
    assert "Asha collected 800 from main pot\n" in text
    assert "Total pot 2300 Main pot 800. Side pot-1 900. Side pot-2 600. | Rake 0\n" in text
    assert (
        "Seat 1: Asha (small blind) showed [As Ad] and won (800) with three of a kind, Aces\n"
        in text
    )
    assert "Seat 4: Dev (button) folded on the Flop\n" in text
    assert "Dealt to Dev [7c 2d]\n" in text and "Dealt to Asha" not in text


def test_one_side_pot_is_called_side_pot_without_a_number() -> None:
    hand = make_hand(
        {0: 100, 1: 1000, 2: 1000}, button=0, holes={0: "AsAd", 1: "KsKd", 2: "QsQd"},
        board="2h8c4d9s3h",
    )
    play(hand, "0 all_in", "1 call", "2 call", "1 bet 200", "2 call")
    check_down(hand)
    text = pokerstars_hand(hand, NAMES, meta(hand), viewer=None)
    assert "Pia collected 300 from main pot\n" in text
    assert "Ole collected 400 from side pot\n" in text
    assert "Total pot 700 Main pot 300. Side pot 400. | Rake 0\n" in text


def test_an_uncontested_pot_is_collected_without_a_showdown() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 raise 60", "1 fold", "2 fold")
    text = pokerstars_hand(hand, NAMES, meta(hand), viewer=1)
    assert text.endswith(
        "Uncalled bet (40) returned to Pia\n"
        "Pia collected 50 from pot\n"
        "Pia: doesn't show hand\n"
        "*** SUMMARY ***\n"
        "Total pot 50 | Rake 0\n"
        "Seat 1: Pia (button) collected (50)\n"
        "Seat 2: Ole (small blind) folded before Flop\n"
        "Seat 3: Uma (big blind) folded before Flop\n"
    )
    assert "*** SHOW DOWN ***" not in text and "*** FLOP ***" not in text


def test_header_blinds_and_heads_up_button_are_written_as_pokerstars_does() -> None:
    hand = make_hand({2: 1000, 4: 15}, button=2, blinds=(25, 50), hand_number=4)
    assert hand.finished  # nobody can bet against a big blind all in for less (R17)
    text = pokerstars_hand(hand, NAMES, HandMeta(123456, "Kitchen's table", START, 2), 4)
    lines = text.splitlines()
    assert lines[0] == (
        "PokerStars Hand #123456:  Hold'em No Limit (25/50) - "
        "2026/11/29 13:05:00 UTC [2026/11/29 8:05:00 ET]"
    )
    assert lines[1] == "Table 'Kitchen’s table' 2-max Seat #3 is the button"
    assert lines[2:6] == [
        "Seat 3: Uma (1000 in chips)",
        "Seat 5: Mo (15 in chips)",
        "Uma: posts small blind 25",
        "Mo: posts big blind 15 and is all-in",
    ]
    assert "Seat 3: Uma (button) (small blind) " in text
    assert "Uncalled bet (10) returned to Uma" in text


def test_a_mucked_hand_shows_no_cards_except_to_its_owner_and_staff() -> None:
    # Heads-up the big blind (Ole) shows first after a checked river; Pia cannot beat him.
    hand = make_hand(
        {0: 1000, 1: 1000}, button=0, holes={0: "7c2d", 1: "AsAd"}, board="Kh9c4d5s3h"
    )
    check_down(hand)
    assert [e.kind for e in hand.events if e.kind in (SHOW, MUCK)] == [SHOW, MUCK]
    ole = pokerstars_hand(hand, NAMES, meta(hand), viewer=1)
    assert "Pia: mucks hand\n" in ole
    assert "Seat 1: Pia (button) (small blind) mucked\n" in ole
    assert "7c" not in ole and "2d" not in ole
    pia = pokerstars_hand(hand, NAMES, meta(hand), viewer=0)
    assert "Seat 1: Pia (button) (small blind) mucked [7c 2d]\n" in pia
    staff = pokerstars_hand(hand, NAMES, meta(hand), viewer=None)
    assert "Dealt to Ole [As Ad]\nDealt to Pia [7c 2d]\n" in staff
    spectator = pokerstars_hand(hand, NAMES, meta(hand), viewer=SPECTATOR)
    assert "Dealt to" not in spectator and "[As Ad]" in spectator  # Ole showed
    assert "7c" not in spectator


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("AsKsQsJsTs", "a Royal Flush"),
        ("9h8h7h6h5h", "a straight flush, Five to Nine"),
        ("5c4c3c2cAc", "a straight flush, Ace to Five"),
        ("9h9c9d9s2c", "four of a kind, Nines"),
        ("KhKcKd7s7c", "a full house, Kings full of Sevens"),
        ("Ah9h7h4h2h", "a flush, Ace high"),
        ("As2d3c4h5s", "a straight, Ace to Five"),
        ("6s2d3c4h5s", "a straight, Deuce to Six"),
        ("2h2c2d9sKc", "three of a kind, Deuces"),
        ("6h6c3d3sKc", "two pair, Sixes and Threes"),
        ("QhQcAd3s7c", "a pair of Queens"),
        ("Ah9cJd3s7c", "high card Ace"),
    ],
)
def test_hands_are_described_in_pokerstars_words(cards: str, words: str) -> None:
    assert describe(evaluate(parse_cards(cards))) == words


def test_names_cannot_break_the_format_and_stay_unique() -> None:
    names = export_names([0, 1, 2, 3, 4], {0: "Sam: folds", 1: "Sam. folds", 2: "[x]\nyz",
                                            3: "  ", 4: "Sam: folds"})
    assert names == {0: "Sam. folds", 1: "Sam. folds_2", 2: "(x) yz", 3: "Seat 4",
                     4: "Sam. folds_5"}
    hand = make_hand({0: 1000, 1: 1000}, button=0)
    play(hand, "0 raise 60", "1 fold")
    text = pokerstars_hand(hand, {0: "Sam: folds", 1: "Sam: folds"}, meta(hand), None)
    parse(text)  # still reads back


def test_time_is_written_in_utc_with_the_eastern_time_pokerstars_adds() -> None:
    summer = datetime(2026, 7, 1, 3, 4, 5, tzinfo=UTC)
    assert format_time(summer) == "2026/07/01 03:04:05 UTC [2026/06/30 23:04:05 ET]"


def test_a_running_hand_is_never_exported() -> None:
    hand = make_hand({0: 1000, 1: 1000}, button=0)
    with pytest.raises(ValueError, match="finished"):
        pokerstars_hand(hand, NAMES, meta(hand))
    with pytest.raises(ValueError, match="finished"):
        phh_hand(hand, NAMES, meta(hand))


# ------------------------------------------------------------------------------ CSV
def play_game(seed: int) -> tuple[Game, list[Hand]]:
    rng = random.Random(seed)
    game = Game(GameSettings(starting_stack=200), {0: True, 2: False, 3: True, 5: False}, rng=rng)
    hands = []
    while not game.finished:
        hand = game.start_hand(seed=rng.randrange(2**32))
        while not hand.finished:
            legal = hand.legal_actions()
            assert legal is not None
            if legal.bet_or_raise is not None and rng.random() < 0.3:
                game.act(legal.seat, ActionKind.ALL_IN)
            else:
                game.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        hands.append(hand)
    return game, hands


def test_results_csv_lists_places_chips_and_hands_in_standing_order() -> None:
    game, hands = play_game(11)
    names = {0: "Pia", 2: "=HYPERLINK(\"x\")", 3: "Eun, the \"great\"", 5: "Xi"}
    text = game_results_csv(game.standings(), names, hands)
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_HEADER
    standings = game.standings()
    assert [int(r[0]) for r in rows[1:]] == [s.place for s in standings]
    assert [int(r[2]) for r in rows[1:]] == [s.chips for s in standings]
    assert sum(int(r[2]) for r in rows[1:]) == 4 * 200
    by_name = {r[1]: r for r in rows[1:]}
    assert set(by_name) == {"Pia", "'=HYPERLINK(\"x\")", "Eun, the \"great\"", "Xi"}
    for seat, name in names.items():
        row = by_name[name if not name.startswith("=") else "'" + name]
        played = sum(seat in h.seats for h in hands)
        won = sum(any(a.seat == seat and a.amount for a in h.awards) for h in hands)
        assert (int(row[3]), int(row[4])) == (played, won)
        out = next(s.out_hand for s in standings if s.seat == seat)
        assert row[5] == ("" if out is None else str(out))
    assert sum(int(r[4]) for r in rows[1:]) >= len(hands)  # every hand has a winner
