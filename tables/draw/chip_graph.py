"""The chip graph: each player's chips as lines on one chart, an inline SVG (no script).

Drawn for a game's recap (chips after each hand) and a group's season (chips won after each
game); each line is told apart by more than its colour (a dash pattern, and named in the
legend beside the chart), and the page shows a table of the same numbers.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString

# Line colours and dash patterns, in the order the players are listed.
COLOURS = ("#e4572e", "#2e86ab", "#f2b632", "#7bc47f", "#b36ae2", "#f0f0f0", "#ff9fb2",
           "#9ad1d4")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4", "12 2")
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 340, 190, 44, 8, 10, 24


@dataclass
class Curve:
    """One player's line: its name, how it is drawn, and its points as (step, chips)."""

    name: str
    colour: str
    dash: str
    points: list[tuple[int, int]]
    seat: int | None = None


def chip_graph(
    curves: Sequence[Curve], steps: int, *, title: str, testid: str,
    x_labels: Sequence[tuple[int, str, str]] = (), ticks: Sequence[int] = (),
) -> SafeString:
    """The chart of ``curves`` over ``steps`` steps (0: the start), the chips' axis from the
    lowest value (0 at most) to the highest; ``ticks`` are the chips labelled on that axis
    (besides 0, the lowest and the highest), ``x_labels`` the steps labelled below, each as
    (step, text, text-anchor)."""
    values = [chips for curve in curves for _step, chips in curve.points] or [0]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(step: int) -> float:
        return LEFT + inner_w * step / max(steps, 1)

    def y(chips: int) -> float:
        return TOP + inner_h * (high - chips) / span

    parts = [
        f'<svg class="chip-graph" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"'
        f' aria-labelledby="{testid}-title" data-testid="{testid}">'
        f'<title id="{testid}-title">{html.escape(title)}</title>',
        f'<line class="chip-graph__axis" x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - RIGHT}"'
        f' y2="{y(0):.1f}"/>',
        f'<line class="chip-graph__axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}"'
        f' y2="{TOP + inner_h}"/>',
    ]
    for value in sorted({low, 0, high, *ticks}):
        parts.append(
            f'<text class="chip-graph__label" x="{LEFT - 4}" y="{y(value) + 4:.1f}"'
            f' text-anchor="end">{value}</text>'
        )
    for step, text, anchor in x_labels:
        parts.append(
            f'<text class="chip-graph__label" x="{x(step):.1f}" y="{HEIGHT - 6}"'
            f' text-anchor="{anchor}">{html.escape(text)}</text>'
        )
    for curve in curves:
        points = " ".join(f"{x(step):.1f},{y(chips):.1f}" for step, chips in curve.points)
        dash = f' stroke-dasharray="{curve.dash}"' if curve.dash else ""
        seat = f' data-seat="{curve.seat}"' if curve.seat is not None else ""
        parts.append(
            f'<polyline class="chip-graph__line" fill="none" stroke="{curve.colour}"'
            f' stroke-width="2.5" stroke-linejoin="round"{dash} points="{points}"{seat}>'
            f'<title>{html.escape(curve.name)}</title></polyline>'
        )
    parts.append("</svg>")
    return SafeString("".join(parts))
