"""The lobby and the seats: creating a table, joining, leaving, the host's controls before the
game, starting it, dealing, playing again; and the names people sit under.

Each public function checks, then changes through the one write path
(``tables.write.path.apply_change``): a refusal (``Refused``) changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from engine.game import Game
from engine.timebank import DEFAULT_BANK
from tables import bot_names, claims
from tables.codes import new_code
from tables.models import NAME_MAX, Seat, Table
from tables.write import out, time_bank
from tables.write.path import Change, Refused, apply_change, seeded


def clean_name(text: str) -> str:
    """A display name: trimmed, inner spaces collapsed, printable, 1-20 characters."""
    name = " ".join((text or "").split())
    if not name:
        raise Refused("bad_name", _("Please type a name."))
    if len(name) > NAME_MAX:
        raise Refused(
            "bad_name", _("Names have at most %(max)d characters.") % {"max": NAME_MAX}
        )
    refuse_unprintable(name)
    return name


def refuse_unprintable(name: str) -> None:
    """The check every name shares (a player's, a group's): no control or invisible characters."""
    if any(not ch.isprintable() for ch in name):
        raise Refused("bad_name", _("Names cannot hold control characters."))


def _check_name_free(change: Change, name: str) -> None:
    if any(s.name.casefold() == name.casefold() for s in change.seats.values()):
        raise Refused(
            "name_taken",
            _("Someone at this table is already called %(name)s. Please pick another name.")
            % {"name": name},
        )


def computer_name(number: int) -> str:
    """The name of the table's ``number``-th computer player (friendly, short, distinct)."""
    return bot_names.computer_name(number)


# ---------------------------------------------------------------------------------- creating
@dataclass(frozen=True)
class TableSettings:
    seat_count: int = 6
    max_hands: int | None = None
    blind_every: int = 10
    computer_level: str = "medium"
    turn_seconds: int = 30
    time_bank: int = DEFAULT_BANK  # P4
    rest_of_board: bool = True  # P5: "what would have come" allowed


def create_table(
    session: MutableMapping[str, Any],
    names: list[str],
    table_settings: TableSettings,
    mode: str = Table.Mode.FRIENDS,
) -> Table:
    """A new table in the lobby, its first seats held by ``session`` (the host; pass and play:
    several names on this one phone). A table against the computer starts at once."""
    cleaned = [clean_name(n) for n in names]
    if not cleaned:
        raise Refused("bad_name", _("Please type a name."))
    if len({n.casefold() for n in cleaned}) != len(cleaned):
        raise Refused("name_taken", _("Each player needs a different name."))
    if len(cleaned) > table_settings.seat_count:
        raise Refused("too_many", _("There are more names than seats."))
    with transaction.atomic():
        table = _new_table(table_settings, mode)
        for position, name in enumerate(cleaned):
            Seat.objects.create(
                table=table, position=position, name=name, claim_hash=claims.new_claim(session)
            )
        table.host_position = 0
        table.save(update_fields=["host_position"])
    if mode == Table.Mode.COMPUTER:
        start_game(table.id, claims.session_hashes(session))
        table.refresh_from_db()
    return table


def _new_table(table_settings: TableSettings, mode: str) -> Table:
    return new_table(
        mode=mode,
        seat_count=table_settings.seat_count,
        max_hands=table_settings.max_hands,
        blind_every=table_settings.blind_every,
        computer_level=table_settings.computer_level,
        turn_seconds=table_settings.turn_seconds,
        time_bank=table_settings.time_bank,
        rest_of_board=table_settings.rest_of_board,
    )


def new_table(**fields: Any) -> Table:
    """A new table row with ``fields`` and a fresh join code (a friends' table, a tournament's)."""
    for _attempt in range(20):
        try:
            with transaction.atomic():  # a savepoint: a clashing code only retries
                return Table.objects.create(code=new_code(), **fields)
        except IntegrityError:
            continue
    raise RuntimeError("no free join code after 20 tries")


# ---------------------------------------------------------------------------------- lobby
def _closed_message(table: Table) -> Refused:
    if table.status == Table.Status.PLAYING:
        return Refused("started", _("This game has already started. You can watch it."))
    if table.status == Table.Status.FINISHED:
        return Refused("finished", _("This game is over."))
    return Refused("closed", _("This table is closed."))


def join_table(
    table_id: int, name: str, session: MutableMapping[str, Any], *, another: bool = False
) -> Seat:
    """Take a free seat in the lobby. A session already seated gets its seat back, unless
    ``another`` (a second person on the same phone: pass and play)."""
    hashes = claims.session_hashes(session)
    cleaned = clean_name(name)

    def mutate(change: Change) -> Seat:
        mine = change.positions_of(hashes)
        if mine and not another:
            return change.seats[mine[0]]
        if change.table.status != Table.Status.WAITING:
            raise _closed_message(change.table)
        _check_name_free(change, cleaned)
        free = [p for p in range(change.table.seat_count) if p not in change.seats]
        if not free:
            raise Refused("full", _("This table is full."))
        seat = change.add_seat(position=free[0], name=cleaned, claim_hash=claims.new_claim(session))
        if change.table.host_position is None:
            change.table.host_position = seat.position
        return seat

    return apply_change(table_id, mutate)


def _host_check(change: Change, hashes: Iterable[str]) -> None:
    if change.table.host_position not in change.positions_of(hashes):
        raise Refused("not_host", _("Only the host can do that."))
    if change.table.status != Table.Status.WAITING:
        raise Refused("not_waiting", _("That can only be done before the game starts."))


