#!/usr/bin/env bash
# Runs the app on the embedded default (SQLite + in-memory channel layer) at http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export PATH="$PWD/.venv/bin:$PATH"
if [ -f tables/apps.py ]; then
  python manage.py migrate --noinput
  exec daphne -b "${HOST:-127.0.0.1}" -p "${PORT:-8000}" config.asgi:application
else
  exec python -m engine.demo
fi
