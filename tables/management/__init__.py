"""The tables app's management commands (``commands/``), run with ``python manage.py``, and
``options``: what their options share."""
