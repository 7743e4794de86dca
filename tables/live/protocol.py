"""The websocket protocol: what a phone may send, checked before anything touches the table.

Client -> server, JSON objects (htmx's ws extension adds a "HEADERS" key, ignored here; form
values arrive as strings, so whole numbers may be written as digits in a string):

    {"type": "action", "kind": "raise", "amount": 120, "version": 17, "action_id": "a1b2",
     "seat": 2}                       # seat optional: the phone's seat that acts
    {"type": "reveal", "seat": 2}     # pass and play: the person at seat 2 holds the phone now
    {"type": "hide"}                  # pass and play: hide my cards again
    {"type": "back"}                  # an away player is back (any other message also counts)
    {"type": "sync"}                  # send me the current view again
    {"type": "sync", "action_id": "a1b2-fold", "version": 17, "seat": 2}
                                      # ... and tell me what became of this action (a phone
                                      # coming back with a tap no frame answered)
    {"type": "ping"}                  # are you there? answered with the text frame "pong"
    {"type": "rest_of_board"}         # after a hand ended before the river: what would have come
    {"type": "chat", "text": "nice hand"}       # table talk (tables.live.talk): 200 chars
    {"type": "react", "reaction": "nice_hand"}  # a quick reaction (tables.write.talk.REACTIONS)
    {"type": "mute", "seat": 3}       # this phone stops showing what seat 3 says ("unmute")
    {"type": "talk", "on": "0"}       # the host turns table talk off ("1": on again)
    {"type": "chat_history"}          # send me the chat drawer (the last lines) and its state
    {"type": "host", "do": "pause"}   # the host's controls (tables.live.host): pause, resume, end,
    {"type": "host", "do": "computer", "seat": 3}   # computer (an away seat), pass (the role),
                                      # menu (send me the controls as they stand);
                                      # at a tournament's table its host: tournament_pause,
                                      # tournament_resume, tournament_end, tournament_computer
    {"type": "out", "on": "1"}        # a player out of chips: tell me when the next game starts
                                      # ("0": don't; tables.live.out)
    {"type": "sight", "visible": true}    # this page is shown (false: hidden; tables.live.sight)

Anything else gets an error frame and changes nothing. A message that passes is answered by
the handler of its type (``Handler``; they are listed in ``tables.live.consumer.HANDLERS``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine.actions import ActionKind
from engine.hand import MAX_CHIPS

TYPES = ("action", "reveal", "hide", "back", "sync", "ping", "chat", "react", "mute", "unmute",
         "talk", "chat_history", "host", "rest_of_board", "sight", "out")
# tables.live.talk
TALK_TYPES = frozenset(("chat", "react", "mute", "unmute", "talk", "chat_history"))
HOST_CONTROLS = (  # tables.live.host
    "pause", "resume", "end", "computer", "pass", "menu", "learning_on", "learning_off",
    "tournament_pause", "tournament_resume", "tournament_end", "tournament_computer",
)
_ACTION_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_DIGITS = re.compile(r"^[0-9]{1,15}$")


class BadMessage(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Message:
    type: str
    kind: str = ""
    amount: int | None = None
    version: int = 0
    action_id: str = ""
    seat: int | None = None
    text: str = ""  # chat: as typed (checked by tables.write.talk)
    reaction: str = ""  # react: the reaction's name
    on: bool = True  # talk: on or off; sight: the page is visible
    do: str = ""  # host: which control


# What answers a message once it is checked: ``await handler(connection, message)`` (the
# connection is ``tables.live.consumer.TableConsumer``; its table of handlers, by type, is
# ``tables.live.consumer.HANDLERS``).
Handler = Callable[[Any, Message], Awaitable[None]]


def _switch(kind_of_message: str, raw: dict[str, Any], seat: int | None) -> Message:
    """The host's controls, a page shown or hidden, a player out asking to be told."""
    if kind_of_message == "sight":
        return Message(type="sight", on=raw.get("visible") is True)
    if kind_of_message == "out":  # tables.live.out: be told when the next game starts, or not
        return Message(type="out", on=raw.get("on") not in (False, 0, "0", "false", "off"))
    do = raw.get("do")
    if not isinstance(do, str) or do not in HOST_CONTROLS:
        raise BadMessage("unknown_control", _("Unknown host control."))
    return Message(type="host", seat=seat, do=do)


