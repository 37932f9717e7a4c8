"""Traits and skills as editable data; character sheets checked against them."""

import json
from pathlib import Path

import pytest

from rulebound.core.errors import ContentError, InvalidForm, InvalidInput
from rulebound.rulesets.rainwall.character import Character, load_character, request_for
from rulebound.rulesets.rainwall.content import Catalogue, builtin_catalogue, load_catalogue
from rulebound.rulesets.rainwall.game import GAME


def character_from_data(data: dict[str, object], catalogue: Catalogue | None = None) -> Character:
    return load_character(data, catalogue or builtin_catalogue())


HOMEBREW = """
[[traits]]
name = "Wits"
summary = "Quick thinking."

[[skills]]
name = "Riddles"
trait = "Wits"
"""


def sheet(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "name": "Picker",
        "traits": {"Dexterity": 7},
        "skills": {"Lockpicking": {"score": 5, "bonus": 3}},
    }
    return {**base, **changes}


def test_builtin_catalogue_holds_the_seed_names() -> None:
    catalogue = builtin_catalogue()
    assert catalogue.skills["Lockpicking"].trait == "Dexterity"
    assert "Dexterity" in catalogue.traits


def test_homebrew_file_extends_the_catalogue(tmp_path: Path) -> None:
    path = tmp_path / "brew.toml"
    path.write_text(HOMEBREW, encoding="utf-8")
    catalogue = load_catalogue(path)
    assert catalogue.skills["Riddles"].trait == "Wits"
    assert "Lockpicking" in catalogue.skills


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ('[[skills]]\nname = "Riddles"\ntrait = "Wits"\n', "skills.Riddles.trait: got 'Wits'"),
        ('[[traits]]\nname = "Wits"\ncolour = "red"\n', "traits.0.colour"),
        ('[[traits]]\nname = "A"\n[[traits]]\nname = "A"\n', "named more than once: A"),
        ("traits = [", "not valid TOML"),
    ],
)
def test_bad_homebrew_files_say_what_is_wrong(tmp_path: Path, text: str, complaint: str) -> None:
    path = tmp_path / "brew.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError, match=complaint.replace(".", r"\.")):
        load_catalogue(path)


def test_request_for_a_character_skill() -> None:
    request = request_for(character_from_data(sheet()), "Lockpicking", dr=4)
    assert (request.dice, request.skill, request.bonus, request.dr) == (7, 5, 3, 4)
    assert (request.trait_name, request.skill_name) == ("Dexterity", "Lockpicking")


def test_request_for_a_skill_the_character_lacks() -> None:
    with pytest.raises(InvalidInput) as caught:
        request_for(character_from_data(sheet()), "Riddles", dr=4)
    assert (caught.value.field, caught.value.value) == ("skill", "Riddles")


@pytest.mark.parametrize(
    ("changes", "field", "complaint"),
    [
        ({"traits": {"Dexterity": 11}}, "traits.Dexterity", "at most 10"),
        ({"skills": {"Lockpicking": {"score": 0}}}, "skills.Lockpicking.score", "at least 1"),
        (
            {"skills": {"Riddles": {"score": 3, "trait": "Luck"}}},
            "skills.Riddles",
            "whose trait (Luck) has a score",
        ),
        ({"skills": {"Riddles": {"score": 3}}}, "skills.Riddles", "one of the sheet's own"),
        ({"traits": {}}, "skills.Lockpicking", "whose trait (Dexterity) has a score"),
    ],
)
def test_bad_character_sheets(changes: dict[str, object], field: str, complaint: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        character_from_data(sheet(**changes))
    assert caught.value.field == field
    assert complaint in caught.value.expected


def test_every_problem_of_a_sheet_at_once() -> None:
    bad = sheet(traits={"Luck": 3}, skills={"Riddles": {"score": 3}, "Lockpicking": {"score": 5}})
    with pytest.raises(InvalidForm) as caught:
        character_from_data(bad)
    fields = [p.field for p in caught.value.problems]
    assert fields == ["skills.Riddles", "skills.Lockpicking"]  # Luck is the sheet's own trait


def test_character_file_with_homebrew_skill(tmp_path: Path) -> None:
    brew = tmp_path / "brew.toml"
    brew.write_text(HOMEBREW, encoding="utf-8")
    path = tmp_path / "pc.json"
    path.write_text(
        '{"name": "Sage", "traits": {"Wits": 6}, "skills": {"Riddles": {"score": 4}}}',
        encoding="utf-8",
    )
    catalogue = load_catalogue(brew)
    sheet = json.loads(path.read_text(encoding="utf-8"))
    request = request_for(character_from_data(sheet, catalogue), "Riddles", 2, catalogue=catalogue)
    assert (request.dice, request.skill, request.bonus) == (6, 4, 0)
    # the game loaded with the homebrew file validates the same sheet, and rolls it
    brewed = GAME.with_content(brew)
    assert brewed.sheets is not None
    assert brewed.sheets.validate(sheet)["skills"] == {"Riddles": {"score": 4, "bonus": 0}}
    assert GAME.sheets is not None
    with pytest.raises(InvalidInput):
        GAME.sheets.validate(sheet)
