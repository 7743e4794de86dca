"""The play screen (and the spectator's), put together from cached components.

Every connection at a table gets its own frame after every change, so this is the hottest
drawing code there is. The screen is a handful of parts, each a component rendered with only
the values it shows and shared between frames that show the same thing (``tables.cache.fragments``):
the bar above the table, the opponents' seats, the middle of the table, your own place, and the
bar below it. This module only lays those parts out, in the order this connection sees them;
everything a person reads is in the components' templates.

Parts and their parameters:

- ``table/_table_info.html`` (blinds, hand number), ``table/_log_drawer.html`` (the log, new
  at every version), ``table/_table_tools.html`` (sound and language: always the same);
- ``components/seat.html`` once per opponent, ``table/_table_center.html`` (board, pots),
  ``table/_me.html`` (your cards: drawn only into your own frames);
- ``table/_pass_controls.html`` (pass and play), then ``table/_action_bar.html`` on your turn
  or ``table/_waiting_bar.html``.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from typing import Any

from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tables.cache import printed, render_component, slot
from tables.live.kept import Parts, center_pieces, log_pieces
from tables.live.shared import data_json, table_data


def play_frame(context: Any) -> SafeString:
    """The whole frame (``table/_frame.html``) on the play and watch screens, without a
    template around it: the section carrying the version, the screen, a notice if any, and the
    frame's data for scripts."""
    return SafeString("".join([text for _, text in play_frame_parts(context)]))


def play_frame_parts(context: Any) -> Parts:
    """``play_frame``'s text in its named parts (each escaped by its template or here)."""
    persp = context["persp"]
    screen = context["screen"]
    oob = bool(context.get("oob"))
    notice = context.get("notice")
    viewer = persp.viewer
    seat_attr = f' data-seat="{_e(viewer)}"' if viewer is not None else ""
    parts: Parts = [
        # The text put in is the table's own (a screen name, numbers, a table code), escaped
        # all the same: html.escape is what Django's escape does, without its lazy-text checks
        # (this runs for every frame of every connection).
        ("", f'\n<section id="table-frame" class="table-frame table-frame--{_e(screen)}"'
         f'{_OOB if oob else ""} data-testid="table-frame" data-version="{_e(context["version"])}"'
         f' data-screen="{_e(screen)}" data-code="{_e(context["code"])}"'
         f"{seat_attr}>\n"),
        *play_screen_parts(context),
        ("", "\n</section>\n"),
    ]
    if notice:
        parts.append(("", render_to_string(
            "table/_notice.html", {"notice": notice, "oob": oob, "version": context["version"]}
        )))
    memo = getattr(context.get("table"), "memo", None)
    data = data_json(context["data"], memo) if memo is not None else None
    parts.append(("", f"\n{table_data(context['data'], oob, data)}\n"))
    return parts


_OOB = ' hx-swap-oob="true"'


def _e(value: Any) -> str:
    """``django.utils.html.escape`` for a plain value (a number, a code), minus its lazy-text
    handling."""
    return html.escape(str(value))


def _log_items(lines: list[str]) -> SafeString:
    """The log's lines as list items, escaped as the template would print them."""
    return SafeString("".join([f"<li>{printed(line)}</li>" for line in lines]))




# What components/seat.html and table/_me.html read of a seat (tables.live.frames._public_seats
# has more, e.g. what the seat put in the pot this hand, which would only tell apart drawings
# that are the same).
_SEAT_KEYS = (
    "seat", "name", "computer", "level", "away", "out", "you", "turn", "total", "paused",
    "in_hand", "cards", "folded", "all_in", "button", "small_blind", "big_blind", "won",
    "hand_key", "hand_name", "winning_cards", "why", "bank",
)


@functools.lru_cache(maxsize=64)
def _players_label(language: str) -> str:
    """The opponents' list's label, escaped, in ``language`` (the active one)."""
    return _e(_("Players"))


