"""Helpers shared by several folders of tests: ``servers`` (real Daphne and Redis processes, a
browser without JavaScript, a raw websocket, the services check), ``outage`` (the test
database going away and coming back), ``logs`` (what the app logs during a test, on record)."""
