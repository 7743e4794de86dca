"""Play on the phones: the messages a phone sends while it sits at (or watches) a table:
``action`` (a tap of the action bar), ``reveal`` and ``hide`` (pass and play), ``back`` (an
away player is back), ``sync`` (draw me again, and tell me what became of my last tap),
``ping`` (are you there?) and ``rest_of_board`` (what would have come, P5).

Each handler takes the phone's connection (``tables.live.consumer.TableConsumer``) and the
checked message (``tables.live.protocol.Message``); the table of message types is
``HANDLERS``. A refusal is raised as ``tables.write.path.Refused`` and told to this phone by the
consumer; an action's own refusals are logged and told here (a stale one with the table drawn
again).
"""

from __future__ import annotations

import contextlib
from typing import Any

from channels.db import database_sync_to_async
from django.utils.translation import gettext as _

from tables import action_log, metrics
from tables.cache import Snapshot
from tables.live.frames import error_notice, info_notice
from tables.live.perspective import hide as hide_cards
from tables.live.perspective import reveal as reveal_cards
from tables.live.protocol import Handler, Message
from tables.write import path, play, rest_of_board
from tables.write.announce import guarded
from tables.write.reconnect import DATABASE_AWAY

# A phone's connection (``tables.live.consumer.TableConsumer``, which calls this module: typed
# loosely so that the two do not import each other).
Connection = Any

SAVING_SLOWLY = "saving_slowly"  # the database does not answer: nothing was done, say so


async def act(consumer: Connection, message: Message) -> None:
    """``{"type": "action", ...}``: the tap is played (every phone is drawn from the group
    message), counted once if it came twice, or refused to this phone."""
    assert consumer.table_id is not None
    started = metrics.now()
    try:
        outcome = await path.write_then_notify(
            play.act, consumer.table_id, consumer.hashes, kind=message.kind,
            amount=message.amount, version=message.version, action_id=message.action_id,
            seat=message.seat, revealed=consumer.pass_state.revealed,
        )
    except path.Refused as exc:
        action_log.refused(consumer.identity[0], message.version, exc.code)
        notice = error_notice(exc.code, exc.message)
        if exc.code == "stale":
            await consumer.send_view(force=True, notice=info_notice(exc.code, exc.message))
        else:
            await consumer.send_notice(notice)
        return
    except path.NotAnnounced as exc:
        # Saved, but the other phones could not be told (Redis is away): this phone is
        # drawn here, so that a tap that counted never looks lost.
        outcome = exc.result
        await consumer.send_view(force=True)
    except DATABASE_AWAY:
        action_log.refused(consumer.identity[0], message.version, SAVING_SLOWLY)
        raise  # told by the consumer
    except Exception as exc:
        action_log.failed(consumer.identity[0], message.version, exc)
        raise
    if outcome.applied:
        metrics.action_applied(consumer.table_id, outcome.version, started)
    else:  # the same tap twice (a double tap, or sent again after a drop): counted once
        await consumer.send_notice(info_notice(
            "already_counted", _("That tap was already counted once: nothing more changed.")
        ))
    # Applied: the frame follows from the group message, like everyone else's.


async def reveal(consumer: Connection, message: Message) -> None:
    """``{"type": "reveal", "seat": N}``: on a shared phone, the person at seat N holds it now
    (refused for a seat that is not this phone's, or while another of its seats is to act)."""
    snapshot = await consumer.current_snapshot()
    if snapshot is None:
        return
    mine = snapshot.positions_of(consumer.hashes)
    if not reveal_cards(snapshot, mine, consumer.pass_state, message.seat):
        raise path.Refused("not_your_seat", _("That seat is not yours to show."))
    assert consumer.table_id is not None and message.seat is not None
    await _come_back(consumer, [message.seat], snapshot)
    await consumer.send_view(force=True)


async def hide(consumer: Connection, message: Message) -> None:
    """``{"type": "hide"}``: a shared phone hides the cards it shows."""
    hide_cards(consumer.pass_state)
    await consumer.send_view(force=True)


async def back(consumer: Connection, message: Message) -> None:
    """``{"type": "back"}``: this phone's away player (on a shared phone, the one holding it)
    plays again."""
    snapshot = await consumer.current_snapshot()
    if snapshot is not None:
        mine = snapshot.positions_of(consumer.hashes)
        revealed = consumer.pass_state.revealed
        seats = mine if len(mine) == 1 else [revealed] if revealed is not None else []
        await _come_back(consumer, seats, snapshot)
        await consumer.send_view(force=True)


async def sync(consumer: Connection, message: Message) -> None:
    """``{"type": "sync"}``: the view drawn again; with an action id, only if this connection
    has not drawn the newest version yet, then what became of that tap."""
    if message.action_id:
        await consumer.send_view()  # only if this connection has not drawn it yet
        await _what_became_of(consumer, message)
        return
    await consumer.send_view(force=True)


async def ping(consumer: Connection, message: Message) -> None:
    """``{"type": "ping"}``, answered with the text frame ``pong``.

    A phone asks after a quiet spell or on waking. If Redis restarted meanwhile, this
    connection's group membership went with it and it hears of no change: it joins again (the
    same membership, renewed) and the table is drawn if it moved on past this connection's
    last frame. The answer comes after it."""
    if consumer.group:  # Redis away: answered all the same, joined on a later ping
        await guarded(f"table {consumer.identity[0]}", "joining again",
                      consumer.channel_layer.group_add, consumer.group, consumer.channel_name)
        with contextlib.suppress(*DATABASE_AWAY):  # the database away: a pong all the same
            drawn = consumer.sent_version
            await consumer.send_view()
            if consumer.sent_version > drawn:  # it had missed a change: perhaps a move
                await consumer.moved_meanwhile()
    await consumer.send(text_data="pong")


async def rest(consumer: Connection, message: Message) -> None:
    """``{"type": "rest_of_board"}``: someone dealt into the hand just over asks what would
    have come (P5); every phone at the table is drawn from the group message."""
    assert consumer.table_id is not None
    await path.write_then_notify(rest_of_board.show, consumer.table_id, consumer.hashes)


HANDLERS: dict[str, Handler] = {
    "action": act, "reveal": reveal, "hide": hide, "back": back, "sync": sync, "ping": ping,
    "rest_of_board": rest,
}


async def _what_became_of(consumer: Connection, message: Message) -> None:
    """A phone back after a drop asks about the tap it sent last, which no frame answered:
    applied at most once, whatever the phone sent (the version it was drawn for decides)."""
    assert consumer.table_id is not None
    code, text = await database_sync_to_async(play.what_became_of)(
        consumer.table_id, message.action_id, message.version, message.seat
    )
    await consumer.send_notice(info_notice(code, text))


async def _come_back(consumer: Connection, seats: list[int], snapshot: Snapshot) -> None:
    if any(snapshot.seats[p].away for p in seats if p in snapshot.seats):
        assert consumer.table_id is not None
        await path.write_then_notify(play.come_back, consumer.table_id, seats)
