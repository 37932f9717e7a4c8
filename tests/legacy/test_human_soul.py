"""The Human soul's "additional 2 Affinities" are exactly two (ruling 88): a character made
with a Human soul and fewer is refused by the library, guided creation (the web's form) and
the CLI alike, each naming the affinities; any other soul takes none."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebound.cli.app import app
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import SeededSource
from rulebound.rulesets.legacy.character import Change
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.creation import create_character
from rulebound.rulesets.legacy.game import GAME

from ..hunt import examples

runner = CliRunner()
HUMAN = {"name": "Eli", "race": "human", "origin": "water", "soul": "human"}


def human(*affinities: str) -> Change:
    """Eli, a Human of the Water origin (which gives Nature) with a Human soul."""
    made, _ = create_character(
        SeededSource(1),
        name="Eli",
        race="human",
        origin="water",
        soul="human",
        affinities=affinities,
    )
    return made


AFFINITIES = sorted(k for k in catalogue().affinities if k != "nature")  # water gives nature


@pytest.mark.parametrize("chosen", [(), ("arcane",)])
def test_fewer_than_two_is_refused_naming_the_affinities(chosen: tuple[str, ...]) -> None:
    with pytest.raises(InvalidInput) as error:
        human(*chosen)
    assert error.value.field == "affinities"
    assert "exactly 2" in error.value.expected


def test_more_than_two_is_refused() -> None:
    with pytest.raises(RuleViolation, match="extra affinities"):
        human("arcane", "stealth", "faith")


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.sampled_from(AFFINITIES), min_size=2, max_size=2, unique=True))
def test_any_two_new_affinities_are_taken(two: list[str]) -> None:
    assert human(*two).character.affinities == ("nature", *two)


def test_a_soul_without_extra_affinities_takes_none() -> None:
    made, _ = create_character(SeededSource(1), name="Ael", race="elf", origin="water", soul="elf")
    assert made.character.affinities == ("nature",)


def _at_luck_step() -> Any:
    step = GAME.creation({}, {}, SeededSource(2))
    assert step is not None
    step = GAME.creation(step.state, HUMAN | {"char_class": ""}, SeededSource(2))
    for form in ({"assign": "0,1,2,3,4,5,6"}, {"reroll": ""}):
        assert step is not None
        step = GAME.creation(step.state, form, SeededSource(2))
    assert step is not None
    return step


def test_guided_creation_asks_for_exactly_two_and_refuses_an_empty_form() -> None:
    step = _at_luck_step()
    (field,) = step.fields
    assert field.name == "affinities"
    assert "2" in field.label
    assert "exactly 2" in field.help
    posted: dict[str, Any]
    for posted in ({}, {"affinities": []}, {"affinities": ["arcane"]}):
        with pytest.raises(InvalidInput) as error:
            GAME.creation(step.state, posted, SeededSource(2))
        assert error.value.field == "affinities"
    done = GAME.creation(step.state, {"affinities": ["arcane", "stealth"]}, SeededSource(2))
    assert done is not None
    assert done.sheet is not None
    assert done.sheet["affinities"] == ["nature", "arcane", "stealth"]


CLI = ["character", "new", "legacy", "--name", "Eli", "--race", "human", "--origin", "water"]


def test_the_cli_without_affinity_is_refused_naming_the_option() -> None:
    done = runner.invoke(app, [*CLI, "--soul", "human", "--seed", "3", "--no-interactive"])
    assert done.exit_code == 2, done.output
    assert "--affinity" in done.output
    assert "exactly 2" in done.output
    made = runner.invoke(
        app,
        [
            *CLI,
            "--soul",
            "human",
            "--seed",
            "3",
            "--no-interactive",
            "--json",
            "--affinity",
            "arcane",
            "--affinity",
            "stealth",
        ],
    )
    assert made.exit_code == 0, made.output
    assert '"arcane"' in made.output
    assert '"stealth"' in made.output
