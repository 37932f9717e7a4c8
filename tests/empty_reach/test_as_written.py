"""Issue 15, The Empty Reach: the audit's defects, each reproduced by a test first, and the
rules it found missing from the table (the opposed roll, repair as a full check).

The rule text is "Skills & Specialties" of The Empty Reach; the sections are named in each
test. Every test here failed before its fix (the report of issue 15 lists which).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.contract import Sheet
from rulebound.rulesets.empty_reach.character import load_character
from rulebound.rulesets.empty_reach.content import default_content
from rulebound.rulesets.empty_reach.game import GAME
from rulebound.rulesets.empty_reach.specialties import heal
from rulebound.rulesets.plays import TableRules

TABLE = TableRules(GAME)


def dice(sides: int, *faces: int) -> ReplaySource:
    return ReplaySource(Draw(sides, face) for face in faces)


def rook(**changes: Any) -> Sheet:
    """Strength D12 and Stamina D12 with Second Wind; Health 0/2 and Resolve 0/2."""
    sheet = {
        "name": "Rook",
        "attributes": {"Strength": "D12", "Agility": "D6", "Wits": "D6", "Empathy": "D6"},
        "skills": {"Stamina": "D12"},
        "specialties": ["Second Wind"],
        "base_health": 2,
        "base_resolve": 2,
        "damage": 2,
        "stress": 2,
    }
    return TABLE.validate_sheet(sheet | changes)


# --- Wrong 1: Second Wind ("For every success you roll, you get one point of Health or
# Resolve back", Specialties: Second Wind) ----------------------------------------------------


def test_second_wind_never_throws_a_success_away_when_both_tracks_can_use_it() -> None:
    play = TABLE.sheet_act(rook(), "second-wind", {}, {}, dice(12, 10, 10))  # four successes
    assert play.sheet is not None
    assert (play.sheet["damage"], play.sheet["stress"]) == (0, 0)
    assert play.sheet["second_wind_used"] is False
    assert "+2 Health, +2 Resolve" in play.card.outcome
    assert play.card.actions == ()  # four successes fill both tracks: nothing to choose


def test_the_player_splits_the_successes_after_seeing_them() -> None:
    rolled = TABLE.sheet_act(rook(), "second-wind", {}, {}, dice(12, 10, 3))  # two successes
    assert rolled.sheet is not None
    assert (rolled.sheet["damage"], rolled.sheet["stress"]) == (2, 2)  # nothing yet
    assert rolled.sheet["second_wind_used"] is True  # rolled: not to be rolled again
    (split,) = rolled.card.actions
    (field,) = split.fields
    assert (split.key, field.name, field.minimum, field.maximum) == ("split", "to_health", 0, 2)
    assert TABLE.card([rolled.record]) == rolled.card
    after = TABLE.act(rolled.sheet, [rolled.record], "split", {"to_health": "1"}, {}, dice(6))
    assert after.sheet is not None
    assert (after.sheet["damage"], after.sheet["stress"]) == (1, 1)
    assert after.sheet["second_wind_used"] is False  # on their feet again
    assert "+1 Health, +1 Resolve" in after.card.outcome
    assert TABLE.card([rolled.record, after.record]) == after.card
    assert after.card.actions == ()
    with pytest.raises(InvalidInput) as error:
        TABLE.act(rolled.sheet, [rolled.record], "split", {"to_health": "3"}, {}, dice(6))
    assert error.value.field == "to_health"


def test_a_split_that_would_waste_a_success_is_refused() -> None:
    # Health 0/3, Resolve 1/2: two successes may not both go to Resolve (one restores nothing)
    sheet = rook(base_health=3, damage=3, stress=1)
    rolled = TABLE.sheet_act(sheet, "second-wind", {}, {}, dice(12, 10, 3))
    (field,) = rolled.card.actions[0].fields
    assert (field.minimum, field.maximum, field.default) == (1, 2, 2)
    with pytest.raises(InvalidInput) as error:
        TABLE.act(rolled.sheet or sheet, [rolled.record], "split", {"to_health": 0}, {}, dice(6))
    assert (error.value.field, error.value.value) == ("to_health", 0)


def test_successes_beyond_both_tracks_fill_both() -> None:
    play = TABLE.sheet_act(rook(stress=1), "second-wind", {}, {}, dice(12, 10, 10))
    assert play.sheet is not None
    assert (play.sheet["damage"], play.sheet["stress"]) == (0, 0)
    assert "+2 Health, +1 Resolve" in play.card.outcome


# --- Wrong 2: homebrew specialties on a sheet -------------------------------------------------

IRONHIDE = """
[[specialties]]
name = "Ironhide"
effect = "max-health"
repeatable = 2
summary = "+1 maximum Health per time taken."
"""


def test_a_homebrew_max_health_specialty_counts_on_the_sheet(tmp_path: Path) -> None:
    path = tmp_path / "specialties.toml"
    path.write_text(IRONHIDE, encoding="utf-8")
    content = default_content().with_homebrew([path])
    data = {**rook(), "specialties": ["Ironhide", "Ironhide", "Second Wind"], "damage": 4}
    held = load_character(data, content)
    assert (held.max_health, held.broken) == (4, True)
    assert heal(held, health=1, resolve=1).broken is False
    table = TableRules(GAME.with_content(path))
    sheet = table.validate_sheet(data)
    assert ("Health", "0 / 4") in table.sheet_view(sheet).tracks
    rolled = table.sheet_act(sheet, "second-wind", {}, {}, dice(12, 6, 2))  # one success
    assert rolled.sheet is not None
    after = table.act(rolled.sheet, [rolled.record], "split", {}, {}, dice(6))
    assert after.sheet is not None
    assert (after.sheet["damage"], after.sheet["stress"]) == (3, 2)  # Health first
    with pytest.raises(InvalidInput):
        TABLE.validate_sheet(data)


# --- The opposed roll at the table and in the CLI (Opposed Rolls) -----------------------------


def draws(*pairs: tuple[int, int]) -> ReplaySource:
    return ReplaySource(Draw(sides, face) for sides, face in pairs)


def vessa(**changes: Any) -> Sheet:
    """Agility D8, Stealth D10, Wits D8, Crafting D10."""
    sheet = {
        "name": "Vessa",
        "attributes": {"Strength": "D6", "Agility": "D8", "Wits": "D8", "Empathy": "D6"},
        "skills": {"Stealth": "D10", "Crafting": "D10"},
        "base_health": 4,
        "base_resolve": 4,
    }
    return TABLE.validate_sheet(sheet | changes)


SNEAK = {"skill": "Stealth", "opposed_attribute": "D8", "opposed_skill": "D6"}
TIED = ((8, 6), (10, 2), (8, 7), (6, 2))
"""Stealth D8 + D10 against a guard's D8 + D6: one success each."""


