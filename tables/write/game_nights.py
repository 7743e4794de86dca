"""Game nights: a group's next game proposed, answered, and its table opened.

A member of a group (someone who played one of its games: a seat claim of this phone's on a
seat of its games) proposes a day, a time and a note; members answer in, maybe or out (again
to change it); the one who proposed it may call it off. From half an hour before the time,
the one who proposed it, or any member who said in, opens the table with one tap: a new
table like the group's last game (its settings), in the group, with everyone who said in
already seated under their claim (as "play again" seats the same people), the opener its
host. Two taps at once open one table. Once the change has committed, every phone that said
in is notified (``tables.write.push``).

Like the group's other changes (``tables.write.groups``), each runs in one transaction of its
own: nothing here touches a table that exists.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables import claims
from tables.models import (
    MAX_SEATS,
    Answer,
    GameNight,
    GameNightAnswer,
    Group,
    GroupGame,
    Seat,
    Table,
)
from tables.models.game_nights import NOTE_MAX
from tables.write import push
from tables.write.lobby import new_table
from tables.write.path import Refused

OPENS_EARLY = timedelta(minutes=30)  # the table may be opened this long before the time
MAX_AHEAD = timedelta(days=90)
UPCOMING_MAX = 5  # game nights planned at once in a group


def member(group: Group, hashes: list[str]) -> Seat | None:
    """This phone's latest seat in the group's games (None: not a member)."""
    if not hashes:
        return None
    return (
        Seat.objects.filter(table__group_game__group=group, claim_hash__in=hashes,
                            is_computer=False)
        .select_related("table").order_by("-table__created_at", "-table__pk").first()
    )


def _member(group: Group, hashes: list[str]) -> Seat:
    seat = member(group, hashes)
    if seat is None:
        raise Refused("not_a_member", _("Only someone who played in the group can do that."))
    return seat


def zone_of(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name) if name else ZoneInfo("UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def starts_at(day: str, at: str, zone: ZoneInfo) -> datetime:
    """The moment of ``day`` (YYYY-MM-DD) at ``at`` (HH:MM) in ``zone``."""
    try:
        moment = datetime.combine(date.fromisoformat(day), time.fromisoformat(at))
    except ValueError:
        raise Refused("bad_time", _("Choose a day and a time.")) from None
    return moment.replace(tzinfo=zone)


def propose(
    group: Group, hashes: list[str], day: str, at: str, zone: str, note: str,
    now: datetime | None = None,
) -> GameNight:
    seat = _member(group, hashes)
    now = now or timezone.now()
    place = zone_of(zone)
    when = starts_at(day, at, place)
    if when <= now:
        raise Refused("in_the_past", _("Choose a time that is still to come."))
    if when > now + MAX_AHEAD:
        raise Refused("too_far", _("Choose a day within the next three months."))
    text = " ".join((note or "").split())
    if len(text) > NOTE_MAX:
        raise Refused("bad_note", _("A note has at most 140 characters."))
    with transaction.atomic():
        # The group's row: two proposals at once count against the limit one after the other.
        Group.objects.select_for_update().filter(pk=group.pk).first()
        planned = GameNight.objects.filter(group=group, starts_at__gt=now, table=None).count()
        if planned >= UPCOMING_MAX:
            raise Refused("too_many", _("Five game nights are planned already."))
        night = GameNight.objects.create(
            group=group, starts_at=when, zone=str(place.key), note=text,
            proposer_hash=seat.claim_hash, proposer_name=seat.name,
        )
        GameNightAnswer.objects.create(
            night=night, claim_hash=seat.claim_hash, name=seat.name, answer=Answer.IN
        )
    return night


def answer(night: GameNight, hashes: list[str], reply: str) -> GameNightAnswer:
    if reply not in Answer.values:
        raise Refused("bad_answer", _("Answer in, maybe or out."))
    seat = _member(night.group, hashes)
    if night.table_id is not None:
        raise Refused("opened", _("This game's table is open already: join it."))
    mine = GameNightAnswer.objects.filter(night=night, claim_hash__in=hashes).first()
    if mine is None:
        return GameNightAnswer.objects.create(
            night=night, claim_hash=seat.claim_hash, name=seat.name, answer=reply
        )
    mine.answer = reply
    mine.answered_at = timezone.now()
    mine.save(update_fields=["answer", "answered_at"])
    return mine


def cancel(night: GameNight, hashes: list[str]) -> None:
    """The one who proposed it calls the game off (before its table is open)."""
    if night.proposer_hash not in set(hashes):
        raise Refused("not_proposer", _("Only who proposed the game can call it off."))
    if night.table_id is not None:
        raise Refused("opened", _("This game's table is open already: join it."))
    night.delete()


def may_open(night: GameNight, hashes: list[str], ins: list[GameNightAnswer]) -> bool:
    own = set(hashes)
    return night.proposer_hash in own or any(a.claim_hash in own for a in ins)


def open_table(
    night: GameNight, session: MutableMapping[str, Any], now: datetime | None = None
) -> Table:
    """The table of the game night (made the first time; the same table after)."""
    hashes = claims.session_hashes(session)
    now = now or timezone.now()
    with transaction.atomic():
        # The game night's row: two taps at once open one table.
        locked = GameNight.objects.select_for_update().select_related("group").get(pk=night.pk)
        if locked.table_id is not None:
            assert locked.table is not None
            return locked.table
        ins = list(locked.answers.filter(answer=Answer.IN).order_by("answered_at", "pk"))
        if not may_open(locked, hashes, ins):
            raise Refused("not_in", _(
                "Only who proposed the game, or someone who said in, can open its table."
            ))
        if now < locked.starts_at - OPENS_EARLY:
            raise Refused("too_early", _("The table opens half an hour before the game."))
        table, opener = _new_table(locked, hashes, ins)
        GroupGame.objects.create(group=locked.group, table=table)
        locked.table = table
        locked.opened_at = now
        locked.save(update_fields=["table", "opened_at"])
        told = [a.claim_hash for a in ins if a.claim_hash != opener.claim_hash]
        group_name = locked.group.name
        transaction.on_commit(lambda: push.game_on(told, group_name, opener.name, table.code))
    return table


def _new_table(
    night: GameNight, hashes: list[str], ins: list[GameNightAnswer]
) -> tuple[Table, Seat]:
    """A table like the group's last game, the opener at seat 1 (its host), then everyone
    else who said in, in the order they answered."""
    last = (
        Table.objects.filter(group_game__group=night.group).order_by("-created_at", "-pk").first()
    )
    own = set(hashes)
    opener = next((a for a in ins if a.claim_hash in own), None)
    if opener is None:  # the proposer, who answered maybe or out since
        seat = _member(night.group, hashes)
        opener = GameNightAnswer(claim_hash=seat.claim_hash, name=seat.name)
    people = [opener] + [a for a in ins if a.claim_hash not in own]
    names: set[str] = set()
    chosen: list[GameNightAnswer] = []
    for person in people:
        if person.name.casefold() not in names and len(chosen) < MAX_SEATS:
            names.add(person.name.casefold())
            chosen.append(person)
    seat_count = max(last.seat_count if last else 6, len(chosen), 2)
    table = new_table(
        mode=Table.Mode.FRIENDS, seat_count=seat_count,
        max_hands=last.max_hands if last else None,
        blind_every=last.blind_every if last else 10,
        computer_level=last.computer_level if last else "medium",
        turn_seconds=last.turn_seconds if last else 30,
    )
    seats = [
        Seat.objects.create(table=table, position=i, name=p.name, claim_hash=p.claim_hash)
        for i, p in enumerate(chosen)
    ]
    table.host_position = 0
    table.save(update_fields=["host_position"])
    return table, seats[0]
