"""What would have come (P5): after a hand that ended before the river, anyone dealt into it
asks to see the rest of the board; the table shows it to everyone until the next deal, and the
hand's row keeps it as a note beside the result (``Hand.rest_of_board``), which changes no pot,
result or statistic.

Through the one write path (``tables.write.path``): the table's ``rest_of_board_hand`` names
the hand whose rest is shown (the next deal makes it a hand that is no longer the last, so it
is shown no more). The cards come from the engine (``engine.rest_of_board``), from the hand's
own deck, with a card burnt before each street; never a hole card.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine.rest_of_board import rest_of_hand
from tables.models import Hand
from tables.write.path import Change, Refused, apply_change


def show(table_id: int, hashes: list[str]) -> list[str]:
    """Show what would have come after the last hand; the cards (as text). Refused while the
    hand runs, after a full board, to anyone not dealt into it (a watcher, a seat taken since),
    and when the host turned it off."""

    def mutate(change: Change) -> list[str]:
        table = change.table
        if not table.rest_of_board:
            raise Refused("rest_off", _("The host has turned “what would have come” off."))
        game = change.game
        hand = game.hand
        if hand is None or not hand.finished:
            raise Refused("hand_running", _("Wait until the hand is over."))
        mine = [
            p for p in change.positions_of(hashes)
            if p in hand.settings.seats and change.seats[p].first_hand <= game.hand_number
        ]
        if not mine:
            raise Refused("not_dealt", _("Only the players dealt into the hand can ask."))
        cards = [str(card) for card in rest_of_hand(hand)]
        if not cards:
            raise Refused("board_full", _("The whole board was dealt: nothing more to see."))
        if table.rest_of_board_hand == game.hand_number:
            return cards  # already shown: nothing changes
        table.rest_of_board_hand = game.hand_number
        Hand.objects.filter(table=table, number=game.hand_number).update(
            rest_of_board={"cards": cards, "by": change.name_of(mine[0])}
        )
        change.mark()
        return cards

    return apply_change(table_id, mutate)
