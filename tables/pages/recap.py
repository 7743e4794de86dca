"""The recap of a game: how everyone's chips went, the biggest pot, the best hand shown, who
went out when, and how each hard computer player read each person.

Built from the table's stored hands (finished, not called off), which hold only what the table
saw in public once a hand is over: stacks, pots, the hands shown. Page: ``/t/CODE/recap/``,
for those who sat at the table and staff (tables.pages.history's rule); linked from the game's
end and from its history. The chip graph is an SVG (``tables.draw.chip_graph``), with a table of
the same numbers for screen readers and anyone who prefers numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from engine.blinds import STARTING_STACK
from engine.bots import describe_opponents
from engine.history import replay
from tables import cache, codes
from tables.draw.chip_graph import COLOURS, DASHES, Curve, chip_graph
from tables.models import Hand, Level, Seat, SeatRequest, Table
from tables.pages.history import access_for


@dataclass
class Player:
    seat: int
    name: str
    computer: bool
    colour: str
    dash: str
    chips: list[int] = field(default_factory=list)  # after each hand, from 0 (the start)
    took_over: str = ""  # a friend who arrived late: the computer player they took over from


@dataclass
class Recap:
    table: Table
    hands: list[int]  # the numbers of the hands played, in order
    players: list[Player]
    biggest_pot: dict[str, Any] | None
    best_hand: dict[str, Any] | None
    busts: list[dict[str, Any]]
    reads: list[dict[str, Any]]

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The graph's numbers as table rows: the start, then each hand."""
        rows: list[dict[str, Any]] = [
            {"hand": None, "chips": [p.chips[0] for p in self.players]}
        ]
        for i, number in enumerate(self.hands, start=1):
            rows.append({"hand": number, "chips": [p.chips[i] for p in self.players]})
        return rows


def _played(table: Table) -> list[Hand]:
    return list(
        Hand.objects.filter(table=table, ended_at__isnull=False, cancelled=False)
        .order_by("number")
    )


def build(table: Table) -> Recap:
    rows = _played(table)
    seats = {s.position: s for s in Seat.objects.filter(table=table)}
    names: dict[int, str] = {}
    computers: dict[int, bool] = {}
    for row in rows:
        for p in row.players:
            names[int(p["seat"])] = str(p["name"])
            computers[int(p["seat"])] = bool(p["is_computer"])
    for position, seat in seats.items():
        names.setdefault(position, seat.name)
        computers.setdefault(position, seat.is_computer)
    took_over = {
        r.position: r for r in SeatRequest.objects.filter(
            table=table, status=SeatRequest.Status.SEATED
        ).order_by("at") if r.position is not None
    }
    order = sorted(names)
    players = []
    for i, position in enumerate(order):
        player = Player(position, names[position], computers[position], COLOURS[i % len(COLOURS)],
                        DASHES[i % len(DASHES)], [STARTING_STACK])
        request = took_over.get(position)
        if request is not None:  # the seat's line is one: named after who holds it now
            player.name, player.computer, player.took_over = request.name, False, (
                request.took_over
            )
        players.append(player)
    biggest: dict[str, Any] | None = None
    best: dict[str, Any] | None = None
    best_value: Any = None
    busts: list[dict[str, Any]] = []
    for row in rows:
        after = {int(k): int(v) for k, v in (row.final_stacks or {}).items()}
        starts = {int(p["seat"]): int(p["stack"]) for p in row.players}
        for player in players:
            player.chips.append(after.get(player.seat, player.chips[-1]))  # out: stays 0
            if starts.get(player.seat, 0) > 0 and after.get(player.seat) == 0:
                busts.append({"name": player.name, "hand": row.number})
        hand = replay(row.record)
        pot = sum(a.amount for a in hand.awards)
        winners = sorted({names.get(a.seat, "?") for a in hand.awards})
        if biggest is None or pot > biggest["amount"]:
            biggest = {"amount": pot, "hand": row.number, "winners": ", ".join(winners)}
        for award in hand.awards:
            if award.hand is not None and (best_value is None or award.hand > best_value):
                best_value = award.hand
                best = {
                    "hand": row.number, "name": names.get(award.seat, "?"),
                    "hand_key": award.hand.key, "hand_name": award.hand.name,
                    "cards": [str(c) for c in award.hand.cards],
                }
    return Recap(
        table, [r.number for r in rows], players, biggest, best, busts,
        _reads(table, rows, seats, names, computers),
    )


