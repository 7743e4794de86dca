"""Hands in PHH, the poker hand history text format of the PokerKit authors (variant ``NT``).

A PHH file is TOML. The fields this table writes and reads::

    variant = "NT"
    antes = [0, 0, 0]
    blinds_or_straddles = [10, 20, 0]   # p1 small blind, p2 big blind (heads-up: reversed)
    min_bet = 20
    starting_stacks = [1000, 850, 1200]
    actions = ["d dh p1 AsKd", "d dh p2 ????", "d dh p3 7h7c", "p3 cbr 60", "p1 cc", "p2 f",
               "d db Kh9s2c", "p1 cc", "p3 cbr 100", "p1 cc", ...]

Players are numbered from the first seat to the left of the button: ``p1`` is the small blind
and the last player is the button. Heads-up ``p1`` is the big blind and ``p2`` the button, who
posts the small blind; the blinds are still written ``[small, big]`` and PokerKit, like the spec,
reverses them. ``cbr`` amounts are "to" amounts, like this table's (R14).

Modules: ``write`` (``to_phh``: a hand of this table as PHH text), ``read`` (``read_phh``: a
file from anywhere, refused with a readable reason where this table cannot read or play it),
``replay`` (``replay_phh``: a hand read played again with this engine, refusing with a readable
reason what this table does not play: antes, straddles, an action its rules forbid) and
``command`` with ``__main__``: run ``python -m engine.phh replay FILE...`` to replay files from
the command line. This package holds what they share: the variant, the required fields, the
unknown card and ``PhhError``.
"""

from __future__ import annotations

VARIANT = "NT"
REQUIRED_FIELDS = (
    "variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions",
)
UNKNOWN = "??"


class PhhError(ValueError):
    """A PHH text this table cannot read or replay; the message is meant for a person."""
