"""The top-level API (``import rulebound``): a game by key, taking plain values."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import rulebound
from rulebound.core.errors import InvalidForm
from rulebound.core.random_source import SeededSource
from rulebound.rulesets import forms
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.variants import resolve

GAMES: dict[str, dict[str, Any]] = {
    "empty-reach": {"attribute_die": "D8", "skill_die": "D10"},
    "rainwall": {"dice": 7, "skill": 5, "dr": 4, "bonus": 3},
    "legacy": {"score": 30, "difficulty": "hard"},
    "ghostburn": {"ability_score": 3, "skill_bonus": 1, "dl": "Hard"},
}


def test_importing_the_package_loads_no_game_and_no_library() -> None:
    code = (
        "import sys, rulebound; rulebound.__version__; "
        "print(sorted(m for m in sys.modules if m.startswith(('rulebound.rulesets', "
        "'pydantic', 'click', 'fastapi'))))"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout == "[]\n"


def test_games_lists_the_built_ins_by_title() -> None:
    assert rulebound.games() == {
        "empty-reach": "The Empty Reach",
        "rainwall": "Rainwall",
        "legacy": "Legacy Machines and Magic",
        "ghostburn": "Ghostburn",
    }


@pytest.mark.parametrize("key", GAMES)
def test_each_game_answers_as_its_contract_does(key: str) -> None:
    ruleset = rulebound.game(key)
    game = get_game(key)
    assert ruleset.game is game
    assert (ruleset.key, ruleset.title) == (key, game.title)
    values = GAMES[key]
    request = ruleset.request(values)
    assert ruleset.request(**values) == request
    chances = ruleset.chances(**values)
    assert isinstance(chances.success, Fraction)
    typed = forms.read((*game.fields, *game.odds_fields), values)
    assert chances == game.odds(typed, resolve(game.variants, None))
    assert ruleset.chances(request) == game.chances(request)
    rolled = ruleset.roll(**values, seed=11)
    assert ruleset.card(rolled) == game.card(game.roll(request, SeededSource(11)))
    assert ruleset.card(ruleset.roll(request, source=SeededSource(11))) == ruleset.card(rolled)
    assert ruleset.text(rolled).splitlines()[0] == ruleset.card(rolled).title


def test_odds_fields_count_for_chances_only() -> None:
    reach = rulebound.game("empty-reach")
    pushed = reach.chances(attribute_die="D8", skill_die="D10", push="always")
    assert pushed.success == Fraction(139, 160)
    with pytest.raises(rulebound.InvalidInput, match="push: got 'always'; expected a field"):
        reach.request(attribute_die="D8", push="always")


def test_variants_are_read_and_checked() -> None:
    legacy = rulebound.game("legacy")
    halved = legacy.chances(score=30, difficulty="hard")
    written = legacy.chances(score=30, difficulty="hard", variants={"scale": "As Written"})
    assert (halved.success, written.success) == (Fraction(11, 20), Fraction(19, 20))
    with pytest.raises(rulebound.InvalidInput, match=r"variants\.scale"):
        legacy.chances(score=30, variants={"scale": "tripled"})


def test_every_bad_value_is_reported_at_once() -> None:
    with pytest.raises(InvalidForm) as caught:
        rulebound.game("rainwall").chances(dice=70, skill="many", dr=4)
    assert [p.field for p in caught.value.problems] == ["dice", "skill"]


def test_a_request_stands_alone() -> None:
    legacy = rulebound.game("legacy")
    check = legacy.request(score=30)
    with pytest.raises(rulebound.InvalidInput, match="a request alone"):
        legacy.chances(check, score=40)
    with pytest.raises(rulebound.InvalidInput, match="a seed or a source"):
        legacy.roll(check, seed=1, source=SeededSource(1))


def test_a_follow_up_is_a_new_result() -> None:
    reach = rulebound.game("empty-reach")
    result = reach.roll(attribute_die="D8", skill_die="D10", seed=7)
    before = reach.card(result)
    pushed = reach.follow(result, "push", {"reroll": [1]}, seed=8)
    assert reach.card(result) == before
    assert reach.card(pushed).outcome == "1 success (pushed 1x)"
    with pytest.raises(rulebound.InvalidInput, match="action"):
        reach.follow(result, "fly")


def test_the_designer_table() -> None:
    grid = rulebound.game("rainwall").grid(dr=3, bonus=1)
    assert isinstance(grid, rulebound.OddsGrid)
    assert (grid.row_axis, grid.column_axis) == ("dice", "skill")


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(rulebound.UnknownRuleset, match="one of empty-reach, ghostburn"):
        rulebound.game("chess")


def test_homebrew_content(tmp_path: Path) -> None:
    homebrew = tmp_path / "my.toml"
    homebrew.write_text(
        '[[tricks]]\nkey = "hotwire"\nname = "Hotwire"\nskill = "drive"\ndl = "Hard"\n',
        encoding="utf-8",
    )
    ghostburn = rulebound.game("ghostburn", content=homebrew)
    chances = ghostburn.chances(trick="hotwire", modifier=6)
    assert chances == rulebound.game("ghostburn").chances(dl="Hard", modifier=6)
    with pytest.raises(rulebound.InvalidInput, match="trick"):
        rulebound.game("ghostburn").chances(trick="hotwire", modifier=6)
