"""Out, but still at the party (tables.write.out, templates/table/out.html): a person whose chips
are gone while the others play on sees where they finished (R31, R34) in the bar below the
table instead of "Waiting for ...", can watch, leave, or ask to be told when the next game
starts; the choice is kept on their seat and shown; the hook tells them when it starts."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables import claims
from tables.models import Hand, Seat, Table
from tables.write import lobby, out
from tables.write.path import Refused
from tests.tables.helpers import Phone, game_of
from tests.tables.helpers.driver import seat_people, seat_people_now

pytestmark = pytest.mark.django_db(transaction=True)


def _bikash_out() -> tuple[Table, list[str], list[str], str]:
    """Asha, Bikash and a computer; Bikash lost his last chip to Asha in hand 1 (the hand called
    off, his chips moved, as a lost all in would). Returns the table, both claims and Bikash's
    session key."""
    table, sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=3))
    game = game_of(table)
    game.cancel_hand()
    Hand.objects.filter(table=table).update(cancelled=True)
    bikash = game.seats[1]
    game.seats[0].stack += bikash.stack
    bikash.out_hand, bikash.out_stack, bikash.stack = game.hand_number, bikash.stack, 0
    Table.objects.filter(pk=table.pk).update(
        state=game.to_dict(), version=table.version + 1, next_deadline=None
    )
    table.refresh_from_db()
    return (table, claims.session_hashes(sessions[0]), claims.session_hashes(sessions[1]),
            str(sessions[1].session_key))


def _page(code: str, session_key: str, language: str = "en") -> str:
    client = Client(headers={"accept-language": language})
    client.cookies["sessionid"] = session_key
    return client.get(reverse("tables:table", args=[code])).content.decode()


def test_r31_the_person_out_sees_where_they_finished_and_the_choices() -> None:
    table, _asha, _bikash, key = _bikash_out()
    page = _page(table.code, key)
    assert 'data-testid="out-bar"' in page and "Waiting for" not in page
    assert "You’re out: you finished 3rd of 3." in page
    assert 'data-testid="out-tell"' in page and 'aria-pressed="false"' in page
    assert 'data-testid="out-leave"' in page
    nepali = _page(table.code, key, "ne")
    assert 'data-testid="out-bar"' in nepali and "You’re out" not in nepali


def test_the_choice_to_be_told_is_kept_on_the_seat_and_shown() -> None:
    table, asha, bikash, key = _bikash_out()
    with pytest.raises(Refused) as refused:
        out.tell_when_next_game_starts(table.id, asha, True)
    assert refused.value.code == "not_out"
    with pytest.raises(Refused):
        out.tell_when_next_game_starts(table.id, [], True)
    out.tell_when_next_game_starts(table.id, bikash, True)
    assert Seat.objects.get(table=table, position=1).tell_next_game
    assert out.to_tell(table.id) == bikash
    page = _page(table.code, key)
    assert "We’ll tell you when the next game starts" in page and 'aria-pressed="true"' in page
    out.tell_when_next_game_starts(table.id, bikash, False)
    assert out.to_tell(table.id) == []


def test_the_next_games_start_calls_every_teller_with_those_who_asked() -> None:
    table, asha, bikash, _key = _bikash_out()
    out.tell_when_next_game_starts(table.id, bikash, True)
    told: list[tuple[str, list[str]]] = []
    out.NEXT_GAME_TELLERS.append(lambda code, hashes: told.append((code, hashes)))
    try:
        # The game ends, is played again, and the host starts the next one.
        game = game_of(Table.objects.get(pk=table.pk))
        game.end_now()
        Table.objects.filter(pk=table.pk).update(
            state=game.to_dict(), status=Table.Status.FINISHED, version=table.version + 1
        )
        new = lobby.play_again(table.id, asha)
        lobby.start_game(new.id, asha)
    finally:
        out.NEXT_GAME_TELLERS.pop()
    assert told == [(new.code, bikash)]


async def test_the_tap_from_the_phone_is_kept_and_every_phone_redraws() -> None:
    table, sessions = await seat_people([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=3))
    bikash = Phone(table.code, str(sessions[1].session_key))
    await bikash.connect()
    await bikash.send({"type": "out", "on": "1"})
    assert (await bikash.until_notice("not_out")).notice_code == "not_out"
    await bikash.close()
