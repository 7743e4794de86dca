"""Seat claims: how a browser session proves a seat is its own, without accounts.

Each seat a session takes gets a random secret kept only in that session; the database keeps
the secret's SHA-256. One session may hold several seats (pass and play); "play again" copies
the hashes to the new table, so the same people own their new seats without doing anything.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, MutableMapping
from typing import Any

SESSION_KEY = "tables_seat_secrets"
# The most recent secrets a session remembers: every game of "your games" (one
# secret per table joined, "play again" keeps it), about 33 bytes each in the session.
KEEP = 1000


def claim_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_claim(session: MutableMapping[str, Any]) -> str:
    """Remember a new secret in ``session`` and return the hash to store on the seat."""
    secret = secrets.token_urlsafe(24)
    kept = [s for s in session.get(SESSION_KEY, []) if isinstance(s, str)]
    session[SESSION_KEY] = [*kept, secret][-KEEP:]
    return claim_hash(secret)


def session_hashes(session: MutableMapping[str, Any] | None) -> list[str]:
    if session is None:
        return []
    return [claim_hash(s) for s in session.get(SESSION_KEY, []) if isinstance(s, str)]


def forget(session: MutableMapping[str, Any], hashes: Iterable[str]) -> None:
    gone = set(hashes)
    session[SESSION_KEY] = [s for s in session.get(SESSION_KEY, []) if claim_hash(s) not in gone]


def phone_id(session_key: str | None) -> str:
    """A name for one phone's session that does not give the session away ("" for none): the
    phone's open pages are told by it when it forgets its games."""
    return hashlib.sha256(("phone:" + session_key).encode()).hexdigest() if session_key else ""
