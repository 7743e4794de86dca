"""Pages sent without their templates' indentation.

The templates are indented for the people who edit them; a phone gains nothing from the spaces
that begin each line. Dropped before the page is gzipped, they are about 200 of a table page's
5,000 bytes on the wire (``tests/browser/test_page_weight.py``). Only the spaces and tabs that
follow a line break go: a line break stays, so the page reads the same (in HTML's normal flow a
run of white space is one space, with or without the indentation). A page holding ``<pre>`` or
``<textarea>``, where white space is text, is sent as it was written.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

_INDENT = re.compile(rb"\n[ \t]+")
_VERBATIM = re.compile(rb"<(?:pre|textarea)\b", re.IGNORECASE)


def compact(html: bytes) -> bytes:
    """``html`` without the spaces and tabs that begin its lines (unless it has verbatim text)."""
    if _VERBATIM.search(html):
        return html
    return _INDENT.sub(b"\n", html)


class CompactHTMLMiddleware:
    """Strip the indentation of HTML responses (before GZipMiddleware compresses them)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            not response.streaming
            and not response.has_header("Content-Encoding")
            and response.get("Content-Type", "").startswith("text/html")
        ):
            response.content = compact(response.content)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response
