"""Drawing frames: hand names in the page's language, the paused clock, and the shared caches
(a frame drawn from cached parts is the frame drawn from scratch, and holds no one else's cards).
"""

from __future__ import annotations

import dataclasses
import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation
from django.utils.safestring import SafeString

from engine.game import Game, GameSettings
from tables.cache import fragments
from tables.draw.hand_names import hand_name
from tables.live import screens
from tables.live.frames import FrameOptions
from tables.live.perspective import PassState, perspective
from tests.engine.helpers import legal_now
from tests.tables.helpers import allowed_cards, leaked_cards
from tests.tables.helpers.frames import PERSONS, draw, played, same, snapshot_of


def passive(game: Game) -> None:
    legal = legal_now(game)
    game.act(legal.seat, "check" if legal.can_check else "call")


def showdown() -> Game:
    """A hand checked and called down to a showdown won with a named hand."""
    game = Game(GameSettings(), {s: s in PERSONS for s in range(4)}, rng=random.Random(5))
    hand = game.start_hand(seed=21)
    while not hand.finished:
        passive(game)
    assert any(a.hand is not None for a in hand.awards)
    return game


def test_a_showdown_frame_names_the_winning_hand_in_nepali() -> None:
    game = showdown()
    assert game.hand is not None
    award = next(a for a in game.hand.awards if a.hand is not None)
    assert award.hand is not None
    with translation.override("ne"):
        nepali = hand_name(award.hand.key)
    assert nepali and nepali != award.hand.name and re.search("[\u0900-\u097f]", nepali)
    snapshot = snapshot_of(game, deadline_kind="next_hand")
    for mine in ([award.seat], [s for s in PERSONS if s != award.seat][:1], []):
        frame = draw(snapshot, mine, "ne")
        seat_hand = re.search(
            rf'data-seat="{award.seat}".*?'
            r'class="(?:seat__hand x-centred|me__best me__won)">(.*?)</',
            frame.text, re.S,
        )
        assert seat_hand is not None and nepali in seat_hand.group(1), mine
        log = frame.text.split('id="log"', 1)[1].split("</ol>", 1)[0]
        assert nepali in log  # "... wins 120 from the pot with <the hand>", in Nepali
        assert award.hand.name not in frame.text
    english = draw(snapshot, [award.seat])
    assert award.hand.name in english.text and nepali not in english.text


def test_a_paused_table_shows_the_clock_standing_still() -> None:
    game = Game(GameSettings(), {s: s in PERSONS for s in range(4)}, rng=random.Random(5))
    game.start_hand(seed=21)
    assert game.hand is not None
    to_act = game.hand.seat_to_act
    past = timezone.now() - timedelta(seconds=40)  # the deadline would have passed long ago
    paused = snapshot_of(game, paused=True, paused_left=12.5, next_deadline=past)
    frame = draw(paused, [0])
    assert frame.data["paused"] is True and frame.data["remaining"] == 12.5
    assert "The clock is paused" in frame.text
    ring = re.search(r'<span class="countdown[^"]*"[^>]*>', frame.text)
    assert ring is not None and to_act is not None
    assert "data-paused" in ring.group(0) and 'data-remaining="12.5"' in ring.group(0)
    running = draw(snapshot_of(game), [0])
    assert running.data["paused"] is False and "The clock is paused" not in running.text
    assert "data-paused" not in running.text


