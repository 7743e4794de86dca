"""The counted app (``counted_asgi``) that also says what the tables app's caches hold, for
benchmarks/socket_memory.py: on ``HELD_SIGNAL`` it writes
``$BENCH_COUNTS_DIR/<pid>-held-<n>.json``: the allocators' figures and, for every cache of
``tables.cache`` (and the frames' own kept parts), how many entries it holds and the bytes
reachable from them, each object counted once, for the first holder that reaches it in the
order below (a snapshot's engine state before its memo, the memo before the kept drawings).

Bytes are ``sys.getsizeof`` of every object reached through ``gc.get_referents`` (and the
items of containers the collector does not track), stopping at modules, classes, functions
and code: what Python's allocator holds for them, without the allocator's own rounding.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import re
import signal
import sys
import tempfile
import types
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.load import counted_asgi  # noqa: F401  (the counts and tracemalloc)
from config.asgi import application  # noqa: F401  (what daphne serves)

_STOP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
         types.CodeType, types.MethodType, types.FrameType)


class Sizer:
    """Deep sizes with one ``seen`` set: what a holder measured first is not counted again."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def size(self, *roots: Any, skip: tuple[type, ...] = ()) -> int:
        total = 0
        stack = list(roots)
        while stack:
            obj = stack.pop()
            if id(obj) in self.seen or isinstance(obj, _STOP) or (skip and isinstance(obj, skip)):
                continue
            self.seen.add(id(obj))
            total += sys.getsizeof(obj)
            stack.extend(gc.get_referents(obj))
        return total

    def mark(self, *objs: Any) -> None:
        """Count these as seen without measuring them (e.g. the snapshot a memo points back to)."""
        self.seen.update(id(o) for o in objs)


def _memo_kind(key: Any) -> str:
    if isinstance(key, tuple) and key:
        if key[0] == "part" and len(key) > 2:
            return f"part:{key[2]}"
        return str(key[0])
    return str(key)


def held() -> dict[str, Any]:
    from tables.cache import fragments, hands, logs, versions

    sizer = Sizer()
    out: dict[str, Any] = {}
    with versions._snapshot_lock:
        snapshots = list(versions._snapshots.values())
    tables = {s.id for s in snapshots}
    out["tables"] = len(tables)
    out["versions"] = len(snapshots)
    # A version itself: its row, seats and engine state (the memo is measured apart).
    memos = [s.memo for s in snapshots]
    sizer.mark(*memos)
    out["version: engine state (Game)"] = {
        "entries": len(snapshots), "bytes": sizer.size(*[s.game for s in snapshots]),
    }
    out["version: table row (its state as a dict)"] = {
        "entries": len(snapshots), "bytes": sizer.size(*[s.row for s in snapshots]),
    }
    out["version: seats, the rest"] = {
        "entries": len(snapshots), "bytes": sizer.size(*snapshots),
    }
    sizer.seen.difference_update(id(m) for m in memos)
    sizer.mark(*snapshots)
    by_kind: Counter[str] = Counter()
    count: Counter[str] = Counter()
    dicts = 0
    for memo in memos:
        dicts += sys.getsizeof(memo)
        sizer.mark(memo)
        for key, value in list(memo.items()):
            kind = _memo_kind(key)
            by_kind[kind] += sizer.size(key, value)
            count[kind] += 1
    out["memo: its dicts"] = {"entries": len(memos), "bytes": dicts}
    for kind, size in by_kind.most_common():
        out[f"memo: {kind}"] = {"entries": count[kind], "bytes": size}
    out["seats kept (write path)"] = {
        "entries": len(versions._seats_kept), "bytes": sizer.size(versions._seats_kept),
    }
    out["versions' index"] = {
        "entries": len(versions._versions_kept),
        "bytes": sizer.size(versions._snapshots, versions._versions_kept),
    }
    cache = fragments._cache
    out["kept drawings: keys"] = {
        "entries": len(cache), "bytes": sizer.size(*list(cache.keys())),
    }
    out["kept drawings: html"] = {
        "entries": len(cache), "bytes": sizer.size(*list(cache.values())),
    }
    out["kept drawings: dict"] = {"entries": 1, "bytes": sizer.size(cache)}
    split = getattr(fragments, "_split", None)  # the cut copies, kept apart before a461cce
    if split is not None:
        out["kept drawings cut at slots"] = {"entries": len(split), "bytes": sizer.size(split)}
    out["logs"] = {"entries": len(logs._logs), "bytes": sizer.size(logs._logs)}
    out["computer players' past hands"] = {
        "entries": len(hands._past), "bytes": sizer.size(hands._past),
    }
    return out


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost",
    )]


def allocator() -> dict[str, int]:
    """The C allocator's figures (glibc's mallinfo2: bytes in use and free in its heaps, bytes
    mapped apart) and pymalloc's (its arenas, and what of them holds live objects)."""
    out: dict[str, int] = {}
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
        info = libc.mallinfo2()
        out.update({
            "malloc heaps": info.arena, "malloc in use": info.uordblks,
            "malloc free in heaps": info.fordblks, "malloc mapped apart": info.hblkhd,
        })
    except (OSError, AttributeError):
        pass
    # pymalloc's statistics go to the C stderr: read them through a file.
    with tempfile.TemporaryFile("w+") as scratch:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(scratch.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        scratch.seek(0)
        text = scratch.read()
    for label, pattern in (
        ("pymalloc arenas", r"# arenas allocated current\s*=\s*([\d,]+)"),
        ("pymalloc in arenas", r"# bytes in allocated blocks\s*=\s*([\d,]+)"),
        ("pymalloc free in pools", r"# bytes in available blocks\s*=\s*([\d,]+)"),
        ("pymalloc free pools", r"# bytes in \d+ unused pools\s*=\s*([\d,]+)"),
        ("pymalloc arena bytes", r"Total\s*=\s*([\d,]+)"),
    ):
        found = re.search(pattern, text)
        if found:
            out[label] = int(found.group(1).replace(",", ""))
    return out


def _rss() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


_held_seq = 0


def _report(signum: int, frame: Any) -> None:
    """``HELD_SIGNAL``: what the caches hold and the allocators' figures, to
    ``$BENCH_COUNTS_DIR/<pid>-held-<n>.json``; then how much resident memory glibc's
    ``malloc_trim(0)`` gives back (memory freed but kept by the C allocator), which changes
    the process: ask last."""
    global _held_seq
    _held_seq += 1
    gc.collect()
    data: dict[str, Any] = {"allocator": allocator()}
    data["holdings"] = held()
    data["allocator"]["resident"] = before = _rss()
    if os.environ.get("BENCH_TRIM"):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        data["allocator"]["resident after malloc_trim"] = _rss()
        data["allocator"]["given back by malloc_trim"] = before - _rss()
    target = Path(os.environ["BENCH_COUNTS_DIR"]) / f"{os.getpid()}-held-{_held_seq}.json"
    scratch = target.with_suffix(".tmp")
    scratch.write_text(json.dumps(data))
    scratch.replace(target)


HELD_SIGNAL = signal.SIGRTMIN + 1
if os.environ.get("BENCH_COUNTS_DIR"):
    signal.signal(HELD_SIGNAL, _report)