@functools.lru_cache(maxsize=8192)
def table_url(name: str, code: str) -> str:
    """A table's page ``tables:<name>`` (act, back, history), filled into kept drawings."""
    return reverse(f"tables:{name}", args=[code])


@functools.lru_cache(maxsize=4096, typed=True)
def clock_texts(remaining: float | None, total: int | None) -> tuple[str, str]:
    """The seconds left on a turn's clock as components/countdown.html prints them: to a tenth
    and whole (no time left yet, or none at all: the whole time to act). Remembered: the same
    few hundred values come back all the time, and ``floatformat`` is slow."""
    left = remaining or total
    if left is None:
        return "", ""
    return str(floatformat(left, "1u")), str(floatformat(left, "0u"))


def _seat_part(row: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A seat's parameters for its drawing, and the values filled in: its chips and its bet
    change at almost every action, the seconds left on its clock at every frame, the rest
    seldom, so the drawing is mostly found kept. Who sits there (the name, its initial, the
    seat's number) is filled in too: one drawing serves every seat in the same state, at
    every table."""
    params = {key: row[key] for key in _SEAT_KEYS}
    name = row["name"]
    for key in ("stack", "name", "seat", "initial"):
        params[key] = slot(key)
    filled: dict[str, Any] = {
        "stack": row["stack"], "name": name, "seat": row["seat"], "initial": name[:1].upper(),
    }
    if row["turn"] and row["total"]:
        params["clock_at"], params["clock_secs"] = slot("clock_at"), slot("clock_secs")
        filled["clock_at"], filled["clock_secs"] = clock_texts(row["remaining"], row["total"])
    else:
        params["clock_at"] = params["clock_secs"] = ""
    if row["bet"]:
        params["bet"] = slot("bet")  # the templates test it: only when it is not 0
        filled["bet"] = row["bet"]
    else:
        params["bet"] = 0
    return params, filled


def _cards(cards: list[str], win_cards: list[str], size: str, language: str) -> str:
    """``components/card.html`` for each card, the winning ones marked: each card's drawing is
    kept, so a board or a pair of hole cards never seen before costs no drawing of its own."""
    return "".join([
        render_component(
            "components/card.html",
            {"card": c, "size": size, "win": True} if c in win_cards else {"card": c, "size": size},
            language=language,
        )
        for c in cards
    ])


_CARD_SLOT = '<span class="card-slot" aria-hidden="true"></span>'


def _board(board: list[str], win_cards: list[str], language: str) -> SafeString:
    """The board inside ``table/_table_center.html``: its cards, the winning ones marked once
    the hand is over, and an empty place for each card still to come."""
    slots = _CARD_SLOT * max(0, 5 - len(board))
    return SafeString(f"\n{_cards(board, win_cards, 'md', language)}\n{slots}\n")


def _my_cards(
    cards: list[str] | None, win_cards: list[str], in_hand: bool, folded: bool, language: str
) -> SafeString:
    """Your two cards, large, inside ``table/_me.html``: face up when they are shown here,
    face down while you are in the hand otherwise, nothing once you folded or sit out."""
    if cards:
        return SafeString(_cards(cards, win_cards, "lg", language) + "\n")
    if in_hand and not folded:
        back = render_component("components/card.html", {"size": "lg"}, language=language)
        return SafeString(back + back)
    return SafeString("")


class _Kept:
    """The parts of one frame drawn alike for every connection at its version: each found in
    the snapshot's memo (``memo``; None without a snapshot) by a short key before a cache key is
    built from every parameter (``tables.cache.render_component``)."""

    __slots__ = ("language", "memo")

    def __init__(self, memo: dict[Any, Any] | None, language: str) -> None:
        self.memo = memo
        self.language = language

    def part(
        self, key: tuple[Any, ...], name: str, params: dict[str, Any] | None = None,
        fill: Callable[[], dict[str, Any]] | None = None, seat: dict[str, Any] | None = None,
    ) -> str:
        """``key`` holds every value of ``params`` and of what ``fill()`` returns that may
        differ between two connections. ``seat``: a seat's row, drawn by components/seat.html."""
        memo = self.memo
        full = ("part", self.language, name, *key)
        html: str | None = memo.get(full) if memo is not None else None
        if html is None:
            made: dict[str, Any] | None
            if seat is not None:
                drawn, made = _seat_part(seat)
                params = {"seat": drawn}
            else:
                made = fill() if fill else None
            assert params is not None
            html = render_component(name, params, made, self.language)
            if memo is not None:
                memo[full] = html
        return html


def play_screen(context: Any) -> SafeString:
    """The table while a game runs, for the connection whose frame ``context`` describes
    (``tables.live.frames.frame_context``): opponents round the top, you at the bottom, the action
    bar only on your turn."""
    return SafeString("".join([text for _, text in play_screen_parts(context)]))


def play_screen_parts(context: Any) -> Parts:
    """``play_screen``'s text in its named parts."""
    hand = context.get("hand")
    persp = context["persp"]
    language = context.get("language") or get_language()
    kept = _Kept(getattr(context.get("table"), "memo", None), language)
    parts: Parts = [
        ("", f'<div class="table-screen" data-hand="{_e(hand["hand_number"]) if hand else ""}">\n'),
        *_top_bar(context, kept),
        *_ring(context, kept),
    ]
    you_seat = context.get("you_seat")
    if you_seat:
        parts.append(("me", _my_place(you_seat, context.get("best"), language)))
    if persp.pass_and_play:
        parts += [("", "\n"), ("pass", _pass_controls(context, language))]
    parts.append(("", "\n"))
    if context.get("legal"):
        parts.append(("bar", _action_bar(context, language)))
    else:
        rest = context.get("rest_of_board")
        if rest:  # P5: after a hand that ended before the river
            parts += [("rest", render_component(
                "table/_rest_of_board.html", {"rest": rest}, language=language
            )), ("", "\n")]
        parts.append(("bar", _waiting_bar(context, language)))
    parts.append(("", "</div>\n"))
    return parts  # every part is escaped by its template or above


def _top_bar(context: Any, kept: _Kept) -> Parts:
    """The bar above the table: blinds and hand number, the log drawer (with the deck's code),
    sound and language."""
    code = context["code"]
    persp = context["persp"]
    csrf_token = context.get("csrf_token")
    request = context.get("request")
    top = context["top"]
    memo = kept.memo
    whole = None
    if memo is not None and request is None and not csrf_token:
        # Alike for every connection at this version that watches or not, and has seats here
        # or not: the whole bar kept (its parts are each kept in the memo too).
        whole = ("top-bar", kept.language, top["watching"], bool(persp.mine))
        drawn: Parts | None = memo.get(whole)
        if drawn is not None:
            return drawn
    tools = {"request": request, "csrf_token": csrf_token}
    parts: Parts = [
        ("", '<header class="table-top" id="table-info" data-testid="table-info">\n'),
        ("info", kept.part((top["watching"],), "table/_table_info.html", {"top": top})),
        # (each part ends with a line break: nothing between them)
        # The log grows by a line or so at every change: its frame is kept, the lines filled in.
        *log_pieces(kept.part((bool(persp.mine), bool(top["deck"])), "table/_log_drawer.html", {
            "log": slot("log") if context["log_tail"] else "",
            "deck": slot("deck") if top["deck"] else "",
            "history": bool(persp.mine), "history_url": slot("history_url"),
            "move_url": slot("move_url"),
        }, lambda: {
            "log": _log_items(context["log_tail"]), "deck": top["deck"],
            "history_url": table_url("history", code),
            "move_url": table_url("seat_moves", code),
        })),
        ("tools", kept.part((), "table/_table_tools.html", tools)
         if request is None and not csrf_token
         else render_component("table/_table_tools.html", tools)),
        ("", "</header>\n"),
    ]
    if whole is not None:
        memo[whole] = parts  # type: ignore[index]
    return parts


def _ring(context: Any, kept: _Kept) -> Parts:
    """The opponents' seats round the table, and its middle (the board, the pots, the last line
    of the log)."""
    code = context["code"]
    center = context["center"]
    language = kept.language
    parts: Parts = [(
        "ring", '<div class="ring">\n<div class="felt" aria-hidden="true"></div>\n'
        '<ol class="seats opponents" id="seats" data-testid="seats" aria-label='
        f'"{_players_label(language)}">\n',
    )]
    memo = kept.memo
    # The seats of nobody at this phone are drawn alike for every connection at this version
    # (and tenth of a second): each kept here by its place, ready to be put in.
    drawn: dict[int, str] | None = None
    if memo is not None:
        at = ("ring", language, context["data"]["remaining"])
        drawn = memo.get(at)
        if drawn is None:
            drawn = memo[at] = {}
    for seat in context["seats"]:
        if seat["you"]:
            continue
        position = seat["seat"]
        if drawn is not None and not seat["mine"]:
            li = drawn.get(position)
            if li is None:
                li = drawn[position] = _seat_li(kept, seat)
            parts.append((_SEAT_NAMES[position], li))
        else:
            parts.append((_SEAT_NAMES[position], _seat_li(kept, seat)))
    parts += [
        ("", "\n</ol>\n"),
        # The last line of the log and the event count change at every version, the board and
        # the pots when cards come or chips go in: all are written into one drawing kept for
        # every table (the board and the pots are drawn apart, each kept as such).
        *center_pieces(kept.part((), "table/_table_center.html", {
            "code": slot("code"), "board": slot("board"), "pots": slot("pots"), "center": {
                "finished": center["finished"],
                "last_line": slot("last_line") if center["last_line"] else "",
                "events": slot("events"), "hand_number": slot("hand_number"),
            },
        }, lambda: {
            "code": code,
            "board": _board(center["board"], center["win_cards"], language),
            "pots": render_component("table/_pots.html", {
                "pots": [{"amount": pot["amount"]} for pot in center["pots"]],
            }, language=language),
            "last_line": center["last_line"], "events": center["events"],
            "hand_number": center["hand_number"],
        })),
        ("", "\n</div>\n"),
    ]
    return parts


_SEAT_NAMES = {position: f"seat-{position}" for position in range(16)}



def _seat_li(kept: _Kept, seat: dict[str, Any]) -> str:
    """An opponent's seat (``components/seat.html``) as an item of the ring."""
    cards = tuple(seat["cards"]) if seat["cards"] else None
    key = (seat["seat"], seat["mine"], seat["remaining"], cards)
    return f"<li>{kept.part(key, 'components/seat.html', seat=seat)}</li>"


def _my_place(you_seat: dict[str, Any], best: Any, language: str) -> str:
    """Your own place at the bottom (``table/_me.html``). Your cards and the line under them
    are drawn apart (each kept as such) and written into it, which then only changes with your
    turn, your bet, a fold..."""
    params, filled = _seat_part(you_seat)
    filled["cards"] = _my_cards(
        params.pop("cards"), params.pop("winning_cards"), params["in_hand"],
        params["folded"], language,
    )
    filled["best_line"] = render_component("table/_my_best.html", {
        "won": params["won"], "hand_key": params.pop("hand_key"),
        "hand_name": params.pop("hand_name"), "best": best,
    }, language=language)
    params["won"] = bool(params["won"])
    return render_component("table/_me.html", {
        "s": params, "cards": slot("cards"), "best_line": slot("best_line"),
    }, fill=filled, language=language)


def _pass_controls(context: Any, language: str) -> str:
    """Pass and play: who may take the phone now (``table/_pass_controls.html``)."""
    reveal = [
        {"seat": s["seat"], "name": s["name"]}
        for s in context["seats"] if s["mine"] and s["in_hand"] and not s["folded"]
    ]
    return render_component("table/_pass_controls.html", {
        "code": context["code"], "shown": context["persp"].viewer is not None,
        "legal": bool(context.get("legal")), "reveal": reveal,
        "csrf_token": context.get("csrf_token"),
    }, language=language)


def _action_bar(context: Any, language: str) -> str:
    """Your turn (``table/_action_bar.html``). New at every change: drawn once per kind of
    turn, the table and the numbers filled in."""
    code = context["code"]
    hand = context.get("hand")
    legal = context["legal"]
    you = context.get("you")
    assert hand is not None
    return render_component("table/_action_bar.html", {
        "code": slot("code"), "act_url": slot("act_url"), "version": slot("version"),
        "action_id": slot("action_id"),
        "legal": {
            "seat": slot("seat"), "check": legal["check"], "call": slot("call"),
            "call_all_in": legal["call_all_in"], "bet_or_raise": legal["bet_or_raise"],
            "min_to": slot("min_to"), "max_to": slot("max_to"),
            "one_amount": legal["min_to"] == legal["max_to"],
        },
        "csrf_token": context.get("csrf_token"),
        "hand": {
            "hand_number": slot("hand_number"), "street": hand["street"],
            "current_bet": slot("current_bet"), "pot_total": slot("pot_total"),
            "big_blind": slot("big_blind"), "events": slot("events"),
        },
        "you": {"bet": slot("your_bet")},
    }, fill={
        "code": code, "act_url": table_url("act", code),
        "version": context["version"], "action_id": context["action_id"],
        "seat": legal["seat"], "call": legal["call"], "min_to": legal["min_to"],
        "max_to": legal["max_to"], "hand_number": hand["hand_number"],
        "current_bet": hand["current_bet"], "pot_total": hand["pot_total"],
        "big_blind": hand["big_blind"], "events": hand["event_count"],
        "your_bet": you["bet"] if you else 0,
    }, language=language)


def _waiting_bar(context: Any, language: str) -> str:
    """Not your turn (``table/_waiting_bar.html``): whom the table waits for, your pre-moves
    while you are in the hand, the way back when you are away."""
    code = context["code"]
    hand = context.get("hand")
    you = context.get("you")
    you_seat = context.get("you_seat")
    if you_seat and you_seat["out"] and not context["persp"].pass_and_play:
        return _out_bar(context["table"], you_seat["seat"], language)
    csrf_token = context.get("csrf_token")
    finished = bool(hand and hand["finished"])
    away = bool(you_seat and you_seat["away"])
    pre = bool(
        you and you["in_hand"] and not you["folded"] and not you["all_in"]
        and not finished and not context["persp"].pass_and_play and not away
    )
    waiting = next((s["name"] for s in context["seats"] if s["turn"]), "")
    return render_component("table/_waiting_bar.html", {
        "away": away, "back_url": slot("back_url") if away else "",
        "csrf_token": csrf_token if away else None,  # a page's own, for its form alone
        "pre": pre,
        "hand": {
            "hand_number": slot("hand_number"), "street": hand["street"],
            "current_bet": slot("current_bet"),
        } if pre and hand else None,
        "to_call": bool(pre and hand and you and hand["current_bet"] > you["bet"]),
        "finished": finished,
        "waiting": slot("waiting") if waiting else "",
    }, fill={
        "hand_number": hand["hand_number"] if hand else "",
        "current_bet": hand["current_bet"] if hand else "",
        "waiting": waiting,
        "back_url": table_url("back", code) if away else "",
    }, language=language)


def _out_bar(snapshot: Any, seat: int, language: str) -> str:
    """Your chips are gone, the others play on (``table/out.html``): your place is fixed
    (R31, R34), and whether you asked to be told when the next game starts."""
    game = snapshot.game
    standings = game.standings() if game is not None else []
    place = next((s.place for s in standings if s.seat == seat), len(standings))
    info = snapshot.seats.get(seat)
    return render_component("table/out.html", {
        "place": place, "count": len(standings),
        "told": bool(info is not None and info.tell_next_game),
    }, language=language)
