"""Where a server process's time goes: py-spy's samples read into shares, a top-20 and a flame
graph (benchmarks/README.md, "Where the time goes").

    .venv/bin/python -m benchmarks.profile_shares RAW [RAW ...] [--top 20] [--svg OUT.svg]
        [--text OUT.txt]

RAW files are what ``py-spy record --format raw --full-filenames`` writes (one line per distinct
stack: ``frame;frame;...;frame COUNT``, the root first), e.g. from ``benchmarks.unit_costs
--profile``, which records every server process over the measured window. Each sample is given
to one share: the frame nearest the leaf whose file or function names a share (the JSON
encoder called by the frame builder is JSON; a dict lookup in Django's template code is
template rendering). The top tables count a function's own samples (``self``) and the samples
it was on the stack for (``total``).
"""

from __future__ import annotations

import argparse
import html
import re
import subprocess
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY_SPY = Path(sys.executable).parent / "py-spy"

# (share, a pattern of the frame "function (file:line)"), the first that matches a frame wins;
# the frames are read from the leaf towards the root.
SHARES: list[tuple[str, re.Pattern[str]]] = [
    (name, re.compile(pattern))
    for name, pattern in [
        ("compression (permessage-deflate)", r"zlib|compress|deflate|/autobahn/websocket/compress"),
        ("JSON", r"/json/|\bjson\b|orjson"),
        ("SQL: commit", r"\bcommit\b.*(django/db|psycopg)|psycopg.*\bcommit\b"),
        ("SQL: driver (psycopg)", r"/psycopg/"),
        ("SQL: Django ORM", r"/django/db/"),
        ("template rendering (Django)", r"/django/template/|/django/templatetags/"),
        ("translation (Django i18n)", r"/django/utils/translation/|gettext"),
        ("Django other", r"/django/"),
        ("channel layer (channels, Redis)", r"/channels_redis/|/channels/layers|/redis/|"
                                            r"tables/live/redis_layer|tables/live/layers"),
        ("Channels consumer machinery", r"/channels/|/asgiref/"),
        ("websocket framing (autobahn)", r"/autobahn/"),
        ("Daphne / Twisted", r"/daphne/|/twisted/|/txaio/"),
        ("engine (game rules, odds)", r"/engine/"),
        ("frame building (tables.live, tables.draw)", r"/tables/live/|/tables/draw/|"
                                                      r"/tables/templatetags/"),
        ("write path (tables.write)", r"/tables/write/|/tables/clock|/tables/computer"),
        ("kept versions (tables.cache)", r"/tables/cache/"),
        ("tables other", r"/tables/|/config/"),
        ("asyncio loop", r"/asyncio/|selectors"),
        ("threads, queues", r"/threading\.py|/queue\.py|concurrent/futures"),
        ("logging", r"/logging/"),
    ]
]
LEAF_ONLY = "other (Python standard library)"