def test_an_opposed_roll_from_a_sheet_rolls_both_sides_then_offers_the_push() -> None:
    play = TABLE.roll(vessa(), SNEAK, {}, draws(*TIED))
    card = play.card
    assert [(d.label, d.face) for d in card.dice] == [
        ("D8", 6),
        ("D10", 2),
        ("defender D8", 7),
        ("defender D6", 2),
    ]
    assert [d.selectable for d in card.dice] == [True, True, False, False]
    assert card.succeeded is False  # "Typically, your action will fail if you roll a tie"
    assert "tie" in card.outcome.lower()
    assert [a.key for a in card.actions] == ["push", "break-tie"]
    assert TABLE.card([play.record]) == card
    pushed = TABLE.act(vessa(), [play.record], "push", {"reroll": [1]}, {}, draws((10, 7)))
    assert pushed.card.succeeded is True
    assert [d.face for d in pushed.card.dice] == [6, 7, 7, 2]
    assert TABLE.card([play.record, pushed.record]) == pushed.card
    with pytest.raises(InvalidInput):  # only the active side's dice may be rerolled
        TABLE.act(vessa(), [play.record], "push", {"reroll": [2]}, {}, draws((8, 7)))


def test_a_tie_that_needs_breaking_is_rolled_again_by_both_sides() -> None:
    play = TABLE.roll(vessa(), SNEAK, {}, draws(*TIED))
    again = draws((8, 8), (10, 3), (8, 2), (6, 3))  # the active side wins the re-roll
    broken = TABLE.act(vessa(), [play.record], "break-tie", {}, {}, again)
    assert broken.card.succeeded is True
    assert [d.face for d in broken.card.dice] == [8, 3, 2, 3]
    assert "push" in [a.key for a in broken.card.actions]  # a new roll, pushable again
    assert TABLE.card([play.record, broken.record]) == broken.card


