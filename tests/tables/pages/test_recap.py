"""The recap of a game (tables.pages.recap): chip graph and its table, biggest pot, best hand, bust
order, the hard computer players' reads; only for those who sat at the table."""

from __future__ import annotations

import re

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from engine.history import replay
from tables import claims, clock
from tables.models import Hand, Table
from tables.pages import recap
from tables.write import lobby, path, play
from tests.tables.helpers import game_of, new_session

pytestmark = pytest.mark.django_db


def _played_out() -> tuple[Table, SessionStore]:
    """Asha against two hard computer players, going all in every hand until the game ends."""
    session = new_session()
    table = lobby.create_table(
        session, ["Asha"],
        lobby.TableSettings(seat_count=3, computer_level="hard", blind_every=5),
        mode=Table.Mode.COMPUTER,
    )
    session.save()
    hashes = claims.session_hashes(session)
    for _ in range(5000):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        if table.deadline_kind == Table.Deadline.TURN:
            # All in; when nobody left could answer a raise (every other player all in for
            # less), an all in for more is refused (R17): then the person calls.
            try:
                play.act(table.id, hashes, kind="all_in", amount=None, version=table.version,
                         action_id=play.random_action_id())
            except path.Refused:
                play.act(table.id, hashes, kind="call", amount=None, version=table.version,
                         action_id=play.random_action_id())
        else:
            clock.fire(table.id, table.version, table.next_deadline)
    assert table.status == Table.Status.FINISHED
    return table, session


@pytest.fixture(scope="module")
def played(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        table, session = _played_out()
        yield table, session
        Table.objects.filter(pk=table.pk).delete()


def _as(session: SessionStore, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["sessionid"] = str(session.session_key)
    return client


def test_the_recap_draws_every_players_chips_hand_by_hand(played) -> None:  # type: ignore[no-untyped-def]
    table, session = played
    page = _as(session).get(f"/t/{table.code}/recap/").content.decode()
    hands = list(Hand.objects.filter(table=table, ended_at__isnull=False, cancelled=False))
    svg = re.search(r'<svg class="chip-graph".*?</svg>', page, re.S)
    assert svg is not None
    lines = re.findall(r'<polyline [^>]*points="([^"]+)"', svg.group(0))
    assert len(lines) == 3 and all(len(points.split()) == len(hands) + 1 for points in lines)
    table_rows = re.findall(r"<tr><th scope=\"row\">(.*?)</th>(.*?)</tr>", page, re.S)
    assert len(table_rows) == len(hands) + 1
    last = [int(c) for c in re.findall(r"<td>(\d+)</td>", table_rows[-1][1])]
    final = game_of(table).seats
    assert last == [final[s].stack for s in sorted(final)]  # where the chips ended
    assert sum(last) == 3000  # R3: none appeared or vanished


def test_the_bust_order_biggest_pot_and_best_hand_match_the_hands(played) -> None:  # type: ignore[no-untyped-def]
    table, _session = played
    made = recap.build(table)
    game = game_of(table)
    out = sorted(
        (st.out_hand, s) for s, st in game.seats.items() if st.out_hand is not None
    )
    names = {s.position: s.name for s in table.seats.all()}
    assert [(b["hand"], b["name"]) for b in made.busts] == [(h, names[s]) for h, s in out]
    assert made.busts  # Asha all in every hand: someone went out before the end
    pots = {}
    best = None
    for row in Hand.objects.filter(table=table, ended_at__isnull=False, cancelled=False):
        hand = replay(row.record)
        pots[row.number] = sum(a.amount for a in hand.awards)
        for a in hand.awards:
            if a.hand is not None and (best is None or a.hand.value > best):
                best = a.hand.value
    assert made.biggest_pot is not None and made.biggest_pot["amount"] == max(pots.values())
    assert pots[made.biggest_pot["hand"]] == max(pots.values())
    if best is not None:
        assert made.best_hand is not None
        number = made.best_hand["hand"]
        shown = replay(Hand.objects.get(table=table, number=number).record).awards
        assert max(a.hand.value for a in shown if a.hand is not None) == best


def test_each_hard_computer_says_how_it_read_the_person_in_english_and_nepali(played) -> None:  # type: ignore[no-untyped-def]
    table, session = played
    english = _as(session).get(f"/t/{table.code}/recap/").content.decode()
    assert english.count('data-testid="read"') == 2
    assert re.search(r"<strong>Asha</strong>: plays \d+% of hands", english)
    nepali = _as(session, "ne").get(f"/t/{table.code}/recap/").content.decode()
    assert "<strong>Asha</strong>:" in nepali and "of hands" not in nepali
    assert "Chips after each hand" not in nepali


def test_the_share_button_links_to_the_recap_and_strangers_are_refused(played) -> None:  # type: ignore[no-untyped-def]
    table, session = played
    page = _as(session).get(f"/t/{table.code}/recap/").content.decode()
    assert f'data-share-url="/t/{table.code}/recap/"' in page
    stranger = Client().get(f"/t/{table.code}/recap/")
    assert stranger.status_code == 403 and "chip-graph" not in stranger.content.decode()
    history = _as(session).get(f"/t/{table.code}/hands/").content.decode()
    assert f'href="/t/{table.code}/recap/"' in history
    over = _as(session).get(f"/t/{table.code}/").content.decode()  # the game-over screen
    assert 'data-screen="over"' in over and f'href="/t/{table.code}/recap/"' in over
    watching = Client().get(f"/t/{table.code}/").content.decode()
    assert 'data-screen="over"' in watching and "/recap/" not in watching


def test_plain_words_follow_the_rates() -> None:
    assert recap.plain_words({"hands": 0}) == "not seen playing yet"
    words = recap.plain_words({
        "hands": 40, "vpip": 0.5, "pfr": 0.05, "aggression": 0.2, "fold_to_bet": 0.1,
        "showdown": 0.6,
    })
    assert words == (
        "plays 50% of hands, calls a lot, rarely raises before the flop, "
        "seldom folds to a bet, goes to showdown a lot"
    )
    few = recap.plain_words({"hands": 4, "vpip": 0.25, "pfr": 0.25, "aggression": 0.8})
    assert few == "plays 25% of hands, bets and raises a lot (only a few hands seen)"
