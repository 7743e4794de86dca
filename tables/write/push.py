"""Web Push: a phone's subscriptions, which of its table pages are in sight, and the
notifications the app sends to a locked phone.

A phone turns notifications on from a page (the browser asks for permission only after the
tap): ``subscribe`` keeps its subscription with the seat claims the phone holds
(``PushClaim``), and each table or group page it opens later adds the claims it took since
(``keep_claims``). "Stop" deletes it (``stop``), and so does a push service that answers 404
or 410 (``tables.write.push_send``).

What is sent, each to the subscriptions of the claims concerned, after the change that caused
it has committed (never inside a table's lock; a failure to send never touches the change):

- ``after_change`` (called by the write path once a change has committed): a person's turn,
  only to phones with no page of that table in sight (``PageInSight``, kept by each page over
  its websocket: ``sight``) and never twice for one turn (``PushedTurn``);
- ``game_on``: the game night a member said "in" to has its table open;
- ``moved``: a tournament moved the player to another table;
- ``let_in``: the host let a late friend take a computer's seat;
- ``next_game``: a person out of chips asked to be told when the next game starts
  (``tables.write.out``), and it has.

A notification carries a title, a line of text, the page to open and a tag; never a card.
"""

from __future__ import annotations

import base64
import binascii
import logging
import time
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.db.models.functions import Greatest
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.game import Game
from tables import claims
from tables.models import PageInSight, PushClaim, PushedTurn, PushSubscription, Seat, Table
from tables.write.push_send import Job, later, send_later

log = logging.getLogger("tables.write")

SESSION_FLAG = "tables_push"  # this session turned notifications on (pages keep its claims)
CLAIMS_KEPT = 50  # a phone's newest claims that a subscription speaks for
# A page reports being in sight again every minute; a count older than this is stale (a
# server process that stopped without hearing the page go).
SIGHT_STALE = timedelta(seconds=150)
# A page's report that it is still in sight (no change) is written only when this process
# last wrote that table and phone's row longer ago than this: every other report of a page in
# sight, so that a row is at most about two minutes old (under ``SIGHT_STALE``) and a phone
# looking at a table costs a commit every two minutes, not every minute.
SIGHT_WRITTEN_EVERY = 70.0
_sight_written: dict[tuple[int, str], float] = {}  # (table id, phone) -> when (monotonic)
_clock = time.monotonic  # (tests move it on)
# A claim found with no subscription is not asked about again for this long by this process,
# so that a table where nobody turned notifications on costs no query (a commit of its own) per
# turn: a person's turn comes back every 20 to 30 s at a table of six. A phone that turns them
# on through this process is asked about at once; so is every claim at a table once a page of
# it says here that it is in sight (only a phone with notifications on says so, to the
# process that serves the table's pages); else from at most this long later.
NOT_SUBSCRIBED_KEPT = 300.0
_not_subscribed: dict[str, float] = {}  # claim hash -> until when (time.monotonic)
_sighted: dict[int, float] = {}  # table id -> when a page of it last said it is in sight here

KINDS: dict[str, tuple[Any, Any]] = {
    "turn": (gettext_lazy("Your turn"),
             gettext_lazy("Table %(code)s: the others are waiting for you.")),
    "game_on": (gettext_lazy("The game is on"),
                gettext_lazy("%(group)s: %(name)s opened the table. Tap to sit down.")),
    "moved": (gettext_lazy("You moved"),
              gettext_lazy("The tournament moved you to table %(table)s, seat %(seat)s.")),
    "next_game": (gettext_lazy("The next game is on"),
                  gettext_lazy("Table %(code)s: the next game has started. Tap to play.")),
    "let_in": (gettext_lazy("You are in"),
               gettext_lazy("%(name)s let you in at table %(code)s: you sit down at the next "
                            "hand.")),
}
# How long a push service keeps a notification for a phone that is off (seconds).
TTL = {"turn": 90, "game_on": 3 * 3600, "moved": 600, "let_in": 600, "next_game": 1800}


