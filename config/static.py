"""Static files: hashed names, gzip and Brotli copies, served for a year as immutable.

``manage.py collectstatic`` copies static/ (and the packages' files) into STATIC_ROOT under
names carrying a hash of their content (``css/app.3f2a9c1b7d4e.css``), next to ``.gz`` and
``.br`` copies, and writes a manifest from plain names to hashed ones. Pages name the hashed
files, so a phone caches each one for good (WhiteNoise and the nginx configuration in deploy/
say "immutable, a year") and a new deploy is a new name: no phone keeps running an old script
against a new server.

With STATIC_COLLECTED off (the developer's default) pages name the plain files, served
straight from static/ and re-read on every request, so an edit shows at once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from whitenoise.storage import CompressedManifestStaticFilesStorage

log = logging.getLogger("tables.static")


class CollectedStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """Hashed names from the manifest, with DEBUG on too (`bash scripts/run.sh` collects)."""

    # Also names the hashed icons inside the web app manifest, so they cache for good too.
    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        ("*.webmanifest", ((r'''(?P<matched>"src":\s*"(?P<url>[^"]+)")''', '"src": "%(url)s"'),)),
    )
    manifest_strict = False
    _warned = False
    # Kept under their plain names too (WHITENOISE_KEEP_ONLY_HASHED_FILES deletes the others):
    # files asked for by a name written outside the app. nginx answers with
    # errors/restarting.html itself when no process does (deploy/nginx/holdem.conf).
    plain_kept = frozenset({"errors/restarting.html"})

    def delete_files(self, files_to_delete: Iterable[str]) -> None:
        super().delete_files([name for name in files_to_delete if name not in self.plain_kept])

    def _save(self, name: str, content: Any) -> str:
        # collectstatic copies each file here first; the project's own stylesheets and
        # scripts are stored minified, so their hashes, .br and .gz copies are of what phones get.
        minify = minify_css if _own_css(name) else minify_js if _own_js(name) else None
        if minify is not None and not getattr(content, "_minified", False):
            content.seek(0)  # (the manifest has read it to hash it)
            content = ContentFile(minify(content.read().decode("utf-8")).encode("utf-8"))
            content._minified = True
        return str(super()._save(name, content))

    def url(self, name: str | None, force: bool = False) -> str:
        return str(super().url(name, force=True))

    def stored_name(self, name: str) -> str:
        try:
            return str(super().stored_name(name))
        except ValueError:
            # Not collected (collectstatic has not run since the file appeared): the plain
            # name still works where the files are served from static/, and a page is better
            # than an error. Said once, for the operator.
            if not CollectedStorage._warned:
                CollectedStorage._warned = True
                log.warning("static file %s is not collected: run manage.py collectstatic", name)
            return name


_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_SPACE = re.compile(r"\s+")
_AROUND = re.compile(r"\s*([{};,>])\s*")


def minify_css(text: str) -> str:
    """The project's CSS without its comments and runs of white space: the comments explain
    the rules to maintainers and are a quarter of what a phone downloads, Brotli or not.
    Only comments, spaces and the spaces around ``{ } ; , >`` go: a space before ``:`` may be a
    descendant combinator (``a :focus``), so it stays. The stylesheets hold no strings with
    ``/*`` in them (tests/deploy/test_minify.py checks the result against the source)."""
    text = _COMMENT.sub("", text)
    text = _SPACE.sub(" ", text)
    return _AROUND.sub(r"\1", text).strip() + "\n"


def _own_css(name: str) -> bool:
    return name.startswith("css/") and name.endswith(".css")


# A block comment that fills its lines (nothing after it on its last line), a line that is a
# "//" comment, the spaces that begin a line.
_JS_BLOCK_LINES = re.compile(r"^[ \t]*/\*(?:(?!\*/)[\s\S])*\*/[ \t]*\n", re.M)
_JS_LINE_COMMENT = re.compile(r"^[ \t]*//[^\n]*\n", re.M)
_INDENT = re.compile(r"^[ \t]+", re.M)


def minify_js(text: str) -> str:
    """The project's scripts without their comment lines and indentation: the comments explain
    the code to maintainers and are a third of what a phone downloads of them. Only whole lines
    and the spaces that begin a line go; nothing inside a line is touched (strings, regular
    expressions, a comment after code), and every line break stays where code was, so the
    semicolons JavaScript inserts are the same. The scripts hold no string over several lines
    (tests/test_front_end.py)."""
    text = _JS_BLOCK_LINES.sub("", text)
    text = _JS_LINE_COMMENT.sub("", text)
    return _INDENT.sub("", text)


def _own_js(name: str) -> bool:
    return name.startswith("js/") and name.endswith(".js")



_HASHED_NAME = re.compile(r"\.[0-9a-f]{12}\.\w+$")


class ImmutableHeadersMiddleware:
    """A hashed static file goes without the headers that only serve to ask for it again.

    Its name changes with its content and it is cached as immutable for a year, so no browser
    revalidates it: WhiteNoise's ``ETag`` and ``Last-Modified`` are bytes for nothing. On a first
    visit over HTTP/1.1 they are about 75 bytes of each of a table page's 17 files
    (``tests/browser/test_page_weight.py``). Plain names (the icons a browser asks for by
    itself, cached for a day) keep them. Placed just outside WhiteNoise's middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.prefix = settings.STATIC_URL or "/static/"

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (
            response.status_code == 200
            and request.path.startswith(self.prefix)
            and _HASHED_NAME.search(request.path)
        ):
            for name in ("ETag", "Last-Modified"):
                if response.has_header(name):
                    del response[name]
        return response
