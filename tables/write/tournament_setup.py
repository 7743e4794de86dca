"""Creating a tournament, people joining it, and starting it (README T1, T8).

``create`` makes the Tournament row and the entrants known at once (people by name and claim
hash: the SHA-256 of a secret in their session, ``tables.claims``); ``join`` adds a person
while it waits; ``start`` fills up with computer players to ``entrants_wanted`` (when
``computer_fill``), draws everyone to tables by T1, makes one ``Table`` row per table
(``tournament``, ``tournament_number``) and starts each table's game at the tournament's
level through the one write path, dealing its first hand. From then on a table deals only
through ``tables.write.tournament_between_hands.between_hands`` (the clock's next-hand deadline).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import tournament as rules
from engine.game import Game, GameSettings
from engine.timebank import DEFAULT_BANK
from tables.bot_names import computer_name
from tables.codes import new_code
from tables.models import Table
from tables.models.tournament import Entrant, Tournament
from tables.write.lobby import clean_name, deal, new_table
from tables.write.path import Change, Refused, apply_change, seeded


def _check_names(names: Sequence[str]) -> list[str]:
    cleaned = [clean_name(n) for n in names]
    if len({n.casefold() for n in cleaned}) != len(cleaned):
        raise Refused("name_taken", _("Each player needs a different name."))
    return cleaned


def _new_code() -> str:
    """A tournament's code, not used by an open tournament (its tables have codes of their own,
    made the way a table's are)."""
    for _attempt in range(20):
        code = new_code()
        if not Tournament.objects.filter(
            code=code, status__in=(Tournament.Status.WAITING, Tournament.Status.PLAYING)
        ).exists():
            return code
    raise RuntimeError("no free tournament code after 20 tries")


def create(
    people: Sequence[tuple[str, str]] = (),
    *,
    entrants_wanted: int = 12,
    computer_fill: bool = True,
    level_minutes: int | None = 10,
    level_hands: int | None = None,
    turn_seconds: int = 30,
    computer_level: str = "medium",
    time_bank: int = DEFAULT_BANK,
) -> Tournament:
    """A waiting tournament; ``people`` are (name, claim hash) pairs, the first the host. Levels
    rise by ``level_hands`` when given, else every ``level_minutes`` (README T8)."""
    if not rules.MIN_ENTRANTS <= entrants_wanted <= rules.MAX_ENTRANTS:
        raise Refused("bad_size", _("A tournament has 7 to 36 players."))
    if len(people) > entrants_wanted:
        raise Refused("too_many", _("There are more names than places."))
    if level_hands is None and not level_minutes:
        raise Refused("bad_levels", _("Choose how long a blind level lasts."))
    names = _check_names([name for name, _claim in people])
    with transaction.atomic():
        first = people[0] if people else ("", "")
        tournament = Tournament.objects.create(
            code=_new_code(), host_name=names[0] if names else "", host_claim=first[1],
            entrants_wanted=entrants_wanted, computer_fill=computer_fill,
            level_minutes=None if level_hands is not None else level_minutes,
            level_hands=level_hands, turn_seconds=turn_seconds, computer_level=computer_level,
            time_bank=time_bank,  # P4: every entrant the same bank
        )
        for name, (_given, claim) in zip(names, people, strict=True):
            Entrant.objects.create(tournament=tournament, name=name, claim_hash=claim)
    return tournament


def join(tournament_id: int, name: str, claim: str) -> Entrant:
    """A person joins a waiting tournament (the same claim again: their place back)."""
    cleaned = clean_name(name)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        entrants = list(tournament.entrants.all())
        mine = next((e for e in entrants if claim and e.claim_hash == claim), None)
        if mine is not None:
            return mine
        if tournament.status == Tournament.Status.FINISHED:
            raise Refused("over", _("This tournament is over: its page shows who won and every "
                                    "place."))
        if tournament.status != Tournament.Status.WAITING:
            raise Refused("started", _("This tournament has already started. You can watch it."))
        if any(e.name.casefold() == cleaned.casefold() for e in entrants):
            raise Refused("name_taken", _(
                "Someone in this tournament is already called %(name)s. Please pick another name."
            ) % {"name": cleaned})
        if len(entrants) >= tournament.entrants_wanted:
            raise Refused("full", _("This tournament is full."))
        entrant = Entrant.objects.create(tournament=tournament, name=cleaned, claim_hash=claim)
        tournament.version += 1
        tournament.save(update_fields=["version"])
    return entrant


def _computer_names(taken: set[str], count: int) -> list[str]:
    """``count`` computer names, distinct across the tournament and from the people's."""
    names: list[str] = []
    number = 0
    while len(names) < count:
        number += 1
        name = computer_name(number)
        if name.casefold() not in taken:
            names.append(name)
    return names


def _new_table(tournament: Tournament, number: int) -> Table:
    return new_table(
        mode=Table.Mode.FRIENDS, seat_count=rules.MAX_SEATS,
        computer_level=tournament.computer_level, turn_seconds=tournament.turn_seconds,
        time_bank=tournament.time_bank, tournament=tournament, tournament_number=number,
    )


def start(tournament_id: int) -> list[Table]:
    """Fill up with computers, seat everyone by T1, start every table's game and deal."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.WAITING:
            raise Refused("started", _("This tournament has already started."))
        entrants = list(tournament.entrants.all())
        missing = tournament.entrants_wanted - len(entrants) if tournament.computer_fill else 0
        taken = {e.name.casefold() for e in entrants}
        for name in _computer_names(taken, max(0, missing)):
            entrants.append(Entrant.objects.create(
                tournament=tournament, name=name, is_computer=True,
            ))
        if len(entrants) < rules.MIN_ENTRANTS:
            raise Refused("too_few", _("A tournament needs at least 7 players."))
        by_id = {str(e.id): e for e in entrants}
        rng = seeded("tournament", tournament.id, "draw") or random.SystemRandom()
        drawn = rules.seat_entrants(sorted(by_id), rng)
        now = timezone.now()
        tournament.status = Tournament.Status.PLAYING
        tournament.started_at = tournament.level_started_at = now
        tournament.level = 0
        tournament.version += 1
        tournament.save()
        tables = []
        for index, ids in enumerate(drawn):
            table = _new_table(tournament, index + 1)
            seated = [by_id[i] for i in ids]
            for position, entrant in enumerate(seated):
                entrant.table, entrant.position = table, position
                entrant.started_last_hand_with = GameSettings().starting_stack
                entrant.save(update_fields=["table", "position", "started_last_hand_with"])
            apply_change(table.id, _starter(tournament, seated))
            tables.append(table)
    for table in tables:
        table.refresh_from_db()
    return tables


def _starter(tournament: Tournament, seated: list[Entrant]) -> Callable[[Change], None]:
    def mutate(change: Change) -> None:
        table = change.table
        for position, entrant in enumerate(seated):
            change.add_seat(
                position=position, name=entrant.name, is_computer=entrant.is_computer,
                level=tournament.computer_level if entrant.is_computer else "",
                claim_hash=entrant.claim_hash,
            )
        game = Game(
            GameSettings(stand_alone=False),
            {p: s.is_person for p, s in change.seats.items()},
            rng=seeded(table.id, "button"),
        )
        game.set_level(tournament.level)
        change.set_game(game)
        table.status = Table.Status.PLAYING
        table.started_at = change.now
        deal(change)

    return mutate
