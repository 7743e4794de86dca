"""Helpers shared by several folders of tests: ``servers`` (real Daphne and Redis processes, a
browser without JavaScript, a raw websocket, the services check) and ``outage`` (the test
database going away and coming back)."""
