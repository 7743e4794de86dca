"""Pages and the live frames go out without their templates' indentation, and read the same
(config/unindent.py: the middleware for pages, the loader for every template)."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.template import Context, Engine
from django.test import Client
from django.utils import translation

from config.unindent import compact

UNINDENTING = [("config.unindent.Loader", ["django.template.loaders.locmem.Loader"])]

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
    # ...and without the loader that unindents the templates themselves.
    plain = {**settings.TEMPLATES[0], "APP_DIRS": True}
    plain["OPTIONS"] = {k: v for k, v in plain["OPTIONS"].items() if k != "loaders"}
    settings.TEMPLATES = [plain]
    indented = Client().get("/").content
    assert re.search(rb"\n[ \t]", indented)

    def read(page: bytes) -> bytes:
        page = re.sub(rb'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', b"", page)
        return re.sub(rb"\s+", b" ", page)

    assert read(html) == read(indented)


def _engine(templates: dict[str, str], unindenting: bool = True) -> Engine:
    locmem = ("django.template.loaders.locmem.Loader", templates)
    loader: Any = ("config.unindent.Loader", [locmem]) if unindenting else locmem
    return Engine(loaders=[loader], libraries={"i18n": "django.templatetags.i18n"})


def test_the_loader_takes_the_indentation_out_of_a_template_once_when_it_is_compiled() -> None:
    templates = {
        "seat.html": '<div class="seat"\n     data-seat="{{ n }}">\n  <span>{{ name }}</span>'
                     '   \n\n  {% if n %}\n    <b>{{ n }}</b>\n  {% endif %}\n</div>\n',
        "mail.txt": "Hello\n    {{ name }}\n",
        "pre.html": "<pre>\n  {{ name }}\n    x</pre>\n",
    }
    engine = _engine(templates)
    context = Context({"n": 3, "name": "Asha\n  Rai"})
    seat = engine.get_template("seat.html")
    assert seat.render(context) == (
        '<div class="seat"\ndata-seat="3">\n<span>Asha\n  Rai</span>\n\n<b>3</b>\n\n</div>\n'
    )  # a variable's own white space is what it prints; a tag's line ends where it did
    assert engine.get_template("seat.html") is seat  # compiled (and unindented) once
    # Only HTML; verbatim text keeps its white space.
    assert engine.get_template("mail.txt").render(context) == "Hello\n    Asha\n  Rai\n"
    assert engine.get_template("pre.html").render(context) == "<pre>\n  Asha\n  Rai\n    x</pre>\n"


def test_a_translated_message_keeps_its_words_and_reads_as_written() -> None:
    """White space inside a translated block is the message's: it is looked up as written."""
    source = (
        "{% load i18n %}<p>\n  "
        "{% blocktranslate %}Your turn. {{ n }} to call.{% endblocktranslate %}"
        "\n  {% translate 'Fold' %}\n</p>"
    )
    with translation.override("ne"):
        unindented = _engine({"t.html": source}).get_template("t.html").render(Context({"n": 40}))
        indented = _engine({"t.html": source}, False).get_template("t.html").render(
            Context({"n": 40})
        )
    assert re.sub(r"\s+", " ", unindented) == re.sub(r"\s+", " ", indented)
    assert unindented.startswith("<p>\n") and "\n " not in unindented
    assert "40" in unindented and "Your turn" not in unindented  # the Nepali message was found