def test_the_reroll_variant_leaves_a_tie_undecided_until_it_is_broken() -> None:
    variants = {"tie_break": "reroll"}
    play = TABLE.roll(vessa(), SNEAK, variants, draws(*TIED))
    assert play.card.succeeded is None
    assert "break-tie" in [a.key for a in play.card.actions]
    chances = TABLE.chances(vessa(), SNEAK, variants)
    plain = TABLE.chances(vessa(), SNEAK, {})
    win, tie, loss = (plain.outcome(k) for k in ("win", "tie", "loss"))
    assert [o.key for o in chances.outcomes] == ["win", "loss"]
    assert chances.success == win / (win + loss)
    assert chances.extra("p_tie_first") == tie


def test_the_designer_odds_follow_the_reroll_variant_too() -> None:
    """``rulebound odds`` (``Game.odds``) gives the same verdicts as the table's chances."""
    values = {"attribute_die": "D8", "skill_die": "D8", "opposed_attribute": "D8"}
    values["opposed_skill"] = "D8"
    plain = GAME.odds(values, {})
    reroll = GAME.odds(values, {"tie_break": "reroll"})
    win, tie, loss = (plain.extra(f"p_{v}") for v in ("win", "tie", "loss"))
    assert (win, tie, loss) == (Fraction(1245, 4096), Fraction(803, 2048), Fraction(1245, 4096))
    assert reroll.extra("p_win") == reroll.extra("p_loss") == Fraction(1, 2)
    assert reroll.extra("p_tie_first") == tie
    assert "p_tie" not in [e.key for e in reroll.extras]


def test_a_raw_opposed_roll_through_the_game_fields() -> None:
    from rulebound.rulesets import forms
    from rulebound.rulesets.plays import replay, roll_play

    values = {"attribute_die": "D8", "skill_die": "D10", "opposed_attribute": "d8"}
    request = GAME.request(forms.read(GAME.fields, values), {"gear_banes": "base-dice"})
    result, record = roll_play(GAME, request, draws((8, 6), (10, 2), (8, 7)))
    assert GAME.card(replay(GAME, [record])) == GAME.card(result)
    assert GAME.card(result).outcome.startswith("Tie")
    with pytest.raises(InvalidInput) as error:
        GAME.request(forms.read(GAME.fields, {"attribute_die": "D8", "opposed_skill": "D6"}), {})
    assert error.value.field == "opposed_attribute"


# --- Repair as a full Crafting check (Repairing Gear; Specialties: Engineer) -----------------


def workshop(**changes: Any) -> Sheet:
    """Vessa the Engineer with a damaged steamtech drill, a toolkit and a plain crowbar."""
    gear = [
        {"name": "Steam drill", "bonus": 1, "max_bonus": 3, "tech": "steamtech"},
        {"name": "Toolkit", "bonus": 1, "max_bonus": 1, "skills": ["Crafting"]},
        {"name": "Crowbar", "bonus": 0, "max_bonus": 2},
    ]
    return vessa(specialties=["Engineer"], gear=gear, **changes)


