"""Over hundreds of hands, no frame to any socket holds a card its receiver may not see."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.template import Template
from django.test.utils import _TestState

from tables.write import lobby
from tests.tables.helpers.driver import Stats, build

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# Several people on their own phones, one phone passed between two people, computer players and
# a watcher; some people let their clock run out (time-outs, away players). (people, watchers)
GAMES = [
    ([["Asha"], ["Bikash"]], 1),
    ([["Asha", "Bikash"], ["Chandra"]], 0),
]


@pytest.fixture(autouse=True)
def plain_template_rendering() -> Iterator[None]:
    """Django's test set-up signals every template render (for assertTemplateUsed); tens of
    thousands of frames do not need that, and it doubles their cost."""
    instrumented = Template._render  # type: ignore[attr-defined]
    Template._render = _TestState.saved_data.template_render  # type: ignore[attr-defined]
    yield
    Template._render = instrumented  # type: ignore[attr-defined]


async def test_no_frame_leaks_a_hidden_card_over_500_hands() -> None:
    total = Stats()
    game = 0
    while total.hands < 500:
        names, watchers = GAMES[game % len(GAMES)]
        driver = await build(
            names,
            lobby.TableSettings(seat_count=5, max_hands=60, blind_every=10),
            watchers=watchers, seed=game, sleepy=0.05,
        )
        stats = await driver.play()  # the Driver checks every frame of every phone
        await driver.close()
        total.hands += stats.hands + 1  # the last hand ends the game without a next deal
        total.frames += stats.frames
        total.actions += stats.actions
        total.timeouts += stats.timeouts
        total.handoffs += stats.handoffs
        game += 1
    assert total.frames > 5 * total.hands
    assert total.actions > 500 and total.timeouts > 20 and total.handoffs > 50
