"""Guided Legacy creation: every step from the first page to a valid sheet, with its rules."""

from typing import Any

import pytest

from rulebound.core import InvalidInput, RuleViolation, SeededSource
from rulebound.rulesets.contract import CreationStep
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.content import PRIMARIES, catalogue
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.rules import characteristic_bonus
from rulebound.rulesets.plays import TableRules

TABLE = TableRules(GAME)
ELI = {"name": "Eli", "race": "human", "origin": "astrum", "soul": "human", "char_class": ""}
REVERSED = {"assign": "6,5,4,3,2,1,0"}
NAMED = {"assign": ",".join(f"{code}={6 - i}" for i, code in enumerate(PRIMARIES))}


class NoDice:
    """A source that must not be asked: the step should roll nothing."""

    def draw(self, sides: int) -> int:
        raise AssertionError(f"a d{sides} was rolled")

    def describe(self) -> dict[str, object]:
        return {"kind": "none"}


def step(state: Any, form: dict[str, Any], seed: int | None = None) -> CreationStep:
    result = TABLE.creation(state, form, NoDice() if seed is None else SeededSource(seed))
    assert result is not None
    return result


def test_the_first_page_rolls_nothing_and_asks_who() -> None:
    first = step({}, {})
    assert first.title == "Name, race, origin and soul"
    assert [f.name for f in first.fields] == ["name", "race", "origin", "soul", "char_class"]
    souls = {c.value: c.label for f in first.fields if f.name == "soul" for c in f.choices}
    assert souls["human"] == "Human"
    assert first.state == {"step": "identity"}
    assert first.sheet is None


def test_guided_creation_from_start_to_a_valid_sheet() -> None:
    identity = step(step({}, {}).state, ELI, seed=11)
    assert identity.title == "Assign the primary characteristics"
    rolls = [int(r) for r in identity.notes[0].removeprefix("Rolled (2d10 x7): ").split(", ")]
    assert len(rolls) == 7
    assert all(2 <= r <= 20 for r in rolls)
    (assign,) = identity.fields
    assert (assign.name, assign.cli_flag, assign.default) == ("assign", "assign", "0,1,2,3,4,5,6")

    secondaries = step(identity.state, NAMED, seed=12)
    assert secondaries == step(identity.state, REVERSED, seed=12)  # both forms of --assign
    assert secondaries.title == "Secondary characteristics"
    assert secondaries.notes[0].startswith(f"STR {rolls[6] + 20} ")  # the last roll + Human 20
    assert secondaries.fields[0].name == "reroll"

    luck = step(secondaries.state, {"reroll": "INI"}, seed=13)
    assert luck.title == "Luck, fate and renown"
    assert luck.notes[0].startswith("secondary reroll: INI")
    assert any(n.startswith("Fate ") and n.endswith("+ 1 (Astrum)") for n in luck.notes)
    (affinities,) = luck.fields
    assert affinities.name == "affinities"
    assert "commerce" not in {c.value for c in affinities.choices}  # Astrum's own

    final = step(luck.state, {"affinities": ["arcane", "stealth"]})  # no new dice
    assert final.title == "Sanity and corruption"
    assert final.sheet is not None
    assert TABLE.validate_sheet(final.sheet) == final.sheet
    made = Character.model_validate(final.sheet)
    assert (made.name, made.race, made.origin, made.soul) == ("Eli", "human", "astrum", "human")
    assert made.affinities == ("commerce", "arcane", "stealth")
    assert made.fate == characteristic_bonus(made.lck) + 1
    assert made.scores["STR"] == rolls[6] + 20
    assert made.scores["CON"] == rolls[4] + 20 - 5  # Astrum: CON -5
    assert made.rank == 1
    assert (made.san, made.cor) == (0, 0)
    assert final.state["step"] == "done"
    done = step(final.state, {})
    assert done.sheet is None  # posting the last state again creates nothing more


