"""A game: seats and stacks across hands, the button, blind levels, eliminations and standings.

R5-R10 and R31-R34. The game owns at most one hand at a time; the last hand stays readable after
it ends until the next one starts, so the table can show its result.

A table of a tournament (README T7, T8) also takes players in and lets them go between hands:
``arrive`` and ``depart`` append a ``SeatChange`` to the game's log (``seat_changes``) and
apply it with ``apply_seat_change``, so a game is its first seats, its hands and that log, and
replaying them rebuilds it exactly. A hand never sees a seat change (its settings list who was
dealt in with how many chips), so every hand's record replays as before; a game saved before
seat changes existed has an empty log and loads as it did. The chips at the table are always
``chips_expected()``: the starting chips, plus those that arrived, minus those that left.

The seats' state, the log's entries and the standings are ``engine.seats``; the starting stack
and the blind levels ``engine.blinds``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, ActionError, ActionKind
from engine.blinds import BLIND_LEVELS, BLIND_SPEEDS, GAME_LENGTHS, STARTING_STACK, level_for_hand
from engine.cards import Card, shuffled_deck
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.history import hand_record, replay
from engine.proof import new_salt_key
from engine.seats import (
    ARRIVE,
    DEPART,
    GameError,
    SeatChange,
    SeatState,
    Standing,
    standings_of,
    stored_whole,
)

STATE_VERSION = 1
MAX_PLAYERS = 6  # R1: a table seats at most six, also after arrivals


@dataclass(frozen=True, slots=True)
class GameSettings:
    """``stand_alone``: False for a table of a tournament, whose game never ends by itself
    (players come and go between hands; the tournament ends it with ``end_now``), and whose
    blind level is the tournament's (``set_level``)."""

    blind_every: int = 10
    max_hands: int | None = None
    starting_stack: int = STARTING_STACK
    stand_alone: bool = True

    def __post_init__(self) -> None:
        if self.blind_every not in BLIND_SPEEDS:
            raise GameError("blinds rise every 5, 10 or 20 hands")
        if self.max_hands not in GAME_LENGTHS:
            raise GameError("a game lasts until one player has every chip, or 30 or 60 hands")
        if self.starting_stack <= 0:
            raise GameError("the starting stack must be positive")
        if not self.stand_alone and self.max_hands is not None:
            raise GameError("a tournament's table plays until the tournament ends it")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "blind_every": self.blind_every,
            "max_hands": self.max_hands,
            "starting_stack": self.starting_stack,
        }
        if not self.stand_alone:  # only then: a game saved before stays the same JSON
            data["stand_alone"] = False
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSettings:
        return cls(
            stored_whole(data["blind_every"], "blind_every"), data.get("max_hands"),
            stored_whole(data["starting_stack"], "starting_stack"),
            bool(data.get("stand_alone", True)),
        )


