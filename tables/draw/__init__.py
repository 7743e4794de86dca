"""What the pages and the live side both draw, in words or pictures; no request, no socket.

- ``describe``: the action log in words, from the events a viewer may see;
- ``hand_names``: a hand's name in the page's language;
- ``explain``: a player's own decisions and the hint at the table, in words;
- ``qr``: QR codes of join links as inline SVG; ``chip_graph``: each player's chips as lines on
  one chart (a recap, a season);
- ``tournament_line``: the line at the top of a tournament's table page;
- ``calendar``: a group's game night as a calendar file, with its reminder.
"""
