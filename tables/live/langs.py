"""The language of a websocket connection (pages use Django's LocaleMiddleware)."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, get_supported_language_variant, override
from django.utils.translation.trans_real import parse_accept_lang_header


def language_from_scope(scope: dict[str, Any]) -> str:
    """The language cookie if set, else the browser's preference, else the default."""
    candidates = []
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie:
        candidates.append(cookie)
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin1")
    candidates += [code for code, _q in parse_accept_lang_header(accept) if code != "*"]
    for code in candidates:
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def speaking(language: str) -> AbstractContextManager[Any]:
    """``translation.override(language)``, or nothing to do when it is the active language
    already (a websocket connection activates its own once: every frame it draws would
    otherwise switch the language on and back)."""
    return nullcontext() if get_language() == language else override(language)