class Game:
    def __init__(
        self,
        settings: GameSettings,
        seats: Mapping[int, bool],
        rng: random.Random | None = None,
    ) -> None:
        """``seats`` maps seat number (0-5) to True for a person, False for a computer player.

        The first button is drawn at random among the seated players (R5).
        """
        if not 2 <= len(seats) <= 6:
            raise GameError("a table has 2 to 6 players")  # R1
        if any(not 0 <= s <= 9 for s in seats):
            raise GameError("seat numbers run from 0 to 9")
        self.settings = settings
        self.seats: dict[int, SeatState] = {
            s: SeatState(s, settings.starting_stack, bool(p)) for s, p in sorted(seats.items())
        }
        chooser = rng if rng is not None else secrets.SystemRandom()
        self.button: int = chooser.choice(sorted(self.seats))
        self.last_big_blind: int | None = None
        self.hand_number = 0
        self.hand: Hand | None = None
        self.finished = False
        self._first_hand = True
        self.seat_changes: list[SeatChange] = []
        self.shared_level: int | None = None  # a tournament's level (None: R10, by hands here)

    def copy(self) -> Game:
        """An independent twin (like ``Game.from_dict(self.to_dict())``, without replaying the
        running hand): changing one never changes the other."""
        twin = Game.__new__(Game)
        for name, value in vars(self).items():
            setattr(twin, name, value)
        twin.seats = {
            s: SeatState(v.seat, v.stack, v.is_person, v.out_hand, v.out_stack)
            for s, v in self.seats.items()
        }
        twin.hand = self.hand.copy() if self.hand is not None else None
        twin.seat_changes = list(self.seat_changes)
        return twin

    # ------------------------------------------------------------------ queries
    @property
    def players_with_chips(self) -> list[int]:
        return [s for s, st in self.seats.items() if st.stack > 0]

    @property
    def level(self) -> int:
        if self.shared_level is not None:
            return self.shared_level
        return level_for_hand(max(self.hand_number, 1), self.settings.blind_every)

    @property
    def blinds(self) -> tuple[int, int]:
        return BLIND_LEVELS[self.level]

    def hands_to_next_level(self) -> int | None:
        """Hands still to be dealt at this level after the current one (None at the last level,
        and at a tournament's table, whose level the tournament sets)."""
        if self.level == len(BLIND_LEVELS) - 1 or self.shared_level is not None:
            return None
        every = self.settings.blind_every
        return every - 1 - (max(self.hand_number, 1) - 1) % every

    @property
    def hand_running(self) -> bool:
        return self.hand is not None and not self.hand.finished

    def total_chips(self) -> int:
        """Every chip at the table: stacks, plus what is in the running hand."""
        if self.hand_running:
            assert self.hand is not None
            in_hand = set(self.hand.seats)
            outside = sum(st.stack for s, st in self.seats.items() if s not in in_hand)
            return outside + sum(self.hand.stack) + sum(self.hand.total)
        return sum(st.stack for st in self.seats.values())

    def chips_expected(self) -> int:
        """What ``total_chips`` must be (T7): every first player's starting stack, plus the
        chips that arrived with players, minus those that left with them."""
        arrived = [c for c in self.seat_changes if c.kind == ARRIVE]
        departed = [c for c in self.seat_changes if c.kind == DEPART]
        first_players = len(self.seats) - len(arrived) + len(departed)
        return (
            self.settings.starting_stack * first_players
            + sum(c.stack for c in arrived) - sum(c.stack for c in departed)
        )

    @property
    def can_deal(self) -> bool:
        """Whether a hand can be dealt now: none running, the game on, two players with chips."""
        return not self.finished and not self.hand_running and len(self.players_with_chips) >= 2

    def next_blinds(self) -> tuple[int, int, int] | None:
        """(button, small blind, big blind) seats of the next hand if it were dealt now (T2,
        T4: who moves, where a newcomer sits); None when it cannot be dealt."""
        if self.hand_running or len(self.players_with_chips) < 2:
            return None
        button = self._choose_button()
        with_chips = self.players_with_chips
        small = button if len(with_chips) == 2 else self._next_with_chips(button)
        return button, small, self._next_with_chips(small)

    def hands_before_big_blind(self, seat: int) -> int:
        """T4: how many hands a player who sat down at the free ``seat`` now would be dealt
        before posting the big blind (0: at once, next hand), if nobody else came or went."""
        probe = self.copy()
        probe.arrive(seat, 1)
        for waited in range(MAX_PLAYERS + 1):
            blinds = probe.next_blinds()
            if blinds is None:
                break
            button, _small, big = blinds
            if big == seat:
                return waited
            probe.button, probe.last_big_blind, probe._first_hand = button, big, False
        return MAX_PLAYERS + 1

    def worst_seats(self) -> list[int]:
        """T4: the free seats, the one whose newcomer posts the big blind soonest first (a
        tie: the first after the seat that posts the small blind next)."""
        free = [s for s in range(MAX_PLAYERS) if s not in self.seats]
        if self.hand_running or len(self.players_with_chips) < 1 or self.finished:
            return free
        blinds = self.next_blinds() if len(self.players_with_chips) >= 2 else None
        small = blinds[1] if blinds is not None else -1
        return sorted(free, key=lambda s: (
            self.hands_before_big_blind(s) if blinds is not None else 0,
            (s - small - 1) % MAX_PLAYERS,
        ))

    # ------------------------------------------------------------------ arriving, leaving
    def verify_arrive(self, seat: int, stack: int) -> None:
        """Raises ``GameError`` saying why a player cannot sit at ``seat`` with ``stack`` now."""
        if self.finished:
            raise GameError("the game is over")
        if self.hand_running:
            raise GameError("a player sits down only between hands")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_PLAYERS:
            raise GameError(f"seat numbers run from 0 to {MAX_PLAYERS - 1}")
        if seat in self.seats:
            raise GameError(f"seat {seat} is taken")
        if len(self.seats) >= MAX_PLAYERS:
            raise GameError("the table is full")
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise GameError("a player arrives with a positive whole number of chips")

    def can_arrive(self, seat: int, stack: int) -> bool:
        try:
            self.verify_arrive(seat, stack)
        except GameError:
            return False
        return True

    def verify_depart(self, seat: int) -> None:
        """Raises ``GameError`` saying why the player at ``seat`` cannot leave now."""
        if self.hand_running:
            raise GameError("a player leaves only between hands")
        if seat not in self.seats:
            raise GameError(f"nobody sits at seat {seat}")

    def can_depart(self, seat: int) -> bool:
        try:
            self.verify_depart(seat)
        except GameError:
            return False
        return True

    def arrive(self, seat: int, stack: int, is_person: bool = True) -> SeatChange:
        """T7: a player sits at the empty ``seat`` with ``stack`` chips, between hands; they
        are dealt in from the next hand."""
        self.verify_arrive(seat, stack)
        change = SeatChange(ARRIVE, seat, stack, bool(is_person), self.hand_number)
        self.apply_seat_change(change)
        return change

    def depart(self, seat: int) -> SeatChange:
        """T7: the player at ``seat`` leaves between hands with every chip of their stack (none
        when they are out); the seat is empty from then on."""
        self.verify_depart(seat)
        state = self.seats[seat]
        change = SeatChange(DEPART, seat, state.stack, state.is_person, self.hand_number)
        self.apply_seat_change(change)
        return change

    def apply_seat_change(self, change: SeatChange) -> None:
        """Apply one entry of the log (``arrive``/``depart``, or a replay of a saved log)."""
        if change.kind == ARRIVE:
            self.verify_arrive(change.seat, change.stack)
            if self.hand is not None and change.seat in self.hand.seats:
                # The last hand is put away: the newcomer must never see the cards the seat's
                # previous player held in it.
                self.hand = None
            self.seats[change.seat] = SeatState(change.seat, change.stack, change.is_person)
            self.seats = dict(sorted(self.seats.items()))
        elif change.kind == DEPART:
            self.verify_depart(change.seat)
            if self.seats[change.seat].stack != change.stack:
                raise GameError(f"seat {change.seat} does not hold {change.stack} chips")
            del self.seats[change.seat]
        else:
            raise GameError(f"unknown seat change {change.kind!r}")
        self.seat_changes.append(change)

    def set_level(self, level: int) -> None:
        """A tournament's blind level (index into BLIND_LEVELS, T8) for the hands dealt from
        now on; the running hand keeps the blinds it was dealt with."""
        if not 0 <= level < len(BLIND_LEVELS):
            raise GameError("no such blind level")
        self.shared_level = level

    # ------------------------------------------------------------------ playing
    def _next_with_chips(self, after: int) -> int:
        """The first seat to the left of seat number ``after`` (which may be empty now: a
        player left) whose player has chips (R4)."""
        ordered = sorted(self.seats)
        for seat in [s for s in ordered if s > after] + [s for s in ordered if s <= after]:
            if self.seats[seat].stack > 0:
                return seat
        raise GameError("nobody has chips")

    def _choose_button(self) -> int:
        if self._first_hand:
            if self.button in self.seats and self.seats[self.button].stack > 0:
                return self.button
            return self._next_with_chips(self.button)
        # R7: the button moves to the next player to the left who still has chips.
        button = self._next_with_chips(self.button)
        if len(self.players_with_chips) == 2:
            # R8: heads-up the button posts the small blind; move it one more seat if the other
            # player would otherwise post the big blind twice in a row.
            other = self._next_with_chips(button)
            if other == self.last_big_blind:
                button = other
        return button

    def start_hand(
        self, deck: Sequence[Card] | None = None, seed: int | None = None,
        salt_key: bytes | None = None,
    ) -> Hand:
        """Deal the next hand with ``deck`` (tests, replays), a seeded deck, or a secure shuffle.

        The deck is committed to before any card is dealt (engine.proof) with ``salt_key``, else
        a fresh secret key; a seeded or given deck (tests, simulations) gets a key derived from
        the seed or the deck instead, so that the same deal repeats exactly. Live tables never
        give either without TABLES_SEED (tables.write.lobby.deal)."""
        if self.finished:
            raise GameError("the game is over")
        if self.hand_running:
            raise GameError("a hand is already being played")
        if len(self.players_with_chips) < 2:
            raise GameError("a hand needs two players with chips")
        self.button = self._choose_button()
        self._first_hand = False
        self.hand_number += 1
        small, big = self.blinds
        dealt = self.players_with_chips
        settings = HandSettings(
            hand_number=self.hand_number,
            seats=tuple(dealt),
            stacks=tuple(self.seats[s].stack for s in dealt),
            button=self.button,
            small_blind=small,
            big_blind=big,
        )
        cards = list(deck) if deck is not None else shuffled_deck(seed)
        if salt_key is None:
            given = "".join(str(card) for card in cards) if deck is not None else seed
            salt_key = new_salt_key(given)
        hand = Hand(settings, cards, salt_key)
        self.hand = hand
        self.last_big_blind = hand.seats[hand.big_blind_index]
        if hand.finished:
            self._settle()
        return hand

    def act(self, seat: int, kind: ActionKind | str, amount: object = None) -> Action:
        """Apply an action to the running hand (``ActionError`` when refused)."""
        if self.hand is None or self.hand.finished:
            raise ActionError("no_hand", "No hand is being played right now.")
        action = self.hand.act(seat, kind, amount)
        if self.hand.finished:
            self._settle()
        return action

    def _settle(self) -> None:
        hand = self.hand
        assert hand is not None and hand.finished
        for seat, start, end in zip(hand.seats, hand.settings.stacks, hand.stack, strict=True):
            state = self.seats[seat]
            state.stack = end
            if end == 0:
                state.out_hand = hand.settings.hand_number  # R31
                state.out_stack = start
        if not self.settings.stand_alone:
            return  # a tournament's table: the tournament ends it (T6)
        with_chips = self.players_with_chips
        persons = [st for st in self.seats.values() if st.is_person]
        if (
            len(with_chips) <= 1
            or (self.settings.max_hands is not None and self.hand_number >= self.settings.max_hands)
            or (persons and all(st.stack == 0 for st in persons))  # R33
        ):
            self.finished = True

    def set_person(self, seat: int, is_person: bool) -> None:
        """A computer player takes over a person's seat (or the reverse) keeping its chips."""
        self.seats[seat].is_person = is_person

    def end_now(self) -> None:
        """Finish the game between hands (a moderator closed the table)."""
        if self.hand_running:
            raise GameError("finish or cancel the running hand first")
        self.finished = True

    def cancel_hand(self) -> None:
        """Call the running hand off: every chip goes back to where it was when it began."""
        if not self.hand_running:
            return
        assert self.hand is not None
        for seat, start in zip(self.hand.seats, self.hand.settings.stacks, strict=True):
            self.seats[seat].stack = start
        self.hand = None

    def standings(self) -> list[Standing]:
        """R32, R34: players still in by chips, then those who left, last out first
        (``engine.seats.standings_of``)."""
        return standings_of(self.seats.values())

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The whole game as JSON (the running hand as its record: it contains the deck)."""
        data: dict[str, Any] = {
            "version": STATE_VERSION,
            "settings": self.settings.to_dict(),
            "seats": [st.to_dict() for st in self.seats.values()],
            "button": self.button,
            "last_big_blind": self.last_big_blind,
            "hand_number": self.hand_number,
            "first_hand": self._first_hand,
            "finished": self.finished,
            "hand": hand_record(self.hand) if self.hand is not None else None,
        }
        if self.seat_changes:  # only then: a game saved before stays the same JSON
            data["seat_changes"] = [c.to_dict() for c in self.seat_changes]
        if self.shared_level is not None:
            data["shared_level"] = self.shared_level
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base: Game | None = None) -> Game:
        """The game ``to_dict`` gave. ``base``: an earlier state of the same game (never
        changed), whose running hand the state may continue: then that hand is not replayed
        from its first action (see ``engine.history.replay``); the result is the same."""
        if data.get("version") != STATE_VERSION:
            raise GameError(f"unknown game state version {data.get('version')!r}")
        game = cls.__new__(cls)
        game.settings = GameSettings.from_dict(data["settings"])
        game.seats = {
            stored_whole(d["seat"], "seat"): SeatState(
                stored_whole(d["seat"], "seat"), stored_whole(d["stack"], "stack"),
                bool(d["is_person"]), d.get("out_hand"),
                stored_whole(d.get("out_stack", 0), "out_stack"),
            )
            for d in data["seats"]
        }
        game.button = stored_whole(data["button"], "button")
        game.last_big_blind = data.get("last_big_blind")
        game.hand_number = stored_whole(data["hand_number"], "hand_number")
        game._first_hand = bool(data["first_hand"])
        game.finished = bool(data["finished"])
        known = base.hand if base is not None else None
        game.hand = replay(data["hand"], known) if data.get("hand") else None
        game.seat_changes = [SeatChange.from_dict(c) for c in data.get("seat_changes", ())]
        level = data.get("shared_level")
        game.shared_level = None if level is None else stored_whole(level, "shared_level")
        return game
