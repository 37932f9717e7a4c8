"""``rulebound roll empty-reach`` and ``rulebound odds empty-reach``."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from rulebound.cli.common import (
    JSON_HELP,
    SEED_HELP,
    emit_json,
    emit_text,
    fail,
    read_json_file,
    rule_errors,
    source_for,
    write_json_file,
)
from rulebound.cli.tables import CsvOpt, PlotOpt, TableOpt, check_table_flags, emit_grid
from rulebound.core.canonical import probability_fields
from rulebound.core.random_source import RandomSource
from rulebound.render.bars import bar_chart
from rulebound.render.empty_reach_text import render_push_options, render_result
from rulebound.render.json_view import result_json
from rulebound.rulesets.content import input_error
from rulebound.rulesets.empty_reach.advisor import push_options, recommend
from rulebound.rulesets.empty_reach.character import (
    Character,
    load_character,
    push_and_pay,
    request_for,
)
from rulebound.rulesets.empty_reach.check import (
    CheckRequest,
    ExtraModifier,
    GearInUse,
    Options,
    prepare,
)
from rulebound.rulesets.empty_reach.odds import (
    PUSH_POLICIES,
    PushPolicy,
    cost_distribution,
    p_bane_charged,
    success_distribution,
)
from rulebound.rulesets.empty_reach.opposed import opposed_odds
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, push, roll_check
from rulebound.rulesets.empty_reach.ruleset import RULESET
from rulebound.rulesets.empty_reach.tables import success_grid


def _parse_gear(text: str) -> GearInUse:
    """NAME:BONUS or NAME:BONUS:D8,D6 (extra dice the item grants)."""
    parts = text.split(":")
    if len(parts) not in (2, 3) or not parts[1].strip().isdigit():
        fail(f"--gear: got {text!r}; expected NAME:BONUS or NAME:BONUS:D8,D6")
    dice = tuple(d for d in parts[2].split(",") if d) if len(parts) == 3 else ()
    try:
        return GearInUse.model_validate({"name": parts[0], "bonus": int(parts[1]), "dice": dice})
    except ValidationError as exc:
        fail(str(input_error(exc, prefix="--gear")))


def _parse_reroll(text: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        fail(f"--reroll: got {text!r}; expected die indices like 0,1")


def _raw_request(payload: dict[str, Any]) -> CheckRequest:
    return RULESET.parse_request({k: v for k, v in payload.items() if v not in (None, (), [])})


def _ask_push(result: EmptyReachResult) -> list[int] | None:
    answer = typer.prompt(
        "Push? Enter dice indices (e.g. 0,1), 'd' for the default choice, or nothing to stop",
        default="",
        show_default=False,
    ).strip()
    if not answer:
        return None
    return list(result.default_reroll()) if answer.lower() == "d" else _parse_reroll(answer)


def roll(
    attribute: Annotated[
        str | None, typer.Option(help="Attribute die: D6, D8, D10 or D12.")
    ] = None,
    skill: Annotated[
        str | None, typer.Option(help="Skill die; leave out to roll the attribute alone.")
    ] = None,
    skill_name: Annotated[
        str | None, typer.Option(help="Skill rolled (Force, Stealth...); sets the attribute.")
    ] = None,
    attribute_name: Annotated[
        str | None, typer.Option(help="Attribute used, when not the skill's own.")
    ] = None,
    character: Annotated[
        Path | None, typer.Option(help="Character JSON file; use with --skill-name.")
    ] = None,
    modifier: Annotated[int, typer.Option(help="A plain step modifier from the rules.")] = 0,
    helpers: Annotated[int, typer.Option(help="People helping (+1 each, at most 3).")] = 0,
    difficulty: Annotated[int, typer.Option(help="A numeric difficulty modifier.")] = 0,
    difficulty_level: Annotated[
        str | None, typer.Option(help="Named difficulty (easy, hard...).")
    ] = None,
    situation: Annotated[
        list[str] | None, typer.Option(help="A situational factor key; repeatable.")
    ] = None,
    specialty: Annotated[
        list[str] | None, typer.Option(help="A specialty the roller has; repeatable.")
    ] = None,
    gear: Annotated[
        str | None, typer.Option(help="NAME:BONUS[:D8,...], or an item name with --character.")
    ] = None,
    swap: Annotated[
        str | None, typer.Option(help="A specialty that changes the attribute (Menacing...).")
    ] = None,
    passive: Annotated[bool, typer.Option(help="A passive roll, which cannot be pushed.")] = False,
    gear_banes: Annotated[str, typer.Option(help="Variant: base-dice or gear-dice.")] = "base-dice",
    reroll: Annotated[
        list[str] | None,
        typer.Option(
            help="Push, rerolling these die indices (0,1), or 'default'; repeat to push again."
        ),
    ] = None,
    save: Annotated[
        bool, typer.Option(help="With --character, write the sheet back after the push's costs.")
    ] = False,
    seed: Annotated[int | None, typer.Option(help=SEED_HELP)] = None,
    json_output: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Roll a check with its full trace, then push it if you choose."""
    with rule_errors():
        options = Options(gear_banes=gear_banes)  # type: ignore[arg-type]
        sheet: Character | None = None
        if character is not None:
            if not skill_name:
                fail("--skill-name: required with --character")
            sheet = load_character(read_json_file(character))
            request = request_for(
                sheet,
                skill_name,
                situations=situation or (),
                helpers=helpers,
                difficulty=difficulty,
                difficulty_level=difficulty_level,
                gear=gear,
                swap=swap,
                modifiers=(ExtraModifier(source="modifier", value=modifier),) if modifier else (),
                unpushable="passive roll" if passive else None,
                options=options,
            )
        else:
            if attribute is None:
                fail("--attribute: required without --character (D6, D8, D10 or D12)")
            request = _raw_request(
                {
                    "attribute_die": attribute,
                    "skill_die": skill,
                    "skill": skill_name,
                    "attribute": attribute_name,
                    "helpers": helpers,
                    "difficulty": difficulty,
                    "difficulty_level": difficulty_level,
                    "situations": tuple(situation or ()),
                    "specialties": tuple(specialty or ()),
                    "modifiers": ({"source": "modifier", "value": modifier},) if modifier else (),
                    "gear": _parse_gear(gear).model_dump() if gear else None,
                    "unpushable": "passive roll" if passive else None,
                    "options": options.model_dump(),
                }
            )
        source = source_for(seed)
        result = roll_check(prepare(request), source)
        results = [result]
        pushes = list(reroll or [])
        interactive = not pushes and not json_output and sys.stdin.isatty()
        if not json_output:
            emit_text(render_result(result))
        while result.pushes_left > 0:
            if not json_output:
                emit_text(render_push_options(push_options(result), recommend(result)))
            if pushes:
                spec = pushes.pop(0)
                chosen = None if spec == "default" else _parse_reroll(spec)
            elif interactive:
                chosen = _ask_push(result)
                if chosen is None:
                    break
            else:
                break
            result, sheet = _push(result, sheet, source, chosen)
            results.append(result)
            if not json_output:
                emit_text("")
                emit_text(render_result(result))
        if pushes:
            fail(
                f"--reroll: {len(pushes)} push(es) too many; "
                f"this roll allows {result.check.max_pushes}"
            )
        if sheet is not None and save and character is not None:
            write_json_file(character, sheet.model_dump(mode="json"))
        if json_output:
            emit_json(
                {
                    "result": result_json(result),
                    "character": sheet.model_dump(mode="json") if sheet else None,
                }
            )