def leave_table(table_id: int, hashes: list[str]) -> None:
    """Leave: in the lobby the seat is freed (the host role passes on); during a game a
    computer player takes over the seat and its chips (the game ends when the last person
    leaves: a hand in progress is called off, every chip back where it was)."""

    def mutate(change: Change) -> None:
        mine = change.positions_of(hashes)
        if not mine:
            return
        table = change.table
        if table.status == Table.Status.WAITING:
            for position in mine:
                change.remove_seat(position)
            if table.host_position in mine:
                change.pass_host(table.host_position)
            if not change.persons():
                table.status = Table.Status.CLOSED
                table.closed_reason = "everyone left"
        elif table.status == Table.Status.PLAYING:
            for position in mine:
                change.make_computer(position)
            if not change.persons() and table.tournament_id is None:
                # Nobody left to play with: end the game rather than let computers play alone
                # (a tournament's table plays on: its players are the tournament's).
                change.game.cancel_hand()
                change.game.end_now()

    apply_change(table_id, mutate)


def change_seat_count(table_id: int, hashes: list[str], delta: int) -> None:
    """The host adds (+1) or removes (-1) a computer player: every seat not held by a person is
    played by the computer (R1), so this grows or shrinks the table."""

    def mutate(change: Change) -> None:
        _host_check(change, hashes)
        table = change.table
        count = table.seat_count + delta
        persons = len(change.seats)
        if delta > 0 and count > 6:
            raise Refused("too_many", _("A table has at most 6 seats."))
        if delta < 0 and (count < 2 or count < persons):
            raise Refused("too_few", _("There is no computer player to remove."))
        table.seat_count = count
        # Keep everyone inside the smaller table.
        for position in sorted(change.seats):
            if position >= count:
                seat = change.seats.pop(position)
                seat.position = min(p for p in range(count) if p not in change.seats)
                change.seats[seat.position] = seat
                seat.save(update_fields=["position"])
                if table.host_position == position:
                    table.host_position = seat.position
        change.mark()

    apply_change(table_id, mutate)


def remove_person(table_id: int, hashes: list[str], position: int) -> None:
    """The host removes a person from the lobby."""

    def mutate(change: Change) -> None:
        _host_check(change, hashes)
        if position not in change.seats or position in change.positions_of(hashes):
            raise Refused("bad_seat", _("There is nobody else in that seat."))
        change.remove_seat(position)

    apply_change(table_id, mutate)


def start_game(table_id: int, hashes: list[str]) -> None:
    """The host starts: empty seats become computer players (R1) and the first hand is dealt."""

    def mutate(change: Change) -> None:
        _host_check(change, hashes)
        table = change.table
        number = 0
        for position in range(table.seat_count):
            if position not in change.seats:
                number += 1
                change.add_seat(
                    position=position, name=computer_name(number), is_computer=True,
                    level=table.computer_level,
                )
        game = Game(
            table.game_settings(),
            {p: s.is_person for p, s in change.seats.items()},
            rng=seeded(table.id, "button"),
        )
        change.set_game(game)
        table.status = Table.Status.PLAYING
        table.started_at = change.now
        deal(change)

    apply_change(table_id, mutate)
    # Those out of chips in the game before who asked are told (tables.write.out).
    transaction.on_commit(lambda: out.next_game_started(table_id))


def deal(change: Change) -> None:
    """Deal the next hand (a secure shuffle; a seeded one when TABLES_SEED is set)."""
    game = change.game
    rng = seeded(change.table.id, "deck", game.hand_number + 1)
    game.start_hand(seed=rng.getrandbits(64) if rng else None)
    for seat in time_bank.topping_up(change.table, change.seats, game):  # P4
        change.save_seat(seat, "bank_used")
    change.mark()


def play_again(table_id: int, hashes: list[str]) -> Table:
    """A new table (new code) with the same settings and the same people in the same seats,
    waiting in the lobby; everyone at the finished table is pointed to it. When every person
    shares this one phone (against the computer, pass and play) it starts at once."""

    def mutate(change: Change) -> Table:
        old = change.table
        if old.next_table_id is not None:
            assert old.next_table is not None
            return old.next_table
        if old.status != Table.Status.FINISHED:
            raise Refused("not_over", _("The game is not over yet."))
        mine = change.positions_of(hashes)
        if not mine:
            raise Refused("not_seated", _("Only the players of this game can start another."))
        new = _new_table(
            TableSettings(
                old.seat_count, old.max_hands, old.blind_every, old.computer_level,
                old.turn_seconds, old.time_bank, old.rest_of_board,
            ),
            old.mode,
        )
        persons = change.persons()
        for seat in persons:
            Seat.objects.create(
                table=new, position=seat.position, name=seat.name, claim_hash=seat.claim_hash
            )
        person_positions = {s.position for s in persons}
        new.host_position = (
            old.host_position if old.host_position in person_positions else mine[0]
        )
        new.save(update_fields=["host_position"])
        old.next_table = new
        change.mark()
        return new

    new = apply_change(table_id, mutate)
    if new.status == Table.Status.WAITING and set(
        Seat.objects.filter(table=new).values_list("claim_hash", flat=True)
    ) <= set(hashes):
        start_game(new.id, hashes)
        new.refresh_from_db()
    return new
