"""Discord's /r with the whole notation: an answer with the roll and its exact odds, bad
input (a 4,300-digit number included) answered in words, and the slowest expressions the
caps accept answered well within Discord's three seconds."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import Linked

SLOWEST = (
    "100d199",
    "40d20kh10",
    "10d100kh5",
    "20#5d6e6",
    "100d6e6",
    "99d1000+1d1000",
    "(1d100, 1d100, 1d100)kh2",
    "1d20rr<20",
    "10#1d1000e1000",
    "4d6e6kh3",
)
"""Near the caps: the costliest odds the budget lets through, the most dice drawn, the
odds refused for their cost (answered at once, without them)."""


def test_the_notation_rolls_and_answers_with_its_odds(linked: Linked) -> None:
    answer = linked.discord.command("player", "r", dice="1d20+5 adv Stealth")
    embed = answer["data"]["embeds"][0]
    assert embed["title"] == "/r 2d20kh1+5 Stealth"
    assert embed["description"].startswith("**Total ")
    details = next(f["value"] for f in embed["fields"] if f["name"] == "Details")
    assert "2d20kh1+5 Stealth: average 18.82, 6 to 25; P(total ≥ 19) = 231/400" in details
    counted = linked.discord.command("player", "r", dice="10d10>=7")["data"]["embeds"][0]
    assert "successes" in counted["description"] or "1 success" in counted["description"]


@pytest.mark.parametrize(
    ("dice", "words"),
    [
        ("1d6+" + "9" * 4400, "the cap on an expression's length"),
        ("1d6+" + "9" * 400, "a whole number up to 1000000"),
        ("4d6 kh3", "write 4d6kh3, without the space"),
        ("101d6", "the cap on dice"),
    ],
)
def test_bad_dice_are_answered_in_words(linked: Linked, dice: str, words: str) -> None:
    answer: dict[str, Any] = linked.discord.command("player", "r", dice=dice)
    content = answer["data"]["content"]
    assert words in content
    assert len(content) <= 2000


@pytest.mark.parametrize("dice", SLOWEST)
def test_the_slowest_accepted_expressions_answer_within_three_seconds(
    linked: Linked, dice: str
) -> None:
    started = time.perf_counter()
    answer = linked.discord.command("player", "r", dice=dice)
    took = time.perf_counter() - started
    assert answer["type"] == 4, answer
    assert answer["data"]["embeds"][0]["title"].startswith("/r ")
    assert took < 3.0, f"{dice}: {took:.2f} s"
