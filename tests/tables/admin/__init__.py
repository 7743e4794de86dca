"""Tests of staff moderation (tables/admin/), on pages and on live tables."""
