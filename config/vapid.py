"""The VAPID key pair that signs this server's Web Push requests (RFC 8292).

In production both halves come from the environment (``VAPID_PRIVATE_KEY``: the raw 32-byte
P-256 private key, base64url; ``VAPID_PUBLIC_KEY``: the uncompressed public point, base64url,
what browsers are given as the ``applicationServerKey``); without them notifications are off.
For development (``DEBUG`` on) a pair is made once and kept in ``.vapid-dev.json`` beside the
SQLite file (git ignores it), so the subscriptions of a laptop's browsers stay valid across
restarts.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_pair() -> tuple[str, str]:
    """A fresh (private, public) pair, both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(private), b64url(public)


def check_pair(private: str, public: str) -> None:
    """ImproperlyConfigured unless ``public`` is ``private``'s public key."""
    try:
        raw = unb64url(private)
        key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
        derived = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    except ValueError:
        raise ImproperlyConfigured("VAPID_PRIVATE_KEY must be a base64url P-256 key") from None
    if len(raw) != 32 or b64url(derived) != public.rstrip("="):
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY must be VAPID_PRIVATE_KEY's public key")


def keys(private: str, public: str, *, debug: bool, kept: Path) -> tuple[str, str]:
    """The pair to use: the environment's, else (DEBUG only) the one kept in ``kept``, made
    the first time; ("", "") in production without keys (notifications off)."""
    if private or public:
        check_pair(private, public)
        return private, public.rstrip("=")
    if not debug:
        return "", ""
    try:
        saved = json.loads(kept.read_text())
        return str(saved["private"]), str(saved["public"])
    except (OSError, ValueError, KeyError):
        pass
    private, public = new_pair()
    try:
        kept.write_text(json.dumps({"private": private, "public": public}))
        kept.chmod(0o600)
    except OSError:
        pass  # a read-only checkout: this process's pair only
    return private, public
