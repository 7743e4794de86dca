"""The tables app: friends' tables, their seats and hands, played live over websockets."""

from __future__ import annotations

from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"
    default_auto_field = "django.db.models.BigAutoField"
