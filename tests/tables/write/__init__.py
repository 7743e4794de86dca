"""Tests of the changes (tables/write/, tables/clock.py): the write path, the host's and the
clock's changes, late arrivals, seat moves, retention, a tournament's rules and moves."""
