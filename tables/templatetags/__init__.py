"""The tables app's template tags:

- ``tables_tags``: the table screens (``{% component %}``, a kept drawing; ``{% play_frame %}``;
  hand names in the page's language);
- ``chat_tags``: table talk; ``late_tags``: a friend arriving late;
- ``season_tags``: this phone's latest games on the home page;
- ``tournament_tags``: the line of a tournament's table page back to its lobby; the end of
  play at one of its tables (the winner, the places, you).
- ``push_tags``: the key a phone turns notifications on with.
"""
