"""The how-to-play page: a page of words, with the hand rankings it draws from the list here."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

# Strongest first: each hand's name, what makes it, and five cards that show it.
RANKINGS = (
    (_("Straight flush"), _("Five in a row, all of one suit. Ace-king-queen-jack-ten of one suit "
                            "is the royal flush, the best of all."), "9h 8h 7h 6h 5h"),
    (_("Four of a kind"), _("All four cards of one rank."), "Qs Qh Qd Qc 7s"),
    (_("Full house"), _("Three of one rank with two of another."), "Ks Kh Kd 7c 7h"),
    (_("Flush"), _("Any five of one suit that are not in a row."), "Ad Jd 8d 6d 2d"),
    (_("Straight"), _("Five in a row in mixed suits. A-K-Q-J-10 is the highest, 5-4-3-2-A the "
                      "lowest; Q-K-A-2-3 does not count."), "Tc 9d 8h 7s 6c"),
    (_("Three of a kind"), _("Three cards of one rank."), "8s 8h 8c Kd 3s"),
    (_("Two pair"), _("Two of one rank and two of another."), "Js Jd 4c 4h As"),
    (_("Pair"), _("Two cards of one rank."), "Th Tc Ks 6d 3h"),
    (_("High card"), _("None of the above: the highest card speaks first."), "Ac Qd 9s 5h 3c"),
)

how_to_play = TemplateView.as_view(
    template_name="pages/how_to_play.html",
    extra_context={"rankings": [(name, words, cards.split()) for name, words, cards in RANKINGS]},
)
