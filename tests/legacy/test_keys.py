"""Keys are matched case- and separator-insensitively everywhere, by key or by name.

"Feral", "deep dark", "dragon-soul" (the Dragon Soul's name), "Very Hard", "left arm"... in the
library, in a character file, at the CLI and in the guided creation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.core import Draw, InvalidInput, ReplaySource, RuleViolation
from rulebound.rulesets.legacy.assist import assist
from rulebound.rulesets.legacy.checks import CheckRequest, resolve
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.creation import CreationDraft
from rulebound.rulesets.legacy.damage import apply_damage
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.progression import advance
from rulebound.rulesets.legacy.restrictions import check_soul, validated
from rulebound.rulesets.legacy.rules import harder, scale

from .conftest import Sheet, make_sheet

runner = CliRunner()
CAT = catalogue()


@pytest.mark.parametrize(
    ("kind", "given", "key"),
    [
        ("race", "Feral", "feral"),
        ("race", " DRAGONKIN ", "dragonkin"),
        ("origin", "deep dark", "deep-dark"),
        ("origin", "The Deep Dark", "deep-dark"),
        ("origin", "Deep_Dark", "deep-dark"),
        ("soul", "dragon-soul", "dragon"),
        ("soul", "Dragon Soul", "dragon"),
        ("soul", "god fragment", "god-fragment"),
        ("soul", "Machine_Spirit", "machine-spirit"),
        ("affinity", "Survival", "survival"),
        ("affinity", "Weapon Skill", "wpn"),
        ("difficulty", "Very Hard", "very-hard"),
        ("difficulty", "VERY_EASY", "very-easy"),
    ],
)
def test_the_catalogue_finds_content_by_key_or_name(kind: str, given: str, key: str) -> None:
    assert getattr(CAT, kind)(given).key == key


def test_an_unknown_key_is_still_refused_with_what_exists() -> None:
    with pytest.raises(InvalidInput) as info:
        CAT.race("Elven")
    assert (info.value.field, info.value.value) == ("race", "Elven")
    assert "feral" in info.value.expected


def test_checks_take_any_spelling() -> None:
    req = CheckRequest(score=30, difficulty="Very Hard", scale="As Written")
    assert (req.difficulty, req.scale) == ("very-hard", "as-written")
    assert resolve(req).thresholds.target == 24
    assert harder("very hard") == "impossible"
    assert scale("D100").key == "d100"
    assert CheckRequest(score=30, affinity_bonus="Five Per Rank").affinity_bonus == "five-per-rank"


def test_a_sheet_takes_any_spelling(sheet: Sheet) -> None:
    kara = sheet(affinities=("survival",), proficiencies=("Pistols",), origin="fire")
    assert kara.score("str") == kara.score("STR")
    assert kara.check("stm", affinity="Survival").rank == 1
    assert kara.check("BLS", proficiency="pistols").rank == 1
    drow = sheet(race="drow", soul="dark")
    assert drow.check("PER", situations=["Bright Light"]).disadvantage
    fire = apply_damage(kara, 10, location="Left Arm", damage_type="Fire")[1]
    assert (fire.through, fire.critical) == (10 - 3 - 3, {"left-arm": 1})
    poison = apply_damage(sheet(race="gnome", soul="gnome"), 13, damage_type="POISON")[1]
    assert poison.wounds_lost == 5
    raised = advance(kara, "dex", ReplaySource([Draw(10, 4)])).character  # 29 -> 34: bonus 3
    assert (raised.scores["DEX"], raised.scores["BLS"]) == (34, 22 + 4)


def test_classes_and_soul_restrictions_take_any_spelling() -> None:
    with pytest.raises(RuleViolation, match="class 'Engineer'"):
        check_soul("Fey Soul", "Elf", "Engineer")
    with pytest.raises(RuleViolation, match="a Dwarf cannot"):
        check_soul("warlock soul", "DWARF")


def test_creation_stores_the_canonical_keys() -> None:
    draft = CreationDraft.start("Rook", "Feral", "deep dark", "Human")
    assert (draft.race, draft.origin, draft.soul) == ("feral", "deep-dark", "human")


def test_a_character_file_is_read_with_any_spelling() -> None:
    data = make_sheet().model_dump(mode="json")
    data |= {"race": "Feral", "origin": "The Deep Dark", "soul": "Human"}
    data |= {"affinities": ["Survival", "weapon skill"], "absorbed_soul": None}
    char = validated(data)
    assert (char.race, char.origin, char.soul) == ("feral", "deep-dark", "human")
    assert char.affinities == ("survival", "wpn")
    dragon = validated(data | {"race": "Dragonkin", "soul": "Dragon Soul", "absorbed_soul": "Elf"})
    assert (dragon.soul, dragon.absorbed_soul) == ("dragon", "elf")


def test_a_helper_holds_a_proficiency_whatever_its_spelling(sheet: Sheet) -> None:
    helper = sheet(name="Bo", proficiencies=("Long Rifles",))
    check = sheet().check("BLS", proficiency="long-rifles", untrained_penalty=-4)
    lent = assist(helper, check, mode="proficiency", proficiency="long rifles")
    assert (lent.rank, lent.untrained_penalty) == (1, 0)


def new(*args: str) -> dict[str, Any]:
    base = ["character", "new", "legacy", "--name", "Rook", "--seed", "4", "--no-interactive"]
    done = runner.invoke(app, [*base, *args, "--json"])
    assert done.exit_code == 0, done.output
    body = json.loads(done.output)
    assert isinstance(body, dict)
    return body


def test_the_cli_creation_takes_feral_deep_dark_and_dragon_soul() -> None:
    two = ("--affinity", "Arcane", "--affinity", "stealth")
    feral = new("--race", "Feral", "--origin", "deep dark", "--soul", "Human", *two)
    assert (feral["race"], feral["origin"], feral["soul"]) == ("feral", "deep-dark", "human")
    dragon = new("--race", "dragonkin", "--origin", "AIR", "--soul", "dragon-soul")
    assert dragon["soul"] == "dragon"
    extra = new("--race", "human", "--origin", "surface", "--soul", "human", *two)
    assert extra["affinities"] == ["survival", "arcane", "stealth"]


def test_the_cli_rolls_from_a_file_with_any_spelling(tmp_path: Path) -> None:
    data = make_sheet(affinities=("survival",)).model_dump(mode="json") | {"race": "Human"}
    path = tmp_path / "kara.json"
    path.write_text(json.dumps(data), "utf-8")
    args = ["roll", "legacy", "--character", str(path), "--characteristic", "stm", "--seed", "2"]
    more = ["--affinity", "Survival", "--difficulty", "very hard", "--json"]
    done = runner.invoke(app, [*args, *more])
    assert done.exit_code == 0, done.output
    request = json.loads(done.output)["request"]["request"]
    assert (request["characteristic"], request["difficulty"], request["rank"]) == (
        "STM",
        "very-hard",
        1,
    )


def test_guided_creation_labels_souls_by_name() -> None:
    first = GAME.creation({}, {}, ReplaySource([]))
    assert first is not None
    souls = {c.value: c.label for f in first.fields if f.name == "soul" for c in f.choices}
    assert souls["dragon"] == "Dragon Soul"  # so "dragon-soul" names it
    soul = next(f for f in first.fields if f.name == "soul")
    assert "Dragon Soul: racial; only Dragonkin" in soul.help


def test_a_roll_from_a_sheet_takes_situations_in_any_spelling(sheet: Sheet) -> None:
    from rulebound.rulesets.legacy.request import sheet_request

    drow = sheet(race="drow", soul="dark")
    variants = {"scale": "as-written", "affinity_bonus": "rank-table"}
    roll = sheet_request(drow, {"characteristic": "PER", "situations": ["Bright Light"]}, variants)
    assert (roll.situations, roll.request.disadvantage) == (("bright-light",), True)


def test_ignored_armour_and_a_free_luck_swap_take_any_spelling(sheet: Sheet) -> None:
    from rulebound.rulesets.legacy.fate import luck_swap

    assert apply_damage(sheet(), 10, ignore=("Soak",))[1].blocked == 0
    elf = sheet(race="elf", soul="elf")
    assert luck_swap(elf, ReplaySource([Draw(20, 12)]), affinity="Arcane")[0].character.fate == 2


def test_a_characteristic_is_named_by_its_code_or_its_name(sheet: Sheet) -> None:
    """ "Dexterity", "weapon skill", "Will_Power" as the catalogue names them (ruling 77), like
    the affinity "Weapon Skill" above; "dex" already worked."""
    kara = sheet()
    assert kara.score("Dexterity") == kara.score("DEX")
    assert kara.check("weapon skill").characteristic == "WPN"
    assert kara.bonus("Will_Power") == kara.bonus("WIL")
    raised = advance(kara, "Dexterity", ReplaySource([Draw(10, 4)])).character
    assert raised.scores["DEX"] == 34


def test_a_character_file_keys_scores_and_locations_in_any_spelling(tmp_path: Path) -> None:
    data = make_sheet(critical={"left-arm": 1}).model_dump(mode="json")
    data["scores"] = {code.lower(): value for code, value in data["scores"].items()}
    data |= {"unnatural": {"ldr": 1}, "critical": {"Left Arm": 1}, "max_bonus": {"Str": 3}}
    data["armour"] = {"Torso": {"physical": 2}}
    char = validated(data)
    assert char.scores == make_sheet().scores
    assert (char.unnatural, char.max_bonus, char.critical) == (
        {"LDR": 1},
        {"STR": 3},
        {"left-arm": 1},
    )
    assert char.armour["torso"].physical == 2
    path = tmp_path / "kara.json"
    path.write_text(json.dumps(data), "utf-8")
    args = ["roll", "legacy", "--character", str(path), "--characteristic", "wil"]
    done = runner.invoke(app, [*args, "--seed", "2", "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["request"]["request"]["characteristic"] == "WIL"