class NotSubscribed(ValueError):
    """A subscription the server will not keep; ``message`` is for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Note:
    kind: str
    params: dict[str, Any]
    url: str
    tag: str

    def payload(self, language: str) -> dict[str, str]:
        title, body = KINDS[self.kind]
        with translation.override(language):
            return {"title": str(title), "body": str(body) % self.params,
                    "url": self.url, "tag": self.tag}


# ---------------------------------------------------------------------------------- a phone
def _key(text: str, size: int, what: str) -> str:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size:
        raise NotSubscribed(_("This browser's subscription is not valid (%s).")
                      % what)
    return text.rstrip("=")


def _known_service(host: str) -> bool:
    for allowed in settings.PUSH_SERVICE_HOSTS:
        if host == allowed or (allowed.startswith("*.") and host.endswith(allowed[1:])):
            return True
    return False


def _endpoint(text: str) -> str:
    """A push service's address: https at one of ``PUSH_SERVICE_HOSTS`` (with DEBUG on, also
    this machine's, for a push service run by a test)."""
    parts = urlsplit(text)
    host = (parts.hostname or "").lower()
    loopback = host in ("127.0.0.1", "localhost", "::1") and settings.DEBUG
    if not parts.netloc or len(text) > 1000 or not (
        (parts.scheme == "https" and (_known_service(host) or loopback))
        or (parts.scheme == "http" and loopback)
    ):
        raise NotSubscribed(_("This browser's subscription is not valid (%s).")
                      % "endpoint")
    return text


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def subscribe(
    session: MutableMapping[str, Any], session_key: str | None, endpoint: str, p256dh: str,
    auth: str, language: str,
) -> PushSubscription:
    """Keep this browser's subscription for this phone, speaking for its newest claims."""
    if not enabled():
        raise NotSubscribed(_("Notifications are not available on this server."))
    phone = claims.phone_id(session_key)
    if not phone:
        raise NotSubscribed(_("Reload the page and try again."))
    fields = {
        "p256dh": _key(p256dh, 65, "p256dh"), "auth": _key(auth, 16, "auth"), "phone": phone,
        "language": language if language in dict(settings.LANGUAGES) else "en",
    }
    with transaction.atomic():
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=_endpoint(endpoint), defaults=fields
        )
        PushClaim.objects.filter(subscription=subscription).delete()  # another phone's before
        _remember(subscription, claims.session_hashes(session)[-CLAIMS_KEPT:])
    session[SESSION_FLAG] = True
    return subscription


def stop(session: MutableMapping[str, Any], session_key: str | None, endpoint: str) -> int:
    """"Stop" on the phone: its subscription (that endpoint, this phone's) is deleted."""
    deleted, _rows = PushSubscription.objects.filter(
        endpoint=endpoint, phone=claims.phone_id(session_key) or "-"
    ).delete()
    if not PushSubscription.objects.filter(phone=claims.phone_id(session_key) or "-").exists():
        session.pop(SESSION_FLAG, None)
    return deleted


def _remember(subscription: PushSubscription, hashes: list[str]) -> None:
    for claim_hash in hashes:
        _not_subscribed.pop(claim_hash, None)
    PushClaim.objects.bulk_create(
        [PushClaim(subscription=subscription, claim_hash=h) for h in hashes],
        ignore_conflicts=True,
    )


def keep_claims(
    session: MutableMapping[str, Any], session_key: str | None, also: Iterable[str] = ()
) -> None:
    """A page of a phone with notifications on: its subscriptions speak for the claims it took
    since (a seat just taken, a late arrival's request) and for ``also`` (its claims at the
    page's table or group, however old). Nothing for other phones."""
    if not session.get(SESSION_FLAG):
        return
    hashes = claims.session_hashes(session)[-CLAIMS_KEPT:]
    hashes += [h for h in also if h and h not in hashes]
    for subscription in PushSubscription.objects.filter(phone=claims.phone_id(session_key)):
        _remember(subscription, hashes)


def forget(phone: str, hashes: list[str]) -> None:
    """The phone forgot its games: its subscriptions stop speaking for those claims."""
    PushClaim.objects.filter(subscription__phone=phone, claim_hash__in=hashes).delete()


def sight(table_id: int, phone: str, change: int) -> None:
    """One of the phone's pages of this table came into sight (+1), left it (-1), or says it
    is still in sight (0)."""
    if not phone:
        return
    moment = _clock()
    _sighted.pop(table_id, None)  # newest last: the oldest go first
    _sighted[table_id] = moment
    while len(_sighted) > 10_000:
        _sighted.pop(next(iter(_sighted)))
    key = (table_id, phone)
    if change == 0 and _sight_written.get(key, float("-inf")) > moment - SIGHT_WRITTEN_EVERY:
        return  # still in sight, said here a moment ago: the row is fresh enough
    now = timezone.now()
    updated = PageInSight.objects.filter(table_id=table_id, phone=phone).update(
        visible=Greatest(F("visible") + change, 0), seen_at=now
    )
    if not updated and change > 0:
        try:
            with transaction.atomic():
                PageInSight.objects.create(table_id=table_id, phone=phone, visible=1, seen_at=now)
        except IntegrityError:  # its other page made the row meanwhile
            sight(table_id, phone, change)
            return
    _sight_written.pop(key, None)  # written: newest last, the oldest go first
    _sight_written[key] = moment
    while len(_sight_written) > 20_000:
        _sight_written.pop(next(iter(_sight_written)))


def _in_sight(table_id: int, phones: Iterable[str]) -> set[str]:
    return set(PageInSight.objects.filter(
        table_id=table_id, phone__in=list(phones), visible__gt=0,
        seen_at__gte=timezone.now() - SIGHT_STALE,
    ).values_list("phone", flat=True))


# ---------------------------------------------------------------------------------- sending
def _subscriptions(hashes: Iterable[str]) -> list[PushSubscription]:
    wanted = [h for h in hashes if h]
    if not wanted:
        return []
    return list(PushSubscription.objects.filter(claims__claim_hash__in=wanted).distinct())


