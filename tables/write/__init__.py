"""The write side: every change, and every change to a table through one write path.

- ``path``: ``apply_change`` locks the table (or, for a change of play, updates the version this
  process holds in one conditional statement), hands out a ``Change``, saves, checks the chips,
  bumps the version and tells the phones after the commit; ``reconnect``: a change caught by
  a failover of the database made once more on a new connection, or refused, never half made;
- ``lobby``: creating and joining tables, seats and names, the host's controls before the game,
  starting, dealing, playing again;
- ``play``: a person's action at the table, coming back when away;
- ``moderation``: what staff do from the admin (close, pause, remove, rename), with its log;
- ``host``: the host's controls while the game runs (pause, ending the game, the computer for
  an away person, the host role, the learning table);
- ``late``: a friend arriving late taking a computer player's seat; ``seat_moves``: moving a
  seat to another phone by a single-use link;
- ``talk``: table talk, stored beside the table and never in it; ``reasons``: the computer
  players' reasons, kept with their actions at a learning table;
- ``announce``: the group messages telling the phones that something changed (after the
  commit); ``deadlines``: what the clock does next at a table, and when; ``timeouts``: a
  deadline passed (a time-out, a computer player's move, the next deal), as the clock fires it;
- ``tournament_setup``: creating a tournament, people joining it, starting it;
  ``tournament_between_hands``: between two hands of one of its tables (busts, places,
  balancing, breaking, the level, the end); ``tournament_control``: the tournament host's
  controls (pause and resume, ending it, the computer for an away entrant);
- ``out``: a person out of chips asks to be told when the next game starts (and the hook that
  tells them);
- ``groups``: making, continuing and running a group of games, and its season; ``identity``:
  taking one's games to another phone, and forgetting them on this one (neither touches a
  table, so each runs its own transaction);
- ``time_bank``: the time bank a seat has left, charged when a person's turn ends (P4);
  ``rest_of_board``: what would have come after a hand that ended before the river (P5);
- ``game_nights``: a group's next game proposed, answered, and its table opened;
- ``push``: a phone's Web Push subscriptions, its pages in sight, and the notifications sent
  after a change (your turn, a game night open, a tournament move, a late friend let in);
  ``push_send``: sending them, encrypted and signed, off the threads that change tables;
- ``retention``: deleting the games that ended long ago.

Each public function checks, then changes through ``path.apply_change``; a refusal
(``path.Refused``) changes nothing.
"""
