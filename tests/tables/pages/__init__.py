"""Tests of the pages (tables/pages/): creating and joining tables, histories and exports,
replays, proofs, recaps, a tournament's pages, private pages, every code lookup."""
