"""A short duplicate match in CI: the hard player must beat the easy one, or the build fails.

The full matches with their figures are in benchmarks/bots_match.py (see benchmarks/README.md).
Here: 5 sessions of 80 deals heads-up at 100 big blinds, each deal played twice with the seats
swapped, fixed seeds, so the outcome is the same on every run.
"""

from __future__ import annotations

from tests.engine.bot_spots import load_match


def test_hard_beats_easy_in_a_short_duplicate_match() -> None:
    match = load_match()
    deals, sessions = 80, 5
    per_session = [
        match.run_session(match.Task("heads-up", "hard", "easy", s, deals, seed=2026))
        for s in range(sessions)
    ]
    result = match.summarise("hard-easy", per_session, deals, "heads-up", 0.0)
    assert result.deals == deals * sessions
    # Heads-up duplicate: what one player wins the other loses, seat for seat.
    assert result.first == -result.second
    assert result.diff > 100, f"hard won only {result.diff:.1f} bb/100 against easy"
    assert result.low > 0, f"95% interval [{result.low:.1f}, {result.high:.1f}] bb/100"
