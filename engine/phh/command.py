"""The command line: ``python -m engine.phh replay FILE...`` replays each PHH file with this
table's rules and prints one JSON line per file (``replay_file``)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from engine.phh import PhhError
from engine.phh.read import read_phh
from engine.phh.replay import replay_phh


def replay_file(path: str, scale: int = 1) -> dict[str, Any]:
    """One line of the ``replay`` command's output for one file."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return {"file": path, "error": f"the file cannot be read: {reason}"}
    try:
        result = replay_phh(read_phh(text, scale))
    except PhhError as exc:
        return {"file": path, "error": str(exc)}
    return {"file": path, **result.to_dict()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.phh",
        description="Replay no-limit hold'em hands written in PHH with this table's rules.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser(
        "replay",
        help="replay each file and print one JSON line per file",
        description="Replay each PHH file with this table's rules. Prints one JSON object per "
        "line: the players, starting and finishing stacks in PHH player order, or an error.",
    )
    replay.add_argument("files", nargs="+", metavar="FILE")
    replay.add_argument(
        "--scale", type=int, default=1, metavar="N",
        help="multiply every amount by N before play (e.g. 100 for amounts in cents)",
    )
    args = parser.parse_args(argv)
    if args.scale < 1:
        parser.error("--scale must be a whole number of at least 1")
    failed = False
    for path in args.files:
        line = replay_file(path, args.scale)
        failed = failed or "error" in line
        print(json.dumps(line, ensure_ascii=False), flush=True)
    return 1 if failed else 0
