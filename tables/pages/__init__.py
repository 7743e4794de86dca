"""The pages: views, forms and URLs of the site (home, create, join, the table page and its
form posts for phones without JavaScript), and the hand histories with their exports
(``history``: PokerStars text, PHH, results CSV). Views authorise, call the write side
(``tables.write``) and answer; the table itself is drawn by ``tables.live``.
"""
