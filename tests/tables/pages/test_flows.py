"""Creating, joining and running tables through the pages (plain forms, no JavaScript)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables import claims
from tables.models import Seat, Table
from tables.write import lobby, path
from tests.tables.helpers import client_lobby, create_form, first_person_turn, game_of, play_out

pytestmark = pytest.mark.django_db


def create(client: Client, mode: str = "friends", **fields: str) -> Table:
    response = client.post(reverse("tables:create"), create_form(mode, **fields))
    assert response.status_code == 302, response.content.decode()[:2000]
    code = response["Location"].strip("/").split("/")[-1]
    return Table.objects.get(code=code)


def join(client: Client, table: Table, name: str) -> None:
    client.post(reverse("tables:join", args=[table.code]), {"name": name})


def test_it_creates_a_table_and_shows_the_lobby_with_code_link_and_qr() -> None:
    asha = Client()
    table = create(asha)
    assert table.status == Table.Status.WAITING
    assert re.fullmatch(r"[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6}", table.code)
    page = asha.get(reverse("tables:table", args=[table.code])).content.decode()
    assert f"{table.code[:3]} {table.code[3:]}" in page
    assert f"http://testserver/t/{table.code}/" in page
    assert '<svg viewBox' in page and 'class="qr"' in page
    assert 'data-testid="start-game"' in page
    # The live socket is told which version the page shows (it does not send it again).
    assert f'data-ws-url="/ws/t/{table.code}/?v={table.version}"' in page
    assert f'data-version="{table.version}"' in page
    host = Seat.objects.get(table=table)
    assert (host.name, host.position, table.host_position) == ("Asha", 0, 0)


def test_it_keeps_only_a_hash_of_the_seat_claim() -> None:
    asha = Client()
    table = create(asha)
    secret = asha.session[claims.SESSION_KEY][0]
    seat = Seat.objects.get(table=table)
    assert seat.claim_hash == claims.claim_hash(secret)
    assert secret not in seat.claim_hash


def test_it_joins_by_code_forgiving_case_spaces_and_dashes() -> None:
    table = create(Client())
    bikash = Client()
    typed = f" {table.code[:3].lower()} - {table.code[3:].lower()} "
    response = bikash.post(reverse("tables:join_code"), {"code": typed, "name": "Bikash"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:table", args=[table.code])
    assert Seat.objects.filter(table=table, name="Bikash", position=1).exists()


def test_it_joins_by_link_with_a_name() -> None:
    table = create(Client())
    chandra = Client()
    page = chandra.get(reverse("tables:table", args=[table.code])).content.decode()
    assert 'data-testid="join-form"' in page
    join(chandra, table, "Chandra")
    page = chandra.get(reverse("tables:table", args=[table.code])).content.decode()
    assert 'data-testid="waiting-for-host"' in page
    assert Seat.objects.filter(table=table, name="Chandra").exists()


def test_a_second_visit_does_not_take_a_second_seat() -> None:
    table = create(Client())
    bikash = Client()
    join(bikash, table, "Bikash")
    join(bikash, table, "Bikash again")
    assert Seat.objects.filter(table=table).count() == 2


def test_it_refuses_a_name_already_at_the_table() -> None:
    table = create(Client())
    other = Client()
    response = other.post(
        reverse("tables:join", args=[table.code]), {"name": " asha "}, follow=True
    )
    assert "already called asha" in response.content.decode()
    assert Seat.objects.filter(table=table).count() == 1


def test_it_says_when_a_table_is_full() -> None:
    table = create(Client(), seats="2")
    join(Client(), table, "Bikash")
    response = Client().post(
        reverse("tables:join", args=[table.code]), {"name": "Chandra"}, follow=True
    )
    assert "This table is full." in response.content.decode()
    assert Seat.objects.filter(table=table).count() == 2


def test_a_started_table_can_be_watched_but_not_joined() -> None:
    asha = Client()
    table = create(asha)
    asha.post(reverse("tables:start", args=[table.code]))
    visitor = Client()
    response = visitor.post(
        reverse("tables:join", args=[table.code]), {"name": "Dipa"}, follow=True
    )
    page = response.content.decode()
    assert "This game has already started. You can watch it." in page
    assert 'data-screen="watch"' in page
    assert not Seat.objects.filter(table=table, name="Dipa").exists()


def test_a_closed_table_says_so() -> None:
    table = create(Client())
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED, closed_reason="moderator")
    page = Client().get(reverse("tables:table", args=[table.code])).content.decode()
    assert "This table was closed by a moderator." in page
    response = Client().post(
        reverse("tables:join", args=[table.code]), {"name": "Dipa"}, follow=True
    )
    assert "This table is closed." in response.content.decode()


def test_an_unknown_code_says_there_is_no_such_table() -> None:
    response = Client().post(reverse("tables:join_code"), {"code": "ZZZZZZ", "name": "Dipa"})
    assert response.status_code == 404
    assert "No table with that code" in response.content.decode()
    response = Client().get("/t/not-a-code/")
    assert response.status_code == 404


def test_failed_joins_are_rate_limited_per_client() -> None:
    table = create(Client())
    guesser = Client()
    for _ in range(10):
        assert guesser.post(reverse("tables:join_code"), {"code": "ZZZZZZ"}).status_code == 404
    response = guesser.post(reverse("tables:join_code"), {"code": table.code, "name": "Eve"})
    assert response.status_code == 429
    assert not Seat.objects.filter(table=table, name="Eve").exists()
    # The same address with a fresh session gets no new tries either.
    assert Client().get(reverse("tables:table", args=[table.code])).status_code == 429


def test_the_host_role_passes_on_when_the_host_leaves_the_lobby() -> None:
    asha = Client()
    table = create(asha)
    join(Client(), table, "Bikash")
    join(Client(), table, "Chandra")
    asha.post(reverse("tables:leave", args=[table.code]))
    table.refresh_from_db()
    assert table.host_position == 1
    assert not Seat.objects.filter(table=table, name="Asha").exists()


def test_the_last_person_leaving_the_lobby_closes_the_table() -> None:
    asha = Client()
    table = create(asha)
    asha.post(reverse("tables:leave", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    assert table.host_position is None


def test_the_host_adds_and_removes_computer_players() -> None:
    asha = Client()
    table = create(asha, seats="3")
    asha.post(reverse("tables:add_computer", args=[table.code]))
    table.refresh_from_db()
    assert table.seat_count == 4
    asha.post(reverse("tables:remove_computer", args=[table.code]))
    asha.post(reverse("tables:remove_computer", args=[table.code]))
    table.refresh_from_db()
    assert table.seat_count == 2
    response = asha.post(reverse("tables:remove_computer", args=[table.code]), follow=True)
    assert "There is no computer player to remove." in response.content.decode()


def test_shrinking_the_table_keeps_everyone_seated() -> None:
    asha = Client()
    table = create(asha, seats="4")
    for name in ("Bikash", "Chandra", "Dipa"):
        join(Client(), table, name)
    Seat.objects.filter(table=table, name="Bikash").delete()
    asha.post(reverse("tables:remove_computer", args=[table.code]))
    table.refresh_from_db()
    assert table.seat_count == 3
    assert sorted(Seat.objects.filter(table=table).values_list("position", flat=True)) == [0, 1, 2]


def test_only_the_host_controls_the_lobby() -> None:
    table = create(Client())
    bikash = Client()
    join(bikash, table, "Bikash")
    response = bikash.post(reverse("tables:start", args=[table.code]), follow=True)
    assert "Only the host can do that." in response.content.decode()
    bikash.post(reverse("tables:remove_seat", args=[table.code, 0]))
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    assert Seat.objects.filter(table=table, position=0).exists()


def test_the_host_removes_a_person_from_the_lobby() -> None:
    asha = Client()
    table = create(asha)
    join(Client(), table, "Bikash")
    asha.post(reverse("tables:remove_seat", args=[table.code, 1]))
    assert list(Seat.objects.filter(table=table).values_list("name", flat=True)) == ["Asha"]


def test_r1_starting_gives_every_empty_seat_to_a_computer_player() -> None:
    asha = Client()
    table = create(asha, seats="4", level="hard")
    join(Client(), table, "Bikash")
    asha.post(reverse("tables:start", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    seats = list(Seat.objects.filter(table=table).values_list("position", "is_computer", "level"))
    assert seats == [(0, False, ""), (1, False, ""), (2, True, "hard"), (3, True, "hard")]
    assert game_of(table).hand_number == 1
    assert table.hands.count() == 1


def test_playing_against_the_computer_starts_at_once() -> None:
    asha = Client()
    table = create(asha, mode="computer", seats="3")
    assert table.status == Table.Status.PLAYING
    page = asha.get(reverse("tables:table", args=[table.code])).content.decode()
    assert 'data-screen="play"' in page and 'data-seat="0"' in page


def test_pass_and_play_puts_every_name_on_this_one_phone() -> None:
    asha = Client()
    table = create(asha, mode="local", seats="3", name_2="Bikash", name_3="Chandra")
    assert len(asha.session[claims.SESSION_KEY]) == 3
    hashes = claims.session_hashes(asha.session)
    assert Seat.objects.filter(table=table, claim_hash__in=hashes).count() == 3


def test_pass_and_play_needs_two_names() -> None:
    response = Client().post(reverse("tables:create"), create_form("local"))
    assert response.status_code == 200
    assert "Pass and play needs at least two names." in response.content.decode()


def test_a_game_over_shows_the_standings_and_play_again_keeps_the_people() -> None:
    asha, bikash = Client(), Client()
    table = create(asha, seats="3", length="30", blind_every="5")
    join(bikash, table, "Bikash")
    asha.post(reverse("tables:start", args=[table.code]))
    table = play_out(table.id)
    assert table.status == Table.Status.FINISHED
    page = bikash.get(reverse("tables:table", args=[table.code])).content.decode()
    assert 'data-screen="over"' in page and 'data-testid="standings"' in page
    assert page.count('data-testid="standing"') == 3
    response = bikash.post(reverse("tables:again", args=[table.code]))
    table.refresh_from_db()
    new = table.next_table
    assert new is not None and response["Location"] == reverse("tables:table", args=[new.code])
    assert new.status == Table.Status.WAITING and new.code != table.code
    assert list(new.seats.values_list("name", "position")) == [("Asha", 0), ("Bikash", 1)]
    # Everyone's session owns their new seat without doing anything; the host stays the host.
    page = asha.get(reverse("tables:table", args=[new.code])).content.decode()
    assert 'data-testid="start-game"' in page
    again = asha.post(reverse("tables:again", args=[table.code]))
    assert again["Location"].endswith(f"/{new.code}/")
    old_page = asha.get(reverse("tables:table", args=[table.code])).content.decode()
    assert 'data-testid="next-game"' in old_page


def test_play_again_against_the_computer_starts_at_once() -> None:
    asha = Client()
    table = create(asha, mode="computer", seats="2", length="30", blind_every="5")
    table = play_out(table.id)
    response = asha.post(reverse("tables:again", args=[table.code]))
    new = Table.objects.get(code=response["Location"].strip("/").split("/")[-1], status="playing")
    assert new.seats.count() == 2


def test_actions_work_without_javascript() -> None:
    asha = Client()
    table = create(asha, mode="computer", seats="2")
    # Let the computer player act first if it is its turn.
    version, _seat = first_person_turn(table.id)
    response = asha.post(
        reverse("tables:act", args=[table.code]),
        {"kind": "fold", "version": str(version), "action_id": "nojs-1"},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.version == version + 1
    stale = asha.post(
        reverse("tables:act", args=[table.code]),
        {"kind": "fold", "version": str(version), "action_id": "nojs-2"}, follow=True,
    )
    assert "The table moved on" in stale.content.decode()


def test_htmx_posts_get_the_fragment_back() -> None:
    asha = Client()
    table = create(asha, seats="3")
    response = asha.post(reverse("tables:add_computer", args=[table.code]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="table-frame"' in body and 'hx-swap-oob="true"' in body
    refused = Client().post(reverse("tables:start", args=[table.code]), HTTP_HX_REQUEST="true")
    assert 'data-code="not_host"' in refused.content.decode()


def test_the_home_page_offers_the_ways_to_play() -> None:
    page = Client().get(reverse("home")).content.decode()
    assert reverse("tables:create") in page and reverse("tables:join_code") in page


def test_services_refuse_bad_names() -> None:
    with pytest.raises(path.Refused, match="at most 20"):
        lobby.clean_name("x" * 21)
    with pytest.raises(path.Refused, match="type a name"):
        lobby.clean_name("   ")
    assert lobby.clean_name("  Asha   Rai ") == "Asha Rai"


def test_the_table_page_speaks_each_visitors_language_and_keeps_them_apart() -> None:
    """A page drawn over HTTP is in the visitor's language (the log, the labels), and a
    Nepali page leaves nothing Nepali behind for an English one at the same version."""
    table, (asha, bikash) = client_lobby("Asha", "Bikash", seats=2)
    asha.post(reverse("tables:start", args=[table.code]))
    url = reverse("tables:table", args=[table.code])
    for _ in range(2):
        nepali = asha.get(url, HTTP_ACCEPT_LANGUAGE="ne").content.decode()
        english = bikash.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "ब्लाइन्ड" in nepali and "posts the big blind 20" not in nepali
        assert "posts the big blind 20" in english and "ब्लाइन्ड" not in english


def test_pass_and_play_with_no_first_name_is_asked_again() -> None:
    """A pass-and-play form posted with its first name empty (or only spaces) is drawn again
    with the field's error, not a server error."""
    for empty in ("", "   "):
        form = create_form("local", name=empty, name_2="Bikash")
        response = Client().post(reverse("tables:create"), form)
        assert response.status_code == 200
        assert '<ul class="errorlist"><li>This field is required.' in response.content.decode()
    assert not Table.objects.exists()