def read_raw(paths: list[Path]) -> Counter[tuple[str, ...]]:
    """Stacks (root first) and their sample counts, over every file."""
    stacks: Counter[tuple[str, ...]] = Counter()
    for path in paths:
        for line in path.read_text(errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                stacks[tuple(_short(f) for f in stack.split(";"))] += int(count)
    return stacks


_SITE = re.compile(r"\(.*?/(?:site-packages|lib/python3\.\d+)/")


_PROJECT = re.compile(r"\([^()]*?/(tables|engine|config|benchmarks)/")


def _short(frame: str) -> str:
    """A frame with the virtualenv's or the project's prefix taken off its file name (any
    checkout's: profiles of another worktree read alike)."""
    short = _SITE.sub("(/", frame)
    return short if short != frame else _PROJECT.sub(r"(/\1/", frame, count=1)


def share_of(stack: tuple[str, ...]) -> str:
    for frame in reversed(stack):
        for name, pattern in SHARES:
            if pattern.search(frame):
                return name
    return LEAF_ONLY


def shares(stacks: Counter[tuple[str, ...]]) -> Counter[str]:
    out: Counter[str] = Counter()
    for stack, count in stacks.items():
        out[share_of(stack)] += count
    return out


def _function(frame: str) -> str:
    """A frame without its line number: ``function (file)``."""
    return re.sub(r":\d+\)$", ")", frame)


def top(stacks: Counter[tuple[str, ...]], n: int) -> tuple[list[tuple[str, int]], Counter[str]]:
    """The n functions with the most samples of their own, and every function's total."""
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for stack, count in stacks.items():
        functions = [_function(f) for f in stack]
        own[functions[-1]] += count
        for function in set(functions):
            total[function] += count
    return own.most_common(n), total


def product_entries(stacks: Counter[tuple[str, ...]]) -> Counter[str]:
    """Samples by the outermost function of the product (tables/, config/) on the stack: what
    the process was doing it for (drawing frames, the write path, the clock...)."""
    out: Counter[str] = Counter()
    for stack, count in stacks.items():
        entry = next(
            (_function(f) for f in stack if "(/tables/" in f and "/cache/" not in f), None
        )
        out[entry or "outside the product (Daphne, Channels, asyncio)"] += count
    return out


def table(stacks: Counter[tuple[str, ...]], n: int) -> str:
    samples = sum(stacks.values()) or 1
    lines = [f"{samples:,} samples", "", "Shares (each sample to the share nearest its leaf):"]
    for name, count in shares(stacks).most_common():
        lines.append(f"  {100 * count / samples:5.1f}%  {count:>7,}  {name}")
    lines += ["", f"Top {n} functions by their own samples (self), with their total:"]
    own, total = top(stacks, n)
    lines.append(f"  {'self':>6} {'total':>6}  function (file)")
    for function, count in own:
        lines.append(
            f"  {100 * count / samples:5.1f}% {100 * total[function] / samples:5.1f}%  {function}"
        )
    lines += ["", f"Top {n} functions by total (on the stack):"]
    for function, count in total.most_common(n):
        lines.append(f"  {100 * count / samples:5.1f}%  {function}")
    lines += ["", "By the outermost product function on the stack:"]
    for function, count in product_entries(stacks).most_common(n):
        lines.append(f"  {100 * count / samples:5.1f}%  {function}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ flame graph
def svg(stacks: Counter[tuple[str, ...]], title: str, width: int = 1800) -> str:
    """A flame graph (root at the bottom, a box's width its samples) as one SVG, no scripts:
    each box has a tooltip with its function and share."""
    tree: dict[str, object] = {}
    for stack, count in stacks.items():
        node = tree
        for frame in (_function(f) for f in stack):
            child = node.setdefault(frame, {"": 0})
            child[""] += count  # type: ignore[index]
            node = child  # type: ignore[assignment]
    samples = sum(stacks.values()) or 1
    row, depth_max = 16, 0
    boxes: list[tuple[float, int, float, str, int]] = []

    def walk(node: dict[str, object], x: float, depth: int) -> None:
        nonlocal depth_max
        depth_max = max(depth_max, depth)
        for name, child in sorted(node.items()):
            if not name:
                continue
            count: int = child[""]  # type: ignore[index]
            w = width * count / samples
            if w >= 2.0:
                boxes.append((x, depth, w, name, count))
                walk(child, x, depth + 1)  # type: ignore[arg-type]
            x += w

    walk(tree, 0.0, 0)
    height = (depth_max + 2) * row + 30
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="monospace" font-size="11">',
        f'<text x="4" y="16">{html.escape(title)} ({samples:,} samples)</text>',
    ]
    for x, depth, w, name, count in boxes:
        y = height - (depth + 1) * row
        hue = 20 + zlib.crc32(share_of((name,)).encode()) % 40
        label = html.escape(name) if w > 60 else ""
        out.append(
            f'<g><title>{html.escape(name)}: {count:,} samples, '
            f"{100 * count / samples:.1f}%</title>"
            f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row - 1}" '
            f'fill="hsl({hue},85%,{60 + depth % 3 * 6}%)"/>'
            + (f'<text x="{x + 2:.1f}" y="{y + 11}" clip-path="inset(0)">'
               f'{label[: int(w / 6.6)]}</text>' if label else "")
            + "</g>"
        )
    out.append("</svg>")
    return "\n".join(out)


# ------------------------------------------------------------------------------ recording
class Recording:
    """``py-spy record`` on each process for ``seconds``, raw stacks to ``out``. By default a
    sample is taken of every thread that is not idle (waiting for the GIL counts as busy, for
    py-spy); with ``gil``, only of the thread holding the GIL: the Python work itself."""

    def __init__(
        self, pids: list[int], out: Path, label: str, seconds: float, rate: int = 100,
        gil: bool = False,
    ) -> None:
        out.mkdir(parents=True, exist_ok=True)
        self.seconds = seconds
        self.paths = [out / f"{label}-{n}.raw.txt" for n in range(len(pids))]
        self.started = time.monotonic()
        self.spies = [
            subprocess.Popen(
                [str(PY_SPY), "record", "--pid", str(pid), "--format", "raw",
                 "--full-filenames", "--rate", str(rate), "--duration",
                 str(max(1, round(seconds))), "--output", str(path),
                 *(["--gil"] if gil else [])],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            for pid, path in zip(pids, self.paths, strict=True)
        ]

    def wait(self) -> list[Path]:
        """Wait for every recording to end and be written; the files written."""
        deadline = self.started + self.seconds + 30
        for spy in self.spies:
            try:
                spy.wait(max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                spy.kill()
        return [path for path in self.paths if path.exists()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--svg", type=Path)
    parser.add_argument("--text", type=Path)
    args = parser.parse_args()
    stacks = read_raw(args.raw)
    text = table(stacks, args.top)
    print(text)
    if args.text:
        args.text.write_text(text + "\n")
    if args.svg:
        args.svg.write_text(svg(stacks, ", ".join(p.name for p in args.raw)))


if __name__ == "__main__":
    main()
