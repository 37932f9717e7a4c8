"""The embed's "← this roll" mark: on exactly the outcome the roll landed on, for every
game, a failure included (Empty Reach words a failure "Failure: no success", not the
"0 successes" its odds call it)."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.core.canonical import to_jsonable
from rulebound.core.random_source import SeededSource
from rulebound.discord.embeds import card_embed, chance_lines, marked
from rulebound.rulesets.plays import replay
from rulebound.web.settings import registry_games

MARK = "← this roll"
FORMS: dict[str, dict[str, Any]] = {
    "empty-reach": {"skill": "Persuasion"},
    "rainwall": {"skill": "Lockpicking", "dr": 1},
    "legacy": {"characteristic": "REN"},
    "ghostburn": {"trick": "aimed-shot"},
}
SEEDS = range(40)


def _sheet(key: str) -> Any:
    """A blank character with a middling value in each of its numbers."""
    rules = registry_games()[key].table
    sheet = rules.new_sheet("Ana")
    form = {
        f.name: (f.minimum + f.maximum) // 2
        for f in rules.sheet_view(sheet).fields
        if f.kind == "int" and f.minimum is not None and f.maximum is not None
    }
    return rules.apply_sheet_form(sheet, form)


def test_every_game_is_covered() -> None:
    assert set(FORMS) == set(registry_games())


@pytest.mark.parametrize("key", sorted(FORMS))
def test_the_mark_is_on_one_outcome_that_agrees_with_the_result(key: str) -> None:
    rules = registry_games()[key].table
    sheet = _sheet(key)
    chances = rules.chances(sheet, FORMS[key], {})
    landed = set()
    for seed in SEEDS:
        play = rules.roll(sheet, FORMS[key], {}, SeededSource(seed))
        card = to_jsonable(play.card)
        lines = chance_lines(chances, card)
        marks = [line for line in lines if line.endswith(MARK)]
        assert len(marks) == 1, (key, card["outcome"], lines)
        outcome = next(o for o in chances.outcomes if o.key == marked(chances, card))
        if play.card.succeeded is not None:  # a partial success awaits its roller's choice
            assert outcome.success == play.card.succeeded, (key, card["outcome"], outcome)
        assert marks[0].startswith(f"{outcome.label}: "), (key, marks)
        landed.add(outcome.key)
    assert len(landed) >= 2, (key, landed)  # failures and successes both seen


def test_an_empty_reach_failure_marks_no_successes() -> None:
    """The outcome's key is the number of successes: checked against the replayed result."""
    rules = registry_games()["empty-reach"].table
    game = rules.game
    sheet = _sheet("empty-reach")
    chances = rules.chances(sheet, FORMS["empty-reach"], {})
    failures = 0
    for seed in SEEDS:
        play = rules.roll(sheet, FORMS["empty-reach"], {}, SeededSource(seed))
        result = replay(game, [play.record])
        assert marked(chances, to_jsonable(play.card)) == str(result.successes)
        failures += result.successes == 0
        embed = card_embed(to_jsonable(play.card), play.summary, chances)
        chance = next(f["value"] for f in embed["fields"] if f["name"] == "Exact chance")
        expected = f"{result.successes} success" + ("" if result.successes == 1 else "es")
        assert f"{expected}: " in chance
        assert chance.count(MARK) == 1
        assert next(line for line in chance.splitlines() if MARK in line).startswith(expected)
    assert failures


def test_no_mark_when_the_outcome_cannot_be_told() -> None:
    chances = registry_games()["legacy"].table.chances(_sheet("legacy"), FORMS["legacy"], {})
    card = {"outcome": "Something else", "succeeded": None}
    assert marked(chances, card) is None
    assert not any(line.endswith(MARK) for line in chance_lines(chances, card))
    assert not any(line.endswith(MARK) for line in chance_lines(chances))
