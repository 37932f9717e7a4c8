"""``rulebound roll|odds|character rainwall``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from rulebound.cli.common import (
    JSON_HELP,
    SEED_HELP,
    emit_json,
    emit_text,
    rule_errors,
    source_for,
)
from rulebound.cli.tables import CsvOpt, PlotOpt, TableOpt, check_table_flags, emit_grid
from rulebound.core.canonical import probability_fields, to_jsonable
from rulebound.core.errors import InvalidInput
from rulebound.render import rainwall_text
from rulebound.render.json_view import result_json
from rulebound.rulesets.rainwall import RULESET
from rulebound.rulesets.rainwall.bonus import alternatives
from rulebound.rulesets.rainwall.character import load_character, request_for
from rulebound.rulesets.rainwall.content import load_catalogue
from rulebound.rulesets.rainwall.odds import RainwallOdds, check_odds
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.roll import allocation_from_labels, reallocate
from rulebound.rulesets.rainwall.rules import Options
from rulebound.rulesets.rainwall.tables import success_grid

Dice = Annotated[int | None, typer.Option(help="Dice to roll: the trait score, 1 to 10.")]
Skill = Annotated[
    str, typer.Option(help="Skill score (1 to 10), or a skill name with --character.")
]
Dr = Annotated[int, typer.Option("--dr", help="Difficulty Rating: successes needed.")]
Bonus = Annotated[int | None, typer.Option(help="The skill's + bonus points (default 0).")]
CharacterFile = Annotated[Path | None, typer.Option(help="A Rainwall character JSON file.")]
ContentFile = Annotated[Path | None, typer.Option(help="A homebrew traits/skills TOML file.")]
VariantOpt = Annotated[
    list[str] | None, typer.Option("--variant", help="A rules option as KEY=CHOICE; repeatable.")
]
Json = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


def _pairs(field: str, items: list[str] | None) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise InvalidInput(field, item, "KEY=VALUE")
        pairs[key.strip()] = value.strip()
    return pairs


def build_request(
    dice: int | None,
    skill: str,
    dr: int,
    bonus: int | None,
    character: Path | None,
    content: Path | None,
    variants: list[str] | None,
) -> RainwallRequest:
    """Either plain numbers, or a character sheet and one of its skills."""
    chosen = _pairs("--variant", variants)
    if character is None:
        if dice is None:
            raise InvalidInput("--dice", None, "the trait score (1 to 10), or use --character")
        if not skill.strip().lstrip("-").isdigit():
            raise InvalidInput("--skill", skill, "a score from 1 to 10, or a name with --character")
        payload = {"dice": dice, "skill": int(skill), "dr": dr, "bonus": bonus or 0}
        return RULESET.parse_request({**payload, "variants": chosen})
    if dice is not None or bonus is not None:
        raise InvalidInput("--dice/--bonus", "given", "neither: the character sheet sets them")
    catalogue = load_catalogue(content)
    sheet = load_character(character, catalogue)
    request = request_for(sheet, skill, dr, Options.from_mapping(chosen), catalogue)
    return RULESET.parse_request(
        {
            "dice": request.dice,
            "skill": request.skill,
            "dr": request.dr,
            "bonus": request.bonus,
            "trait_name": request.trait_name,
            "skill_name": request.skill_name,
            "variants": chosen,
        }
    )


def odds_json(result: RainwallOdds) -> dict[str, Any]:
    return {
        "ruleset": "rainwall",
        "request": to_jsonable(result.request),
        **probability_fields("p_success", result.p_success),
        **probability_fields("ios", result.ios),
        **probability_fields("degrees", {d.value: p for d, p in result.degrees.items()}),
        **probability_fields("successes", result.successes),
        **probability_fields("raw_successes", result.raw_successes),
    }


def roll_command(
    skill: Skill,
    dr: Dr,
    dice: Dice = None,
    bonus: Bonus = None,
    character: CharacterFile = None,
    content: ContentFile = None,
    variant: VariantOpt = None,
    allocate: Annotated[
        list[str] | None,
        typer.Option(help="Override the spend as DIE=POINTS, e.g. d5=2; repeatable."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help=SEED_HELP)] = None,
    json: Json = False,
) -> None:
    """Roll a Rainwall check: the dice, the bonus allocation, the IoS and the degree."""
    with rule_errors():
        request = build_request(dice, skill, dr, bonus, character, content, variant)
        result = RULESET.roll(request, source_for(seed))
        if allocate:
            points = {k: _points(k, v) for k, v in _pairs("--allocate", allocate).items()}
            result = reallocate(result, allocation_from_labels(result, points))
        options = alternatives(request, result.faces)
    if json:
        emit_json({**result_json(result), "alternatives": to_jsonable(options)})
        return
    text = rainwall_text.result_text(result)
    if request.bonus and len(options) > 1:
        text += "\n" + rainwall_text.alternatives_text(options, result.faces)
    emit_text(text)


def _points(label: str, value: str) -> int:
    if not value.isdigit():
        raise InvalidInput(f"--allocate {label}", value, "a whole number of points")
    return int(value)


def odds_command(
    dr: Dr,
    skill: Annotated[
        str | None,
        typer.Option(help="Skill score (1 to 10), or a skill name with --character."),
    ] = None,
    dice: Dice = None,
    bonus: Bonus = None,
    character: CharacterFile = None,
    content: ContentFile = None,
    variant: VariantOpt = None,
    json: Json = False,
    table: TableOpt = False,
    csv: CsvOpt = None,
    plot: PlotOpt = None,
) -> None:
    """Exact odds of a Rainwall check: success, IoS and degrees, after the optimal spend.

    With --table: P(success) for every dice and skill score against --dr, with --bonus.
    """
    with rule_errors():
        check_table_flags(table, csv, plot)
        if table:
            options = Options.from_mapping(_pairs("--variant", variant))
            emit_grid(success_grid(dr, (bonus or 0,), options), csv, plot, json)
            return
        if skill is None:
            raise InvalidInput("--skill", None, "a score from 1 to 10, or a name with --character")
        request = build_request(dice, skill, dr, bonus, character, content, variant)
        result = check_odds(request)
    if json:
        emit_json(odds_json(result))
    else:
        emit_text(rainwall_text.odds_text(result))


def character_command(
    path: Annotated[Path, typer.Argument(help="A Rainwall character JSON file.")],
    content: ContentFile = None,
    json: Json = False,
) -> None:
    """Check a Rainwall character sheet against the traits and skills, and show it."""
    with rule_errors():
        catalogue = load_catalogue(content)
        sheet = load_character(path, catalogue)
    if json:
        emit_json(sheet)
    else:
        emit_text(rainwall_text.character_text(sheet, catalogue))


def register(roll_app: typer.Typer, odds_app: typer.Typer, character_app: typer.Typer) -> None:
    roll_app.command("rainwall")(roll_command)
    odds_app.command("rainwall")(odds_command)
    character_app.command("rainwall")(character_command)
