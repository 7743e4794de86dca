"""Screens in Nepali say everything in Nepali: no English word outside names, codes and cards.

- The recap's chip graph: its axis said "hand 40".
- The statistics: plain Nepali names, the trackers' abbreviations written in Devanagari too
  (VPIP and PFR were left in English).
- The bet sheet: its presets' digits are the amounts' digits ("२.५×" beside "50").
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.translation import gettext, override

from tables.pages.season import LABELS
from tables.write import lobby
from tests.tables.helpers import play_out
from tests.tables.helpers.driver import seat_people_now

LATIN = re.compile(r"[A-Za-z]")
DEVANAGARI_DIGIT = re.compile(r"[\u0966-\u096f]")


@pytest.mark.django_db(transaction=True)
def test_the_recap_chart_speaks_nepali() -> None:
    table, sessions = seat_people_now([["आशा"]], lobby.TableSettings(seat_count=2))
    play_out(table.id)
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = sessions[0].session_key  # Asha's phone
    client.cookies["django_language"] = "ne"
    page = client.get(reverse("tables:recap", args=[table.code])).content.decode()
    labels = re.findall(r'<text class="chip-graph__label"[^>]*>([^<]*)</text>', page)
    assert labels, "no chip graph"
    assert not [text for text in labels if LATIN.search(text)], labels


def test_the_statistics_are_named_in_nepali() -> None:
    with override("ne"):
        names = {key: str(label) for key, label in LABELS.items()}
    assert not {k: v for k, v in names.items() if LATIN.search(v)}, names


def test_the_bet_sheet_writes_its_digits_as_its_amounts() -> None:
    with override("ne"):
        presets = [gettext("2.5×"), gettext("3×")]
    assert not [p for p in presets if DEVANAGARI_DIGIT.search(p)], presets
