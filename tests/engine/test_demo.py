"""The terminal demo plays real hands, narrates them and ends with the standings."""

from __future__ import annotations

import io
import re

from engine.demo import main


def run(*args: str) -> str:
    out = io.StringIO()
    assert main([*args, "--delay", "0"], out=out) == 0
    return out.getvalue()


def test_the_demo_plays_the_hands_asked_for_and_prints_the_standings() -> None:
    text = run("--seed", "5", "--players", "3", "--hands", "2")
    assert text.startswith("Seed 5 ")
    assert re.findall(r"^Hand (\d+): blinds 10/20, button seat \d", text, re.MULTILINE) == [
        "1", "2",
    ]
    assert "posts the small blind of 10" in text and "posts the big blind of 20" in text
    assert len(re.findall(r"^  Seat \d is dealt [2-9TJQKA][shdc] [2-9TJQKA][shdc]$", text,
                          re.MULTILINE)) == 6
    assert re.search(r"^  Seat \d (folds|checks|calls \d+|bets \d+|raises to \d+)", text,
                     re.MULTILINE)
    assert re.search(r"^  Seat \d wins [\d,]+ from the main pot", text, re.MULTILINE)
    assert "Stopping after 2 hands" in text
    standings = text.split("Final standings\n", 1)[1].splitlines()
    assert len(standings) == 3
    assert all(re.fullmatch(r"  \d\. Seat \d, .+", line) for line in standings)


def test_the_same_seed_plays_the_same_game() -> None:
    assert run("--seed", "11", "--hands", "3") == run("--seed", "11", "--hands", "3")
    assert run("--seed", "11", "--hands", "3") != run("--seed", "12", "--hands", "3")
