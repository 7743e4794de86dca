"""The deck commitment at the table: the root stored with a hand when it is dealt
and shown, in short form, on every phone for as long as the hand is on the table.

The root comes from the hand's deck and secret salt key (engine.proof), both server-side only;
the root itself reveals nothing about the cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.urls import reverse

from engine.hand import Hand
from engine.proof import hand_commitment, short_root
from tables.models import Hand as HandRow

if TYPE_CHECKING:
    from tables.cache import Snapshot


def root_hex(hand: Hand) -> str:
    """The root to store with a hand's row ("" for a hand dealt without a commitment)."""
    made = hand_commitment(hand)
    return made.root.hex() if made is not None else ""


def shown_root(snapshot: Snapshot) -> str:
    """The short form of the root of the hand on the table at this version ("" when there is
    none), worked out once per version (the snapshot's memo) for every connection."""
    shown: str | None = snapshot.memo.get("deck_root")
    if shown is None:
        game = snapshot.game
        made = hand_commitment(game.hand) if game is not None and game.hand is not None else None
        shown = snapshot.memo["deck_root"] = short_root(made.root) if made is not None else ""
    return shown


def proof_context(row: HandRow, code: str, query: str) -> dict[str, Any]:
    """What a hand's page needs to check its proof in the browser (static/js/deck-proof.js)."""
    if not row.deck_root:
        return {}
    return {
        "proof_url": reverse("tables:hand_proof", args=[code, row.number]) + query,
        "deck_root": row.deck_root,
        "deck_root_short": short_root(row.deck_root),
    }
