"""Every page carries the Content Security Policy and the Permissions-Policy."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _directives(policy: str) -> dict[str, list[str]]:
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {part[0]: part[1:] for part in parts}


def test_a_page_allows_scripts_and_styles_only_from_the_site_and_its_own_websocket() -> None:
    response = Client().get("/", HTTP_HOST="localhost")
    policy = _directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["connect-src"] == ["'self'", "ws://localhost"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert not [v for values in policy.values() for v in values if "unsafe" in v]


def test_over_https_the_websocket_allowed_is_wss_on_the_same_host(settings: object) -> None:
    response = Client().get("/", HTTP_HOST="127.0.0.1", secure=True)
    policy = _directives(response["Content-Security-Policy"])
    assert policy["connect-src"] == ["'self'", "wss://127.0.0.1"]


def test_a_refused_host_gets_the_fixed_policy() -> None:
    response = Client().get("/", HTTP_HOST="evil.example.com")
    assert response.status_code == 400
    assert _directives(response["Content-Security-Policy"])["connect-src"] == ["'self'"]


def test_permissions_policy_allows_share_clipboard_and_sound_only() -> None:
    header = Client().get("/how-to-play/")["Permissions-Policy"]
    allowed = sorted(item.split("=")[0] for item in header.split(", ") if item.endswith("(self)"))
    assert allowed == ["autoplay", "clipboard-write", "web-share"]
    assert "camera=()" in header and "geolocation=()" in header and "microphone=()" in header
