"""Out of chips, the others playing on: the bar saying where you finished, and your choices
(templates/table/out.html), fits every layout size in English and Nepali without overlapping
the table (tests/browser/layout.py). The bar is drawn by the app's own template (place 4 of
6, not yet told, then told) and put in place of the bar below a real six-seat table, frozen,
your cards gone and your chips at 0, as when your last chip went. Screenshots:
screenshots/<size>/out-<language>.png."""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils.translation import override

from tests.browser.helpers import JS_ERRORS, LiveServer
from tests.browser.layout import check_all_sizes, computer_table, freeze, still_phone


@pytest.mark.parametrize("language", ["en", "ne"])
def test_r31_the_out_bar_fits_every_size(
    app_server: LiveServer, browser: Any, language: str
) -> None:
    page = still_phone(browser)
    computer_table(page, app_server, seats=6, level="easy")
    page.get_by_test_id("action-bar").wait_for()
    freeze(page)
    found: dict[str, Any] = {}
    for told in (False, True):
        with override(language):
            html = render_to_string("table/out.html", {"place": 4, "count": 6, "told": told})
        page.evaluate("""(html) => {
          const bar = document.querySelector('#action-bar, #waiting-bar');
          bar.outerHTML = html;
          document.getElementById('my-cards').innerHTML = '';
          const stack = document.querySelector('#me .me__stack');
          stack.textContent = '0';
          document.querySelectorAll('[data-bet-sheet]').forEach(el => el.remove());
          window.dispatchEvent(new Event('resize'));
        }""", html)
        assert page.get_by_test_id("out-bar").count() == 1
        name = f"out-{language}" + ("-told" if told else "")
        found.update({f"{name} {size}": p for size, p in check_all_sizes(page, name).items()})
        page.set_viewport_size({"width": 390, "height": 844})
    assert not found, found
    assert not JS_ERRORS, JS_ERRORS
