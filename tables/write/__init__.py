"""The write side: every change to a table, through one write path.

- ``path``: ``apply_change`` locks the table (or, for a change of play, updates the version this
  process holds in one conditional statement), hands out a ``Change``, saves, checks the chips,
  bumps the version and tells the phones after the commit;
- ``lobby``: creating and joining tables, seats and names, the host's controls, starting,
  dealing, playing again;
- ``play``: a person's action at the table, coming back when away;
- ``moderation``: what staff do from the admin (close, pause, remove, rename), with its log.

Each public function checks, then changes through ``path.apply_change``; a refusal
(``path.Refused``) changes nothing.
"""
