"""The pages run under the Content Security Policy, and a violation is seen by the tests."""

from __future__ import annotations

from typing import Any

from tests.browser.helpers import JS_ERRORS, LiveServer, frame


def test_a_table_page_sends_the_policy_and_plays_without_violations(
    app_server: LiveServer, new_phone: Any, csp_violations: list[str]
) -> None:
    phone = new_phone()
    response = phone.goto(app_server.url + "/new/?mode=computer")
    assert response is not None
    policy = response.headers["content-security-policy"]
    for directive in ("script-src 'self'", "style-src 'self'", "object-src 'none'",
                      "frame-ancestors 'none'", "base-uri 'self'"):
        assert directive in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    host = app_server.url.split("//")[1]
    assert f"connect-src 'self' ws://{host}" in policy
    assert "web-share=(self)" in response.headers["permissions-policy"]
    phone.fill("input[name=name]", "Asha")
    phone.get_by_test_id("create-submit").click()
    phone.get_by_test_id("action-bar").wait_for()  # the websocket connected and drew the table
    before = frame(phone)["version"]
    phone.get_by_test_id("action-bar").locator("button").first.click()
    # The answer to the tap (a new view, or the fold's question) has been drawn: whatever it
    # made the policy refuse has been reported by then.
    phone.wait_for_function(
        "v => Number(document.getElementById('table-frame').dataset.version) > v"
        " || document.querySelector('dialog.confirm')", arg=before, timeout=60_000,
    )
    assert not csp_violations and not JS_ERRORS, (csp_violations, JS_ERRORS)


def test_an_injected_inline_script_and_style_are_refused_and_reported(
    app_server: LiveServer, new_phone: Any, csp_violations: list[str]
) -> None:
    phone = new_phone()
    phone.goto(app_server.url + "/")
    ran = phone.evaluate(
        """() => new Promise((done) => {
          window.injected = false;
          const script = document.createElement("script");
          script.textContent = "window.injected = true";
          document.head.appendChild(script);
          const style = document.createElement("style");
          style.textContent = "body { background: red }";
          document.head.appendChild(style);
          setTimeout(() => done(window.injected), 300);
        })"""
    )
    assert ran is False
    assert any("script-src" in v for v in csp_violations), csp_violations
    assert any("style-src" in v for v in csp_violations), csp_violations
    csp_violations.clear()  # seen: this test is about the refusal, not a fault of the app
