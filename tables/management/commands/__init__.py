"""The commands ``python manage.py`` runs for the tables app:

- ``create_admin``: the first admin account, from environment variables (safe on every deploy);
- ``runclock``: the clock on its own, when the servers do not run it;
- ``delete_old_games``: retention, the games that ended long ago (daily, by a systemd timer);
- ``loadtest_tables``: started tables for the load benchmark and the two-process test.
"""