def parse(text: str | None, data: bytes | None, max_bytes: int) -> Message:
    if data is not None or text is None:
        raise BadMessage("binary", _("Send text messages (JSON), not binary data."))
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise BadMessage("too_big", _("That message is too long."))
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("bad_json", _("That message is not valid JSON.")) from None
    if not isinstance(raw, dict):
        raise BadMessage("bad_message", _("A message must be a JSON object with a type."))
    kind_of_message = raw.get("type")
    if kind_of_message not in TYPES:
        raise BadMessage("unknown_type", _("Unknown message type."))
    seat = _seat(raw.get("seat"))
    if kind_of_message in TALK_TYPES:
        return _talk(kind_of_message, raw, seat)
    if kind_of_message in ("host", "sight", "out"):
        return _switch(kind_of_message, raw, seat)
    if kind_of_message == "sync" and raw.get("action_id") not in (None, ""):
        version = whole_number(
            raw.get("version"), "bad_version", gettext_noop("Every action needs the version seen.")
        )
        return Message(
            type="sync", seat=seat, action_id=_action_id(raw.get("action_id")),
            version=version or 0,
        )
    if kind_of_message != "action":
        return Message(type=kind_of_message, seat=seat)
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in {k.value for k in ActionKind}:
        raise BadMessage(
            "unknown_action", _("Unknown action: fold, check, call, bet, raise or all_in.")
        )
    action_id = _action_id(raw.get("action_id"))
    version = whole_number(
        raw.get("version"), "bad_version", gettext_noop("Every action needs the version seen.")
    )
    if version is None:
        raise BadMessage("bad_version", _("Every action needs the version seen."))
    amount = whole_number(
        raw.get("amount"), "bad_amount",
        gettext_noop("The amount must be a whole number of chips."),
    )
    if amount is not None and not 0 < amount <= MAX_CHIPS:
        raise BadMessage("bad_amount", _("The amount must be more than zero and not absurd."))
    return Message("action", kind, amount, version, action_id, seat)


def _action_id(value: Any) -> str:
    if not isinstance(value, str) or not _ACTION_ID.match(value):
        raise BadMessage("bad_action_id", _("Every action needs an id (letters and digits)."))
    return value


def _talk(kind_of_message: str, raw: dict[str, Any], seat: int | None) -> Message:
    text = raw.get("text", "")
    if not isinstance(text, str):
        raise BadMessage("bad_text", _("A chat message must be text."))
    reaction = raw.get("reaction", "")
    if not isinstance(reaction, str):
        raise BadMessage("bad_reaction", _("Unknown reaction."))
    on = raw.get("on", True)
    if isinstance(on, str):
        on = on.strip().lower() not in ("0", "false", "off", "")
    elif not isinstance(on, bool):
        raise BadMessage("bad_message", _("A message must be a JSON object with a type."))
    return Message(type=kind_of_message, seat=seat, text=text, reaction=reaction, on=on)


def whole_number(value: Any, code: str, message: str) -> int | None:
    """A whole number given as a JSON integer or a string of digits; None when absent.
    ``message`` is translated only when it is needed (marked with ``gettext_noop``)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise BadMessage(code, _(message))
    if isinstance(value, int):
        if value < 0:
            raise BadMessage(code, _(message))
        return value
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    if isinstance(value, str) and _DIGITS.match(value.strip()):
        return int(value.strip())
    raise BadMessage(code, _(message))


def _seat(value: Any) -> int | None:
    seat = whole_number(value, "bad_seat", gettext_noop("A seat is a number from 0 to 5."))
    if seat is not None and seat > 5:
        raise BadMessage("bad_seat", _("A seat is a number from 0 to 5."))
    return seat
