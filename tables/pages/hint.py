"""The hint button: for the person to act, their hand, its outs, the pot odds and
their chance, worked out from their own cards, the board and the betting (``engine.advice``).

Only the seat to act may ask, from the phone that holds it (and on a phone passed round, only
the person who took it); nobody's hidden cards are read: the others are ranges built by the
hard computer player's model from what this seat saw of them.
"""

from __future__ import annotations

import random

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from engine.advice import hand_help
from engine.bots.base import read_spot
from engine.bots.reads import model_from_past
from engine.views import game_view
from tables import cache
from tables.draw.explain import hint_lines
from tables.pages import common


@require_safe
def hint(request: common.HtmxHttpRequest, code: str) -> HttpResponse:
    found = common.find_table(request, code)
    snapshot, mine, state = common.this_phone(request, found)
    game = snapshot.game
    hand = game.hand if game is not None else None
    seat = hand.seat_to_act if hand is not None and not hand.finished else None
    passed_round = len(mine) > 1
    if (
        game is None or seat is None or seat not in mine
        or (passed_round and state.revealed != seat)
    ):
        return render(request, "table/_hint.html", {"lines": None}, status=403)
    view = game_view(game, seat)
    spot = read_spot(view)
    names = {position: info.name for position, info in snapshot.seats.items()}
    model = model_from_past(cache.past_views(snapshot.id, snapshot.code, seat), seat)
    assert hand is not None
    rng = random.Random(hand.settings.hand_number * 1009 + len(hand.events))
    lines = hint_lines(hand_help(spot, {}, model, rng), names)
    return render(request, "table/_hint.html", {"lines": lines})
