"""A hand's deck proof: ``/t/<code>/hands/<number>/proof.json``.

The same people as the hand's history may fetch it (tables.pages.history: who sat at the table,
through the seat they sat in, and staff), and it reveals exactly what they saw there: the
board, their own hole cards and the hands shown at showdown (P3), each with its deck position
and salt; staff, who read the complete record, get every hole card. Burns and unseen hole
cards only appear as their commitments. See engine.proof for the scheme.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from engine.history import replay
from engine.proof import ProofError, proof_for
from tables.models import Hand
from tables.pages import history
from tables.pages.common import NotYours


def _json(data: dict[str, Any], status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"indent": 1})
    response["X-Content-Type-Options"] = "nosniff"
    return response


def proof_of(row: Hand, viewer: int | None) -> dict[str, Any]:
    """The proof of a finished hand's row for ``viewer`` (None: staff, every hole card). The
    root is the one stored when the hand was dealt: were the deck changed later, the proof
    would not verify. Raises ``ProofError`` for a hand dealt without a commitment."""
    if not row.deck_root:
        raise ProofError("this hand was dealt without a deck commitment")
    hand = replay(row.record)
    proof = proof_for(hand, viewer, every_hole=viewer is None)
    proof["root"] = row.deck_root
    return {"table": row.table.code, "hand": row.number, **proof}


@require_safe
def hand_proof(request: HttpRequest, code: str, number: int) -> HttpResponse:
    try:
        access = history.access_for(request, code)
    except NotYours as refused:
        return _json({"error": _("Only the players who sat at this table can see its hands.")},
                     status=refused.response.status_code)
    row = history.viewable_hands(access).filter(number=number).first()
    if row is None:
        return _json({"error": _("There is no such finished hand.")}, status=404)
    try:
        proof = proof_of(row, access.viewer)
    except ProofError:
        return _json(
            {"error": _("This hand was dealt before decks were fixed in advance.")}, status=404
        )
    return _json(proof)

