"""``rulebound roll|odds|character ghostburn``: the Ghostburn commands.

The luck spend is offered after the roll: asked at a terminal, or chosen up
front with ``--luck spend|keep`` for scripts. With ``--save``, a spend rewrites
the character file with one fewer point, atomically, once the new result exists.
"""

from __future__ import annotations

import os
import sys
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from rulebound.cli.common import (
    JSON_HELP,
    SEED_HELP,
    emit_json,
    emit_text,
    read_json_file,
    rule_errors,
    source_for,
)
from rulebound.cli.tables import CsvOpt, PlotOpt, TableOpt, check_table_flags, emit_grid
from rulebound.core.canonical import probability_fields, to_jsonable
from rulebound.core.errors import InvalidInput
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.render.ghostburn_text import luck_advice_text, odds_text, result_text
from rulebound.render.json_view import result_json
from rulebound.rulesets.ghostburn.character import Character, check_character, parse_character
from rulebound.rulesets.ghostburn.chart import Chart
from rulebound.rulesets.ghostburn.content import GhostburnContent, load_content
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.luck import LuckPool, spend_luck
from rulebound.rulesets.ghostburn.odds import band_odds, luck_advice, luck_odds, p_success
from rulebound.rulesets.ghostburn.options import Options
from rulebound.rulesets.ghostburn.request import (
    character_request,
    raw_request,
    skill_candidates,
    trick_dl,
)
from rulebound.rulesets.ghostburn.roll import GhostburnResult, roll
from rulebound.rulesets.ghostburn.rules import applied_total, stack
from rulebound.rulesets.ghostburn.tables import success_grid


class LuckChoice(StrEnum):
    ASK = "ask"
    SPEND = "spend"
    KEEP = "keep"


ContentOpt = Annotated[
    list[Path] | None, typer.Option("--content", help="Homebrew TOML merged over the built-ins.")
]
VariantOpt = Annotated[
    list[str] | None, typer.Option("--variant", help="A rules reading, KEY=CHOICE.")
]
TraitOpt = Annotated[
    list[str] | None, typer.Option("--trait", help="A target trait a trick reads, NAME=LEVEL.")
]
DlOpt = Annotated[str | None, typer.Option("--dl", help="DL as a level name or a number.")]
ShiftOpt = Annotated[int, typer.Option("--dl-shift", help="GM shift of the DL, in levels.")]
JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


def _pairs(field: str, values: list[str] | None) -> list[tuple[str, str]]:
    pairs = []
    for value in values or []:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip() or not rest.strip():
            raise InvalidInput(field, value, "NAME=VALUE")
        pairs.append((name.strip(), rest.strip()))
    return pairs


def _bonus_pairs(field: str, values: list[str] | None) -> list[tuple[str, int]]:
    out = []
    for name, text in _pairs(field, values):
        try:
            out.append((name, int(text)))
        except ValueError:
            raise InvalidInput(f"{field} {name}", text, "a whole number") from None
    return out


def _options(values: list[str] | None) -> Options:
    return Options.parse(dict(_pairs("--variant", values)))


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _save_character(path: Path, character: Character) -> None:
    """Write to a sibling temp file, then rename: the sheet is either old or new, never torn."""
    text = character.model_dump_json(indent=2) + "\n"
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def register(roll_app: typer.Typer, odds_app: typer.Typer, character_app: typer.Typer) -> None:
    roll_app.command("ghostburn")(roll_command)
    odds_app.command("ghostburn")(odds_command)
    character_app.command("ghostburn")(character_command)