def _send(subscriptions: list[PushSubscription], note: Note) -> None:
    jobs = [
        Job(s.pk, s.endpoint, s.p256dh, s.auth, note.payload(s.language), TTL[note.kind],
            "high" if note.kind == "turn" else "normal")
        for s in subscriptions
    ]
    if jobs:
        send_later(jobs)


def notify(hashes: Iterable[str], note: Note) -> None:
    """Send ``note`` to every subscription of these claims. Called after a commit; whatever
    fails is logged, never raised to the change that caused it."""
    if not enabled():
        return
    try:
        _send(_subscriptions(hashes), note)
    except Exception:
        log.exception("push: %s not sent", note.kind)


def _turn_of(table: Table, seats: Iterable[Seat], game: Game | None) -> tuple[Seat, str] | None:
    """The person to act now, and the turn's key; None when it is nobody's to be told."""
    if (table.deadline_kind != Table.Deadline.TURN or table.paused or game is None
            or game.hand is None or not game.hand_running):
        return None
    position = game.hand.seat_to_act
    seat = next((s for s in seats if s.position == position), None)
    if seat is None or not seat.is_person or not seat.claim_hash:
        return None
    return seat, f"{game.hand_number}.{len(game.hand.actions)}.{position}"


def after_change(table: Table, seats: Iterable[Seat], game: Game | None) -> None:
    """Once a change of ``table`` has committed: "your turn" to the person to act, on the
    phones with no page of the table in sight, once per turn. Only what is in memory is read
    here; the queries run on the push threads (a table's change of play stays one statement)."""
    if not enabled():
        return
    try:
        found = _turn_of(table, seats, game)
        if found is not None:
            seat, turn = found
            if _known_not_subscribed(table.pk, seat.claim_hash):
                return
            # The table's other persons are asked about in the same query: their turns come
            # next, and a table where nobody turned notifications on then costs one query.
            others = [
                s.claim_hash for s in seats if s.is_person and s.claim_hash
                and s.claim_hash != seat.claim_hash
                and not _known_not_subscribed(table.pk, s.claim_hash)
            ]
            later(your_turn, table.pk, table.code, seat.claim_hash, turn, others)
    except Exception:
        log.exception("push: table %s: your turn not sent", table.code)


def _known_not_subscribed(table_id: int, claim_hash: str) -> bool:
    """The claim was found with no subscription less than ``NOT_SUBSCRIBED_KEPT`` ago, and no
    page of the table has said here since that it is in sight."""
    until = _not_subscribed.get(claim_hash, 0.0)
    return until > time.monotonic() and (
        _sighted.get(table_id, float("-inf")) < until - NOT_SUBSCRIBED_KEPT
    )


def your_turn(
    table_id: int, code: str, claim_hash: str, turn: str, others: Iterable[str] = ()
) -> None:
    """"Your turn" to the phones of ``claim_hash`` with no page of the table in sight, once
    per turn. The subscriptions of ``others`` (the table's other persons) are asked about in
    the same query: those with none are not asked about again for a while."""
    asked = {claim_hash, *(h for h in others if h)}
    found = list(
        PushClaim.objects.filter(claim_hash__in=sorted(asked)).select_related("subscription")
    )
    now = time.monotonic()
    if len(_not_subscribed) > 10_000:  # the expired ones go
        for known in [h for h, until in _not_subscribed.items() if until <= now]:
            _not_subscribed.pop(known, None)
    for unsubscribed in asked - {c.claim_hash for c in found}:
        _not_subscribed[unsubscribed] = now + NOT_SUBSCRIBED_KEPT
    subscriptions = [c.subscription for c in found if c.claim_hash == claim_hash]
    if not subscriptions:
        return
    seen = _in_sight(table_id, {s.phone for s in subscriptions})
    away = [s for s in subscriptions if s.phone not in seen]
    if away and _first_for_turn(table_id, turn):
        _send(away, Note("turn", {"code": code}, f"/t/{code}/", f"turn-{code}"))


def _first_for_turn(table_id: int, turn: str) -> bool:
    """True once per turn of a table, whichever process asks first."""
    if PushedTurn.objects.filter(Q(table_id=table_id) & ~Q(turn=turn)).update(turn=turn):
        return True
    try:
        with transaction.atomic():
            PushedTurn.objects.create(table_id=table_id, turn=turn)
    except IntegrityError:
        return False  # the row is at this turn already: sent
    return True


def game_on(hashes: Iterable[str], group_name: str, opener: str, code: str) -> None:
    notify(hashes, Note("game_on", {"group": group_name, "name": opener}, f"/t/{code}/",
                        f"night-{code}"))


def moved(claim_hash: str, code: str, table_number: Any, seat: Any) -> None:
    notify([claim_hash], Note("moved", {"table": table_number, "seat": seat}, f"/t/{code}/",
                              f"moved-{code}"))


def let_in(claim_hash: str, host: str, code: str) -> None:
    notify([claim_hash], Note("let_in", {"name": host, "code": code}, f"/t/{code}/",
                              f"late-{code}"))


def next_game(code: str, hashes: list[str]) -> None:
    notify(hashes, Note("next_game", {"code": code}, f"/t/{code}/", f"next-{code}"))