def test_repair_is_a_full_crafting_check_with_help_gear_and_the_engineers_plus_one() -> None:
    (repair,) = [a for a in TABLE.sheet_actions(workshop(), {}) if a.key == "repair"]
    assert [f.name for f in repair.fields] == ["gear", "tools", "helpers"]
    params = {"gear": "Steam drill", "tools": "Toolkit", "helpers": "1"}
    # Wits D8 + Crafting D10, +3 (Engineer on steamtech, one helper, the toolkit): D12 + D12
    rolled = TABLE.sheet_act(workshop(), "repair", params, {}, draws((12, 3), (12, 4)))
    card = rolled.card
    assert card.title.startswith("Repair Steam drill")
    assert card.title.endswith("D12 + D12")
    assert {m.split(":")[0] for m in card.modifiers} == {
        "specialty Engineer (repairing steamtech)",
        "help from 1 ally",
        "gear Toolkit",
    }
    assert rolled.record["kind"] == "roll"
    assert rolled.sheet is not None
    drill = rolled.sheet["gear"][0]
    assert (drill["bonus"], drill["max_bonus"]) == (1, 1)  # failed, for now: the push may save it
    assert [a.key for a in card.actions] == ["push"]
    pushed = TABLE.act(rolled.sheet, [rolled.record], "push", {}, {}, draws((12, 10), (12, 6)))
    assert pushed.sheet is not None
    drill = pushed.sheet["gear"][0]
    assert (drill["bonus"], drill["max_bonus"]) == (3, 3)  # three successes, up to the start
    assert "Steam drill restored by 2 to 3/3" in pushed.card.outcome
    assert TABLE.card([rolled.record, pushed.record]) == pushed.card


def test_a_pushed_repair_pays_its_banes_and_the_tools_can_degrade() -> None:
    params = {"gear": "Steam drill", "tools": "Toolkit"}
    # +2 (Engineer, the toolkit): D10 + D12; the attribute die shows a bane
    rolled = TABLE.sheet_act(workshop(), "repair", params, {}, draws((10, 1), (12, 4)))
    assert rolled.sheet is not None
    # the bane stays; the D12 is rerolled; the bane's gear check hits (1): the toolkit loses it
    pushed = TABLE.act(rolled.sheet, [rolled.record], "push", {}, {}, draws((12, 6), (6, 1)))
    assert pushed.sheet is not None
    assert pushed.sheet["stress"] == 0
    assert pushed.sheet["gear"][1]["bonus"] == 0
    assert pushed.sheet["gear"][0]["bonus"] == 2


def test_repair_without_the_matching_tech_gets_no_specialty_bonus() -> None:
    crowbar = TABLE.sheet_act(workshop(), "repair", {"gear": "Crowbar"}, {}, draws((8, 2), (10, 2)))
    assert crowbar.card.modifiers == ()
    assert crowbar.sheet is not None
    assert crowbar.sheet["gear"][2]["destroyed"] is True  # a failed repair at 0, not pushed yet
    with pytest.raises(InvalidInput) as error:
        TABLE.sheet_act(workshop(), "repair", {"gear": "Toolkit", "tools": "Toolkit"}, {}, dice(8))
    assert error.value.field in ("gear", "tools")


