"""Make static/fonts/nepali-label.woff2: the glyphs of the language switch's own label only.

Every English page shows the switch to Nepali, labelled in Nepali ("नेपाली"). Where the device
has no Devanagari font that label needs one; the whole Devanagari subset (54 KB in bold) would
more than double an English page's weight for six letters, so the label gets a font of its own
holding only them (about 1.3 KB), cut from the vendored Noto Sans Devanagari (SIL Open Font
License 1.1, static/vendor/noto-sans-devanagari-5.3.0/LICENSE; the OFL allows such a subset).
Run again if the label changes:

    .venv/bin/python scripts/make_label_font.py
"""

from __future__ import annotations

from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parent.parent
VENDORED = ROOT / "static/vendor/noto-sans-devanagari-5.3.0"
SOURCE = VENDORED / "noto-sans-devanagari-devanagari-700-normal.woff2"
TARGET = ROOT / "static/fonts/nepali-label.woff2"
LABEL = "नेपाली"  # django.conf.locale.LANG_INFO["ne"]["name_local"]


def main() -> None:
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]  # the conjuncts and vowel signs shape as in the full font
    font = subset.load_font(str(SOURCE), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=LABEL)
    subsetter.subset(font)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(TARGET), options)
    print(f"{TARGET.relative_to(ROOT)}: {TARGET.stat().st_size} bytes")


if __name__ == "__main__":
    main()
