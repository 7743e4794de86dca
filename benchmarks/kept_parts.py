"""Bytes on the wire and compressor memory: whole frames against kept parts (issue 39).

    .venv/bin/python -m benchmarks.kept_parts [--hands 20] [--seed 5]

The played frames of ``bench_frames`` (a six-seat table, every version drawn for its six
connections, in order) sent two ways: whole, as a socket without kept parts gets them, and as
kept parts (``tables.live.kept``: a part sent again only when it changed). Each connection's
messages go through one compressor of its own kept from message to message, as
permessage-deflate does (``config.compression``), for several windows and memory levels; for
each: the mean bytes per message on the wire, the CPU time to compress one (process time, so
other work on the machine moves it little; still a time: compare within one run), and the
compressor's memory as zlib documents it ((1 << (window + 2)) + (1 << (memory level + 9))).
Every kept-parts message is checked to make the frame whole again. Then the same, compressed
as ``config.compression.LeanDeflate`` does (no zlib state kept between messages: a compressor
per message, primed with the window's text or its last 8 or 6 KB), each message checked to
inflate to its text
through one decompressor per connection kept from message to message, as a phone's.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
import zlib

from benchmarks.bench_frames import CONNECTIONS, played_versions
from tables.live import frames, perspective
from tables.live.frames import FrameOptions
from tables.live.kept import KeptParts, whole
from tables.live.perspective import PassState

_IDS = re.compile(r"[0-9a-f]{32}")
_CLOCK = re.compile(r'(data-countdown-secs>)\d+|(data-remaining="|"remaining":)[\d.]+')


def _same(text: str) -> str:
    """Without what differs between two drawings of one version (action ids, the clock)."""
    return _CLOCK.sub(lambda m: (m.group(1) or m.group(2)) + "S", _IDS.sub("ID", text))

SETTINGS = [(15, 8), (14, 4), (13, 4), (13, 3), (13, 2), (13, 1), (12, 4), (12, 3), (11, 4)]
LEAN_SETTINGS = [(13, 4, 0), (14, 4, 0), (14, 4, 8192), (14, 4, 6144), (15, 8, 0)]


def messages(hands: int, seed: int) -> tuple[list[list[str]], list[list[str]]]:
    """Per connection, its whole frames and its kept-parts messages, version by version."""
    options = FrameOptions(join_url="http://testserver/t/ABC234/", language="en")
    kept = [KeptParts() for _ in CONNECTIONS]
    held: list[dict[str, str]] = [{} for _ in CONNECTIONS]
    full: list[list[str]] = [[] for _ in CONNECTIONS]
    parts: list[list[str]] = [[] for _ in CONNECTIONS]
    for snap in played_versions(hands, seed):
        for i, mine in enumerate(CONNECTIONS):
            persp = perspective.perspective(snap, mine, PassState())
            plain = str(frames.render_frame(snap, persp, options))
            sent = str(frames.render_frame(snap, persp, options, kept[i]))
            made = whole(sent, held[i])
            assert made is not None, "a marker for a part not kept"
            assert _same(made) == _same(plain), "a frame made whole differs"
            full[i].append(plain)
            parts[i].append(sent)
    return full, parts


def wire(per_connection: list[list[str]], window: int, level: int) -> tuple[float, float]:
    """Mean bytes per message and mean ms to compress one, one compressor per connection."""
    sizes: list[int] = []
    spent = 0.0
    for texts in per_connection:
        compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window, level)
        for text in texts:
            data = text.encode()
            start = time.process_time()
            out = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
            spent += time.process_time() - start
            sizes.append(len(out) - 4)  # permessage-deflate drops the flush's 4 final bytes
    return statistics.fmean(sizes), 1000 * spent / len(sizes)


def lean_wire(
    per_connection: list[list[str]], window: int, level: int, keep: int = 0
) -> tuple[float, float]:
    """As ``wire``, the way ``config.compression.LeanDeflate`` compresses: each message by a
    compressor of its own primed with the last window of text sent (its dictionary), checked
    against one decompressor per connection kept from message to message, as a phone's."""
    sizes: list[int] = []
    spent = 0.0
    for texts in per_connection:
        phone = zlib.decompressobj(-window)
        sent = b""
        for text in texts:
            data = text.encode()
            start = time.process_time()
            if sent:
                compressor = zlib.compressobj(
                    zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window, level,
                    zlib.Z_DEFAULT_STRATEGY, sent,
                )
            else:
                compressor = zlib.compressobj(
                    zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window, level
                )
            out = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
            sent = (sent + data)[-(keep or 1 << window):]
            spent += time.process_time() - start
            sizes.append(len(out) - 4)
            assert phone.decompress(out[:-4] + b"\x00\x00\xff\xff") == data, "not the text sent"
    return statistics.fmean(sizes), 1000 * spent / len(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    full, parts = messages(args.hands, args.seed)
    count = sum(len(t) for t in full)
    plain = statistics.fmean(len(t.encode()) for texts in full for t in texts)
    kept = statistics.fmean(len(t.encode()) for texts in parts for t in texts)
    print(f"{count} frames ({args.hands} hands, {len(CONNECTIONS)} connections), every one made "
          "whole again from its kept parts")
    print(f"bytes per message before compression: whole {plain:,.0f}, kept parts {kept:,.0f} "
          f"({100 * kept / plain:.0f}%)")
    print("window, memory level | zlib memory | whole: bytes, ms | kept parts: bytes, ms")
    for window, level in SETTINGS:
        memory = ((1 << (window + 2)) + (1 << (level + 9))) / 1024
        whole_bytes, whole_ms = wire(full, window, level)
        kept_bytes, kept_ms = wire(parts, window, level)
        print(f"{window}, {level} | {memory:.0f} KiB | {whole_bytes:,.0f}, {whole_ms:.3f} | "
              f"{kept_bytes:,.0f}, {kept_ms:.3f}")
    print("no zlib state between messages (LeanDeflate): the last text sent kept, a compressor "
          "primed with it for each message")
    for window, level, keep in LEAN_SETTINGS:
        whole_bytes, whole_ms = lean_wire(full, window, level, keep)
        kept_bytes, kept_ms = lean_wire(parts, window, level, keep)
        print(f"{window}, {level}, lean | {(keep or 1 << window) / 1024:.0f} KiB of text | "
              f"{whole_bytes:,.0f}, {whole_ms:.3f} | {kept_bytes:,.0f}, {kept_ms:.3f}")


if __name__ == "__main__":
    main()
