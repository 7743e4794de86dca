"""The read side: queries and what pages show, read from the rows; nothing here changes a row
except ``statistics``, which keeps a game's counted figures up to date.

- ``games``: the games a phone sat in;
- ``statistics``: a game's results and statistics, from its rows and stored hands;
- ``tournament_lobby``: what a tournament's pages show (tables, stacks, level, places);
- ``tournament_history``: a player's hands across a tournament's tables;
- ``tournament_recap``: the recap of a whole tournament once it is over;
- ``game_nights``: a group's game nights, who answered what, and the games of each evening.
"""
