"""Moving a seat to another phone: a single-use link, valid for five minutes.

A person makes the link for their own seat (their consent), or the host for a person whose
phone is gone: marked away, or with no table page open for longer than ``GRACE``. A host
never takes the seat of a phone that is still there. Opening the link on another phone and
confirming (``use_link``) gives that phone's session a new claim on the seat, in the table's
one locked write path (``tables.write.path.apply_change``), also in the middle of a hand: the
seat's cards go with it. The old phone, whose claim no longer matches, is told and drawn as a
spectator from the very next version; it keeps a former claim, so it may still review the
hands it played. The new holder sees the seat's hands only from the one it took it in (the
window moves with the seat). A move made by the host is written to the moderation log.

The token has 192 random bits; only its SHA-256 is stored. A used, expired, unknown or
malformed token is refused with a readable reason and changes nothing, and counts against the
client like a wrong table code (tables.ratelimit).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import MutableMapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables import claims, ratelimit
from tables.models import ModerationAction, Seat, SeatMove, Table
from tables.write import talk
from tables.write.announce import group_name, tell
from tables.write.path import Change, Refused, apply_change

VALID_FOR = timedelta(minutes=5)
# How long a person's phone must have been gone before the host may move their seat: longer
# than a phone takes to come back from a tunnel or a reload.
GRACE = timedelta(seconds=60)
TOKEN_BYTES = 24  # 192 bits
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")  # what secrets.token_urlsafe(24) gives


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


@dataclass(frozen=True)
class Link:
    token: str
    table: Table
    position: int
    name: str
    expires_at: datetime


def movable_seats(table: Table, hashes: list[str]) -> list[Seat]:
    """The seats this session may make a move link for: its own, and for the host every other
    person's seat too (their phone may have died). Never a computer's."""
    seats = [s for s in Seat.objects.filter(table=table) if s.is_person and s.claim_hash]
    mine = {s.position for s in seats if s.claim_hash in set(hashes)}
    if not mine or not table.is_open:
        return []
    host = table.host_position in mine
    return [s for s in seats if s.position in mine or host]


def phone_is_gone(seat: Seat, now: datetime) -> bool:
    """The seat's own phone is gone: marked away, or no page open for longer than ``GRACE``."""
    row = Seat.objects.filter(pk=seat.pk).values("away", "connections", "last_seen").first()
    if row is None:
        return False
    if row["away"]:
        return True
    seen = row["last_seen"]
    return not row["connections"] and (seen is None or seen <= now - GRACE)


def _refuse_present(seat: Seat) -> Refused:
    return Refused("phone_present", _(
        "%(name)s's phone is still at the table: only they can move their seat. Once their "
        "phone has been gone for a minute, or they are marked away, you can move it."
    ) % {"name": seat.name})


def make_link(table: Table, hashes: list[str], position: int) -> Link:
    """A new move link for the seat at ``position``; ``Refused`` when this session may not."""
    if not table.is_open:
        raise Refused("not_open", _("This game is over: there is no seat to move."))
    seat = next((s for s in movable_seats(table, hashes) if s.position == position), None)
    if seat is None:
        raise Refused("not_your_seat", _("You can only move your own seat (the host: anyone's)."))
    now = timezone.now()
    if seat.claim_hash not in set(hashes) and not phone_is_gone(seat, now):
        raise _refuse_present(seat)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    SeatMove.objects.filter(expires_at__lt=now - timedelta(hours=1)).delete()
    SeatMove.objects.create(
        table=table, position=position, token_hash=token_hash(token),
        claim_hash=seat.claim_hash, by_host=seat.claim_hash not in set(hashes),
        created_at=now, expires_at=now + VALID_FOR,
    )
    return Link(token, table, position, seat.name, now + VALID_FOR)


def _refused_link(keys: list[str], code: str, message: str) -> Refused:
    ratelimit.record_failure(keys)
    return Refused(code, message)


def check_link(token: str, keys: list[str]) -> SeatMove:
    """The move a token names, while it may still be used; else ``Refused`` (counted against
    the client: guessing tokens is as limited as guessing table codes)."""
    if ratelimit.is_limited(keys):
        raise Refused("rate_limited", _("Too many wrong move links: wait a minute."))
    move = None
    if _TOKEN.fullmatch(token or ""):
        move = SeatMove.objects.select_related("table").filter(
            token_hash=token_hash(token)
        ).first()
    if move is None:
        raise _refused_link(keys, "unknown_link", _(
            "This move link is not valid. Check that it was copied whole, or make a new one."
        ))
    if move.used_at is not None:
        raise _refused_link(keys, "used_link", _(
            "This move link was already used: each link moves a seat once. Make a new one."
        ))
    if move.expires_at <= timezone.now():
        raise _refused_link(keys, "expired_link", _(
            "This move link has expired: links last five minutes. Make a new one."
        ))
    return move


def seat_name(move: SeatMove) -> str:
    seat = Seat.objects.filter(table=move.table, position=move.position).first()
    return seat.name if seat is not None else "?"


def use_link(token: str, session: MutableMapping[str, Any], keys: list[str]) -> Table:
    """Move the seat the token names to ``session``'s phone. Nothing changes when refused."""
    move = check_link(token, keys)
    hashes = claims.session_hashes(session)
    if move.claim_hash in hashes:
        raise Refused("same_phone", _("That seat is already on this phone."))
    pending: dict[str, Any] = {claims.SESSION_KEY: list(session.get(claims.SESSION_KEY, []))}

    def mutate(change: Change) -> Table:
        # The link row is locked with the table's (one move per link, even at the same time).
        row = SeatMove.objects.select_for_update().get(pk=move.pk)
        if row.used_at is not None or row.expires_at <= change.now:
            raise Refused("used_link", _(
                "This move link was already used: each link moves a seat once. Make a new one."
            ))
        seat = change.seats.get(row.position)
        table = change.table
        if seat is None or seat.is_computer or seat.claim_hash != row.claim_hash:
            raise Refused("seat_changed", _(
                "That seat changed hands since the link was made. Make a new one."
            ))
        if not table.is_open:
            raise Refused("not_open", _("This game is over: there is no seat to move."))
        if row.by_host and not phone_is_gone(seat, change.now):  # their phone came back
            raise _refuse_present(seat)
        old_claim = seat.claim_hash
        seat.away = False
        seat.timeouts_in_row = 0
        change.hand_over(seat, claims.new_claim(pending), "away", "timeouts_in_row")
        row.used_at = change.now
        row.save(update_fields=["used_at"])
        if row.by_host:
            ModerationAction.objects.create(
                table=table, action=ModerationAction.HOST_MOVE, at=change.now,
                detail={"seat": seat.position, "name": seat.name},
            )
        talk.log_event(table.id, seat.position, seat.name, "moved")
        # The phone the seat left is told (its claim no longer holds the seat).
        event = {"type": "seat.moved", "claim": old_claim, "seat": seat.position}
        transaction.on_commit(lambda: tell(group_name(table.id), event))
        return table

    table = apply_change(move.table_id, mutate)
    # The new secret reaches the session only once the move is saved.
    session[claims.SESSION_KEY] = pending[claims.SESSION_KEY]
    return table
