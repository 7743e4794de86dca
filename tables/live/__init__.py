"""The live read side: what each phone at a table is sent, over its websocket.

- ``consumer``: one websocket per phone (parse, hand the message to its handler, draw its own
  view); ``protocol``: what a phone may send, checked first; ``routing``: the websocket URL;
  ``playing``: the play messages' handlers (an action, pass and play, back, sync, ping);
- ``perspective``: whose eyes a connection looks through (one seat, pass and play, a spectator);
  ``frames``: what that connection is shown at a version (``shared``: the part of it every
  connection is shown alike, worked out once per version); ``screens``: the play and watch screens
  laid out from kept drawings (the log, hand names and QR codes are drawn in ``tables.draw``);
  ``kept``: a frame's parts, each sent again only when it changed (the page keeps them);
- ``talk``: table talk on the phones; ``host``: the host's controls and their menu; ``late``: a
  friend arriving late (the offer, the host's requests); ``reasons``: why a computer player did
  that, at a learning table; ``moved``: where a tournament moved this phone's player;
  ``sight``: whether the page is shown (a phone with notifications on is told of its turn only
  while no page of the table is);
  ``out``: a person out of chips asks to be told when the next game starts;
- ``langs``: a connection's language; ``layers``: the embedded default's channel layer;
  ``redis_layer``: the Redis channel layer whose publish survives a Redis restart; ``inbox``:
  a connection's messages (the phone's, the channel layer's) handled in order.

The versions it draws are held in ``tables.cache`` (written, worked out from a step, or
loaded). Nothing here changes a table: every change goes through ``tables.write``.
"""