def _push(
    result: EmptyReachResult,
    sheet: Character | None,
    source: RandomSource,
    chosen: list[int] | None,
) -> tuple[EmptyReachResult, Character | None]:
    if sheet is None:
        return push(result, source, chosen), None
    return push_and_pay(sheet, result, source, chosen)


def odds(
    attribute: Annotated[
        str | None, typer.Option(help="Attribute die: D6, D8, D10 or D12.")
    ] = None,
    skill: Annotated[
        str | None, typer.Option(help="Skill die; leave out to roll the attribute alone.")
    ] = None,
    modifier: Annotated[int, typer.Option(help="Net step modifier.")] = 0,
    push: Annotated[str, typer.Option(help="never, always or if-failed.")] = "never",
    attribute_name: Annotated[
        str | None, typer.Option(help="Attribute, for extra-push specialties.")
    ] = None,
    specialty: Annotated[
        list[str] | None, typer.Option(help="Specialties (extra pushes); repeatable.")
    ] = None,
    gear_bonus: Annotated[
        int, typer.Option(help="Bonus of the gear in use (adds steps, risks gear).")
    ] = 0,
    opposed_attribute: Annotated[str | None, typer.Option(help="Defender's attribute die.")] = None,
    opposed_skill: Annotated[str | None, typer.Option(help="Defender's skill die.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
    table: TableOpt = False,
    csv: CsvOpt = None,
    plot: PlotOpt = None,
) -> None:
    """Exact odds for a pool after modifiers, with or without a push; or the designer table."""
    with rule_errors():
        check_table_flags(table, csv, plot)
        if table:
            emit_grid(success_grid(), csv, plot, json_output)
            return
        if attribute is None:
            fail("--attribute: required (D6, D8, D10 or D12), unless --table")
        if push not in PUSH_POLICIES:
            fail(f"--push: got {push!r}; expected one of {', '.join(PUSH_POLICIES)}")
        policy: PushPolicy = push  # type: ignore[assignment]
        check = prepare(
            _raw_request(
                {
                    "attribute_die": attribute,
                    "skill_die": skill,
                    "attribute": attribute_name,
                    "specialties": tuple(specialty or ()),
                    "modifiers": ({"source": "modifier", "value": modifier},) if modifier else (),
                    "gear": {"name": "gear", "bonus": gear_bonus} if gear_bonus else None,
                }
            )
        )
        counts = success_distribution(check, policy)
        report: dict[str, Any] = {
            "ruleset": "empty-reach",
            "pool": check.pool.describe(),
            "push": policy,
            **probability_fields("p_success", counts.probability_where(lambda n: n >= 1)),
            **probability_fields("successes", counts.probabilities()),
            "expected_successes": str(counts.mean()),
        }
        if policy != "never":
            report |= probability_fields("p_bane", p_bane_charged(check, policy))
            costs = cost_distribution(check, policy)
            report["expected_cost"] = str(costs.mean(lambda c: c[0]))
            if gear_bonus:
                report |= probability_fields(
                    "p_gear_loss", costs.probability_where(lambda c: c[1] > 0)
                )
        if opposed_attribute:
            defender = prepare(
                _raw_request({"attribute_die": opposed_attribute, "skill_die": opposed_skill})
            )
            verdicts = opposed_odds(check, defender, policy)
            for verdict, p in verdicts.items():
                report |= probability_fields(f"p_{verdict}", p)
        if json_output:
            emit_json(report)
            return
        emit_text(f"The Empty Reach: {check.pool.describe()}, push {policy}")
        emit_text(bar_chart([("success", Fraction(report["p_success"]))]))
        emit_text("successes:")
        emit_text(bar_chart([(str(n), p) for n, p in counts.probabilities().items()]))
        if policy != "never":
            emit_text(bar_chart([("bane after push", Fraction(report["p_bane"]))]))
        if opposed_attribute:
            emit_text("opposed:")
            emit_text(bar_chart([(v, Fraction(report[f"p_{v}"])) for v in ("win", "tie", "loss")]))


def register(roll_app: typer.Typer, odds_app: typer.Typer, character_app: typer.Typer) -> None:
    roll_app.command("empty-reach")(roll)
    odds_app.command("empty-reach")(odds)
