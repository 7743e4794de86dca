"""Taking one's games to another phone, and forgetting them on this one.

A phone is known only by the seat claims its session holds (tables.claims). ``make_link``
seals a copy of what the other phone may have with a fresh random token and keeps only the
token's SHA-256 and the sealed copy; the token is in the link (and its QR code) alone, valid
once for five minutes, so the database never holds a usable claim. ``use_link`` on the other
phone opens the copy, adds the claims to that phone's session and empties the row.

What goes along is the games to review, not the control of a seat in a game still being
played: for such a seat the link carries a review-only claim of its own (a ``FormerClaim``
with the seat's window up to now), unless the person asks on this phone to hand over the
running seats too (``with_seats``). ``forget`` removes every claim from this phone's session
and tells its open table pages, which lose every seat they held at once.

The seal is a one-time pad drawn from SHAKE-256 of the token (192 random bits, used once) with
the token's hash as the check that it opened: nothing beyond the standard library.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import MutableMapping
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables import claims, ratelimit
from tables.models import FormerClaim, Hand, IdentityMove, Seat, Table
from tables.write import push
from tables.write.announce import group_name, tell
from tables.write.path import Refused

VALID_FOR = timedelta(minutes=5)
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")


def token_hash(token: str) -> str:
    return hashlib.sha256(("identity:" + token).encode("ascii")).hexdigest()


def _pad(token: str, size: int) -> bytes:
    return hashlib.shake_256(("identity-seal:" + token).encode("ascii")).digest(size)


def _seal(token: str, secrets_list: list[str]) -> str:
    data = json.dumps(secrets_list).encode()
    mac = hmac.new(token.encode(), data, hashlib.sha256).digest()
    plain = mac + data
    return base64.b64encode(bytes(a ^ b for a, b in zip(plain, _pad(token, len(plain)),
                                                        strict=True))).decode()


def _open(token: str, sealed: str) -> list[str]:
    raw = base64.b64decode(sealed)
    plain = bytes(a ^ b for a, b in zip(raw, _pad(token, len(raw)), strict=True))
    mac, data = plain[:32], plain[32:]
    if not hmac.compare_digest(mac, hmac.new(token.encode(), data, hashlib.sha256).digest()):
        raise Refused("unknown_link", _("This link is not valid."))
    found = json.loads(data)
    return [s for s in found if isinstance(s, str)]


def held(session: MutableMapping[str, Any]) -> list[str]:
    return [s for s in session.get(claims.SESSION_KEY, []) if isinstance(s, str)]


def _review_only(mine: list[str], now: datetime) -> list[str]:
    """The secrets to send along for ``mine``: each itself, unless it holds a seat in a game
    still being played; then a new secret that may only review that seat's hands so far. One
    query for the running seats, whatever the number of games."""
    running = {
        seat.claim_hash: seat for seat in Seat.objects.filter(
            claim_hash__in=[claims.claim_hash(s) for s in mine], table__status__in=Table.OPEN
        )
    }
    along = []
    for secret in mine:
        seat = running.get(claims.claim_hash(secret))
        if seat is None:
            along.append(secret)
            continue
        review = secrets.token_urlsafe(24)
        last = Hand.objects.filter(table_id=seat.table_id).order_by("-number").first()
        FormerClaim.objects.create(
            table_id=seat.table_id, position=seat.position, claim_hash=claims.claim_hash(review),
            name=seat.name, first_hand=seat.first_hand, last_hand=last.number if last else 0,
            left_at=now,
        )
        along.append(review)
    return along


def make_link(session: MutableMapping[str, Any], *, with_seats: bool = False) -> str:
    """A new single-use token carrying this phone's games (refused when it holds none): to
    review, and with ``with_seats`` also the seats it holds in games still being played."""
    mine = held(session)
    if not mine:
        raise Refused("no_games", _("This phone has no games to take along."))
    token = secrets.token_urlsafe(24)
    now = timezone.now()
    with transaction.atomic():
        IdentityMove.objects.filter(expires_at__lt=now).delete()  # expired rows go at once
        along = mine if with_seats else _review_only(mine, now)
        IdentityMove.objects.create(
            token_hash=token_hash(token), sealed=_seal(token, along), created_at=now,
            expires_at=now + VALID_FOR,
        )
    return token


def playing_seats(session: MutableMapping[str, Any]) -> int:
    """How many seats this phone holds in games still being played."""
    hashes = claims.session_hashes(session)
    return Seat.objects.filter(claim_hash__in=hashes, table__status__in=Table.OPEN).count()


def _refuse_bad(keys: list[str], code: str, message: str) -> Refused:
    ratelimit.record_failure(keys)
    return Refused(code, message)


def check_link(token: str, keys: list[str]) -> IdentityMove:
    """The unused, unexpired move this token opens, or a refusal saying why."""
    if ratelimit.is_limited(keys):
        raise Refused("rate_limited", _("Too many wrong links. Wait a minute and try again."))
    if not _TOKEN.fullmatch(token or ""):
        raise _refuse_bad(keys, "unknown_link", _("This link is not valid."))
    move = IdentityMove.objects.filter(token_hash=token_hash(token)).first()
    if move is None:
        raise _refuse_bad(keys, "unknown_link", _("This link is not valid."))
    if move.used_at is not None:
        raise Refused("used_link", _("This link was already used. Make a new one."))
    if move.expires_at <= timezone.now():
        raise Refused("expired_link", _("This link has expired. Make a new one."))
    return move


def use_link(token: str, session: MutableMapping[str, Any], keys: list[str]) -> int:
    """Add the link's claims to ``session``; returns how many were new here."""
    check_link(token, keys)
    with transaction.atomic():
        # Locked: the same link opened twice at once is used once.
        move = IdentityMove.objects.select_for_update().get(token_hash=token_hash(token))
        if move.used_at is not None:
            raise Refused("used_link", _("This link was already used. Make a new one."))
        found = _open(token, move.sealed)
        move.used_at, move.sealed = timezone.now(), ""
        move.save(update_fields=["used_at", "sealed"])
    mine = held(session)
    new = [s for s in found if s not in set(mine)]
    # Newest last: the copied claims go before this phone's own, which stay the newest.
    session[claims.SESSION_KEY] = [*new, *mine][-claims.KEEP:]
    return len(new)


def forget(session: MutableMapping[str, Any], session_key: str | None) -> None:
    """This phone forgets every game: its session holds no claim any more, and its pages open
    at tables still being played are told to drop the seats they held (tables.live.consumer)."""
    hashes = claims.session_hashes(session)
    session[claims.SESSION_KEY] = []
    phone = claims.phone_id(session_key)
    if not phone or not hashes:
        return
    push.forget(phone, hashes)  # its notifications no longer speak for those seats
    tables = Seat.objects.filter(
        claim_hash__in=hashes, table__status__in=Table.OPEN
    ).values_list("table_id", flat=True).distinct()
    for table_id in tables:
        tell(group_name(table_id), {"type": "phone.forgot", "phone": phone})