def test_p1_an_away_seat_is_drawn_away_to_everyone_also_at_its_own_turn() -> None:
    # At their own turn an away person gets the action bar (any tap brings them back) rather
    # than "I'm back": their own place still says they are away, as the chaos soak's record
    # reads it (benchmarks/chaos/players.away_seats; a CI soak once met a frame without it).
    from benchmarks.chaos.players import away_seats

    game = Game(GameSettings(), {s: s in PERSONS for s in range(4)}, rng=random.Random(5))
    game.start_hand(seed=21)
    assert game.hand is not None and game.hand.seat_to_act is not None
    to_act = game.hand.seat_to_act
    seats = dict(snapshot_of(game).seats)
    seats[to_act] = dataclasses.replace(seats[to_act], is_computer=False, away=True)
    away = snapshot_of(game, deadline_kind="away", seats=seats)  # (each its own drawings)
    base = snapshot_of(game)
    own = draw(away, [to_act])
    assert 'data-testid="action-bar"' in own.text and 'data-testid="come-back"' not in own.text
    me = re.search(r'<div class="me[^"]*" id="me"', own.text)
    assert me is not None and "seat--away" in me.group(0)
    assert away_seats(own.text, to_act) == [to_act]
    other = next(s for s in PERSONS if s != to_act)
    assert away_seats(draw(away, [other]).text, other) == [to_act]
    assert away_seats(draw(base, [to_act]).text, to_act) == []


def test_frames_drawn_from_shared_parts_equal_frames_drawn_from_scratch() -> None:
    fragments.clear()
    viewers: list[list[int]] = [[0], [1], [2], [], [0, 1]]
    checked = 0
    for snapshot in played(8, seed=4):
        assert snapshot.game is not None
        state = snapshot.game.to_dict()
        shared = [draw(snapshot, mine) for mine in viewers]  # one version, every connection
        for mine, frame in zip(viewers, shared, strict=True):
            again = draw(snapshot, mine)  # every part from the caches now
            fragments.clear()
            scratch = draw(dataclasses.replace(snapshot, memo={}), mine)
            assert same(frame.text) == same(again.text) == same(scratch.text)
            viewer = frame.data["you"]
            assert not leaked_cards(frame.text, allowed_cards(state, viewer)), (mine, viewer)
            checked += 1
    assert checked > 100


def test_the_action_bar_with_its_numbers_filled_in_is_the_action_bar_drawn_with_them() -> None:
    """The action bar is kept with markers where its numbers go (tables.cache.fragments.slot); what
    a phone gets equals the template drawn with the values themselves, in every language."""
    from django.template.loader import get_template

    from tables.live.frames import frame_context

    template = get_template("table/_action_bar.html")
    compared = set()
    for language in ("en", "ne"):
        fragments.clear()
        for snapshot in played(10, seed=11):
            hand = snapshot.game.hand if snapshot.game is not None else None
            legal = hand.legal_actions() if hand is not None and not hand.finished else None
            if legal is None:
                continue
            with translation.override(language):
                frame = draw(snapshot, [legal.seat], language)
                bar = re.search(r'<div class="action-bar".*?(?=\n\n</div>\n)', frame.text, re.S)
                assert bar is not None
                action_id = re.search(r'name="action_id" value="([0-9a-f]{32})-', bar.group(0))
                assert action_id is not None
                persp = perspective(snapshot, [legal.seat], PassState())
                context = frame_context(snapshot, persp, FrameOptions(language=language))
                view, shown = context["legal"], context["hand"]
                expected = template.render({
                    "code": snapshot.code, "act_url": f"/t/{snapshot.code}/act/",
                    "version": snapshot.version, "action_id": action_id.group(1),
                    "legal": {**view, "one_amount": view["min_to"] == view["max_to"]},
                    "csrf_token": None,
                    "hand": {
                        "hand_number": shown["hand_number"], "street": shown["street"],
                        "current_bet": shown["current_bet"], "pot_total": shown["pot_total"],
                        "big_blind": shown["big_blind"], "events": shown["event_count"],
                    },
                    "you": {"bet": context["you"]["bet"]},
                })
            assert bar.group(0).strip() == expected.strip()
            compared.add((
                language, view["check"], view["bet_or_raise"], view["call_all_in"],
                view["min_to"] == view["max_to"],
            ))
    assert len(compared) >= 8  # checks and calls, bets and raises, all-in calls, both languages


def _with_values(value: Any, tokens: dict[str, Any]) -> Any:
    """``value`` with every slot marker replaced by the value it stands for."""
    if isinstance(value, str) and value in tokens:
        return tokens[value]
    if isinstance(value, dict):
        return {k: _with_values(v, tokens) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_with_values(v, tokens) for v in value)
    return value


