"""The poker engine: every rule of the table, pure Python (no Django).

- ``cards``: cards, their notation and the shuffled deck; ``evaluator``: hand values;
- ``hand``: one hand's rules (blinds, deal, betting rounds, showdown); ``hand_state``: what a
  hand holds and what can be read of it; ``hand_settings``: who is dealt in, the button, the
  blinds; ``actions``: what a player does, what the seat to act may do, and the checks of a
  request; ``pots``: main and side pots, splitting them and who is paid each;
- ``events``: everything that happens in a hand, in order; ``views``: what one seat or a
  spectator may see of it; ``history``: a hand's record and its replay;
- ``game``: a game of hands, the button, arrivals and departures; ``seats``: each seat's
  state, the log of seat changes and the standings; ``blinds``: the starting stack and the
  blind levels;
- ``tournament``: seating, balancing, breaking and places above the tables;
- ``proof``: the deck commitment shown before the first card, and its proof after;
- ``equity``: Monte Carlo equity; ``odds``: each hand's chance once every hand is face up;
  ``runout``: those odds at each street of a face-up run-out;
- ``advice``: what a player could have known at each of their decisions (hints, explanations);
  ``stats``: the statistics players know (VPIP, PFR...), from the public record;
- ``phh/``: hands in PHH (written, read, replayed); ``foreign``: a PHH hand from elsewhere,
  replayed with these rules; ``export/``: hand histories and results to take away (PokerStars
  text, PHH, CSV);
- ``timebank``: the time bank's arithmetic (P4); ``rest_of_board``: what would have come after
  a hand that ended before the river (P5);
- ``bots/``: the computer players, deciding from one seat's view;
- ``demo``: a whole game of computer players, told in the terminal.
"""
