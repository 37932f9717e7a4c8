"""Traits and skills as editable data; character sheets checked against them."""

from pathlib import Path

import pytest

from rulebound.core.errors import ContentError, InvalidInput
from rulebound.rulesets.rainwall.character import (
    character_from_data,
    load_character,
    request_for,
)
from rulebound.rulesets.rainwall.content import builtin_catalogue, load_catalogue

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
    ("changes", "complaint"),
    [
        ({"traits": {"Dexterity": 11}}, "traits.Dexterity: got 11"),
        ({"skills": {"Lockpicking": {"score": 0}}}, "skills.Lockpicking.score: got 0"),
        ({"traits": {"Luck": 3, "Dexterity": 7}}, "traits.Luck: not a known trait"),
        ({"skills": {"Riddles": {"score": 3}}}, "skills.Riddles: not a known skill"),
        ({"traits": {}}, "skills.Lockpicking: needs a Dexterity score"),
    ],
)
def test_bad_character_sheets(changes: dict[str, object], complaint: str) -> None:
    with pytest.raises(ContentError, match=complaint.replace(".", r"\.")):
        character_from_data(sheet(**changes))


def test_character_file_with_homebrew_skill(tmp_path: Path) -> None:
    brew = tmp_path / "brew.toml"
    brew.write_text(HOMEBREW, encoding="utf-8")
    path = tmp_path / "pc.json"
    path.write_text(
        '{"name": "Sage", "traits": {"Wits": 6}, "skills": {"Riddles": {"score": 4}}}',
        encoding="utf-8",
    )
    catalogue = load_catalogue(brew)
    request = request_for(load_character(path, catalogue), "Riddles", 2, catalogue=catalogue)
    assert (request.dice, request.skill, request.bonus) == (6, 4, 0)


def test_unreadable_character_file(tmp_path: Path) -> None:
    path = tmp_path / "pc.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ContentError, match="not valid JSON"):
        load_character(path)
