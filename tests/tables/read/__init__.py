"""Tests of the queries and read models (tables/read/): your games and the season's statistics,
a tournament's history and recap, and each seat's window (the hands a phone may see)."""
