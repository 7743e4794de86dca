"""Static files in production: hashed names on the pages, Brotli or gzip, immutable for a year.

A real Daphne with the README's production variables (behind a proxy that says HTTPS) and the
files collected by ``manage.py collectstatic`` into a scratch STATIC_ROOT.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from tests.deploy.production import PRODUCTION
from tests.helpers.servers import Server

HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")
YEAR = 365 * 24 * 3600


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    scratch = tmp_path_factory.mktemp("static")
    env = {
        **PRODUCTION, "ALLOWED_HOSTS": "127.0.0.1", "DATABASE_URL": f"sqlite:///{scratch}/db",
        "STATIC_ROOT": str(scratch / "static"), "SERVE_STATIC": "true",
    }
    live = Server(env)
    for name in ("REDIS_URL", "STATIC_COLLECTED", "SECURE_SSL_REDIRECT"):
        live.env.pop(name, None)
    live.manage("migrate", "--noinput")
    live.manage("collectstatic", "--noinput")
    live.start()
    yield live
    live.stop()


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https", **headers})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _references(page: str) -> list[str]:
    """The static files a page names (a fragment, as in ``icons.svg#suit-h``, is no part of
    the file's name)."""
    return [url.split("#")[0] for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', page)]


def test_the_home_page_names_only_hashed_static_files(server: Server) -> None:
    status, _headers, body = _get(server.base + "/")
    assert status == 200
    found = _references(body.decode())
    assert len(found) >= 10 and any(u.endswith(".css") for u in found), found
    for url in found:
        assert HASHED.search(url), url


def test_static_files_come_compressed_and_immutable_for_a_year(server: Server) -> None:
    _status, _headers, body = _get(server.base + "/")
    for url in _references(body.decode()):
        plain_status, plain, plain_body = _get(server.base + url)
        assert plain_status == 200, url
        cache = plain["Cache-Control"]
        assert "immutable" in cache, (url, cache)
        assert int(re.search(r"max-age=(\d+)", cache).group(1)) >= YEAR  # type: ignore[union-attr]
        # Never asked for again, so nothing to revalidate it by (config/static.py).
        for header in ("ETag", "Last-Modified", "Access-Control-Allow-Origin"):
            assert header not in plain, (url, header)
        if not url.endswith((".css", ".js", ".svg", ".webmanifest")):
            continue  # images are compressed already
        _s, br, br_body = _get(server.base + url, **{"Accept-Encoding": "br, gzip"})
        _s, gz, gz_body = _get(server.base + url, **{"Accept-Encoding": "gzip"})
        assert br.get("Content-Encoding") == "br", url
        assert gz.get("Content-Encoding") == "gzip", url
        assert "Accept-Encoding" in br.get("Vary", ""), url
        assert len(br_body) < len(gz_body) < len(plain_body), url


def test_the_web_app_manifest_names_its_icons_by_hashed_names(server: Server) -> None:
    _status, _headers, body = _get(server.base + "/")
    manifest = next(u for u in _references(body.decode()) if ".webmanifest" in u)
    _s, _h, text = _get(server.base + manifest)
    icons = re.findall(r'"src":\s*"([^"]+)"', text.decode())
    assert len(icons) == 5
    for icon in icons:
        assert HASHED.search(icon), icon
        status, headers, _b = _get(server.base + "/static/" + icon)
        assert status == 200 and "immutable" in headers["Cache-Control"], icon


def test_an_unknown_static_file_is_a_404(server: Server) -> None:
    assert _get(server.base + "/static/js/app.000000000000.js")[0] == 404


def _plain(url: str) -> tuple[int, str]:
    """Over plain HTTP with no proxy saying otherwise (no X-Forwarded-Proto)."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(url, timeout=10) as response:
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")


def test_plain_http_is_redirected_to_https_but_monitors_are_answered(server: Server) -> None:
    status, location = _plain(server.base + "/how-to-play/")
    assert status == 301 and location == f"https://127.0.0.1:{server.port}/how-to-play/"
    assert _plain(server.base + "/healthz") == (200, "")
    assert _plain(server.base + "/metrics") == (200, "")  # loopback, no proxy
