"""Groups: the same people's games under one link, and the season they make.

A group starts when someone presses "Play again with the same people" at the end of a game
(``continue_group``): the finished game and the new one become its first two games, and each
later "play again" adds the next. People join by playing one of its games. A person is known
across games by their seat claim, which "play again" copies to the new table (tables.claims);
a computer player by its name. The creator (who started the group, or whom they passed the role
to) may rename it, remove a game from the season (or put it back), hide the computer players
from the standings, and pass the role on. Staff may rename or remove too (tables.admin.groups),
logged as moderation actions.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.stats import Tally
from tables.models import GameStats, Group, GroupGame, ModerationAction, Seat, Table
from tables.models.season import GROUP_NAME_MAX, POINTS_CHOICES
from tables.read.statistics import DONE, Result, counted, results, tally_of
from tables.write.lobby import refuse_unprintable
from tables.write.path import Refused

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 10  # 49 bits: the link is the key to the season's page
POINTS = tuple(value for value, _label in POINTS_CHOICES)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def person_key(claim_hash: str, name: str, computer: bool) -> str:
    """A person's key in a season's pages and forms: never the claim hash itself."""
    if computer or not claim_hash:
        return "c-" + hashlib.sha256(("computer:" + name).encode()).hexdigest()[:12]
    return "p-" + hashlib.sha256(("person:" + claim_hash).encode()).hexdigest()[:12]


def names_and(names: list[str]) -> str:
    """Names as a sentence says them: "Asha", "Asha and Bikash", "Asha, Bikash and Chitra"."""
    if len(names) <= 1:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def default_group_name(names: list[str]) -> str:
    """``names`` as a group's name ("Asha, Bikash and Chitra"), the last ones counted when
    they do not all fit ("Alexandra, Bartholomew and 4 more")."""
    if not names:
        return _("Our group")
    for shown in range(len(names), 0, -1):
        rest = len(names) - shown
        text = names_and(names) if not rest else ngettext(
            "%(names)s and %(n)s more", "%(names)s and %(n)s more", rest
        ) % {"names": ", ".join(names[:shown]), "n": rest}
        if len(text) <= GROUP_NAME_MAX:
            return text
    return names[0][:GROUP_NAME_MAX]


def players_group_name(players: Iterable[tuple[int, str, bool]]) -> str:
    """The name a group of these players (position, name, a person?) gets unless the people
    choose one: the people's names; with only one person, the computer players' too
    ("Asha and Pixel")."""
    ordered = sorted(p for p in players if p[1])
    people = [name for _position, name, person in ordered if person]
    return default_group_name(people if len(people) > 1 else [p[1] for p in ordered])


def continue_group(
    old: Table, new: Table, hashes: list[str], points: str | None, name: str = "",
) -> Group:
    """Put ``new`` (the table "play again" made from ``old``) in ``old``'s group, starting the
    group with ``points`` and ``name`` (checked by ``clean_group_name``; blank: the players'
    names) when ``old`` has none. Pressing twice, or two people at once, gives one group."""
    with transaction.atomic():
        # The finished table's row lock: two "play again" at once start one group.
        Table.objects.select_for_update().filter(pk=old.pk).first()
        link = GroupGame.objects.filter(table=old).select_related("group").first()
        if link is not None:
            group = link.group
        else:
            seats = list(Seat.objects.filter(table=old))
            own = set(hashes)
            mine = [s.claim_hash for s in seats if s.claim_hash and s.claim_hash in own]
            group = Group.objects.create(
                code=new_code(), name=name or players_group_name(
                    (s.position, s.name, s.is_person) for s in seats
                ),
                points=points if points in POINTS else POINTS[0],
                creator_hash=mine[0] if mine else "",
            )
            GroupGame.objects.create(group=group, table=old, added_at=old.created_at)
        GroupGame.objects.get_or_create(table=new, defaults={"group": group})
    counted([old])  # the game that just ended is counted now, not at the season's next view
    return group


# ---------------------------------------------------------------------------------- the season
@dataclass
class Line:
    """A person's line in the standings."""

    key: str
    name: str
    computer: bool
    games: int = 0
    wins: int = 0
    points: int = 0
    chips: int = 0  # chips won over the season
    tally: Tally = field(default_factory=Tally)
    curve: list[int | None] = field(default_factory=list)  # chips won so far, after each game
    claim_hashes: set[str] = field(default_factory=set)
    # How the page draws the line (tables.pages.season): its colour, dashes, figures.
    colour: str = ""
    dash: str = ""
    stats: list[dict[str, object]] = field(default_factory=list)


@dataclass
class SeasonGame:
    link: GroupGame
    table: Table
    people: list[Result]
    stats: GameStats | None

    @property
    def counts(self) -> bool:
        return not self.link.removed and self.table.status in DONE


@dataclass
class Season:
    group: Group
    games: list[SeasonGame]  # every game, newest last (removed and unfinished ones too)
    lines: list[Line]  # by points (or chips), then wins
    pots: list[dict[str, Any]]
    shown: list[dict[str, Any]]

    @property
    def counted(self) -> list[SeasonGame]:
        return [g for g in self.games if g.counts]


