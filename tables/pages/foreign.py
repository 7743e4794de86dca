"""Hands from elsewhere in the replayer: ``/replay/``.

Anyone may paste or upload one hand in PHH (at most 64 KB); the engine plays it again with
this table's rules (engine.foreign) and the page draws it in the same replayer as a table's own
hands (templates/history/replayer.html), or says why it cannot: the file's syntax error and its
line, another variant, an action this table's rules forbid, a file too large. Nothing is
stored: the hand lives only in the response.
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from engine.foreign import MAX_BYTES, foreign_hand
from engine.phh import PhhError
from tables.draw.describe import describe_events


class _Unreadable(Exception):
    """The upload cannot be read as one PHH text; the message is for a person."""


def _text_of(request: HttpRequest) -> str:
    """The PHH text sent: a chosen file, else what was pasted."""
    too_large = _("The file is larger than %(kb)d KB. Give one hand per file.") % {
        "kb": MAX_BYTES // 1024
    }
    try:
        upload = request.FILES.get("file")
        pasted = request.POST.get("phh", "")
    except RequestDataTooBig:
        raise _Unreadable(too_large) from None
    if upload is not None and upload.size:
        if upload.size > MAX_BYTES:
            raise _Unreadable(too_large)
        raw: bytes = upload.read(MAX_BYTES + 1)
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise _Unreadable(_("The file is not text (UTF-8): choose a .phh file.")) from None
    if len(pasted.encode("utf-8")) > MAX_BYTES:
        raise _Unreadable(too_large)
    if not pasted.strip():
        raise _Unreadable(_("Paste a hand history or choose a file first."))
    return pasted


@require_http_methods(["GET", "HEAD", "POST"])
def foreign_replay(request: HttpRequest) -> HttpResponse:
    if request.method in ("GET", "HEAD"):
        return render(request, "history/foreign/upload.html", {"text": ""})
    text = ""
    try:
        text = _text_of(request)
        hand = foreign_hand(text)
    except _Unreadable as exc:
        return _refused(request, str(exc), text)
    except PhhError as exc:
        reason = _("This hand cannot be replayed here: %(reason)s") % {"reason": str(exc)}
        return _refused(request, reason, text)

    def name(seat: int | None) -> str:
        return hand.names.get(seat, "?") if seat is not None else ""

    replay = hand.replay_data()
    replay["lines"] = describe_events(hand.events, name, keep_empty=True)
    return render(request, "history/foreign/replay.html", {
        "number": hand.number if hand.number is not None else "",
        "replay": replay,
    })


def _refused(request: HttpRequest, reason: str, text: str) -> HttpResponse:
    return render(
        request, "history/foreign/upload.html", {"error": reason, "text": text[:MAX_BYTES]},
        status=400,
    )
