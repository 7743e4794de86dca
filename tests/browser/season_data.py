"""Seeds the browser tests' server database with a group of finished games (real engine hands
among four people and two computer players) and a browser session that sat in all of them;
prints JSON: the session key, the group's code and the games' codes. Run with the server's
DATABASE_URL: ``python -m tests.browser.season_data GAMES HANDS``."""

from __future__ import annotations

import json
import os
import random
import sys
from datetime import timedelta

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.utils import timezone  # noqa: E402

from engine.game import Game, GameSettings  # noqa: E402
from engine.history import hand_record  # noqa: E402
from tables import claims, codes  # noqa: E402
from tables.models import Group, GroupGame, Hand, Seat, Table  # noqa: E402
from tables.write.groups import new_code  # noqa: E402
from tests.engine.helpers import random_hand  # noqa: E402

NAMES = ["Asha", "Bikash", "Chandra", "Dipa", "Robo Ram", "Robo Sita"]
PEOPLE = 4  # seats 4 and 5 are computer players


def main(games: int, hands: int) -> None:
    rng = random.Random(26)
    session = SessionStore()
    others: list[dict[str, object]] = [{} for _ in range(PEOPLE - 1)]
    hashes = [claims.new_claim(session)] + [claims.new_claim(s) for s in others]
    session.save()
    group = Group.objects.create(code=new_code(), name="Friday night", creator_hash=hashes[0],
                                 points="10-7-5-3-2-1")
    start = timezone.now() - timedelta(days=7 * games)
    made = []
    for g in range(games):
        game = Game(GameSettings(blind_every=5, max_hands=hands),
                    {i: i < PEOPLE for i in range(6)}, rng)
        at = start + timedelta(days=7 * g)
        table = Table.objects.create(
            code=codes.new_code(), mode=Table.Mode.FRIENDS, status=Table.Status.FINISHED,
            max_hands=hands, blind_every=5, created_at=at, started_at=at, finished_at=at,
            host_position=0,
        )
        Seat.objects.bulk_create([
            Seat(table=table, position=i, name=NAMES[i], is_computer=i >= PEOPLE,
                 claim_hash=hashes[i] if i < PEOPLE else "")
            for i in range(6)
        ])
        while not game.finished:
            hand = random_hand(game, rng, 0.15, 0.4)
            s = hand.settings
            Hand.objects.create(
                table=table, number=s.hand_number, record=hand_record(hand), ended_at=at,
                players=[{"seat": p, "name": NAMES[p], "stack": st, "is_computer": p >= PEOPLE}
                         for p, st in zip(s.seats, s.stacks, strict=True)],
                final_stacks={str(k): v for k, v in hand.final_stacks.items()},
            )
        table.state = game.to_dict()
        table.save(update_fields=["state"])
        GroupGame.objects.create(group=group, table=table, added_at=at)
        made.append(table.code)
    print(json.dumps({"session": session.session_key, "group": group.code, "games": made}))


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
