"""The production settings the deploy tests start from (``DEBUG`` off, a secret key, the
host, behind a proxy)."""

from __future__ import annotations

# The README's production variables (README "Production"), with a SQLite file standing in for
# PostgreSQL: `check --deploy` looks at settings, not at the database.
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k3Y-for-the-deploy-check-only-9f8e7d6c5b4a39281706f5e4d3c2b1a0zz",
    "ALLOWED_HOSTS": "poker.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://poker.example.org",
    "BEHIND_PROXY": "true",
    "SERVE_STATIC": "false",
}
