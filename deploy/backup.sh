#!/bin/sh
# A backup of the database: `pg_dump` in its custom format (compressed; `pg_restore` reads it,
# whole or a table at a time) to $BACKUP_DIR/holdem-<UTC time>.dump, written under a temporary
# name and renamed once complete, so that a dump cut short never looks like a backup. Dumps older
# than $BACKUP_KEEP_DAYS days (default 14) are then deleted. Run nightly by holdem-backup.timer;
# restoring: deploy/README.md. tests/deploy/test_backup.py runs this script.
set -eu
: "${DATABASE_URL:?DATABASE_URL is not set}"
dir="${BACKUP_DIR:-/var/backups/holdem}"
keep="${BACKUP_KEEP_DAYS:-14}"
PATH="$PATH:/usr/lib/postgresql/15/bin"
mkdir -p "$dir"
name="$dir/holdem-$(date -u +%Y%m%dT%H%M%SZ).dump"
pg_dump --format=custom --no-owner --dbname="$DATABASE_URL" --file="$name.partial"
mv "$name.partial" "$name"
find "$dir" -maxdepth 1 -name 'holdem-*.dump' -mtime "+$((keep - 1))" -delete
find "$dir" -maxdepth 1 -name 'holdem-*.dump.partial' -mmin +1440 -delete
echo "backup $name: $(wc -c < "$name") bytes"
