"""What every connection at a table is shown alike at one version, worked out once (kept in
the snapshot's memo, ``tables.cache.Snapshot.memo``) and shared by the frames of all of them
(``tables.live.frames``): the public view each seat's own view is made from, the log, the bar
above the table and its middle, the frame data's values that are the table's, the run-out's
odds. Everything returned is read-only: it is handed to every connection.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext

from engine.runout import runout_dict
from engine.views import game_view, view_for, visible_events
from tables import cache, codes, commitments
from tables.cache import SeatInfo, Snapshot
from tables.draw.describe import Log
from tables.live.langs import speaking


def shared_context(snapshot: Snapshot, mode: str, language: str) -> dict[str, Any]:
    """The part of ``tables.live.frames.frame_context`` every connection on screen ``mode`` in
    ``language`` is shown alike at this version, worked out once (the snapshot's memo):
    read-only, as the parts of it drawn for everyone at the table (kept as such:
    tables.cache.fragments)."""
    key = ("context", mode, language)
    shared: dict[str, Any] | None = snapshot.memo.get(key)
    if shared is not None:
        return shared
    view = view_of(snapshot, None)  # what the table's own values are read from: the public view
    hand = view["hand"] if view else None
    log_lines = log_of(snapshot, language)
    shared = snapshot.memo[key] = {
        "table": snapshot,
        "code": snapshot.code,
        "pretty_code": codes.pretty(snapshot.code),
        "version": snapshot.version,
        "screen": mode,
        "top": _top(snapshot, view, mode),
        "center": _center(hand, log_lines),
        "log": log_lines,
        "log_tail": log_lines[-12:],
        "last_line": log_lines[-1] if log_lines else "",
        "hands_played": _hands_played(view),
        "ended_early": _ended_early(snapshot, view, mode),
        "language": language,  # the active one while the frame is drawn
    }
    return shared


def _top(snapshot: Snapshot, view: dict[str, Any] | None, mode: str) -> dict[str, Any]:
    """The bar above the table: the blinds, the hand, the deck's commitment."""
    return {
        "blinds": [view["small_blind"], view["big_blind"]] if view else None,
        "hand_number": view["hand_number"] if view else 0,
        "to_next_level": view["hands_to_next_level"] if view else None,
        "watching": mode == "watch",
        "paused": snapshot.paused,
        "paused_by": snapshot.paused_by,
        "deck": commitments.shown_root(snapshot),  # the deck commitment's root, short
    }


def _center(hand: dict[str, Any] | None, log_lines: list[str]) -> dict[str, Any]:
    """The middle of the table: the board (the winning cards marked), the pots, the log's
    last line."""
    return {
        "board": hand["board"] if hand else [],
        "finished": bool(hand and hand["finished"]),
        "win_cards": hand["awards"][-1]["cards"] if hand and hand["finished"] and hand["awards"]
        else [],
        "hand_number": hand["hand_number"] if hand else 0,
        "pots": hand["pots"] if hand else [],
        "last_line": log_lines[-1] if log_lines else "",
        "events": hand["event_count"] if hand else 0,
    }


def _hands_played(view: dict[str, Any] | None) -> int:
    """The hands played to their end, as the recap counts them: the number of the last hand
    dealt, less that hand when it was called off (the host ended the game in the middle of it:
    the game then holds no hand)."""
    number = int(view["hand_number"]) if view else 0
    return number - 1 if view and view["hand"] is None and number else number


def _ended_early(snapshot: Snapshot, view: dict[str, Any] | None, mode: str) -> dict[str, str]:
    """Game over while a person and someone else still had chips: someone ended it (the host,
    or a moderator closing the table), and every phone is told so, and by whom when the table
    has a host ("by": their name). Empty: the game ended by itself (one player won every chip,
    or no person had chips left: R33)."""
    if mode != "over" or not view or not view["standings"]:
        return {}
    holding = [s["seat"] for s in view["standings"] if s.get("chips")]
    people = [p for p in holding if p in snapshot.seats and not snapshot.seats[p].is_computer]
    if len(holding) < 2 or not people:
        return {}
    host = snapshot.host_position
    return {"by": snapshot.name(host) if host is not None and host in snapshot.seats else ""}


def persons(snapshot: Snapshot) -> list[SeatInfo]:
    """The people seated (the host's list), once per version: read-only."""
    persons: list[SeatInfo] | None = snapshot.memo.get("persons")
    if persons is None:
        persons = snapshot.memo["persons"] = [
            s for s in snapshot.seats.values() if not s.is_computer
        ]
    return persons


def table_values(
    snapshot: Snapshot, view: dict[str, Any] | None, remaining: float | None, language: str
) -> dict[str, Any]:
    """``_data`` with None in this connection's own places (their order is the data's):
    read-only, once per version, tenth of a second and language (the run-out's words)."""
    key = ("data", remaining, language)
    data: dict[str, Any] | None = snapshot.memo.get(key)
    if data is not None:
        return data
    game = snapshot.game
    hand = view["hand"] if view else None
    data = {
        "version": snapshot.version,
        "screen": None,
        "status": snapshot.status,
        "you": None,
        "mine": None,
        "handoff": None,
        "to_act": hand["to_act"] if hand and not hand["finished"] else None,
        "legal": None,
        "remaining": remaining,
        "paused": snapshot.paused,
        "turn_seconds": snapshot.turn_seconds,
        "hand_number": game.hand_number if game else 0,
        "hand_over": bool(hand and hand["finished"]),
        # For the bet sheet's presets (pot-sized bets and the like).
        "pot_total": hand["pot_total"] if hand else 0,
        "current_bet": hand["current_bet"] if hand else 0,
        "big_blind": view["big_blind"] if view else 0,
        "your_bet": None,
        "next_url": f"/t/{snapshot.next_code}/" if snapshot.next_code else None,
        # A tournament's table ends, the tournament goes on (or ended) in its lobby.
        "in_tournament": snapshot.in_tournament,
    }
    if hand and hand["finished"]:
        odds = runout_of(snapshot)  # every hand face up, the odds by street
        if odds is not None:
            # The words odds.js writes, in this phone's language: sent only with a run-out,
            # so the page everyone loads stays as small as before (test_page_weight).
            with speaking(language):
                data["runout"] = {**odds, "words": {
                    "win": gettext("Win"), "split": gettext("Split"),
                    "exact": gettext("Chance to win: every card to come counted"),
                    "simulated": gettext("Chance to win: close estimate, from many deals"),
                }}
    snapshot.memo[key] = data
    return data


_UNSET: Any = object()


def runout_of(snapshot: Snapshot) -> dict[str, Any] | None:
    """The odds of a finished hand's run-out (``engine.runout.runout_dict``), once per
    version: only hands that were turned face up and the board, which every phone sees."""
    game = snapshot.game
    if game is None or game.hand is None or not game.hand.finished:
        return None
    memo = snapshot.memo
    found: dict[str, Any] | None = memo.get("runout", _UNSET)
    if found is not _UNSET:
        return found
    odds = runout_dict(game.hand)
    if odds is not None:
        # How long each street shows (tables.write.deadlines.deadline_for waits as long).
        odds["step"] = round(
            1000 * settings.TABLES_NEXT_HAND_PAUSE * settings.TABLES_RUNOUT_STEP
        )
    memo["runout"] = odds  # the memo of a version no longer the newest may be emptied
    return odds


def view_of(snapshot: Snapshot, viewer: int | None) -> dict[str, Any] | None:
    """``game_view(game, viewer)`` without the event list, from the spectator's view worked
    out once per version (engine.views.view_for adds the one seat's own cards)."""
    game = snapshot.game
    if game is None:
        return None
    public: dict[str, Any] | None = snapshot.memo.get("public_view")
    if public is None:
        public = game_view(game, None, events=False)
        snapshot.memo["public_view"] = public
    return view_for(public, game, viewer)


def _namer(names: dict[int, str]) -> Callable[[int | None], str]:
    """``Snapshot.name`` for these names, without holding on to a snapshot."""

    def name(position: int | None) -> str:
        return names.get(position, "?") if position is not None else "?"

    return name


def log_of(snapshot: Snapshot, language: str | None = None) -> list[str]:
    """The hand's action log in the active language (``language``, when the caller knows it
    already), once per version and language. Built from the spectator's events: the log
    names no hidden card, so it is the same for all."""
    game = snapshot.game
    if game is None or game.hand is None:
        return []
    language = language or get_language()
    lines: list[str] | None = snapshot.memo.get(("log", language))
    if lines is not None:
        return lines
    hand = game.hand
    names = tuple((p, s.name) for p, s in sorted(snapshot.seats.items()))
    # The deck tells this hand from any other (it never leaves the process).
    deal = bytes([card.id for card in hand.deck])
    key = (snapshot.id, snapshot.created_at, language)  # one log a table and language...
    this_hand = (game.hand_number, deal, names)  # ...of the hand it describes

    def read(log: Log) -> list[str]:
        log.add(visible_events(hand, None, log.count))
        return list(log.lines)

    lines = cache.read_log(
        key, len(hand.events), lambda: Log(_namer(dict(names))), read, this_hand
    )
    snapshot.memo[("log", language)] = lines
    return lines


# The frame data's values that differ between the connections at one version (``None`` in
# ``table_values``); the others are the table's, written once per version and tenth of a second.
_OWN = frozenset(("screen", "you", "mine", "handoff", "legal", "your_bet"))
_OWN_MARK = "\ue000own\ue001"
JSON_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


def data_json(data: dict[str, Any], memo: dict[Any, Any]) -> str:
    """``json.dumps(data)`` as table_data writes it, the table's values written once per
    version (``memo``: the snapshot's) and this connection's own put in between."""
    key = ("data-json", data["remaining"], tuple(data))
    pieces: list[str] | None = memo.get(key)
    if pieces is None:
        marked = {k: (_OWN_MARK if k in _OWN else v) for k, v in data.items()}
        text = json.dumps(marked, separators=(",", ":")).translate(JSON_ESCAPES)
        pieces = memo[key] = text.split(json.dumps(_OWN_MARK))
    own = [_json_value(v) for k, v in data.items() if k in _OWN]
    out = [pieces[0]]
    for value, piece in zip(own, pieces[1:], strict=True):
        out += [value, piece]
    return "".join(out)


def _json_value(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is int:
        return str(value)
    return json.dumps(value, separators=(",", ":")).translate(JSON_ESCAPES)


def table_data(data: Any, oob: bool = False, payload: str | None = None) -> SafeString:
    """The frame's small JSON part for scripts (``#table-data``), safe inside a script tag.
    ``payload``: ``data`` written so already (see ``data_json``)."""
    if payload is None:
        payload = json.dumps(data, separators=(",", ":")).translate(JSON_ESCAPES)
    oob_attr = ' hx-swap-oob="true"' if oob else ""
    return SafeString(
        f'<script id="table-data" type="application/json"{oob_attr}>{payload}</script>'
    )