def test_every_part_with_filled_in_values_is_the_part_drawn_with_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever is drawn with markers and filled in (the action bar, the log, the waiting bar,
    the seats' chips, your cards) equals its template drawn with the values themselves, for
    every viewer, in both languages."""
    from django.template.loader import get_template


    calls: list[tuple[str, dict[str, Any], dict[str, Any], str]] = []
    real = fragments.render_component

    def recording(
        name: str, params: dict[str, Any], fill: dict[str, Any] | None = None,
        language: str | None = None,
    ) -> SafeString:
        html = real(name, params, fill, language)
        if fill:
            calls.append((name, params, fill, html))
        return html

    monkeypatch.setattr(screens, "render_component", recording)
    checked: set[str] = set()
    for language in ("en", "ne"):
        fragments.clear()
        for snapshot in played(6, seed=21):
            for mine in ([0], [1], [2], []):
                calls.clear()
                with translation.override(language):
                    draw(snapshot, mine, language)
                    for name, params, fill, html in calls:
                        tokens = {fragments.slot(k): v for k, v in fill.items()}
                        direct = get_template(name).render(_with_values(params, tokens))
                        assert html == direct, (name, language, mine)
                        checked.add(name)
    assert checked >= {
        "table/_action_bar.html", "table/_log_drawer.html", "table/_waiting_bar.html",
        "table/_table_center.html", "components/seat.html", "table/_me.html",
    }


def test_the_log_described_as_events_come_is_the_log_described_at_once() -> None:
    """Each version describes only the events added since the last (tables.live.shared.log_of):
    always the lines describing the whole hand would give, names changed mid-hand included."""
    from engine.views import visible_events
    from tables.draw.describe import describe_events
    from tables.live.shared import log_of

    compared = 0
    for language in ("en", "ne"):
        for seed in (31, 32):  # two games: same table id and hand numbers, other decks
            for snapshot in played(5, seed=seed):
                game = snapshot.game
                assert game is not None and game.hand is not None
                if game.hand_number == 3 and len(game.hand.events) > 6:  # a rename mid-hand
                    renamed = dict(snapshot.seats)
                    renamed[1] = dataclasses.replace(renamed[1], name="Bikash <the> Bold")
                    snapshot = dataclasses.replace(snapshot, seats=renamed, memo={})
                with translation.override(language):
                    expected = describe_events(visible_events(game.hand, None), snapshot.name)
                    assert log_of(snapshot) == expected
                    compared += 1
    assert compared > 100


def test_the_seconds_left_are_written_into_kept_drawings_never_drawn_again() -> None:
    """The clock changes at every frame: the seat to act (and your own place, on your turn) is
    kept without it and gets the seconds written in, so a new second draws nothing new."""
    game = Game(GameSettings(), {s: s in PERSONS for s in range(4)}, rng=random.Random(8))
    game.start_hand(seed=5)
    assert game.hand is not None and game.hand.seat_to_act is not None
    to_act = game.hand.seat_to_act
    other = next(s for s in PERSONS if s != to_act)
    fragments.clear()
    for mine in ([to_act], [other]):
        first = draw(snapshot_of(game, next_deadline=timezone.now() + timedelta(seconds=21)), mine)
        kept = len(fragments._cache)
        later = draw(snapshot_of(game, next_deadline=timezone.now() + timedelta(seconds=9)), mine)
        assert len(fragments._cache) == kept, "a part was drawn again for a new second"
        rings = [re.findall(r'data-remaining="([\d.]+)"', f.text) for f in (first, later)]
        assert len(rings[0]) == len(rings[1]) == 1 and float(rings[0][0]) > float(rings[1][0])
        assert re.search(r"data-countdown-secs>(\d+)<", later.text).group(1) in ("8", "9")  # type: ignore[union-attr]
        assert same(first.text) == same(later.text)


def test_another_table_playing_the_same_cards_draws_nothing_again() -> None:
    """Who sits where (names, initials, seat numbers) and the table's code (in its links) are
    written into kept drawings: another table with other people, dealt the same cards and
    playing them alike, finds every part of every frame kept, and each frame still names
    its own people and links its own table."""
    snapshots = played(3, seed=41)
    fragments.clear()
    for snapshot in snapshots:
        for mine in ([0], [1], []):
            draw(snapshot, mine)
    kept = {key[0] for key in fragments._cache}
    assert {"components/seat.html", "table/_me.html", "table/_action_bar.html",
            "table/_table_center.html", "table/_log_drawer.html"} <= kept
    before = len(fragments._cache)
    others = ["Zoë <Z>", "Yusuf", "Xiadani", "Computer 9"]
    links = 0
    for snapshot in snapshots:
        seats = {
            p: dataclasses.replace(info, name=others[p]) for p, info in snapshot.seats.items()
        }
        other = dataclasses.replace(snapshot, id=2, code="W3RP9T", seats=seats, memo={})
        for mine in ([0], [1], []):
            frame = draw(other, mine)
            assert "Zoë &lt;Z&gt;" in frame.text
            if mine != [0]:  # seat 0 among the others: its initial on its avatar
                assert '<span class="seat__initial">Z</span>' in frame.text
            assert "Asha" not in frame.text and "Bikash" not in frame.text
            assert "K7Q4MX" not in frame.text
            links += frame.text.count('"/t/W3RP9T/act/"') + frame.text.count("/t/W3RP9T/history")
    assert links > 10
    assert len(fragments._cache) == before, "a part was drawn again for other people"


def test_the_frame_data_written_once_per_version_is_the_data_written_whole() -> None:
    """The #table-data JSON: the table's values written once per version, each connection's
    own (screen, seats, legal actions, bet) put in, is exactly json.dumps of the whole."""
    import json

    from tables.live.frames import frame_context
    from tables.live.shared import JSON_ESCAPES, data_json

    compared = 0
    for snapshot in played(4, seed=5):
        for mine in ([0], [1], [2], [0, 1], []):
            state = PassState()
            persp = perspective(snapshot, mine, state)
            data = frame_context(snapshot, persp, FrameOptions(language="en"))["data"]
            whole = json.dumps(data, separators=(",", ":")).translate(JSON_ESCAPES)
            assert data_json(data, snapshot.memo) == whole
            compared += 1
    assert compared > 100


def test_a_board_or_hole_cards_never_seen_before_draw_no_part_of_their_own() -> None:
    """The board and your own cards are laid out from each card's kept drawing: once every
    card has been drawn, a new board or a new pair of hole cards draws nothing new."""
    from tables.live.screens import _board, _my_cards

    deck = [rank + suit for rank in "23456789TJQKA" for suit in "shdc"]
    fragments.clear()
    for card in deck:
        _board([card], [card], "en")
        _board([card], [], "en")
        _my_cards([card], [card], True, False, "en")
        _my_cards([card], [], True, False, "en")
    _my_cards(None, [], True, False, "en")
    kept = len(fragments._cache)
    rng = random.Random(7)
    for _ in range(300):
        dealt = rng.sample(deck, 7)
        board, hole = dealt[: rng.choice((0, 3, 4, 5))], dealt[5:]
        winning = rng.sample(board + hole, min(5, len(board)))
        drawn = _board(board, winning, "en")
        assert re.findall(r'data-card="(\w\w)"', drawn) == [c[0].upper() + c[1] for c in board]
        assert drawn.count("card--win") == sum(c in winning for c in board)
        assert drawn.count('class="card-slot"') == 5 - len(board)
        mine = _my_cards(hole, winning, True, False, "en")
        assert re.findall(r'data-card="(\w\w)"', mine) == [c[0].upper() + c[1] for c in hole]
        assert mine.count("card--win") == sum(c in winning for c in hole)
    assert len(fragments._cache) == kept, "a new board or new hole cards drew a part"
    # Face down while in the hand, nothing after a fold or when sitting out.
    assert _my_cards(None, [], True, False, "en").count("card--back") == 2
    assert _my_cards(None, [], True, True, "en") == _my_cards([], [], False, False, "en") == ""