def roll_command(
    character: Annotated[
        Path | None, typer.Option("--character", "-c", help="Character sheet (JSON).")
    ] = None,
    skill: Annotated[str | None, typer.Option(help="Skill key, e.g. firearms.")] = None,
    trick: Annotated[
        str | None, typer.Option(help="Trick key; omit for an improvised one.")
    ] = None,
    ability: Annotated[
        str | None, typer.Option(help="Ability the GM calls for instead of the primary.")
    ] = None,
    trait: TraitOpt = None,
    chart: Annotated[
        str | None, typer.Option(help="Outcome chart for an improvised check.")
    ] = None,
    dl: DlOpt = None,
    dl_shift: ShiftOpt = 0,
    ability_score: Annotated[int | None, typer.Option(help="Raw: the ability score.")] = None,
    skill_bonus: Annotated[int | None, typer.Option(help="Raw: the skill bonus.")] = None,
    gear: Annotated[
        list[str] | None, typer.Option(help="Raw: gear NAME=BONUS, repeatable.")
    ] = None,
    aug: Annotated[list[str] | None, typer.Option(help="Raw: aug NAME=BONUS, repeatable.")] = None,
    luck: Annotated[LuckChoice, typer.Option(help="Spend a Luck Point after the roll?")] = (
        LuckChoice.ASK
    ),
    luck_points: Annotated[int | None, typer.Option(help="Raw: Luck Points available.")] = None,
    luck_bonus: Annotated[int | None, typer.Option(help="Raw: size of the Luck Bonus.")] = None,
    save: Annotated[
        bool, typer.Option(help="With --character, write the sheet back after a luck spend.")
    ] = False,
    content: ContentOpt = None,
    variant: VariantOpt = None,
    seed: Annotated[int | None, typer.Option(help=SEED_HELP)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll 2d10 plus stacking bonuses against a DL and read the band off the chart."""
    with rule_errors():
        loaded = load_content(content or [])
        options = _options(variant)
        raw = {
            "--ability-score": ability_score,
            "--skill-bonus": skill_bonus,
            "--gear": gear,
            "--aug": aug,
            "--luck-points": luck_points,
            "--luck-bonus": luck_bonus,
        }
        sheet: Character | None = None
        if character is not None:
            given = [name for name, value in raw.items() if value is not None]
            if given:
                raise InvalidInput(given[0], raw[given[0]], "nothing with --character")
            sheet = parse_character(read_json_file(character), str(character))
            request = character_request(
                sheet,
                loaded,
                skill=skill,
                trick=trick,
                dl=dl,
                ability=ability,
                dl_shift=dl_shift,
                traits=dict(_pairs("--trait", trait)),
                chart=chart,
                options=options,
            )
            pool: LuckPool | None = LuckPool.of(sheet)
        else:
            given = [
                n for n, v in (("--skill", skill), ("--trick", trick), ("--ability", ability)) if v
            ]
            if given:
                raise InvalidInput(given[0], "given", "a --character to read it from")
            if dl is None:
                raise InvalidInput("--dl", None, "a DL, or --character with --skill/--trick")
            request = raw_request(
                loaded,
                dl=dl,
                ability_score=ability_score or 0,
                skill_bonus=skill_bonus or 0,
                gear=_bonus_pairs("--gear", gear),
                augs=_bonus_pairs("--aug", aug),
                dl_shift=dl_shift,
                chart=chart or "default",
                options=options,
            )
            pool = LuckPool(luck_points or 0, luck_bonus) if luck_bonus is not None else None
        if luck is LuckChoice.SPEND and pool is None:
            raise InvalidInput("--luck", "spend", "a character, or --luck-bonus with --luck-points")
        result = roll(request, source_for(seed))
        _after_roll(result, pool, luck, as_json, character if save else None, sheet)


def _after_roll(
    result: GhostburnResult,
    pool: LuckPool | None,
    choice: LuckChoice,
    as_json: bool,
    path: Path | None,
    sheet: Character | None,
) -> None:
    """Show the roll, settle the luck choice, then show what the spend made.

    ``path`` is the sheet to write back (only with ``--save``); it is written
    only after the new result and the new sheet both exist.
    """
    spent = spend_luck(result, pool) if choice is LuckChoice.SPEND and pool else None
    advice = luck_advice(result, pool.bonus) if pool else None
    if not as_json:
        emit_text(result_text(result))
        if pool and advice:
            emit_text(luck_advice_text(result, advice, pool.bonus, pool.points))
        offer = choice is LuckChoice.ASK and pool is not None and pool.points > 0
        if (
            offer
            and pool
            and _interactive()
            and typer.confirm(f"Spend a Luck Point (+{pool.bonus})?", default=False)
        ):
            spent = spend_luck(result, pool)
    after = sheet.with_luck_points(spent.pool.points) if spent and sheet else sheet
    if spent is not None and path is not None and after is not None:
        _save_character(path, after)
    if as_json:
        final, left = (spent.result, spent.pool) if spent else (result, pool)
        emit_json(
            {
                "result": result_json(final),
                "luck_advice": to_jsonable(advice),
                "luck_points_left": left.points if left else None,
                "character": after.model_dump(mode="json") if after else None,
            }
        )
    elif spent is not None:
        emit_text("")
        emit_text(result_text(spent.result))
        saved = "" if path or sheet is None else " (sheet not saved; pass --save)"
        emit_text(f"Luck      {spent.pool.points} point(s) left{saved}")


def _odds_difficulty(
    loaded: GhostburnContent,
    trick: str | None,
    dl: str | None,
    shift: int,
    traits: list[str] | None,
    chart: str | None,
    options: Options,
) -> tuple[Difficulty, Chart]:
    if trick is not None:
        spec = loaded.trick(trick)
        if dl is not None:
            raise InvalidInput("--dl", dl, f"nothing: trick {trick!r} sets its DL; use --dl-shift")
        base, source = trick_dl(spec, loaded, dict(_pairs("--trait", traits)))
        the_chart = loaded.chart(spec.chart).with_outcomes(spec.outcomes)
    else:
        if dl is None:
            raise InvalidInput("--dl", None, "a DL (a level name or number), or --trick")
        base, source = loaded.ladder.parse("--dl", dl), "given directly"
        the_chart = loaded.chart(chart or "default")
    difficulty = Difficulty.make(base, loaded.ladder, options, shift=shift, source=source)
    return difficulty, the_chart


def odds_command(
    modifier: Annotated[int, typer.Option(help="Total bonus added to 2d10.")] = 0,
    dl: DlOpt = None,
    dl_shift: ShiftOpt = 0,
    trick: Annotated[str | None, typer.Option(help="Take the DL and chart from a trick.")] = None,
    trait: TraitOpt = None,
    chart: Annotated[str | None, typer.Option(help="Outcome chart key.")] = None,
    luck_bonus: Annotated[
        int | None, typer.Option(help="Also show the odds with one Luck Bonus of this size.")
    ] = None,
    content: ContentOpt = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
    table: TableOpt = False,
    csv: CsvOpt = None,
    plot: PlotOpt = None,
) -> None:
    """Exact chance of each band on the chart for a total bonus and DL; or the designer table."""
    with rule_errors():
        check_table_flags(table, csv, plot)
        loaded = load_content(content or [])
        DEFAULT_LIMITS.check_modifier("--modifier", modifier)
        options = _options(variant)
        if table:
            emit_grid(success_grid(content=loaded, options=options), csv, plot, as_json)
            return
        difficulty, the_chart = _odds_difficulty(loaded, trick, dl, dl_shift, trait, chart, options)
        bands = band_odds(modifier, difficulty, the_chart)
        success = p_success(modifier, difficulty)
        luck = None
        if luck_bonus is not None:
            if luck_bonus < 1:
                raise InvalidInput("--luck-bonus", luck_bonus, "at least 1")
            luck = luck_odds(modifier, difficulty, the_chart, luck_bonus)
        if as_json:
            body: dict[str, Any] = {
                "ruleset": "ghostburn",
                "modifier": modifier,
                "dl": difficulty.value,
                "dl_label": difficulty.label,
                "chart": the_chart.key,
                **probability_fields("p_success", success),
                **probability_fields("bands", bands),
            }
            if luck is not None:
                body["luck_bonus"] = luck_bonus
                body |= probability_fields("p_luck_helps", luck.p_luck_helps)
                body |= probability_fields("p_success_with_luck", luck.p_success_with_luck)
                body |= probability_fields("bands_with_luck", luck.bands_with_luck)
            emit_json(body)
            return
        labels = {band.key: band.label for band in the_chart.bands}
        title = f"Ghostburn odds: 2d10 {modifier:+d} vs {difficulty.label}, chart {the_chart.key}"
        emit_text(odds_text(title, bands, labels, success, luck))


def character_command(
    path: Annotated[Path, typer.Argument(help="Character sheet (JSON).")],
    content: ContentOpt = None,
) -> None:
    """Check a sheet against the content and show each skill's bonuses."""
    with rule_errors():
        loaded = load_content(content or [])
        sheet = check_character(parse_character(read_json_file(path), str(path)), loaded)
        emit_text(
            f"{sheet.name}: {sheet.luck_points} Luck Point(s), Luck Bonus +{sheet.luck_bonus}"
        )
        for key, skill in loaded.skills.items():
            ability = sheet.primary_ability(key, loaded)
            if ability not in sheet.abilities:
                emit_text(f"  {skill.name:<14}{ability:<14}no score on the sheet")
                continue
            candidates, _ = skill_candidates(sheet, loaded, key)
            emit_text(f"  {skill.name:<14}{ability:<14}{applied_total(stack(candidates)):+d}")
