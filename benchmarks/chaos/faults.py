"""The seeded fault schedule, and each fault done to the running stack.

Faults come one after another (a few seconds of calm between two), each kind at least once,
``pg_immediate`` exactly once, the rest drawn by the seed; the last stretch of the soak (a
turn's time plus 20 s at least) is calm, so that the checker can see every table recover.
Beside them, every minute 5% of the players' sockets drop (half of those just after sending an
action): see ``drops``.

- ``daphne_kill``: SIGKILL to one Daphne, started again 2 to 5 s later (systemd's
  Restart=always with RestartSec=2);
- ``daphne_term``: SIGTERM to one Daphne (a deploy), started again when it has exited;
- ``redis_stop``: Redis stopped for 5 to 20 s (everything in it lost), then started;
- ``pg_fast``: PostgreSQL stopped with ``pg_ctl stop -m fast`` for 5 to 30 s, then started;
- ``pg_immediate``: the same with ``-m immediate`` (a crash: recovery replays the WAL);
- ``clock``: the clock runs in every process (as before), then in none for 8 to 20 s (every
  Daphne restarted in turn with TABLES_CLOCK_IN_SERVER=false: no deadline fires), then in one
  (``manage.py runclock``) for 10 to 30 s, then in every process again;
- ``pg_failover`` (only with ``--patroni``, in place of the two above on PostgreSQL): SIGKILL
  to the primary's postmaster; Patroni promotes the synchronous standby (the fault ends there:
  the tables' versions are read then), and the old primary comes back as its standby
  (pg_rewind, waited for by ``settle``). Once a soak.
- ``redis_failover`` (only with ``--patroni``, in place of ``redis_stop``): SIGKILL to the
  Redis master; a Sentinel promotes the replica (the fault ends there: the tables' versions are
  read then, and every phone must show them within 3 s), then the old master is started again
  and waits until it is the new master's replica (``settle``). Once a soak.
- ``etcd_stop`` (only with ``--patroni``): the etcd leader stopped for 5 to 15 s (two of the
  three members left: Patroni renews its leader key through them; no failover should follow),
  then started again until it is healthy. Once a soak.

A fault's window is from its first act to the moment everything is back (ports accepting), or
for a failover to the promotion (what ``settle`` waits for after it, a server coming back as
the copy, is outside the window: the app must not notice it).
"""

from __future__ import annotations

import random
import signal
import time
from dataclasses import dataclass

from benchmarks.chaos.patroni import PatroniPostgres, SentinelRedisService
from benchmarks.chaos.stack import Service, Stack, wait_listening

KINDS = ("daphne_kill", "daphne_term", "redis_stop", "pg_fast", "pg_immediate", "clock")
PATRONI_KINDS = ("pg_failover", "redis_failover", "etcd_stop")  # the soak with --patroni
REPEATABLE = ("daphne_kill", "daphne_term", "redis_stop", "pg_fast", "clock")
WEIGHTS = (3, 3, 2, 2, 1)


@dataclass(frozen=True)
class Planned:
    at: float  # seconds after play began
    kind: str
    length: float  # how long the service stays away (or the clock stays off / in one)
    target: int  # which Daphne (daphne_*)
    second: float = 0.0  # clock: how long it then runs in one process


def kinds_for(requested: list[str], patroni: bool) -> tuple[str, ...]:
    """The kinds to plan: with Patroni, ``pg_failover`` in place of stopping PostgreSQL (its
    Patroni would start it again or fail over: the faults would not be what they say),
    ``redis_failover`` in place of ``redis_stop`` (a Sentinel would promote the replica), and
    ``etcd_stop`` with them."""
    stopping = ("pg_fast", "pg_immediate")
    if not patroni:
        wrong = [k for k in requested if k in PATRONI_KINDS]
        if wrong:
            raise SystemExit(f"--faults {' '.join(wrong)} needs --patroni")
        return tuple(requested)
    kept = [k for k in requested if k not in (*stopping, "redis_stop")]
    if "pg_failover" not in kept and any(k in requested for k in stopping):
        kept.append("pg_failover")
    if "redis_failover" not in kept and "redis_stop" in requested:
        kept.append("redis_failover")
    if "etcd_stop" not in kept and any(k in requested for k in stopping):
        kept.append("etcd_stop")
    return tuple(kept)


def plan(seed: int, seconds: float, calm_tail: float, kinds: tuple[str, ...] = KINDS,
         first_at: float = 10.0) -> list[Planned]:
    rng = random.Random(f"chaos-faults-{seed}")
    must = list(kinds)
    rng.shuffle(must)
    repeatable = [k for k in REPEATABLE if k in kinds]
    weights = [w for k, w in zip(REPEATABLE, WEIGHTS, strict=True) if k in kinds]
    out: list[Planned] = []
    at = first_at
    while True:
        kind = must.pop(0) if must else rng.choices(repeatable, weights)[0] if repeatable else ""
        if not kind:
            break
        fault = _draw(rng, kind, at)
        required = len(out) < len(kinds)  # each kind once, however short the soak
        if not required and fault.at + _budget(fault) > seconds - calm_tail:
            break
        out.append(fault)
        at = fault.at + _budget(fault) + rng.uniform(4, 12)
    return out


