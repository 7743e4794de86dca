"""The Nepali catalogue is complete, compiled, and speaks the glossary's words."""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.test import Client

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "ne" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|<[^>]+>")


@dataclass
class Entry:
    msgctxt: str = ""  # the context that tells two uses of one English word apart
    msgid: str = ""
    msgid_plural: str = ""
    msgstr: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (enough of the format for ours)."""
    entries: list[Entry] = []
    entry = Entry()
    last = ""
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry.msgid:
                entries.append(entry)
            entry = Entry()
        elif line.startswith("#,"):
            entry.flags = [f.strip() for f in line[2:].split(",")]
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            text = ast.literal_eval(line)
            if last == "msgstr":
                entry.msgstr[-1] += text
            else:
                setattr(entry, last, getattr(entry, last) + text)
        else:
            key, _, value = line.partition(" ")
            text = ast.literal_eval(value)
            if key.startswith("msgstr"):
                last = "msgstr"
                entry.msgstr.append(text)
            else:
                last = key
                setattr(entry, key, text)
    return entries


ENTRIES = read_po(LOCALE / "django.po")


def test_every_string_has_a_nepali_translation() -> None:
    assert len(ENTRIES) > 300
    untranslated = [e.msgid for e in ENTRIES if not e.msgstr or not all(e.msgstr)]
    fuzzy = [e.msgid for e in ENTRIES if "fuzzy" in e.flags]
    assert not untranslated, untranslated
    assert not fuzzy, fuzzy


def test_translations_keep_every_placeholder_and_tag() -> None:
    for e in ENTRIES:
        for form, text in enumerate(e.msgstr):
            # The plural forms (msgstr[1]...) translate msgid_plural, which may name the count.
            source = e.msgid_plural if form and e.msgid_plural else e.msgid
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(source)), (
                e.msgid
            )


def test_the_compiled_catalogue_matches_the_po_file() -> None:
    with open(LOCALE / "django.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for e in ENTRIES:
        if e.msgid_plural:
            got = compiled.ngettext(e.msgid, e.msgid_plural, 1)
        elif e.msgctxt:
            got = compiled.pgettext(e.msgctxt, e.msgid)
        else:
            got = compiled.gettext(e.msgid)
        assert got == e.msgstr[0], f"django.mo is stale for {e.msgid!r}: run compilemessages"


@pytest.mark.django_db
def test_the_how_to_play_page_in_nepali_uses_the_glossary_words(client: Client) -> None:
    client.cookies["django_language"] = "ne"
    page = client.get("/how-to-play/", HTTP_ACCEPT_LANGUAGE="ne").content.decode()
    assert '<html lang="ne">' in page
    for word in ["हुकुम", "पान", "इट्टा", "चिडी", "एक्का", "फ्लप", "रिभर", "साइड पट", "अल-इन"]:
        assert word in page, word
    assert "What beats what?" not in page


@pytest.mark.django_db
def test_the_language_switch_changes_the_home_page(client: Client) -> None:
    home = client.get("/").content.decode()
    assert "Play with friends" in home and 'value="ne"' in home
    client.post("/i18n/setlang/", {"language": "ne", "next": "/"})
    assert "साथीहरूसँग खेल्नुहोस्" in client.get("/").content.decode()
