"""Pass and play: several people on one phone never see each other's cards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.cards import Card
from tables.models import Table
from tables.write import lobby
from tests.tables.helpers import Frame, allowed_cards, cards_in, create_form, first_person_turn
from tests.tables.helpers.driver import build

pytestmark = pytest.mark.django_db(transaction=True)


def hidden_cards(frame: Frame, state: dict[str, Any] | None) -> set[Card]:
    """Cards in the frame that are neither on the board nor shown at showdown."""
    return cards_in(frame.text) - allowed_cards(state, None)


async def test_the_phone_gets_a_hand_off_without_any_cards_before_each_turn() -> None:
    driver = await build(
        [["Asha", "Bikash", "Chandra"]], lobby.TableSettings(seat_count=4), calm=True
    )
    phone = driver.persons[0].phone
    seen_handoff = seen_reveal = False
    for _ in range(60):
        frame = phone.frames[-1]
        if frame.data.get("handoff") is not None:
            seen_handoff = True
            assert frame.screen == "handoff" and frame.data["you"] is None
            assert not hidden_cards(frame, driver.states[frame.version])
            name = ["Asha", "Bikash", "Chandra"][frame.data["handoff"]]
            assert f"Pass the phone to {name}" in frame.text
            # Acting before the hand-off is confirmed is refused.
            await phone.send({
                "type": "action", "kind": "fold", "version": frame.version, "action_id": "early",
            })
            refusal = await phone.next()
            assert refusal.notice_code == "handoff"
            await phone.send({"type": "reveal", "seat": frame.data["handoff"]})
            shown = await phone.next()
            seen_reveal = True
            assert shown.data["you"] == frame.data["handoff"] and shown.data["legal"]
            own = hidden_cards(shown, driver.states[shown.version])
            assert len(own) == 2  # that person's two cards, nobody else's
            phone.frames.append(frame)  # let the driver continue from the hand-off
        await driver.step()
    assert seen_handoff and seen_reveal
    await driver.close()


async def test_cards_are_hidden_again_as_soon_as_the_person_has_acted() -> None:
    driver = await build(
        [["Asha", "Bikash"]], lobby.TableSettings(seat_count=3), calm=True
    )
    phone = driver.persons[0].phone
    for _ in range(200):
        before = phone.frames[-1]
        acting = before.data.get("handoff")
        await driver.step()
        if acting is not None:
            after = phone.frames[-1]
            # The next frame after the person's action shows no hidden card at all...
            if after.data.get("handoff") is None:
                assert after.data["you"] is None
                assert not hidden_cards(after, driver.states[after.version])
                return
    raise AssertionError("no turn of this phone was played")


async def test_a_person_may_peek_at_their_cards_while_others_act_but_not_on_another_turn() -> None:
    driver = await build(
        [["Asha", "Bikash"], ["Chandra"]], lobby.TableSettings(seat_count=3), calm=True
    )
    phone = driver.persons[0].phone
    for _ in range(100):
        frame = phone.frames[-1]
        if frame.data.get("to_act") == 2 and frame.data.get("handoff") is None:
            break
        await driver.step()
    else:
        raise AssertionError("Chandra never got a turn")
    await phone.send({"type": "reveal", "seat": 1})
    peek = await phone.next()
    assert peek.data["you"] == 1 and peek.data["legal"] is None
    assert len(hidden_cards(peek, driver.states[peek.version])) == 2
    await phone.send({"type": "hide"})
    hidden = await phone.next()
    assert hidden.data["you"] is None and not hidden_cards(hidden, driver.states[hidden.version])
    await driver.close()


async def test_many_hands_of_pass_and_play_never_show_two_seats_cards() -> None:
    driver = await build(
        [["Asha", "Bikash", "Chandra"], ["Dipa"]],
        lobby.TableSettings(seat_count=5, max_hands=30, blind_every=5),
        watchers=1, seed=7, sleepy=0.05,
    )
    stats = await driver.play()
    assert stats.handoffs >= 20
    for frame in driver.persons[0].phone.frames:
        if frame.maybe_version is None:
            continue
        state = driver.states[frame.version]
        assert len(hidden_cards(frame, state)) <= 2  # the Driver checked which two
    await driver.close()


def test_pass_and_play_works_without_javascript() -> None:
    phone = Client()
    response = phone.post(
        reverse("tables:create"),
        create_form("local", seats="2", name_2="Bikash"),
    )
    code = response["Location"].strip("/").split("/")[-1]
    table = Table.objects.get(code=code)
    phone.post(reverse("tables:start", args=[code]))
    version, seat = first_person_turn(table.id)
    page = phone.get(reverse("tables:table", args=[code])).content.decode()
    assert 'data-screen="handoff"' in page
    name = ["Asha", "Bikash"][seat]
    assert f"Pass the phone to {name}" in page
    assert not re.search(r'id="my-cards"', page)
    phone.post(reverse("tables:reveal", args=[code]), {"seat": str(seat)})
    page = phone.get(reverse("tables:table", args=[code])).content.decode()
    assert 'data-screen="play"' in page and f'data-seat="{seat}"' in page
    assert 'data-testid="action-bar"' in page
    phone.post(
        reverse("tables:act", args=[code]),
        {"kind": "fold", "version": str(version), "action_id": "p-1", "seat": str(seat)},
    )
    table.refresh_from_db()
    assert table.version > version
