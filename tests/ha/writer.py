"""A server process's writes, as a failover finds them: changes made one after another
through the write path (``apply_change``), each recorded as acknowledged, refused (the phone
would be told "saving slowly") or unknown (the COMMIT's answer was lost).

    python -m tests.ha.writer --out FILE [--count N] [--pause S]

Run with DJANGO_SETTINGS_MODULE and DATABASE_URL (tests/ha/patroni_cluster.py's, both servers
named). It makes a table of its own (its id is the first line of FILE), then changes it until
``--count`` changes are acknowledged or it is sent SIGTERM. Each change writes one row, a
``ModerationAction`` whose ``detail["seq"]`` is the change's number, and bumps the table's
version (lock, check, change, save, version, announce: the path every change takes), so
that the database read afterwards shows exactly which changes it holds. One JSON object a line:
``{"seq": 17, "start": t, "end": t, "outcome": "ok"|"refused"|"unknown", "error": ...}`` with
times in time.monotonic() (the same clock in every process of the machine).
"""

from __future__ import annotations

import argparse
import json
import signal
import time
from typing import Any

TEST_ACTION = "ha_test"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=0, help="stop after N acknowledged")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between changes")
    args = parser.parse_args()

    import django

    django.setup()
    from tables.models import ModerationAction
    from tables.write import lobby, path, reconnect
    from tables.write.reconnect import DATABASE_AWAY

    stop: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    table = lobby.new_table(seat_count=2)

    def change_number(seq: int) -> Any:
        def mutate(change: path.Change) -> None:
            ModerationAction.objects.create(table=change.table, action=TEST_ACTION,
                                            detail={"seq": seq})
            change.mark()
        return mutate

    with open(args.out, "w", encoding="utf-8") as out:
        out.write(json.dumps({"table": table.id}) + "\n")
        out.flush()
        seq = acknowledged = 0
        while not stop and not (args.count and acknowledged >= args.count):
            seq += 1
            start = time.monotonic()
            error = ""
            try:
                path.apply_change(table.id, change_number(seq))
                outcome = "ok"
                acknowledged += 1
            except reconnect.CommitUnknown as exc:
                outcome, error = "unknown", str(exc)
            except DATABASE_AWAY as exc:
                outcome, error = "refused", f"{type(exc).__name__}: {exc}"[:300]
            out.write(json.dumps({"seq": seq, "start": start, "end": time.monotonic(),
                                  "outcome": outcome, "error": error}) + "\n")
            out.flush()
            if outcome != "ok":
                time.sleep(0.1)  # a phone's tap again a moment later
            elif args.pause:
                time.sleep(args.pause)


def read(path: str) -> tuple[int, list[dict[str, Any]]]:
    """The table's id and the changes tried, from a writer's FILE."""
    with open(path, encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    return int(rows[0]["table"]), rows[1:]


if __name__ == "__main__":
    main()
