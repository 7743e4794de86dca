"""Forms for creating and joining tables (the same fields htmx and plain browsers post)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.timebank import BANK_CHOICES, DEFAULT_BANK
from tables.models import NAME_MAX, TURN_SECONDS, Level, Table
from tables.write.lobby import TableSettings

LENGTHS = [
    ("chips", _("Until one player has every chip")), ("30", _("30 hands")), ("60", _("60 hands")),
]
BLIND_SPEEDS = [("5", _("Every 5 hands")), ("10", _("Every 10 hands")), ("20", _("Every 20 hands"))]
SEATS = [(str(n), str(n)) for n in range(2, 7)]
# Said in the page's language when drawn, not in the language the module was imported in.
def _seconds_now(seconds: int) -> str:
    return gettext("%(s)d seconds") % {"s": seconds}


_seconds: Callable[[int], str] = lazy(_seconds_now, str)
TURNS = [(str(s), _seconds(s)) for s in TURN_SECONDS]
# P4: the time bank, the same choices at a table and a tournament.
BANKS = [
    (str(s), _seconds(s) if s else _("No time bank")) for s in BANK_CHOICES
]
REST_OF_BOARD = [("on", _("Anyone dealt in may ask")), ("off", _("Off"))]


def time_bank_field() -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=_("Time bank"), choices=BANKS, coerce=int, initial=str(DEFAULT_BANK),
        required=False, empty_value=None,  # not posted: the default
    )


def time_bank_of(data: dict[str, Any]) -> int:
    """The time bank chosen in a form's cleaned ``data`` (the default when none was posted)."""
    chosen = data.get("time_bank")
    return DEFAULT_BANK if chosen is None else int(chosen)


YOUR_NAME = _("Your name")


def name_field(required: bool = True, label: Any = YOUR_NAME) -> forms.CharField:
    return forms.CharField(
        label=label, max_length=NAME_MAX, required=required,
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "maxlength": NAME_MAX}),
    )


class CreateTableForm(forms.Form):
    # Drawn together under "Game settings" (components/settings.html).
    SETTINGS = ("seats", "length", "blind_every", "level", "turn_seconds", "time_bank",
                "rest_of_board")
    mode = forms.ChoiceField(choices=Table.Mode.choices, initial=Table.Mode.FRIENDS,
                             widget=forms.HiddenInput)
    name = name_field()
    # Pass and play: the other people sharing this phone.
    name_2 = name_field(False, _("Player 2"))
    name_3 = name_field(False, _("Player 3"))
    name_4 = name_field(False, _("Player 4"))
    name_5 = name_field(False, _("Player 5"))
    name_6 = name_field(False, _("Player 6"))
    seats = forms.TypedChoiceField(label=_("Seats"), choices=SEATS, coerce=int, initial="6")
    length = forms.ChoiceField(label=_("Game length"), choices=LENGTHS, initial="chips")
    blind_every = forms.TypedChoiceField(
        label=_("Blinds go up"), choices=BLIND_SPEEDS, coerce=int, initial="10"
    )
    level = forms.ChoiceField(label=_("Computer players"), choices=Level.choices,
                              initial=Level.MEDIUM)
    turn_seconds = forms.TypedChoiceField(
        label=_("Time to act"), choices=TURNS, coerce=int, initial="30"
    )
    time_bank = time_bank_field()
    # P5: on unless the host says no (a form posted without it keeps the default).
    rest_of_board = forms.TypedChoiceField(
        label=_("What would have come"), choices=REST_OF_BOARD, coerce=lambda v: v != "off",
        required=False, empty_value=None, initial="on",
    )

    def names(self) -> list[str]:
        data = self.cleaned_data
        names = [data["name"]]
        # Pass and play, and a friends table's "people on this phone" (a hybrid table: they
        # share the host's phone while the others join from their own).
        if data["mode"] in (Table.Mode.LOCAL, Table.Mode.FRIENDS):
            names += [data[f"name_{i}"] for i in range(2, 7) if data.get(f"name_{i}", "").strip()]
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("mode") == Table.Mode.LOCAL and not self.errors and len(self.names()) < 2:
            raise forms.ValidationError(_("Pass and play needs at least two names."))
        return data

    def table_settings(self) -> TableSettings:
        data = self.cleaned_data
        length = data["length"]
        seats = max(data["seats"], len(self.names()))
        return TableSettings(
            seat_count=seats,
            max_hands=None if length == "chips" else int(length),
            blind_every=data["blind_every"],
            computer_level=data["level"],
            turn_seconds=data["turn_seconds"],
            time_bank=time_bank_of(data),
            rest_of_board=data["rest_of_board"] is not False,
        )


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Table code"), max_length=20,
        widget=forms.TextInput(attrs={
            "autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false",
            "inputmode": "text",
        }),
    )
    name = name_field(required=False)


class JoinForm(forms.Form):
    name = name_field()
    another = forms.BooleanField(required=False, widget=forms.HiddenInput)