def _reads(
    table: Table, rows: list[Hand], seats: dict[int, Seat], names: dict[int, str],
    computers: dict[int, bool],
) -> list[dict[str, Any]]:
    """For each hard computer player, its read of each person, in plain words."""
    if not rows:
        return []
    persons = [p for p in sorted(names) if not computers.get(p, True)]
    reads = []
    for position, seat in sorted(seats.items()):
        if not seat.is_computer or (seat.level or table.computer_level) != Level.HARD:
            continue
        seen = describe_opponents(cache.past_views(table.id, table.code, position), position)
        about = [
            {"name": names[p], "words": plain_words(seen[p])}
            for p in persons if p in seen and p != position
        ]
        if about:
            reads.append({"name": seat.name, "about": about})
    return reads


# The phrases of a read, each translated (engine.bots' own summary is English only).
_PHRASES = {
    "calls": gettext_lazy("calls a lot"),
    "bets": gettext_lazy("bets and raises a lot"),
    "limps": gettext_lazy("rarely raises before the flop"),
    "raises": gettext_lazy("raises a lot before the flop"),
    "folds": gettext_lazy("often folds to a bet"),
    "sticks": gettext_lazy("seldom folds to a bet"),
    "showdown": gettext_lazy("goes to showdown a lot"),
}


def plain_words(read: dict[str, Any]) -> str:
    """A read as a sentence a person understands, in the active language: "plays 45% of
    hands, calls a lot, rarely raises before the flop". The same thresholds as the engine's
    English summary (engine.bots.reads.summary), from the rates it reports."""
    hands = int(read.get("hands") or 0)
    if not hands:
        return _("not seen playing yet")
    vpip = read.get("vpip") or 0.0
    pfr = read.get("pfr") or 0.0
    parts = [_("plays %(percent)d%% of hands") % {"percent": round(100 * vpip)}]
    aggression = read.get("aggression")
    if aggression is not None:
        if aggression <= 0.35:
            parts.append(str(_PHRASES["calls"]))
        elif aggression >= 0.65:
            parts.append(str(_PHRASES["bets"]))
    if pfr < 0.08 or (vpip > 0 and pfr / vpip < 0.3):
        parts.append(str(_PHRASES["limps"]))
    elif pfr >= 0.3:
        parts.append(str(_PHRASES["raises"]))
    fold = read.get("fold_to_bet")
    if fold is not None:
        if fold >= 0.6:
            parts.append(str(_PHRASES["folds"]))
        elif fold <= 0.25:
            parts.append(str(_PHRASES["sticks"]))
    showdown = read.get("showdown")
    if showdown is not None and showdown >= 0.5:
        parts.append(str(_PHRASES["showdown"]))
    text = ", ".join(parts)
    if hands < 10:
        text = _("%(read)s (only a few hands seen)") % {"read": text}
    return text


def recap_graph(recap: Recap) -> SafeString:
    """Every player's chips after each hand as lines on one chart."""
    count = len(recap.hands)
    top = max([max(p.chips) for p in recap.players] + [STARTING_STACK])
    return chip_graph(
        [Curve(p.name, p.colour, p.dash, list(enumerate(p.chips)), p.seat)
         for p in recap.players],
        count, title=_("Chips after each hand"), testid="chip-graph", ticks=(top // 2, top),
        x_labels=[(count, _("hand %(n)d") % {"n": recap.hands[-1]}, "end")] if count else [],
    )


@require_safe
def recap_page(request: HttpRequest, code: str) -> HttpResponse:
    access = access_for(request, code)
    table = access.table
    recap = build(table)
    return render(request, "history/recap.html", {
        "code": table.code,
        "pretty_code": codes.pretty(table.code),
        "recap": recap,
        "graph": recap_graph(recap),
        "over": table.status in (Table.Status.FINISHED, Table.Status.CLOSED),
        "recap_url": reverse("tables:recap", args=[table.code]),
        "history_url": reverse("tables:history", args=[table.code]),
        "back_url": reverse("tables:table", args=[table.code]),
    })
