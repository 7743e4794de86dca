"""The language switch's label font holds every letter of the label, and little else."""

from __future__ import annotations

from pathlib import Path

from django.conf.locale import LANG_INFO
from fontTools.ttLib import TTFont

FONT = Path(__file__).resolve().parents[2] / "static/fonts/nepali-label.woff2"


def test_the_label_font_draws_every_letter_of_nepali_s_own_name() -> None:
    label = LANG_INFO["ne"]["name_local"]
    cmap = TTFont(str(FONT)).getBestCmap()
    assert all(ord(letter) in cmap for letter in label), label


def test_the_label_font_is_a_small_part_of_the_whole_font() -> None:
    assert FONT.stat().st_size < 4096
    assert len(TTFont(str(FONT)).getBestCmap()) < 20
