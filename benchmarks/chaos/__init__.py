"""A chaos soak of the whole production stack (issue 25), checked afterwards like Jepsen does.

    python -m benchmarks.chaos --minutes 10 --seed 1 [--tables 30] [--faults KIND ...]

Starts its own stack on loopback ports of its own (``benchmarks.chaos.stack``: PostgreSQL made
with initdb in a temporary folder, Redis, three Daphne processes by the systemd unit's command
line, nginx with deploy/nginx/holdem.conf and a made-up certificate), makes the tables (friends
tables of six seats, four or five websocket players each, computer players hard, medium and
easy in the other seats), plays for ``--minutes`` while the seeded schedule
(``benchmarks.chaos.faults``) injects its faults, and then runs the checker
(``benchmarks.chaos.checker``, with ``check_actions``, ``check_timing`` and ``evidence``) over
the record of what every client was told (``benchmarks.chaos.record``) and the database. Exit
status 0 only when the checker finds no breach. The record and the report are saved under
benchmarks/out/chaos/.
"""
