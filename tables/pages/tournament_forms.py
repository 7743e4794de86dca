"""Forms of a tournament's pages: creating one and joining it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine import tournament as rules
from tables.models import TURN_SECONDS, Level
from tables.pages.forms import name_field, time_bank_field, time_bank_of

# A level's length: by time by default (tables play at different speeds; a level by time
# rises at the same moment at every table, README T8), or by hands at the busiest table.
LEVEL_LENGTHS = [
    ("m5", _("5 minutes")), ("m10", _("10 minutes")), ("m15", _("15 minutes")),
    ("m20", _("20 minutes")),
    ("h5", _("Every 5 hands")), ("h10", _("Every 10 hands")), ("h20", _("Every 20 hands")),
]
FILL = [("yes", _("Yes, computers fill the empty places")), ("no", _("No, only people"))]
TURNS = [(str(s), _("%(s)d seconds") % {"s": s}) for s in TURN_SECONDS]


class CreateTournamentForm(forms.Form):
    # Drawn together under "Tournament settings" (components/settings.html).
    SETTINGS = ("level_length", "turn_seconds", "time_bank", "level")
    name = name_field()
    entrants = forms.IntegerField(
        label=_("Number of players"), min_value=rules.MIN_ENTRANTS,
        max_value=rules.MAX_ENTRANTS, initial=12,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    fill = forms.ChoiceField(label=_("Computer players fill up"), choices=FILL, initial="yes")
    level_length = forms.ChoiceField(
        label=_("Blinds go up"), choices=LEVEL_LENGTHS, initial="m10",
        help_text=_("By time, the blinds go up at the same moment at every table, however fast "
                    "each one plays."),
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Time to act"), choices=TURNS, coerce=int, initial="30"
    )
    time_bank = time_bank_field()
    level = forms.ChoiceField(label=_("Computer players"), choices=Level.choices,
                              initial=Level.MEDIUM)

    def settings(self) -> dict[str, Any]:
        """The keyword arguments of ``tables.write.tournament_setup.create``."""
        data = self.cleaned_data
        kind, number = data["level_length"][0], int(data["level_length"][1:])
        return {
            "entrants_wanted": data["entrants"],
            "computer_fill": data["fill"] == "yes",
            "level_minutes": number if kind == "m" else None,
            "level_hands": number if kind == "h" else None,
            "turn_seconds": data["turn_seconds"],
            "computer_level": data["level"],
            "time_bank": time_bank_of(data),
        }


class JoinTournamentForm(forms.Form):
    name = name_field()