def _points_for(group: Group, place: int | None, net: int) -> int:
    scheme = group.place_points()
    if scheme is None:
        return net
    if place is None or place > len(scheme):
        return 0
    return scheme[place - 1]


def season(group: Group, *, with_computers: bool = True) -> Season:
    """The standings and lists of a group's season, from its counted games (finished, not
    removed). ``with_computers=False`` leaves computer players out of the standings."""
    links = list(
        GroupGame.objects.filter(group=group).select_related("table")
        .order_by("table__created_at", "table__pk")
    )
    tables = [link.table for link in links]
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__in=tables):
        seats.setdefault(seat.table_id, []).append(seat)
    stats = counted(t for t in tables if t.status != Table.Status.WAITING)
    games = [
        SeasonGame(link, link.table, results(link.table, seats.get(link.table.pk, [])),
                   stats.get(link.table.pk))
        for link in links
    ]
    by_key: dict[str, Line] = {}
    pots: list[dict[str, Any]] = []
    shown: list[dict[str, Any]] = []
    counting = [g for g in games if g.counts]
    for index, game in enumerate(counting):
        for r in game.people:
            if r.computer and not with_computers:
                continue
            key = person_key(r.claim_hash, r.name, r.computer)
            line = by_key.get(key)
            if line is None:
                line = by_key[key] = Line(key, r.name, r.computer, curve=[None] * index)
            line.name = r.name  # the name they last played under
            line.games += 1
            line.wins += r.place == 1
            line.points += _points_for(group, r.place, r.net)
            line.chips += r.net
            line.tally.add(tally_of(game.stats, r.seat))
            if r.claim_hash:
                line.claim_hashes.add(r.claim_hash)
        for line in by_key.values():  # a line starts at its first game (None before it)
            line.curve.append(line.chips)
        data = game.stats.data if game.stats else {}
        for pot in data.get("pots", []):
            pots.append({**pot, "code": game.table.code, "game": index + 1})
        for hand in data.get("shown", []):
            shown.append({**hand, "code": game.table.code, "game": index + 1})
    lines = sorted(by_key.values(), key=lambda x: (-x.points, -x.wins, -x.chips, x.name))
    pots = sorted(pots, key=lambda p: (-p["pot"], p["game"], p["hand"]))[:5]
    shown = sorted(shown, key=lambda s: (-s["value"], s["game"], s["hand"]))[:5]
    return Season(group, games, lines, pots, shown)


# ---------------------------------------------------------------------------------- running it
def is_creator(group: Group, hashes: list[str]) -> bool:
    return bool(group.creator_hash) and group.creator_hash in set(hashes)


def _check_creator(group: Group, hashes: list[str]) -> None:
    if not is_creator(group, hashes):
        raise Refused("not_creator", _("Only the group's creator can change it."))


def clean_group_name(text: str) -> str:
    name = " ".join((text or "").split())
    if not name:
        raise Refused("bad_name", _("Give the group a name."))
    if len(name) > GROUP_NAME_MAX:
        raise Refused("bad_name", _("A group's name has at most 40 characters."))
    refuse_unprintable(name)
    return name


def rename(group: Group, hashes: list[str], name: str) -> None:
    _check_creator(group, hashes)
    group.name = clean_group_name(name)
    group.save(update_fields=["name"])


def set_removed(group: Group, hashes: list[str], table_id: int, removed: bool) -> None:
    _check_creator(group, hashes)
    updated = GroupGame.objects.filter(group=group, table_id=table_id).update(removed=removed)
    if not updated:
        raise Refused("not_in_group", _("That game is not one of this group's."))


def set_hide_computers(group: Group, hashes: list[str], hide: bool) -> None:
    _check_creator(group, hashes)
    group.hide_computers = hide
    group.save(update_fields=["hide_computers"])


def pass_role(group: Group, hashes: list[str], key: str) -> str:
    """Make the person with ``key`` the creator; returns their name."""
    _check_creator(group, hashes)
    for line in season(group, with_computers=False).lines:
        if line.key == key and line.claim_hashes:
            if group.creator_hash in line.claim_hashes:
                raise Refused("same_person", _("You already run this group."))
            group.creator_hash = sorted(line.claim_hashes)[0]
            group.save(update_fields=["creator_hash"])
            return line.name
    raise Refused("not_a_member", _("Only someone who played in the group can run it."))


# ---------------------------------------------------------------------------------- staff
def moderate_rename(group: Group, moderator: Any, name: str, reason: str) -> None:
    old = group.name
    group.name = clean_group_name(name)
    group.save(update_fields=["name"])
    ModerationAction.objects.create(
        table=None, moderator=moderator, at=timezone.now(), action=ModerationAction.RENAME_GROUP,
        reason=reason, detail={"group": group.code, "old": old, "new": group.name},
    )


def moderate_remove_game(link: GroupGame, moderator: Any, reason: str) -> None:
    link.removed = True
    link.save(update_fields=["removed"])
    ModerationAction.objects.create(
        table=link.table, moderator=moderator, at=timezone.now(),
        action=ModerationAction.REMOVE_GROUP_GAME, reason=reason,
        detail={"group": link.group.code, "code": link.table.code},
    )
