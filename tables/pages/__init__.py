"""The pages: views, forms and URLs of the site (home, create, join, the table page and its
form posts for phones without JavaScript), and the hand histories with their exports. Views
authorise, call the write side (``tables.write``) and answer; the table itself is drawn by
``tables.live``.

- ``urls``: the site's pages (a tournament's too, in their own list), with ``history_urls``
  (hand histories and exports) included;
- ``common``: what every table page starts from (the phone's claims, finding the table a code
  names, the message page);
- ``table``: home, create, join, the lobby's controls and playing without JavaScript; ``forms``:
  the forms for creating and joining tables;
- ``history``: a table's hand histories and their exports (PokerStars text, PHH, results CSV),
  and who may see them; ``proofs``: a hand's deck proof; ``foreign``: a hand from elsewhere (a
  PHH file) in the replayer; ``recap``: the recap of a game;
- ``hint``: the hint button; ``how_to_play``: the how-to-play page and its hand rankings;
  ``why``: why a computer player did that, at a learning table;
- ``late``: a friend arriving late (asking for a computer's seat, the host's answer);
  ``seat_moves``: moving a seat to another phone;
- ``season``: your games, taking them to another phone, a group's season, a player's line;
  ``game_nights``: a group's game nights (proposing, answering, opening the table, the
  calendar file);
- ``push``: turning notifications on and off, and the service worker that shows them;
- ``tournament``: a tournament's pages (creating, joining, the lobby, the host's pause, the CSV,
  a player's hands), with ``tournament_forms``.
"""
