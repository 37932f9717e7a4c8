"""Built-in content loads and validates; homebrew races go through the same models."""

from pathlib import Path

import pytest

from rulebound.core.errors import ContentError
from rulebound.rulesets.legacy.content import PRIMARIES, SECONDARIES, catalogue, load_homebrew_race

CAT = catalogue()


def test_every_category_is_complete() -> None:
    assert len(CAT.races) == 13
    assert len(CAT.origins) == 11
    assert {s.kind for s in CAT.souls.values()} == {"racial", "anomaly"}
    assert len(CAT.souls) == 15
    assert list(CAT.pairs.items()) == list(zip(PRIMARIES, SECONDARIES, strict=True))


def test_each_characteristic_has_its_own_affinity() -> None:
    for code in (*PRIMARIES, *SECONDARIES):
        assert CAT.affinity(code.lower()).uses == (code,)
    assert len([a for a in CAT.affinities.values() if a.kind == "skill"]) == 14


@pytest.mark.parametrize("key", sorted(catalogue().races))
def test_race_has_seven_plus_seven_values_and_known_traits(key: str) -> None:
    race = CAT.race(key)
    assert all(15 <= race.base(c) <= 25 for c in (*PRIMARIES, *SECONDARIES))
    assert race.unnatural
    assert all(t in CAT.traits for t in race.traits)


def test_race_details_from_the_text() -> None:
    # the score blocks are models built from the code lists at run time: read them as data
    assert CAT.race("dwarf").primaries.model_dump()["WIL"] == 25  # the seed's "WLP"
    assert CAT.race("naga").natural_armour == 4
    assert CAT.race("dragonkin").natural_armour == 2
    assert CAT.race("chitine").arms == 4
    assert CAT.race("human").ren == 10
    assert CAT.race("orc").ren == -10
    assert CAT.race("halfling").base_lck == 15
    assert CAT.race("drow").unnatural_bonuses == {"POW": 1, "LDR": 1}


def test_origin_typos_are_fixed_in_the_data() -> None:
    assert CAT.origin("metropolitan").modifiers == {"DEX": -5, "INT": 5, "EDU": 5}  # AGL
    assert CAT.origin("water").modifiers["PER"] == 5  # "+PER"
    assert CAT.origin("air").affinity == "acrobatics"  # "Finesse"
    assert CAT.origin("astrum").bonus_fate == 1


@pytest.mark.parametrize("key", sorted(catalogue().origins))
def test_origin_nets_plus_five(key: str) -> None:
    origin = CAT.origin(key)
    assert sorted(origin.modifiers.values()) == [-5, 5, 5]
    assert origin.affinity in CAT.affinities


def test_soul_restrictions_name_real_races() -> None:
    assert CAT.soul("dark").races == ("duergar", "drow", "goblin", "chitine")
    assert CAT.soul("machine-spirit").forbidden_classes == ("priest",)
    assert "engineer" in CAT.soul("fey").forbidden_classes


GOOD_RACE = """
key = "moth-folk"
name = "Moth-folk"
primaries = { STR = 15, DEX = 25, CON = 15, CHA = 20, INT = 20, WIL = 25, PER = 25 }
secondaries = { WPN = 15, BLS = 20, STM = 20, POW = 25, EDU = 20, LDR = 20, INI = 25 }
base_lck = 10
unnatural = { PER = 1 }
traits = ["dark-vision", "light-sensitive"]
"""


def test_homebrew_race_loads_and_joins_the_catalogue(tmp_path: Path) -> None:
    path = tmp_path / "moth.toml"
    path.write_text(GOOD_RACE, encoding="utf-8")
    cat = load_homebrew_race(path)
    assert cat.race("moth-folk").primaries.model_dump()["DEX"] == 25
    assert "moth-folk" not in catalogue().races


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (("WIL = 25", "WLP = 25"), "primaries.WLP"),
        (("base_lck = 10", "base_lck = -3"), "base_lck"),
        (("PER = 1", "AGL = 1"), "unnatural.AGL"),
        (('"light-sensitive"', '"glows"'), "traits"),
    ],
)
def test_malformed_homebrew_race_names_the_field(
    tmp_path: Path, change: tuple[str, str], field: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(GOOD_RACE.replace(*change, 1), encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_homebrew_race(path)
    assert field in str(info.value)
    assert str(path) in str(info.value)


def test_unreadable_toml_is_a_content_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("key = ", encoding="utf-8")
    with pytest.raises(ContentError, match="not valid TOML"):
        load_homebrew_race(path)
