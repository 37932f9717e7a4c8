"""A group's own traits and skills, made at the table and in the CLI without a TOML file, and
a ready-made sheet with a handful of example skills labelled as ours (ruling R-examples)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulebound.cli.app import app
from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import SeededSource
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.rainwall.content import builtin_catalogue
from rulebound.rulesets.rainwall.game import GAME

TABLE = TableRules(GAME)
OWN = {
    "add_trait": "Strength 6\nCunning 4",
    "add_skill": "Rope Work (Strength) 5 +1\nBluffing (Cunning) 7",
}


def test_the_ready_made_sheet_offers_example_skills_labelled_as_ours() -> None:
    ready = TABLE.sheets.starter("Ana")
    rolls = TABLE.sheets.quick_rolls(ready)
    assert len(rolls) >= 5
    examples = [s for s in builtin_catalogue().skills.values() if s.example]
    assert len(examples) >= 4
    for skill in examples:
        assert skill.summary.startswith("Example")
        label = next(r.label for r in rolls if r.label.startswith(skill.name))
        assert "example" in label
    assert not builtin_catalogue().skills["Lockpicking"].example  # the text's own
    assert "example" not in next(r.label for r in rolls if r.label.startswith("Lockpicking"))
    for roll in rolls:  # every button rolls
        TABLE.roll(ready, {**roll.values, "dr": 1}, {}, SeededSource(1))


def test_a_blank_sheet_has_the_texts_trait_and_no_examples() -> None:
    assert TABLE.new_sheet("Ana")["traits"] == {"Dexterity": 1}


def test_the_sheet_editor_adds_traits_and_skills_of_the_groups_own() -> None:
    made = TABLE.apply_sheet_form(TABLE.new_sheet("Ana"), OWN)
    assert made["traits"] == {"Dexterity": 1, "Strength": 6, "Cunning": 4}
    assert made["skills"] == {
        "Rope Work": {"score": 5, "bonus": 1, "trait": "Strength"},
        "Bluffing": {"score": 7, "bonus": 0, "trait": "Cunning"},
    }
    view = TABLE.sheet_view(made)
    names = {f.name for f in view.fields}
    assert {"traits.Cunning", "skills.Bluffing.score", "add_trait", "add_skill"} <= names
    assert ("Bluffing", "4d10 vs 7") in view.tracks
    assert [c.value for c in TABLE.dialog(made)[0].choices] == ["Rope Work", "Bluffing"]
    play = TABLE.roll(made, {"skill": "Bluffing", "dr": "2"}, {}, SeededSource(3))
    assert len(play.card.dice) == 4
    assert TABLE.card([play.record]) == play.card
    # the view's own values post back unchanged, and a blank score removes a skill
    assert TABLE.apply_sheet_form(made, dict(view.values)) == made
    dropped = TABLE.apply_sheet_form(made, {"skills.Bluffing.score": ""})
    assert "Bluffing" not in dropped["skills"]
    with pytest.raises(InvalidInput) as error:  # Bluffing rolls Cunning: it must stay
        TABLE.apply_sheet_form(made, {"traits.Cunning": ""})
    assert error.value.field == "skills.Bluffing"


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"add_trait": "Strength"}, "add_trait"),
        ({"add_trait": "Strength 11"}, "add_trait"),
        ({"add_skill": "Rope Work 5"}, "add_skill"),  # an own skill needs its trait
        ({"add_skill": "Rope Work (Strength) 5"}, "skills.Rope Work"),  # no Strength yet
        ({"add_skill": "Climbing 5"}, "skills.Climbing"),  # a listed one: Strength, not yet
        ({"add_skill": "Lockpicking (Cunning) 5"}, "add_skill"),  # the catalogue's trait
        ({"add_trait": "Dexterity 4"}, "add_trait"),  # on the sheet already
    ],
)
def test_a_bad_line_names_its_field(form: dict[str, str], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.apply_sheet_form(TABLE.new_sheet("Ana"), form)
    assert error.value.field == field


def test_a_sheets_own_skill_without_its_trait_is_refused_on_load() -> None:
    bad = {"name": "A", "traits": {"Grit": 5}, "skills": {"Rope Work": {"score": 4}}}
    with pytest.raises(InvalidInput) as error:
        TABLE.validate_sheet(bad)
    assert error.value.field == "skills.Rope Work"
    good = {**bad, "skills": {"Rope Work": {"score": 4, "trait": "grit"}}}
    assert TABLE.validate_sheet(good)["skills"]["Rope Work"]["trait"] == "Grit"
    listed = {**bad, "skills": {"Lockpicking": {"score": 4, "trait": "Grit"}}}
    with pytest.raises(InvalidInput) as error:  # a listed skill rolls its own trait
        TABLE.validate_sheet(listed)
    assert error.value.field == "skills.Lockpicking.trait"


@given(st.integers(1, 10), st.integers(1, 10), st.integers(0, 9))
def test_any_added_skill_rolls_its_traits_dice_against_its_score(
    dice: int, score: int, bonus: int
) -> None:
    form = {"add_trait": f"Grit {dice}", "add_skill": f"Enduring (Grit) {score} +{bonus}"}
    made = TABLE.apply_sheet_form(TABLE.new_sheet("Ana"), form)
    request = TABLE.request(made, {"skill": "Enduring", "dr": "1"}, {})
    assert (request.dice, request.skill, request.bonus) == (dice, score, bonus)


def test_the_cli_makes_such_a_character_and_rolls_it(tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    made = CliRunner().invoke(
        app,
        [
            "character",
            "new",
            "rainwall",
            "--name",
            "Ana",
            "--out",
            str(path),
            "--json",
            "--add-trait",
            "Strength 6",
            "--add-skill",
            "Rope Work (Strength) 5 +1",
            "--add-skill",
            "Lifting (Strength) 3",
            "--add-skill",
            "Climbing 4",
        ],
    )
    assert made.exit_code == 0, made.output
    sheet: dict[str, Any] = json.loads(path.read_text("utf-8"))
    assert sheet["skills"]["Lifting"] == {"score": 3, "bonus": 0, "trait": "Strength"}
    assert sheet["skills"]["Climbing"] == {"score": 4, "bonus": 0}  # a listed example
    rolled = CliRunner().invoke(
        app, ["roll", "rainwall", "-c", str(path), "--skill", "Lifting", "--dr", "2", "--seed", "1"]
    )
    assert rolled.exit_code == 0, rolled.output
    assert "6d10" in rolled.output or "6 dice" in rolled.output or "Strength" in rolled.output
    wrong = CliRunner().invoke(
        app, ["character", "new", "rainwall", "--name", "Ana", "--add-skill", "Rope Work 5"]
    )
    assert wrong.exit_code == 2
    assert "--add-skill" in wrong.output


def test_the_web_character_page_edits_them(db_url: str) -> None:
    """The character page's generic form shows the add fields and posts them to the editor."""
    import re

    from rulebound.web.app import create_app
    from rulebound.web.settings import Settings

    from ..client import AppClient

    with AppClient(create_app(Settings(database_url=db_url))) as client:
        form = {"name": "R", "gm_name": "Gina", "ruleset": "rainwall"}
        made = client.post("/tables", data=form, follow_redirects=False)
        table = made.headers["location"].rsplit("/", 1)[1]
        token = re.search(r'name="csrf-token" content="([^"]+)"', client.get(f"/t/{table}").text)
        assert token is not None
        csrf = {"csrf": token.group(1)}
        new = client.post(
            f"/t/{table}/characters", data={"name": "Ana", **csrf}, follow_redirects=False
        )
        page_url = new.headers["location"]
        page = client.get(page_url).text
        assert 'name="add_trait"' in page
        assert 'name="add_skill"' in page
        posted = {"name": "Ana", **OWN, **csrf}
        saved = client.post(page_url + "/sheet", data=posted, follow_redirects=False)
        assert saved.status_code == 303, saved.text
        shown = client.get(page_url).text
        assert "Rope Work" in shown
        assert "Cunning" in shown
        bad = client.post(
            page_url + "/sheet", data={"name": "Ana", "add_skill": "Grappling 5", **csrf}
        )
        assert bad.status_code == 400
        assert "a new skill names its trait" in bad.text