def test_a_soul_restriction_is_refused_before_any_die() -> None:
    with pytest.raises(RuleViolation) as error:
        step({"step": "identity"}, ELI | {"race": "elf"})
    assert error.value.rule == "soul restriction (Human)"
    with pytest.raises(RuleViolation) as error:
        step({"step": "identity"}, ELI | {"soul": "god-fragment", "char_class": "Engineer"})
    assert "Engineer" in error.value.detail
    with pytest.raises(InvalidInput) as bad:
        step({"step": "identity"}, ELI | {"race": "giant"})
    assert bad.value.field == "race"
    with pytest.raises(InvalidInput) as bad:
        step({"step": "identity"}, ELI | {"name": "  "})
    assert bad.value.field == "name"


@pytest.mark.parametrize(
    ("assign", "expected"),
    [
        ("6,6,4,3,2,1,0", "[6] used twice"),  # the STR roll again
        ("6,5,4,3,2,1,7", "from 0 to 6"),
        ("STR=6,DEX=5,CON=4,CHA=third,INT=2,WIL=1,PER=0", "a roll index"),
        ("6,5,4", "7 indices"),
    ],
)
def test_assignment_errors_name_the_field(assign: str, expected: str) -> None:
    identity = step({"step": "identity"}, ELI, seed=3)
    with pytest.raises(InvalidInput, match=expected.replace("[", r"\[")) as error:
        step(identity.state, {"assign": assign})
    assert error.value.field == "assign"
    with pytest.raises(InvalidInput) as old:  # the per-primary form names the one field
        step(identity.state, {"assign.STR": "0"})
    assert old.value.field == "assign.STR"


def test_a_reload_never_rerolls_what_the_state_holds() -> None:
    identity = step({"step": "identity"}, ELI, seed=5)
    held = identity.state["draws"]
    assert len(held) == 14  # 2d10 seven times
    one = step(identity.state, REVERSED, seed=6)
    two = step(identity.state, REVERSED, seed=7)
    assert one.state["draws"][:14] == two.state["draws"][:14] == held
    luck = step(one.state, {}, seed=8)
    sheets = [step(luck.state, {"affinities": ["arcane", "faith"]}).sheet for _ in range(2)]
    assert sheets[0] == sheets[1]
    assert sheets[0] is not None


def test_secondaries_follow_the_assigned_primaries() -> None:
    identity = step({"step": "identity"}, ELI | {"race": "orc", "soul": "orc"}, seed=21)
    secondaries = step(identity.state, {}, seed=22)  # no choice: the rolls in order
    race = catalogue().race("orc")
    for note, code in zip(secondaries.notes, PRIMARIES, strict=True):
        value = int(note.split()[1])
        bonus = characteristic_bonus(value, race.unnatural_bonuses.get(code, 0))
        count = -(-bonus // 2)
        assert f"{count}d10" in note


def test_extra_affinities_are_the_souls_to_grant() -> None:
    identity = step({"step": "identity"}, ELI, seed=31)
    luck = step(step(identity.state, REVERSED, seed=32).state, {}, seed=33)
    with pytest.raises(RuleViolation):
        step(luck.state, {"affinities": ["arcane", "stealth", "nature"]})
    with pytest.raises(InvalidInput):
        step(luck.state, {"affinities": ["commerce", "arcane"]})  # commerce: held from the origin
    plain = step({"step": "identity"}, ELI | {"soul": "soulless"}, seed=31)
    luck = step(step(plain.state, REVERSED, seed=32).state, {}, seed=33)
    assert luck.fields == ()


def test_a_soul_with_starting_sanity_shows_it_on_the_last_step() -> None:
    identity = step({"step": "identity"}, ELI | {"soul": "tortured"}, seed=41)
    luck = step(step(identity.state, REVERSED, seed=42).state, {}, seed=43)
    final = step(luck.state, {})
    assert final.sheet is not None
    assert 11 <= final.sheet["san"] <= 20  # 1d10 + 10
    assert final.notes[0] == f"SAN {final.sheet['san']}, COR 0"
    assert any(n.startswith("disorder: SAN reached 10") for n in final.notes)
