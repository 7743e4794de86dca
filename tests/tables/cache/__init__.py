"""Tests of the caches (tables/cache/): parts reused only for the same values, queries
compiled once."""
