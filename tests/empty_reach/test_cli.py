"""``rulebound roll empty-reach`` through the real app (the generic CLI over the game
contract): text, JSON, pushes and character files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.core.random_source import SeededSource
from rulebound.rulesets.empty_reach.character import (
    Character,
    load_character,
    push_and_pay,
    request_for,
)
from rulebound.rulesets.empty_reach.check import CheckRequest, prepare
from rulebound.rulesets.empty_reach.game import GAME
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, PushCosts, push, roll_check
from rulebound.rulesets.plays import replay

runner = CliRunner()
ROLL = ["roll", "empty-reach"]
FORCE = CheckRequest(attribute_die="D8", skill_die="D10", skill="Force")
SHEET: dict[str, Any] = {
    "name": "Ana",
    "attributes": {"Strength": "D8", "Agility": "D6", "Wits": "D10", "Empathy": "D6"},
    "skills": {"Force": "D10"},
    "specialties": [],
    "base_health": 4,
    "base_resolve": 4,
}


def invoke(*args: str) -> Any:
    return runner.invoke(app, [*args])


def test_roll_prints_dice_and_successes() -> None:
    out = invoke(*ROLL, "--attribute", "D8", "--skill", "D10", "--seed", "7")
    assert out.exit_code == 0, out.output
    expected = roll_check(
        prepare(CheckRequest(attribute_die="D8", skill_die="D10")), SeededSource(7)
    )
    lines = out.stdout.splitlines()
    for index, die in enumerate(expected.dice):
        row = next(line for line in lines if line.strip().startswith(f"[{index}]"))
        assert die.label in row
        assert f" {die.face} " in f"{row} "
    assert f"Result: {expected.headline}" in out.stdout
    assert "push: Push the roll" in out.stdout
    assert "(recommended)" in out.stdout


def test_the_same_seed_gives_the_same_output() -> None:
    args = [*ROLL, "--attribute", "D6", "--skill", "D12", "--seed", "12345"]
    assert invoke(*args).stdout == invoke(*args).stdout
    other = invoke(*ROLL, "--attribute", "D6", "--skill", "D12", "--seed", "99")
    assert other.exit_code == 0


def test_json_is_one_object_with_dice_and_provenance() -> None:
    out = invoke(*ROLL, "--attribute", "D8", "--skill", "D10", "--seed", "7", "--json")
    assert out.exit_code == 0
    body = json.loads(out.stdout)
    expected = roll_check(
        prepare(CheckRequest(attribute_die="D8", skill_die="D10")), SeededSource(7)
    )
    assert [d["face"] for d in body["result"]["dice"]] == [d.face for d in expected.dice]
    assert [d["label"] for d in body["result"]["dice"]] == ["D8", "D10"]
    provenance = body["result"]["provenance"]
    assert dict(map(tuple, provenance["source"])) == {"kind": "seeded", "seed": "7"}
    assert [d["face"] for d in provenance["draws"]] == [d.face for d in expected.dice]
    assert body["result"]["successes"] == expected.successes
    assert body["character"] is None
    assert len(body["result"]["digest"]) == 64
    assert body["ruleset"] == "empty-reach"
    assert body["request"]["request"]["attribute_die"] == "D8"
    (record,) = body["records"]
    assert record["kind"] == "roll"
    assert record["draws"] == [[8, expected.dice[0].face], [10, expected.dice[1].face]]
    assert body["card"]["outcome"] == GAME.card(replay(GAME, body["records"])).outcome


def seed_where(predicate: Callable[[int], bool], limit: int = 500) -> int:
    for seed in range(limit):
        if predicate(seed):
            return seed
    raise AssertionError("no seed found")


def pushed_force(seed: int) -> EmptyReachResult | None:
    source = SeededSource(seed)
    result = roll_check(prepare(FORCE), source)
    return push(result, source) if result.default_reroll() else None


def costs_of(pushed: EmptyReachResult) -> PushCosts:
    """What a push cost: every pushed result carries its costs."""
    assert pushed.costs is not None
    return pushed.costs


def test_reroll_default_pushes_and_prints_costs() -> None:
    seed = seed_where(lambda s: (p := pushed_force(s)) is not None and costs_of(p).points > 0)
    pushed = pushed_force(seed)
    assert pushed is not None
    out = invoke(
        *ROLL, "--attribute", "D8", "--skill", "D10", "--skill-name", "Force",
        "--seed", str(seed), "--reroll", "default",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"Push cost: {costs_of(pushed).describe()}" in out.stdout
    assert "damage" in out.stdout
    assert f"Result: {pushed.headline}" in out.stdout
    assert "[rerolled]" in out.stdout
    assert "(was " in out.stdout


def test_reroll_named_dice_and_too_many_pushes() -> None:
    seed = seed_where(lambda s: 1 in roll_check(prepare(FORCE), SeededSource(s)).rerollable())
    args = [
        *ROLL,
        "--attribute",
        "D8",
        "--skill",
        "D10",
        "--skill-name",
        "Force",
        "--seed",
        str(seed),
    ]
    out = invoke(*args, "--reroll", "1", "--json")
    assert out.exit_code == 0, out.output
    body = json.loads(out.stdout)["result"]
    assert body["push_number"] == 1
    assert body["dice"][1]["state"] == "rerolled"
    assert body["parent"]["push_number"] == 0
    records = json.loads(out.stdout)["records"]
    assert [r["kind"] for r in records] == ["roll", "push"]
    assert records[1]["reroll"] == [1]
    twice = invoke(*args, "--reroll", "1", "--reroll", "1")
    assert twice.exit_code == 2
    assert "--reroll: after 1 follow-up(s) the result offers no push" in twice.stderr
    bad = invoke(*args, "--reroll", "x")
    assert bad.exit_code == 2
    assert "--reroll: “x” will not do; it takes die numbers." in bad.stderr


def test_passive_roll_cannot_be_pushed_from_the_cli() -> None:
    out = invoke(*ROLL, "--attribute", "D8", "--passive", "--seed", "1", "--reroll", "default")
    assert out.exit_code == 2
    assert "cannot be pushed: passive roll" in out.stdout


def test_an_invalid_die_names_the_field_and_the_accepted_values() -> None:
    out = invoke(*ROLL, "--attribute", "D7")
    assert out.exit_code == 2
    assert "--attribute" in out.stderr
    assert "“D7” will not do" in out.stderr
    assert "D6, D8, D10, D12" in out.stderr
    assert "Value error" not in out.stderr
    missing = invoke(*ROLL, "--skill", "D8")
    assert missing.exit_code == 2
    assert "--attribute" in missing.stderr


def test_modifiers_and_gear_are_shown_with_their_steps() -> None:
    out = invoke(
        *ROLL, "--attribute", "D8", "--helpers", "2", "--difficulty", "-1",
        "--gear", "scope:1", "--seed", "3",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    for text in ("help from 2 allies: +2", "difficulty: -1", "gear scope: +1", "total: +2"):
        assert text in out.stdout
    assert "Modifier total: +2 (D8 -> D8 + D8)" in out.stdout
    assert "  add a D6 skill die" in out.stdout
    bad = invoke(*ROLL, "--attribute", "D8", "--gear", "scope")
    assert bad.exit_code == 2
    assert "--gear" in bad.stderr
    broken = invoke(*ROLL, "--attribute", "D8", "--gear", "scope:0")
    assert broken.exit_code == 2
    assert "broken gear" in broken.stderr
    helpers = invoke(*ROLL, "--attribute", "D8", "--helpers", "4")
    assert helpers.exit_code == 2
    assert "helpers" in helpers.stderr


@pytest.fixture
def sheet_file(tmp_path: Path) -> Path:
    path = tmp_path / "ana.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    return path


def test_character_roll_saves_damage_after_a_push(sheet_file: Path) -> None:
    sheet = load_character(SHEET)
    check = prepare(request_for(sheet, "Force"))

    def after(seed: int) -> Character | None:
        source = SeededSource(seed)
        result = roll_check(check, source)
        return push_and_pay(sheet, result, source)[1] if result.default_reroll() else None

    seed = seed_where(lambda s: (a := after(s)) is not None and a.damage > 0)
    args = ["--character", str(sheet_file), "--skill-name", "Force", "--seed", str(seed)]
    dry = invoke(*ROLL, *args, "--reroll", "default")
    assert dry.exit_code == 0, dry.output
    assert json.loads(sheet_file.read_text()) == SHEET
    out = invoke(*ROLL, *args, "--reroll", "default", "--save")
    assert out.exit_code == 0, out.output
    saved = json.loads(sheet_file.read_text())
    paid = after(seed)
    assert paid is not None
    assert saved["damage"] == paid.damage > 0
    assert saved["stress"] == 0
    shown = json.loads(invoke(*ROLL, *args, "--json").stdout)
    assert shown["character"]["name"] == "Ana"


def test_character_roll_needs_a_skill_and_labels_the_modifier(sheet_file: Path) -> None:
    out = invoke(*ROLL, "--character", str(sheet_file))
    assert out.exit_code == 2
    assert "--skill-name" in out.stderr
    args = ["--character", str(sheet_file), "--skill-name", "Force", "--seed", "1"]
    labelled = invoke(*ROLL, *args, "--modifier", "1", "--difficulty", "-2")
    assert labelled.exit_code == 0, labelled.output
    assert "modifier: +1" in labelled.stdout
    assert "difficulty: -2" in labelled.stdout
    assert "total: -1" in labelled.stdout
    missing = invoke(*ROLL, "--character", str(sheet_file.with_name("nope.json")), *args[2:])
    assert missing.exit_code == 2


def test_interactive_push(monkeypatch: pytest.MonkeyPatch) -> None:
    import rulebound.cli.session as module

    monkeypatch.setattr(module, "sys", SimpleNamespace(stdin=SimpleNamespace(isatty=lambda: True)))
    seed = seed_where(lambda s: bool(roll_check(prepare(FORCE), SeededSource(s)).default_reroll()))
    args = [
        *ROLL,
        "--attribute",
        "D8",
        "--skill",
        "D10",
        "--skill-name",
        "Force",
        "--seed",
        str(seed),
    ]
    # the follow-up, its dice (Enter: the default choice), then yes to what it risks
    out = runner.invoke(app, args, input="push\n\ny\n")
    assert out.exit_code == 0, out.output
    assert "Follow up with push" in out.output
    assert "This spends damage" in out.output
    assert "(pushed 1x)" in out.stdout
    stop = runner.invoke(app, args, input="\n")
    assert "(pushed 1x)" not in stop.stdout


def test_the_documented_example_runs() -> None:
    out = invoke(
        *ROLL, "--attribute", "D8", "--skill", "D10", "--skill-name", "Stealth",
        "--situation", "stealth-dark", "--situation", "stealth-no-cover", "--helpers", "1",
        "--seed", "7",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("Stealth (Agility): ")
    for text in ("help from 1 ally: +1", "Dark or dimly lit area: +1", "Modifier total: "):
        assert text in out.stdout


def test_the_variant_flags_reach_the_record() -> None:
    base = [*ROLL, "--attribute", "D8", "--gear", "rig:1:D6", "--seed", "2", "--json"]
    for extra in (["--gear-banes", "gear-dice"], ["--variant", "gear_banes=gear-dice"]):
        out = invoke(*base, *extra)
        assert out.exit_code == 0, out.output
        request = json.loads(out.stdout)["records"][0]["request"]
        assert request["options"]["gear_banes"] == "gear-dice"
        assert request["gear"] == {"name": "rig", "bonus": 1, "dice": ["D6"]}
    bad = invoke(*base, "--gear-banes", "all")
    assert bad.exit_code == 2
    assert "--gear-banes" in bad.stderr


def test_a_character_rolls_with_its_gear_and_swaps(tmp_path: Path) -> None:
    sheet = {
        **SHEET,
        "specialties": ["Menacing"],
        "gear": [{"name": "Crowbar", "bonus": 2, "max_bonus": 2, "skills": ["Force"]}],
    }
    path = tmp_path / "ana.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    args = ["--character", str(path), "--seed", "4"]
    geared = invoke(*ROLL, *args, "--skill-name", "Force", "--gear", "Crowbar")
    assert geared.exit_code == 0, geared.output
    assert "gear Crowbar: +2" in geared.stdout
    swapped = invoke(*ROLL, *args, "--skill-name", "Persuasion", "--swap", "Menacing")
    assert swapped.exit_code == 0, swapped.output
    assert swapped.stdout.startswith("Persuasion (Strength): D8")
    missing = invoke(*ROLL, *args, "--skill-name", "Force", "--gear", "Laser")
    assert missing.exit_code == 2
    assert "--gear" in missing.stderr
    stray = invoke(*ROLL, *args, "--skill-name", "Force", "--attribute", "D12")
    assert stray.exit_code == 2
    assert "--attribute" in stray.stderr


def test_homebrew_specialties_from_a_content_file(tmp_path: Path) -> None:
    path = tmp_path / "specialties.toml"
    path.write_text(
        '[[specialties]]\nname = "Void Sense"\neffect = "extra-push"\nattribute = "Wits"\n'
        'summary = "Wits rolls may be pushed twice."\n',
        encoding="utf-8",
    )
    args = [*ROLL, "--attribute", "D8", "--attribute-name", "Wits", "--specialty", "Void Sense"]

    def two_pushes(seed: int) -> bool:
        source = SeededSource(seed)
        return 1 not in (source.draw(8), source.draw(8))  # the roll, then the first push

    twice = ["--seed", str(seed_where(two_pushes)), "--reroll", "0", "--reroll", "0"]
    out = invoke(*args, "--content", str(path), *twice)
    assert out.exit_code == 0, out.output
    assert "(pushed 2x)" in out.stdout
    unknown = invoke(*args, "--seed", "1")
    assert unknown.exit_code == 2
    assert "--specialty" in unknown.stderr
    listed = runner.invoke(app, ["content", "empty-reach", "--content", str(path)])
    assert listed.exit_code == 0, listed.output
    assert "Void Sense" in listed.stdout


def test_the_content_command_lists_the_rules_data() -> None:
    out = runner.invoke(app, ["content", "empty-reach"])
    assert out.exit_code == 0, out.output
    for text in ("Force", "Strength", "specialty-driver", "stealth-dark", "Formidable", "-3"):
        assert text in out.stdout


def test_a_sheet_choice_without_a_character_is_reported_with_the_form_s_other_problems() -> None:
    out = invoke(*ROLL, "--swap", "Menacing", "--helpers", "9")
    assert out.exit_code == 2
    said = out.stderr
    assert said.startswith("error: 3 problems:"), said
    assert "--swap [Use another attribute]: “Menacing” will not do" in said
    assert "give --character" in said
    assert "--attribute [Attribute die] is needed" in said
    assert "--helpers [People helping]: 9 will not do" in said


def test_a_failed_later_push_keeps_the_push_the_player_saw(tmp_path: Path) -> None:
    """A second ``--reroll default`` with no die left to reroll is refused (exit 2), but the
    first push, printed with its stress, is saved with the sheet and the chain file."""
    iva = {
        **SHEET,
        "name": "Iva",
        "attributes": {**SHEET["attributes"], "Empathy": "D6"},
        "skills": {"Persuasion": "D6"},
        "specialties": ["Compassion"],  # Empathy rolls may be pushed twice
    }
    path, chain = tmp_path / "iva.json", tmp_path / "chain.json"
    path.write_text(json.dumps(iva), "utf-8")
    args = ["-c", str(path), "--skill-name", "Persuasion", "--seed", "23", "--save"]
    done = runner.invoke(
        app, [*ROLL, *args, "--chain", str(chain), "--reroll", "default", "--reroll", "default"]
    )
    assert done.exit_code == 2, done.output
    assert "2 new bane(s): 2 stress" in done.output  # the first push, as shown
    assert "after 1 follow-up(s) the result offers no push" in done.output
    assert json.loads(path.read_text("utf-8"))["stress"] == 2
    kinds = [r["kind"] for r in json.loads(chain.read_text("utf-8"))["records"]]
    assert kinds == ["roll", "push"]
