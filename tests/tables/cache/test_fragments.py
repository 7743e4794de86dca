"""The component cache (tables.cache.fragments): a cached part is only reused for exactly the same
values, and its keys stay out of the garbage collector's way."""

from __future__ import annotations

import gc

import pytest
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy, override

from tables.cache import fragments

CHIPS = "components/chips.html"


def test_values_that_draw_differently_never_share_a_part() -> None:
    fragments.clear()
    drawn = {
        fragments.render_component(CHIPS, {"amount": amount, "kind": "bet"})
        for amount in (1, True, 1.0, "1")
    }
    assert len(drawn) >= 2  # each was drawn on its own...
    assert len(fragments._cache) == 4  # ...and kept under its own key
    plain = fragments.render_component(CHIPS, {"amount": 5, "kind": "pot", "label": "<b>"})
    safe = fragments.render_component(
        CHIPS, {"amount": 5, "kind": "pot", "label": mark_safe("<b>")}
    )
    assert "&lt;b&gt;" in plain and "<b>" in safe


def test_a_lazy_translation_is_keyed_by_its_text_in_the_active_language() -> None:
    fragments.clear()
    label = gettext_lazy("Main pot")
    english = fragments.render_component(CHIPS, {"amount": 5, "kind": "pot", "label": label})
    with override("ne"):
        nepali = fragments.render_component(CHIPS, {"amount": 5, "kind": "pot", "label": label})
    assert english != nepali


def test_a_repeated_part_comes_from_the_cache_and_its_key_is_not_tracked() -> None:
    fragments.clear()
    params = {"amount": 40, "kind": "bet", "label": mark_safe("Bet")}
    first = fragments.render_component(CHIPS, params)
    assert fragments.render_component(CHIPS, dict(params)) == first
    assert len(fragments._cache) == 1
    key, html = next(iter(fragments._cache.items()))
    assert type(html) is str and not gc.is_tracked(html)
    assert isinstance(key[2], bytes) and not any(gc.is_tracked(part) for part in key)


def test_filled_values_are_written_into_one_kept_drawing_escaped() -> None:
    fragments.clear()
    params = {"amount": fragments.slot("amount"), "kind": "pot", "label": fragments.slot("label")}
    first = fragments.render_component(CHIPS, params, fill={"amount": 150, "label": "<i>x</i>"})
    second = fragments.render_component(CHIPS, params, fill={"amount": 20, "label": "Side pot"})
    assert len(fragments._cache) == 1  # one drawing with the markers, kept
    assert "150" in first and "&lt;i&gt;x&lt;/i&gt;" in first and "<i>" not in first
    assert "20" in second and "Side pot" in second and "150" not in second
    assert "\ue000" not in first + second  # no marker reaches a phone
    with pytest.raises(ValueError, match="without a value"):
        fragments.render_component(CHIPS, params, fill={"amount": 5})
    # The amount is printed twice (as data and as text): both get it. A value that holds
    # another slot's marker is written as it is, never filled in turn.
    sly = fragments.render_component(
        CHIPS, params, fill={"amount": 7, "label": fragments.slot("amount")}
    )
    assert 'data-amount="7"' in sly and '"chips__amount">7<' in sly
    assert fragments.slot("amount") in sly


@pytest.mark.parametrize("thousands", [False, True])
def test_every_kind_of_filled_value_is_written_as_the_template_prints_it(thousands: bool) -> None:
    """Plain strings (quotes, ampersands, markup), safe strings, lazy translations, numbers
    with and without a thousands separator: a filled value reads exactly as the template
    itself would print it."""
    from django.template.loader import get_template
    from django.test import override_settings

    params = {"amount": fragments.slot("amount"), "kind": "pot", "label": fragments.slot("label")}
    labels: list[object] = [
        "Asha's \"pot\" & <b>more</b>", mark_safe("<b>safe</b>"), gettext_lazy("Main pot"),
        "नेपाली 🂡", 2.5, 7, True,
    ]
    with override_settings(USE_THOUSAND_SEPARATOR=thousands):
        for amount in (5, 12345, 1234567):
            for label in labels:
                fragments.clear()
                filled = fragments.render_component(
                    CHIPS, params, fill={"amount": amount, "label": label}
                )
                direct = get_template(CHIPS).render({"amount": amount, "kind": "pot",
                                                     "label": label})
                assert filled == direct, (amount, label)


def test_equal_values_find_the_same_kept_part_whatever_objects_hold_them() -> None:
    """marshal's newer formats write a value seen twice, or an interned string, apart from an
    equal one: the key must not depend on that, or equal seats are drawn again and again."""
    import sys

    fragments.clear()
    word = "".join(["Main ", "pot"])  # a string of its own, not interned
    label = sys.intern("Main pot")
    first = {"amount": 5, "kind": "pot", "label": word, "zero": [word, word]}
    second = {"amount": 5, "kind": "pot", "label": label, "zero": ["Main pot", "".join("Main pot")]}
    assert first == second
    fragments.render_component(CHIPS, first)
    fragments.render_component(CHIPS, second)
    assert len(fragments._cache) == 1


def test_kept_drawings_are_bounded_by_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawings vary in size: the oldest go once the kept ones hold ``KEPT_BYTES``, and the
    bytes counted stay those of the drawings kept."""
    fragments.clear()
    first = {"amount": 1, "kind": "bet", "label": "x" * 3000}
    fragments.render_component(CHIPS, first)
    one = fragments._bytes
    assert one > 3000
    monkeypatch.setattr(fragments, "KEPT_BYTES", 3 * one)
    for amount in range(2, 6):
        fragments.render_component(CHIPS, {**first, "amount": amount})
    assert len(fragments._cache) == 3  # the two oldest went, though far fewer than KEPT
    assert fragments._bytes == sum(fragments._size(k, v) for k, v in fragments._cache.items())
    assert fragments._bytes <= fragments.KEPT_BYTES
    fragments.clear()
    assert fragments._bytes == 0


def test_a_drawing_with_slots_is_kept_once_cut_at_them() -> None:
    """The cut drawing is what is kept (no second copy of it to outlive it), and the drawing
    given without values is the one drawn, its markers where the slots are."""
    fragments.clear()
    params = {"amount": fragments.slot("amount"), "kind": "pot", "label": "Pot"}
    bare = fragments.render_component(CHIPS, params)
    filled = fragments.render_component(CHIPS, params, fill={"amount": 30})
    assert len(fragments._cache) == 1
    kept = next(iter(fragments._cache.values()))
    assert type(kept) is tuple and kept[1::2] == ("amount",) * len(kept[1::2])
    from django.template.loader import get_template

    assert bare == get_template(CHIPS).render(params)
    assert filled == bare.replace(fragments.slot("amount"), "30")
