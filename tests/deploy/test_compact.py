"""Pages go out without their templates' indentation, and read the same (config/unindent.py)."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.test import Client

from config.unindent import compact

pytestmark = pytest.mark.django_db


def test_the_indentation_after_each_line_break_goes_and_the_line_breaks_stay() -> None:
    html = b'<ol>\n    <li>Asha\n\t  <b>bets</b></li>\n  <li class="x"\n      data-s="1">x</li>'
    assert compact(html) == b'<ol>\n<li>Asha\n<b>bets</b></li>\n<li class="x"\ndata-s="1">x</li>'


def test_a_page_with_verbatim_text_keeps_its_white_space() -> None:
    html = b"<form>\n  <textarea name=phh>\n  a\n    b</textarea>\n</form>"
    assert compact(html) == html
    assert compact(b"<PRE>\n  x</PRE>") == b"<PRE>\n  x</PRE>"


def test_the_home_page_arrives_without_indentation_and_reads_the_same(settings: Any) -> None:
    page = Client().get("/", HTTP_ACCEPT_ENCODING="gzip")
    assert page["Content-Encoding"] == "gzip"
    html = gzip.decompress(page.content)
    assert b"<main" in html and b"</html>" in html
    assert not re.search(rb"\n[ \t]", html), html[:400]
    # Without the middleware the page is indented; read as HTML reads white space (a run of it
    # is one space) the two are the same page. Tokens differ per response and are left out.
    compacting = "config.unindent.CompactHTMLMiddleware"
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m != compacting]
    indented = Client().get("/").content
    assert re.search(rb"\n[ \t]", indented)

    def read(page: bytes) -> bytes:
        page = re.sub(rb'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', b"", page)
        return re.sub(rb"\s+", b" ", page)

    assert read(html) == read(indented)
