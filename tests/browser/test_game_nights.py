"""A group's game nights and notifications in Chromium at a phone's size: a member proposes
the next game on the group's page, answers, sees who is coming and the calendar file; the page
passes axe-core at 320x568 and 390x844 (screenshots of both); and a push delivered to the
service worker through the DevTools protocol (ServiceWorker.deliverPushMessage) is shown as
a notification that opens the page it names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    run_axe,
    screenshot,
    start_computer_game,
)

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"320x568": (320, 568), "390x844": (390, 844)}


def test_a_game_night_proposed_and_answered_on_the_group_page_at_phone_sizes(
    app_server: LiveServer, new_phone: Any
) -> None:
    data = app_server.seed("tests.browser.season_data", "2", "30")
    phone = new_phone()
    app_server.sign_in(phone, data["session"])
    phone.goto(f"{app_server.url}/g/{data['group']}/")
    nights = phone.get_by_test_id("game-nights")
    nights.wait_for()
    assert phone.get_by_test_id("no-night").is_visible()
    problems = {"group page, no game night": run_axe(phone)}
    form = phone.get_by_test_id("night-form")
    day = phone.evaluate("() => new Date(Date.now() + 2 * 86400000).toISOString().slice(0, 10)")
    form.locator("input[name=day]").fill(day)
    form.locator("input[name=time]").fill("19:30")
    form.locator("input[name=note]").fill("At Bikash's, bring snacks")
    zone = phone.evaluate("() => Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert form.locator("input[name=zone]").input_value() == zone
    phone.get_by_test_id("night-propose").click()
    night = phone.get_by_test_id("game-night")
    night.wait_for()
    assert "19:30" in night.inner_text()
    assert phone.get_by_test_id("night-in").inner_text() == "Asha"
    phone.get_by_test_id("answer-maybe").click()
    phone.get_by_test_id("night-maybe").filter(has_text="Asha").wait_for()
    assert phone.get_by_test_id("answer-maybe").get_attribute("aria-pressed") == "true"
    phone.get_by_test_id("answer-in").click()
    phone.get_by_test_id("night-in").filter(has_text="Asha").wait_for()
    ics = phone.request.get(
        app_server.url + (phone.get_by_test_id("night-ics").get_attribute("href") or "")
    )
    assert ics.ok and b"BEGIN:VALARM" in ics.body()
    for size, (width, height) in SIZES.items():
        phone.set_viewport_size({"width": width, "height": height})
        nights.scroll_into_view_if_needed()
        problems[f"group page with a game night, {size}"] = run_axe(phone)
        screenshot(phone, f"game-night-{size}")
        # Nothing of the game night is wider than the phone.
        widest = phone.evaluate(
            """() => Math.max(...[...document.querySelectorAll('#nights *')]
                 .map(e => e.getBoundingClientRect().right))"""
        )
        assert widest <= width + 0.5, (size, widest)
    # At the time: the proposer opens the table with one tap; the group's page links it.
    _run(app_server, "from datetime import timedelta; from django.utils import timezone; "
         "from tables.models import GameNight; "
         "GameNight.objects.update(starts_at=timezone.now() + timedelta(minutes=10))")
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{app_server.url}/g/{data['group']}/")
    phone.get_by_test_id("open-night").click()
    phone.wait_for_url("**/t/*/")
    code = phone.url.rstrip("/").rsplit("/", 1)[1]
    phone.get_by_test_id("start-game").wait_for()  # the lobby, Asha its host
    phone.goto(f"{app_server.url}/g/{data['group']}/")
    link = phone.get_by_test_id("night-table")
    assert f"/t/{code}/" in (link.locator("a").get_attribute("href") or "")
    problems["group page, the table open"] = run_axe(phone)
    phone.context.add_cookies([{"name": "django_language", "value": "ne",
                                "url": app_server.url}])
    for size, (width, height) in SIZES.items():
        phone.set_viewport_size({"width": width, "height": height})
        phone.goto(f"{app_server.url}/g/{data['group']}/")
        nights.scroll_into_view_if_needed()
        problems[f"group page in Nepali, {size}"] = run_axe(phone)
        screenshot(phone, f"game-night-open-ne-{size}")
    found = {page: v for page, v in problems.items() if v}
    assert not found, found
    assert not JS_ERRORS, JS_ERRORS


def _run(server: LiveServer, code: str) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{server.db_path}", "DEBUG": "true"}
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                   check=True, capture_output=True)


def test_a_push_is_shown_by_the_service_worker_and_names_the_page_to_open(
    app_server: LiveServer, new_phone: Any
) -> None:
    data = app_server.seed("tests.browser.season_data", "2", "30")
    phone = new_phone()
    phone.context.grant_permissions(["notifications"], origin=app_server.url)
    app_server.sign_in(phone, data["session"])
    phone.goto(f"{app_server.url}/t/{data['games'][-1]}/notify/")
    box = phone.get_by_test_id("notify-turn")
    box.wait_for()  # shown by push.js once the service worker is registered
    assert phone.get_by_test_id("push-on").is_visible()
    problems = {}
    for size, (width, height) in SIZES.items():
        phone.set_viewport_size({"width": width, "height": height})
        problems[size] = run_axe(phone)
        screenshot(phone, f"notify-page-{size}")
    assert not any(problems.values()), problems
    phone.evaluate("() => navigator.serviceWorker.ready")
    cdp = phone.context.new_cdp_session(phone)
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(50):
        if any(r["scopeURL"] == app_server.url + "/" for r in registrations):
            break
        phone.wait_for_timeout(100)
    registration = next(r for r in registrations if r["scopeURL"] == app_server.url + "/")
    payload = {"title": "Your turn", "body": "Table ABCDEF: the others are waiting for you.",
               "url": "/t/ABCDEF/", "tag": "turn-ABCDEF"}
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": app_server.url, "registrationId": registration["registrationId"],
        "data": json.dumps(payload),
    })
    shown = phone.wait_for_function(
        """async () => {
          const r = await navigator.serviceWorker.ready;
          const list = await r.getNotifications();
          return list.length ? list.map(n => ({title: n.title, body: n.body, tag: n.tag,
                                               url: n.data && n.data.url})) : null;
        }"""
    ).json_value()
    assert shown == [{"title": "Your turn", "body": payload["body"], "tag": "turn-ABCDEF",
                      "url": "/t/ABCDEF/"}]
    assert not JS_ERRORS, JS_ERRORS


def test_the_tables_drawer_leads_to_notifications_and_back(
    app_server: LiveServer, new_phone: Any
) -> None:
    from tests.browser.layout import FREEZE_SCRIPT, freeze

    phone = new_phone()
    phone.context.add_init_script(FREEZE_SCRIPT)  # frames held while the drawer is looked at
    phone.set_viewport_size({"width": 320, "height": 568})
    code = start_computer_game(phone, app_server, "Asha")
    freeze(phone)
    phone.locator(".log-drawer > summary").click()
    link = phone.get_by_test_id("notify-link")
    link.wait_for()
    problems = {"table, drawer open": run_axe(phone)}
    screenshot(phone, "table-drawer-notify-320x568")
    link.click()
    phone.get_by_test_id("notify-page").wait_for()
    assert phone.url == f"{app_server.url}/t/{code}/notify/"
    phone.get_by_test_id("push-on").wait_for()
    phone.get_by_test_id("back-to-table").click()
    phone.get_by_test_id("table-frame").wait_for()
    assert not {k: v for k, v in problems.items() if v}, problems
    assert not JS_ERRORS, JS_ERRORS
