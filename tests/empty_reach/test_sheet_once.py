"""A roll from an Empty Reach sheet validates the sheet once (issue 16; the web table's roll
read it three times: for the dialog, the request and the sheet after the roll)."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import SeededSource
from rulebound.rulesets.empty_reach import character
from rulebound.rulesets.empty_reach.character import Character, load_character
from rulebound.rulesets.empty_reach.game import GAME, EmptyReach
from rulebound.rulesets.plays import TableRules


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Each sheet pydantic validates, counted; the memo starts empty."""
    seen: list[Any] = []
    original = Character.model_validate

    def counted(data: Any, **options: Any) -> Character:
        seen.append(data)
        return original(data, **options)

    monkeypatch.setattr(Character, "model_validate", counted)
    monkeypatch.setattr(character, "_LOADED", {})
    return seen


def forget(validations: list[Any]) -> None:
    """Nothing counted or remembered so far (the sheets were built through the same code)."""
    validations.clear()
    character._LOADED.clear()


def sheet(**changes: Any) -> dict[str, Any]:
    base = GAME.sheets.new("Ana") | {"skills": {"Force": "D10"}}
    return GAME.sheets.validate(base) | changes


def test_a_roll_from_a_sheet_validates_it_once(validations: list[Any]) -> None:
    ana = sheet()
    forget(validations)
    _, play = TableRules(GAME).rolled(ana, {"skill": "Force"}, {}, SeededSource(3))
    assert len(validations) == 1
    assert play.record["request"]["skill"] == "Force"
    again = TableRules(GAME).rolled(ana, {"skill": "Force"}, {}, SeededSource(3))[1]
    assert again.record == play.record
    assert len(validations) == 1


def test_a_changed_sheet_is_validated_anew_and_a_bad_one_every_time(
    validations: list[Any],
) -> None:
    ana, bad = sheet(), sheet(damage=-1)
    forget(validations)
    first = load_character(ana)
    hurt = load_character(ana | {"damage": 2})
    assert (first.damage, hurt.damage) == (0, 2)
    assert len(validations) == 2
    for _ in range(2):
        with pytest.raises(InvalidInput):
            load_character(bad)
    assert len(validations) == 4


def test_only_plain_json_sheets_are_remembered(validations: list[Any]) -> None:
    """A tuple, a number as text or a key that is not text reads differently to pydantic,
    so such a sheet is never answered from the memo of a plain one."""
    plain = sheet()
    forget(validations)
    load_character(plain)
    load_character(plain | {"specialties": ()})
    load_character(plain | {"base_health": 4.0})
    assert len(validations) == 3
    load_character(plain | {"base_health": 4.0})
    assert len(validations) == 3  # a float is JSON too: remembered by its own text


def test_the_memo_is_per_content(validations: list[Any], tmp_path: Any) -> None:
    path = tmp_path / "homebrew.toml"
    path.write_text('[[specialties]]\nname = "Odd"\neffect = "narrative"\nsummary = "x"\n')
    homebrew: EmptyReach = GAME.with_content(path)
    ana = sheet(specialties=["Odd"])
    assert homebrew.sheets.character(ana).specialties == ("Odd",)
    with pytest.raises(InvalidInput):
        GAME.sheets.character(ana)  # the built-in content has no Odd
