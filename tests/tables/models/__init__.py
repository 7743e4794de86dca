"""Tests of the rows (tables/models/) and what a row is given when it is made (join codes)."""
