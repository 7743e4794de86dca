"""Join codes: short, read aloud and typed on a phone without confusion (no 0/O, no 1/I).

Six characters from a 32-symbol alphabet give 2**30 codes; with failed attempts rate-limited
(tables.ratelimit) nobody finds an open table by guessing.
"""

from __future__ import annotations

import re
import secrets

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
LENGTH = 6
_SEPARATORS = re.compile(r"[\s\-_.·]+")


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize(text: str) -> str | None:
    """The code someone typed, forgiving case, spaces and dashes; None if it cannot be a code."""
    code = _SEPARATORS.sub("", text or "").upper()
    if len(code) != LENGTH or any(ch not in ALPHABET for ch in code):
        return None
    return code


def pretty(code: str) -> str:
    """Groups of three read aloud more easily: ``K7Q 4MX``."""
    return f"{code[:3]} {code[3:]}"
