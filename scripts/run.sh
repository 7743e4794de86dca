#!/usr/bin/env bash
# Runs the app on the embedded default (SQLite + in-memory channel layer) at http://127.0.0.1:8000:
# creates .venv and installs when needed, migrates, then starts Daphne (which also runs the clock).
# HOST and PORT change the address; every setting in config/settings.py can be given as an
# environment variable (see README "Production").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export PATH="$PWD/.venv/bin:$PATH"
python manage.py migrate --noinput
# Static files with hashed names and gzip/Brotli copies, served immutable (config/static.py).
# Collected again only when a file changed since (Brotli at its best takes a while).
export STATIC_COLLECTED=${STATIC_COLLECTED:-true}
collected="${STATIC_ROOT:-staticfiles}/staticfiles.json"
if [ ! -f "$collected" ] || [ -n "$(find static pyproject.toml -newer "$collected" -print -quit)" ]; then
  python manage.py collectstatic --noinput -v0
fi
exec python -m config.serve -b "${HOST:-127.0.0.1}" -p "${PORT:-8000}" config.asgi:application
