"""Lighthouse (mobile) on the live table page, with the home page as the reference in the same run.

What issue 16 asks: on a table of one person and five hard computer players, mid-hand, Lighthouse
mobile scores performance >= 95, accessibility 100, best practices 100. This script serves the
app as in production (DEBUG off, collected static files with hashed names and Brotli, Daphne,
SQLite), creates that table through the real home page in a headless Chromium, then runs the
Lighthouse command line against the table page in the player's browser profile, a few times,
and prints each run's scores and the metrics behind performance. The home page is measured
the same way in the same run: it has no live updates, so the difference is the table's cost.

Lighthouse is not a project dependency (it is a Node program): install it anywhere, e.g.
``npm install --prefix /tmp/lh lighthouse@12``, and pass its path with ``--lighthouse``.

    .venv/bin/python -m benchmarks.lighthouse_table \
        --lighthouse /tmp/lh/node_modules/.bin/lighthouse

Scores move with the machine's load (Lighthouse simulates a slow phone from the measured trace,
and a busy CPU lengthens the trace's tasks): check ``uptime`` first, as the printed header does.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.helpers.servers import free_port

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices")
METRICS = (
    "first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
    "cumulative-layout-shift", "speed-index", "interactive",
)


def _server_env(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    env.update({
        "DEBUG": "false",
        "SECRET_KEY": "lighthouse-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "STATIC_COLLECTED": "true",
        "STATIC_ROOT": str(workdir / "static"),
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "LOG_LEVEL": "WARNING",
    })
    return env


def _start_server(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = _server_env(workdir)
    python = sys.executable
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    port = free_port()
    server = subprocess.Popen(
        [python, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(port),
         "config.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1).read()
            return server, url
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start")


def _create_table(url: str, profile: Path) -> str:
    """A table of one person and five hard computers, created through the home page in a
    Chromium profile that Lighthouse then opens: the page and its websocket carry the person's
    seat cookie, as on their phone (an extra Cookie header would reach the page but not the
    websocket, and Lighthouse would measure a spectator). Returns the table page's address."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=["--no-sandbox"]
        )
        page = context.new_page()
        page.goto(url + "/new/?mode=computer")
        page.fill("input[name=name]", "Asha")
        for choice in ("input[name=seats][value='6']", "input[name=level][value=hard]"):
            page.locator(choice).evaluate("radio => { radio.checked = true; }")
        page.get_by_test_id("create-submit").click()
        page.get_by_test_id("action-bar").wait_for()
        table = page.url
        context.close()
    return table


def _lighthouse(binary: str, url: str, profile: Path | None, out: Path) -> dict[str, Any]:
    flags = "--headless=new --no-sandbox --disable-gpu"
    if profile:
        flags += f" --user-data-dir={profile}"
    command = [
        binary, url, "--quiet", "--output=json", f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={flags}",
    ]
    for _attempt in range(3):  # Lighthouse now and then loses a trace (NO_NAVSTART): again
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM})
        if done.returncode == 0:
            break
    else:
        raise RuntimeError(f"Lighthouse failed three times on {url}")
    report: dict[str, Any] = json.loads(out.read_text())
    return report


def _summary(report: dict[str, Any]) -> dict[str, float]:
    row = {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}
    for name in METRICS:
        row[name] = float(report["audits"][name]["numericValue"])
    return row


def _failing(report: dict[str, Any]) -> list[str]:
    """Audits that lost points outside performance (what to fix for a 100)."""
    lost = []
    for name in ("accessibility", "best-practices"):
        for ref in report["categories"][name]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                lost.append(f"{name}: {ref['id']} ({audit['title']})")
    return lost


def _print(label: str, rows: list[dict[str, float]]) -> None:
    print(f"\n{label} ({len(rows)} runs)")
    for key in (*CATEGORIES, *METRICS):
        values = [row[key] for row in rows]
        shown = ", ".join(f"{v:.3g}" if key == "cumulative-layout-shift" else f"{v:.0f}"
                          for v in values)
        print(f"  {key:26} median {statistics.median(values):8.3g}   [{shown}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lighthouse", default="lighthouse", help="the lighthouse command")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="a folder to keep the JSON reports in")
    args = parser.parse_args()

    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 minutes), "
          f"{os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        reports = args.keep or workdir
        reports.mkdir(parents=True, exist_ok=True)
        server, url = _start_server(workdir)
        try:
            profile = workdir / "profile"
            table = _create_table(url, profile)
            print(f"table page: {table}")
            found: dict[str, list[dict[str, float]]] = {"home page (reference)": [],
                                                         "table page": []}
            failing: set[str] = set()
            for run in range(args.runs):
                for label, page, seat in (("home page (reference)", url + "/", None),
                                          ("table page", table, profile)):
                    out = reports / f"{'table' if seat else 'home'}-{run}.json"
                    report = _lighthouse(args.lighthouse, page, seat, out)
                    found[label].append(_summary(report))
                    failing.update(_failing(report))
        finally:
            server.terminate()
            server.wait(10)
    for label, rows in found.items():
        _print(label, rows)
    home = statistics.median(r["performance"] for r in found["home page (reference)"])
    table_score = statistics.median(r["performance"] for r in found["table page"])
    print(f"\nperformance, table / home page: {table_score:.0f} / {home:.0f} "
          f"= {table_score / home:.2f}")
    print("audits losing points:", *sorted(failing) or ["none"], sep="\n  ")


if __name__ == "__main__":
    main()
