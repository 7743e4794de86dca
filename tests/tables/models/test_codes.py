"""Join codes: easy to read aloud, forgiving to type, unique among open tables."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tables import codes
from tables.models import Table


def test_codes_never_use_characters_that_look_alike() -> None:
    for ch in "0O1I":
        assert ch not in codes.ALPHABET
    assert len(codes.ALPHABET) == 32  # six characters: 2**30 codes


def test_new_codes_are_six_characters_from_the_alphabet() -> None:
    made = {codes.new_code() for _ in range(200)}
    assert len(made) > 190
    assert all(len(c) == 6 and set(c) <= set(codes.ALPHABET) for c in made)


@pytest.mark.parametrize(
    ("typed", "code"),
    [("K7Q4MX", "K7Q4MX"), ("k7q 4mx", "K7Q4MX"), (" k7q-4mx ", "K7Q4MX"), ("K7Q.4MX", "K7Q4MX")],
)
def test_typing_a_code_forgives_case_spaces_and_dashes(typed: str, code: str) -> None:
    assert codes.normalize(typed) == code


@pytest.mark.parametrize("typed", ["", "K7Q4M", "K7Q4MXX", "K7Q4M0", "K7Q4MI", "<b>K7Q</b>"])
def test_what_cannot_be_a_code_is_refused(typed: str) -> None:
    assert codes.normalize(typed) is None


@pytest.mark.django_db
def test_a_code_is_unique_among_open_tables_but_may_come_back_later() -> None:
    Table.objects.create(code="ABCDEF")
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(code="ABCDEF")
    Table.objects.filter(code="ABCDEF").update(status=Table.Status.FINISHED)
    again = Table.objects.create(code="ABCDEF")
    assert Table.objects.by_code("ABCDEF") == again
