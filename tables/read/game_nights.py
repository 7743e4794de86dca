"""A group's game nights as its page shows them: the ones to come (who is in, maybe, out;
this phone's answer; whether it may open the table now), and the past ones with the games
played that evening."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils import timezone

from tables.models import Answer, GameNight, GameNightAnswer, Group, Table

# A game night is "tonight" until this long after its time; the games of its evening are those
# of the group made from a little before its time to this long after.
EVENING_BEFORE = timedelta(hours=2)
EVENING_AFTER = timedelta(hours=10)
PAST_SHOWN = 5
OPENS_EARLY = timedelta(minutes=30)  # (tables.write.game_nights says the same)


@dataclass
class NightLine:
    night: GameNight
    local: datetime  # the time in the proposer's zone
    coming: list[str] = field(default_factory=list)
    maybe: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    mine: str = ""  # this phone's answer
    proposed: bool = False  # this phone proposed it
    can_open: bool = False  # this phone may open the table now
    opens_soon: bool = False  # this phone may open it from half an hour before
    games: list[Table] = field(default_factory=list)  # (past nights) the evening's games


def nights(
    group: Group, hashes: list[str], now: datetime | None = None
) -> tuple[list[NightLine], list[NightLine]]:
    """(to come, newest last; past, newest first)."""
    now = now or timezone.now()
    own = set(hashes)
    rows = list(GameNight.objects.filter(group=group).select_related("table")
                .order_by("starts_at", "pk"))
    answers: dict[int, list[GameNightAnswer]] = {}
    for a in GameNightAnswer.objects.filter(night__in=rows).order_by("answered_at", "pk"):
        answers.setdefault(a.night_id, []).append(a)
    coming, past = [], []
    for night in rows:
        line = NightLine(night, timezone.localtime(night.starts_at, _zone(night.zone)))
        for a in answers.get(night.pk, []):
            lists = {Answer.IN.value: line.coming, Answer.MAYBE.value: line.maybe}
            lists.get(a.answer, line.out).append(a.name)
            if a.claim_hash in own:
                line.mine = a.answer
        line.proposed = night.proposer_hash in own
        opener = line.proposed or line.mine == Answer.IN
        line.opens_soon = opener and night.table_id is None
        line.can_open = line.opens_soon and now >= night.starts_at - OPENS_EARLY
        if night.starts_at + EVENING_AFTER < now:
            past.append(line)
        else:
            coming.append(line)
    past = list(reversed(past))[:PAST_SHOWN]
    _evenings(group, past)
    return coming, past


def _zone(name: str) -> tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _evenings(group: Group, past: list[NightLine]) -> None:
    if not past:
        return
    first = min(line.night.starts_at for line in past) - EVENING_BEFORE
    last = max(line.night.starts_at for line in past) + EVENING_AFTER
    tables = list(Table.objects.filter(
        group_game__group=group, created_at__gte=first, created_at__lte=last
    ).order_by("created_at", "pk"))
    for line in past:
        start = line.night.starts_at - EVENING_BEFORE
        end = line.night.starts_at + EVENING_AFTER
        line.games = [t for t in tables if start <= t.created_at <= end
                      or t.pk == line.night.table_id]
