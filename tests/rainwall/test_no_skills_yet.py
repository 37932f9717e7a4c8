"""A Rainwall character with no skills yet: a roll says so, rather than asking for "text"
or listing an empty list of skills."""

from __future__ import annotations

import pytest

from rulebound.core import SeededSource
from rulebound.core.errors import InvalidInput, problems_of
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game

RULES = TableRules(get_game("rainwall"))


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"dr": 2}, "a choice (there is none yet: The character has no skills yet"),
        ({"skill": "Lockpicking", "dr": 2}, "one of the character's skills: none yet"),
    ],
)
def test_a_roll_of_a_character_without_skills_says_there_are_none(
    form: dict[str, object], said: str
) -> None:
    sheet = RULES.new_sheet("Ana")
    assert sheet["skills"] == {}
    with pytest.raises(InvalidInput) as caught:
        RULES.roll(sheet, form, {}, SeededSource(1))
    (problem,) = problems_of(caught.value)
    assert problem.field == "skill"
    assert said in problem.expected