def test_the_cli_rolls_an_opposed_roll_and_breaks_a_tie(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulebound.cli.app import app
    from rulebound.core.random_source import SeededSource
    from rulebound.rulesets.empty_reach.check import CheckRequest, Defender, prepare
    from rulebound.rulesets.empty_reach.opposed import roll_opposed

    active = prepare(
        CheckRequest(attribute_die="D8", skill_die="D10", opposed=Defender(attribute_die="D8"))
    )
    assert active.defender is not None
    tie = next(
        s
        for s in range(200)
        if roll_opposed(active, active.defender, SeededSource(s)).verdict == "tie"
    )
    args = [
        "roll",
        "empty-reach",
        "--attribute",
        "D8",
        "--skill",
        "D10",
        "--opposed-attribute",
        "D8",
    ]
    out = CliRunner().invoke(app, [*args, "--seed", str(tie), "--follow", "break-tie", "--json"])
    assert out.exit_code == 0, out.output
    body = json.loads(out.stdout)
    assert [r["kind"] for r in body["records"]] == ["roll", "break-tie"]
    assert body["request"]["request"]["opposed"] == {
        "attribute_die": "D8",
        "skill_die": None,
        "helpers": 0,
    }
    assert len(body["card"]["dice"]) == 3
    sheet = tmp_path / "vessa.json"
    sheet.write_text(json.dumps(vessa()), encoding="utf-8")
    from_sheet = ["roll", "empty-reach", "-c", str(sheet), "--skill-name", "stealth"]
    out = CliRunner().invoke(app, [*from_sheet, "--opposed-attribute", "d8", "--seed", "1"])
    assert out.exit_code == 0, out.output
    assert "vs defender D8" in out.stdout


# --- Keys as people type them (core/keys.py) --------------------------------------------------


def test_content_names_and_keys_match_whatever_the_case_and_separators() -> None:
    from rulebound.rulesets.empty_reach.check import CheckRequest, prepare

    check = prepare(
        CheckRequest(
            attribute_die="D8",
            skill="stealth",
            attribute="AGILITY",
            situations=("Stealth Dark", "stealth_no_cover"),
            specialties=("true grit", "Gut-Feeling"),
            difficulty_level="Hard",
        )
    )
    assert check.attribute == "Agility"
    assert [m.source for m in check.modifiers] == [
        "difficulty Hard",
        "Dark or dimly lit area",
        "Nothing to hide behind",
    ]
    content = default_content()
    assert content.specialty("field_surgeon").name == "Field Surgeon"
    assert content.situation("Negotiation Opponent Captive").value == 1
    assert content.situation_key("specialty driver") == "specialty-driver"


def test_npcs_help_each_other_the_same_way() -> None:
    """ "NPCs can help each other in the same way as player characters" (Help From Others):
    the defender's helpers step their dice, three at most."""
    from rulebound.rulesets.empty_reach.check import CheckRequest, Defender, prepare

    side = Defender(attribute_die="D6", skill_die="D6", helpers=3)
    check = prepare(CheckRequest(attribute_die="D8", opposed=side))
    assert check.defender is not None
    assert check.defender.pool.describe() == "D8 + D10"  # D6 + D6, three steps up
    assert [m.source for m in check.defender.modifiers] == ["help from 3 allies"]
    with pytest.raises(InvalidInput) as error:
        prepare(CheckRequest(attribute_die="D8", opposed=Defender(attribute_die="D6", helpers=4)))
    assert error.value.field == "helpers"
    play = TABLE.roll(
        vessa(), {**SNEAK, "opposed_helpers": "1"}, {}, draws((8, 6), (10, 2), (8, 7), (8, 2))
    )
    assert [d.label for d in play.card.dice][2:] == ["defender D8", "defender D8"]


# --- The text's numbers, pinned from the text (Specialties) ----------------------------------

EXTRA_PUSH = {
    "Compassion": "Empathy",
    "Inquisitive": "Wits",
    "Reckless": "Agility",
    "True Grit": "Strength",
}
"""'You can push any skill roll based on <attribute> twice, not just once.'"""

REPAIR_TECH = {
    "Biogineer": ("biotech",),
    "Crystineer": ("crystaltech",),
    "Engineer": ("steamtech", "kerotech"),
}
"""'You get a +1 to Craft checks related to using or repairing <tech>.'"""


@pytest.mark.parametrize("specialty", sorted(EXTRA_PUSH))
@pytest.mark.parametrize("attribute", ["Strength", "Agility", "Wits", "Empathy"])
def test_each_extra_push_specialty_gives_two_pushes_on_its_attribute_only(
    specialty: str, attribute: str
) -> None:
    from rulebound.rulesets.empty_reach.check import CheckRequest, prepare

    request = CheckRequest(attribute_die="D8", attribute=attribute, specialties=(specialty,))
    assert prepare(request).max_pushes == (2 if EXTRA_PUSH[specialty] == attribute else 1)


@pytest.mark.parametrize(("specialty", "techs"), sorted(REPAIR_TECH.items()))
def test_each_tech_specialty_adds_one_when_repairing_its_own_tech(
    specialty: str, techs: tuple[str, ...]
) -> None:
    from rulebound.rulesets.empty_reach.check import CheckRequest, RepairTarget, prepare

    assert default_content().specialty(specialty).tech == techs
    for tech in (*techs, "Wrong-Tech"):
        item = RepairTarget(name="Thing", bonus=0, max_bonus=2, tech=tech.upper())
        request = CheckRequest(
            attribute_die="D8", skill="Crafting", specialties=(specialty,), repair=item
        )
        assert prepare(request).net == (0 if tech == "Wrong-Tech" else 1)


def _brute_win_pushing_when_behind(active: list[int], defender: list[int]) -> Fraction:
    """Every face of both sides; when not ahead, the active side rerolls its dice showing 2-5."""
    from itertools import product
    from math import prod

    from rulebound.rulesets.empty_reach.rules import successes_on

    def faces(sides: list[int]) -> Any:
        return product(*(range(1, s + 1) for s in sides))

    won = Fraction(0)
    weight = Fraction(1, prod(active) * prod(defender))
    for rolled in faces(active):
        for theirs in faces(defender):
            needed = sum(map(successes_on, theirs))
            if sum(map(successes_on, rolled)) > needed:
                won += weight
                continue
            again = [i for i, face in enumerate(rolled) if 2 <= face <= 5]
            kept = sum(successes_on(f) for i, f in enumerate(rolled) if i not in again)
            sides = [active[i] for i in again]
            wins = sum(kept + sum(map(successes_on, new)) > needed for new in faces(sides))
            won += weight * Fraction(wins, prod(sides)) if again else 0
    return won


@pytest.mark.parametrize(
    ("active", "defender"),
    [(("D8", "D10"), ("D8", "D6")), (("D6", None), ("D12", "D12")), (("D12", "D8"), ("D10", None))],
)
def test_the_opposed_odds_of_winning_with_a_push_equal_brute_force(
    active: tuple[str, str | None], defender: tuple[str, str | None]
) -> None:
    """The chance on the card ("win if pushed when not ahead", Opposed Rolls: the active side
    "can decide to do so even after your opponent rolls"), against every face of both sides."""
    from rulebound.rulesets.empty_reach.check import CheckRequest, Defender, prepare

    request = CheckRequest(
        attribute_die=active[0],
        skill_die=active[1],
        opposed=Defender(attribute_die=defender[0], skill_die=defender[1]),
    )
    check = prepare(request)
    assert check.defender is not None
    chances = GAME.chances(request)
    expected = _brute_win_pushing_when_behind(
        [d.value for d in check.pool.dice], [d.value for d in check.defender.pool.dice]
    )
    assert chances.extra("p_win_if_pushed") == expected
    assert chances.outcome("win") < expected < 1


def test_the_cli_refuses_a_character_file_the_table_refuses(tmp_path: Path) -> None:
    """One validation for every entry point (issue 15, Wrong 6, all four games): four Toughs
    ("You can take this specialty up to three times") are refused by the table and the CLI."""
    from click.testing import CliRunner

    from rulebound.cli.app import app

    sheet = {**rook(damage=0, stress=0), "specialties": ["Tough"] * 4}
    with pytest.raises(InvalidInput) as error:
        TABLE.validate_sheet(sheet)
    assert (error.value.field, error.value.value) == ("specialties", "Tough")
    path = tmp_path / "rook.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    args = ["roll", "empty-reach", "-c", str(path), "--skill-name", "Stamina", "--seed", "1"]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 2
    assert "“Tough” will not do; it takes Tough at most 3 time(s)" in out.stderr


def test_gear_names_its_skills_in_any_spelling() -> None:
    """A toolkit for "crafting" helps a Crafting roll (ruling E33: skill names match case- and
    separator-insensitively); the sheet keeps the content's spelling, and a skill the content
    lacks is refused by name instead of leaving the item unusable."""
    kit = {"name": "Toolkit", "bonus": 1, "max_bonus": 1, "skills": ["crafting", "OBSERVATION"]}
    sheet = vessa(gear=[kit])
    assert sheet["gear"][0]["skills"] == ["Crafting", "Observation"]
    play = TABLE.roll(sheet, {"skill": "Crafting", "gear": "toolkit"}, {}, draws((10, 3), (10, 4)))
    assert [m.split(":")[0] for m in play.card.modifiers] == ["gear Toolkit"]
    with pytest.raises(InvalidInput) as error:
        vessa(gear=[{**kit, "skills": ["Krafting"]}])
    assert error.value.value == "Krafting"
    assert "Crafting" in error.value.expected
