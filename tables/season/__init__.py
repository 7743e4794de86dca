"""Your games, your group: every game a phone sat in, groups of the same people's
games with a season's standings, and the statistics counted from what the table saw.

- ``models``: the rows (a group, its games, each game's counted statistics, identity moves);
- ``tally``: a game's statistics and results, counted from its stored hands and kept up to date;
- ``games``: the games a phone sat in;
- ``groups``: making, continuing and running a group, and its season;
- ``identity``: taking one's games to another phone, and forgetting them on this one.
"""
