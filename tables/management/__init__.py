"""The tables app's management commands (``commands/``), run with ``python manage.py``."""