def _draw(rng: random.Random, kind: str, at: float) -> Planned:
    target = rng.randrange(3)
    if kind == "daphne_kill":
        return Planned(at, kind, rng.uniform(2, 5), target)
    if kind == "daphne_term":
        return Planned(at, kind, 0.0, target)
    if kind == "redis_stop":
        return Planned(at, kind, rng.uniform(5, 20), target)
    if kind in ("pg_fast", "pg_immediate"):
        return Planned(at, kind, rng.uniform(5, 30), target)
    if kind in ("pg_failover", "redis_failover"):
        return Planned(at, kind, 0.0, target)
    if kind == "etcd_stop":
        return Planned(at, kind, rng.uniform(5, 15), target)
    return Planned(at, kind, rng.uniform(8, 20), target, rng.uniform(10, 30))


def _budget(fault: Planned) -> float:
    """Roughly how long a fault takes, restarts included (for the schedule only)."""
    restarts = {"daphne_kill": 4, "daphne_term": 6, "clock": 30, "pg_failover": 40,
                "redis_failover": 10, "etcd_stop": 5}.get(
        fault.kind, 3)
    return fault.length + fault.second + restarts


# ------------------------------------------------------------------------------ doing them
def _restart(daphne: Service, env: dict[str, str] | None = None) -> float:
    return daphne.start(env)


def inject(stack: Stack, fault: Planned) -> tuple[float, float, str]:
    """Do the fault (blocking); returns (start, end) in time.monotonic() and a detail."""
    start = time.monotonic()
    if fault.kind == "daphne_kill":
        daphne = stack.daphnes[fault.target]
        daphne.stop(signal.SIGKILL)
        time.sleep(fault.length)  # systemd's RestartSec, and a little more
        end = _restart(daphne)
        return start, end, f"{daphne.name} killed, back after {end - start:.1f} s"
    if fault.kind == "daphne_term":
        daphne = stack.daphnes[fault.target]
        status = daphne.stop(signal.SIGTERM)
        end = _restart(daphne)
        return start, end, (
            f"{daphne.name} exited {status} on SIGTERM, back after {end - start:.1f} s"
        )
    if fault.kind == "redis_stop":
        stack.redis.stop(signal.SIGTERM)
        time.sleep(fault.length)
        end = stack.redis.start()
        return start, end, f"Redis away {end - start:.1f} s"
    if fault.kind in ("pg_fast", "pg_immediate"):
        mode = "fast" if fault.kind == "pg_fast" else "immediate"
        stack.postgres.stop(mode)
        time.sleep(fault.length)
        end = stack.postgres.start()
        return start, end, f"PostgreSQL stopped -m {mode}, away {end - start:.1f} s"
    if fault.kind == "pg_failover":
        assert isinstance(stack.postgres, PatroniPostgres), "pg_failover needs --patroni"
        return stack.postgres.fail_over()
    if fault.kind == "redis_failover":
        assert isinstance(stack.redis, SentinelRedisService), "redis_failover needs --patroni"
        return stack.redis.fail_over()
    if fault.kind == "etcd_stop":
        assert isinstance(stack.postgres, PatroniPostgres), "etcd_stop needs --patroni"
        return stack.postgres.stop_etcd(fault.length)
    if fault.kind == "clock":
        off = {**stack.env, "TABLES_CLOCK_IN_SERVER": "false"}
        for daphne in stack.daphnes:  # a rolling restart: one process away at a time
            daphne.stop(signal.SIGTERM)
            _restart(daphne, off)
        none_from = time.monotonic()
        time.sleep(fault.length)
        stack.clock.start()
        one_from = time.monotonic()
        time.sleep(fault.second)
        for daphne in stack.daphnes:
            daphne.stop(signal.SIGTERM)
            _restart(daphne)
        stack.clock.stop(signal.SIGTERM)
        end = time.monotonic()
        for daphne in stack.daphnes:
            wait_listening(daphne.port or 0, daphne.name)
        return start, end, (
            f"clock in no process for {one_from - none_from:.1f} s, in one (runclock) for "
            f"{end - one_from:.1f} s, then in every process again"
        )
    raise ValueError(fault.kind)


def settle(stack: Stack, fault: Planned) -> str:
    """What a fault leaves to do once the soak has read the tables' versions at its end (the
    old Redis master back as the replica, the old PostgreSQL primary back as the standby); what
    was done ("" for nothing)."""
    if fault.kind == "redis_failover" and isinstance(stack.redis, SentinelRedisService):
        return stack.redis.settle()
    if fault.kind == "pg_failover" and isinstance(stack.postgres, PatroniPostgres):
        return stack.postgres.settle()
    return ""
