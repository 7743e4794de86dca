#!/usr/bin/env bash
# The whole test suite: lint, types, then pytest on the embedded default (SQLite + in-memory
# channel layer) and again on PostgreSQL + Redis when they answer (always in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
# The three browser engines of the browser tests, from Debian, when missing (as root or sudo).
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/WebKitWebDriver ] || need+=(webkit2gtk-driver)
[ -x /usr/bin/firefox-esr ] || need+=(firefox-esr)
[ -x /usr/bin/Xvfb ] || need+=(xvfb)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "== installing ${need[*]} (Debian packages)"
  ($sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    "${need[@]}") >/dev/null
fi
export PATH="$PWD/.venv/bin:$PATH"

echo "== ruff"; ruff check .
echo "== mypy"; mypy engine --strict && mypy .

echo "== pytest (SQLite, in-memory channel layer)"
env -u DATABASE_URL -u REDIS_URL pytest -p no:cacheprovider -n 2 -m "not browser" "$@"

# Playwright's sync API keeps an event loop running in its worker for the whole session, which
# would break the asyncio tests that share the worker: the browser tests get their own run.
echo "== pytest (browser: Chromium through Playwright; WebKit and Firefox ESR: tests/browser/engines)"
env -u DATABASE_URL -u REDIS_URL pytest -p no:cacheprovider -n 2 -m "browser" "$@"

pg_url=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/holdem_test}
redis_url=${TEST_REDIS_URL:-redis://127.0.0.1:6379/0}
if python scripts/services_up.py "$pg_url" "$redis_url"; then
  export DATABASE_URL=$pg_url REDIS_URL=$redis_url
  if [ $# -gt 0 ]; then
    echo "== pytest (PostgreSQL + Redis)"
    pytest -p no:cacheprovider -m "services" "$@"
  else
    # The chaos soaks (tests/chaos) start stacks of their own (their own PostgreSQL, Redis,
    # Daphne and nginx on ports of their own) and mostly wait for their schedules: the plain
    # soak and the failover soak (Patroni, Sentinel) each run beside the other services tests
    # instead of after them, their output printed when all are done.
    echo "== pytest (PostgreSQL + Redis; the chaos soaks beside them, their output after)"
    soak_log=$(mktemp); failover_log=$(mktemp)
    pytest -p no:cacheprovider -m "services" tests/chaos \
      --ignore=tests/chaos/test_soak_failover.py >"$soak_log" 2>&1 &
    soak=$!
    pytest -p no:cacheprovider -m "services" tests/chaos/test_soak_failover.py \
      >"$failover_log" 2>&1 &
    failover=$!
    # SIGTERM: each soak stops the stack it started (benchmarks/chaos/soak.py), then exits.
    trap 'kill "$soak" "$failover" 2>/dev/null || true' EXIT
    rest=0; pytest -p no:cacheprovider -m "services" --ignore=tests/chaos || rest=$?
    soaked=0; wait "$soak" || soaked=$?
    failed_over=0; wait "$failover" || failed_over=$?
    trap - EXIT
    echo "== the chaos soak (tests/chaos, run beside the above)"
    cat "$soak_log"; rm -f "$soak_log"
    echo "== the failover soak (tests/chaos/test_soak_failover.py, run beside the above)"
    cat "$failover_log"; rm -f "$failover_log"
    if [ "$rest" -ne 0 ] || [ "$soaked" -ne 0 ] || [ "$failed_over" -ne 0 ]; then exit 1; fi
  fi
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL or Redis is not reachable; CI needs both." >&2
  exit 1
else
  echo "== PostgreSQL/Redis not reachable: skipped the services run (CI always runs it)"
fi
