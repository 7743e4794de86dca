"""QR codes of join links, drawn on the server as inline SVG (no script, no image request)."""

from __future__ import annotations

from functools import lru_cache

import segno


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """An SVG that scales with its box: black on white in both themes (scanners want that)."""
    return qr_svg_once(url)


def qr_svg_once(url: str) -> str:
    """``qr_svg`` without keeping it: for links that hold a secret (a seat move's token)."""
    code = segno.make(url, error="m")
    return code.svg_inline(
        scale=4, border=2, dark="#000", light="#fff", omitsize=True,
        svgclass="qr", lineclass=None, title=url,
    )
