"""Legacy Machines and Magic: ``roll legacy``, ``odds legacy`` and ``character new legacy``."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from pydantic import ValidationError

from rulebound.cli.common import (
    JSON_HELP,
    SEED_HELP,
    emit_json,
    emit_text,
    err_console,
    read_json_file,
    rule_errors,
    source_for,
    write_json_file,
)
from rulebound.cli.tables import CsvOpt, PlotOpt, TableOpt, check_table_flags, emit_grid
from rulebound.core.canonical import probability_fields, to_jsonable
from rulebound.core.errors import InvalidInput, RuleboundError
from rulebound.core.random_source import RandomSource
from rulebound.render.json_view import result_json
from rulebound.render.legacy_text import (
    character_text,
    fate_advice_text,
    events_text,
    extended_text,
    odds_text,
    opposed_text,
    result_text,
    rolls_text,
    secondaries_text,
)
from rulebound.rulesets.content import describe_validation_error
from rulebound.rulesets.legacy.advice import fate_reroll_advice
from rulebound.rulesets.legacy.assist import assist
from rulebound.rulesets.legacy.character import Change, Character
from rulebound.rulesets.legacy.checks import (
    ASSIST_MODES,
    AssistMode,
    CheckRequest,
    LegacyResult,
    luck_request,
    roll_check,
)
from rulebound.rulesets.legacy.content import PRIMARIES, SECONDARIES, catalogue
from rulebound.rulesets.legacy.creation import CreationDraft, parse_assignment
from rulebound.rulesets.legacy.extended import ExtendedCheck, ExtendedSpec, ExtendedStatus
from rulebound.rulesets.legacy.odds import (
    check_chances,
    death_save_odds,
    extended_chances,
    opposed_chances,
    p_success,
)
from rulebound.rulesets.legacy.opposed import roll_opposed
from rulebound.rulesets.legacy.rules import DEFAULT_AFFINITY_BONUS, DEFAULT_SCALE, Outcome
from rulebound.rulesets.legacy.tables import success_grid


def _request(
    target: int | None,
    score: int | None,
    bonus: int | None,
    rank: int | None,
    difficulty: str,
    advantage: bool,
    disadvantage: bool,
    scale: str,
    character: Path | None,
    characteristic: str,
    affinity: str | None,
    *,
    proficiency: str | None = None,
    untrained_penalty: int = 0,
    affinity_bonus: str = DEFAULT_AFFINITY_BONUS,
    situations: tuple[str, ...] = (),
) -> CheckRequest:
    if character is not None:
        return _load_character(character).check(
            characteristic,
            affinity=affinity,
            proficiency=proficiency,
            untrained_penalty=untrained_penalty,
            difficulty=difficulty,
            situations=situations,
            advantage=advantage,
            disadvantage=disadvantage,
            scale=scale,
            affinity_bonus=affinity_bonus,
        )
    if proficiency is not None or untrained_penalty:
        raise InvalidInput("--proficiency", proficiency, "--character as well")
    return CheckRequest(
        score=score or 0,
        bonus=bonus,
        rank=rank,
        difficulty=difficulty,
        advantage=advantage,
        disadvantage=disadvantage,
        scale=scale,
        target=target if score is None else None,
        affinity_bonus=affinity_bonus,
    )


def register(roll_app: typer.Typer, odds_app: typer.Typer, character_app: typer.Typer) -> None:
    @roll_app.command("legacy")
    def roll(
        target: int | None = typer.Option(None, help="Final number the die must not exceed."),
        score: int | None = typer.Option(None, help="Characteristic score (instead of --target)."),
        bonus: int | None = typer.Option(None, help="Ability bonus (default: tens digit)."),
        rank: int | None = typer.Option(
            None, help="Rank, when an affinity or proficiency applies."
        ),
        difficulty: str = typer.Option("challenging", help="Difficulty class key."),
        advantage: bool = typer.Option(False, "--advantage"),
        disadvantage: bool = typer.Option(False, "--disadvantage"),
        scale: str = typer.Option(DEFAULT_SCALE, help="as-written, d100 or halved."),
        character: Path | None = typer.Option(None, help="A saved character JSON file."),  # noqa: B008
        characteristic: str = typer.Option("STR", help="Characteristic code with --character."),
        affinity: str | None = typer.Option(None, help="Skill affinity key with --character."),
        seed: int | None = typer.Option(None, help=SEED_HELP),
        as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
        proficiency: ProficiencyOpt = None,
        untrained_penalty: UntrainedOpt = 0,
        affinity_bonus: AffinityBonusOpt = DEFAULT_AFFINITY_BONUS,
        situation: SituationOpt = None,
        helper: HelperOpt = None,
        assist_mode: AssistModeOpt = "advantage",
        opposed_target: OppTarget = None,
        opposed_score: OppScore = None,
        opposed_bonus: OppBonus = None,
        opposed_rank: OppRank = None,
        opposed_difficulty: OppDifficulty = "challenging",
        opposed_advantage: OppAdvantage = False,
        opposed_disadvantage: OppDisadvantage = False,
        opposed_character: OppCharacter = None,
        opposed_characteristic: OppCharacteristic = "STR",
        opposed_affinity: OppAffinity = None,
        extended: ExtendedOpt = None,
        success_threshold: SuccessOpt = None,
        failure_threshold: FailureOpt = None,
        max_rolls: MaxRollsOpt = None,
        rolls: RollsOpt = 1,
        until_done: UntilDoneOpt = False,
    ) -> None:
        """Roll a Legacy check from raw numbers or a character file.

        With --opposed-* it is an opposed check; with --extended FILE an extended
        check that is saved after each call and resumed from the file next time.
        """
        with rule_errors():

            def build() -> CheckRequest:
                req = _request(
                    target,
                    score,
                    bonus,
                    rank,
                    difficulty,
                    advantage,
                    disadvantage,
                    scale,
                    character,
                    characteristic,
                    affinity,
                    proficiency=proficiency,
                    untrained_penalty=untrained_penalty,
                    affinity_bonus=affinity_bonus,
                    situations=tuple(situation or ()),
                )
                return _assisted(req, helper, assist_mode, affinity, proficiency)

            opp = _opposed_request(
                opposed_target,
                opposed_score,
                opposed_bonus,
                opposed_rank,
                opposed_difficulty,
                opposed_advantage,
                opposed_disadvantage,
                opposed_character,
                opposed_characteristic,
                opposed_affinity,
                scale,
            )
            if extended is not None:
                if opp is not None:
                    raise InvalidInput("--extended", str(extended), "no --opposed-* side as well")
                given = any(v is not None for v in (target, score, character))
                spec_args = (success_threshold, failure_threshold, max_rolls)
                source = source_for(seed)
                _roll_extended(extended, build, given, spec_args, rolls, until_done, source, as_json)
                return
            if opp is not None:
                duel = roll_opposed(build(), opp, source_for(seed))
                emit_json(result_json(duel)) if as_json else emit_text(opposed_text(duel))
                return
            req = build()
            _unused = (
                target,
                score,
                bonus,
                rank,
                difficulty,
                advantage,
                disadvantage,
                scale,
                character,
                characteristic,
                affinity,
            )
            result = roll_check(req, source_for(seed))
            advice = fate_reroll_advice(result)
        if as_json:
            emit_json({**result_json(result), "fate_reroll": to_jsonable(advice)})
        else:
            emit_text(result_text(result) + "\n" + fate_advice_text(advice))

    @odds_app.command("legacy")
    def odds(
        target: int | None = typer.Option(None, help="Final number the die must not exceed."),
        score: int | None = typer.Option(None, help="Characteristic score (instead of --target)."),
        bonus: int | None = typer.Option(None, help="Ability bonus (default: tens digit)."),
        rank: int | None = typer.Option(None),
        difficulty: str = typer.Option("challenging"),
        advantage: bool = typer.Option(False, "--advantage"),
        disadvantage: bool = typer.Option(False, "--disadvantage"),
        scale: str = typer.Option(DEFAULT_SCALE, help="as-written, d100 or halved."),
        death_saves: bool = typer.Option(False, "--death-saves", help="Death-save odds instead."),
        as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
        table: TableOpt = False,
        csv: CsvOpt = None,
        plot: PlotOpt = None,
    ) -> None:
        """Exact odds of each outcome, or of death saves, or the designer table."""
        with rule_errors():
            check_table_flags(table, csv, plot)
            if table:
                emit_grid(success_grid(), csv, plot, as_json)
                return
            if death_saves:
                ds = death_save_odds()
                out: dict[str, Any] = {
                    "ruleset": "legacy",
                    **probability_fields("p_stable", ds.p_stable),
                    **probability_fields("p_dead", ds.p_dead),
                    **probability_fields("expected_rolls", ds.expected_rolls),
                }
                if as_json:
                    emit_json(out)
                else:
                    emit_text(
                        odds_text("death saves", {"stable": ds.p_stable, "dead": ds.p_dead})
                        + f"\n  expected saves     {float(ds.expected_rolls):.3f}"
                    )
                return
            if target is None and score is None:
                raise typer.BadParameter("give --target or --score")
            req = _request(
                target,
                score,
                bonus,
                rank,
                difficulty,
                advantage,
                disadvantage,
                scale,
                None,
                "",
                None,
            )
            chances = check_chances(req)
        success = chances[Outcome.CRITICAL_SUCCESS] + chances[Outcome.SUCCESS]
        if as_json:
            emit_json(
                {
                    "ruleset": "legacy",
                    **probability_fields("p_success", success),
                    **probability_fields("degrees", {o.value: p for o, p in chances.items()}),
                    "scale": scale,
                }
            )
        else:
            emit_text(
                odds_text(
                    f"legacy ({scale}): P(success) {float(success):.2%}",
                    {o.value: p for o, p in chances.items()},
                )
            )

    new_app = _new_group(character_app)

    @new_app.command("legacy")
    def new(
        name: str = typer.Option(..., prompt=True),
        race: str = typer.Option(..., prompt=True),
        origin: str = typer.Option(..., prompt=True),
        soul: str = typer.Option(..., prompt=True),
        char_class: str = typer.Option("", "--class"),
        reroll: str | None = typer.Option(None, help="A secondary to reroll once (e.g. INI)."),
        affinity: list[str] | None = typer.Option(None, help="Extra affinities a soul grants."),  # noqa: B008
        out: Path | None = typer.Option(None, help="Where to save it (character.json)."),  # noqa: B008
        seed: int | None = typer.Option(None, help=SEED_HELP),
        as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    ) -> None:
        """Create a Legacy character (rolls assigned in order) and save it as JSON."""
        with rule_errors():
            change, _ = create_character(
                source_for(seed),
                name=name,
                race=race,
                origin=origin,
                soul=soul,
                char_class=char_class,
                reroll=reroll,
                affinities=tuple(affinity or ()),
            )
        out = out or Path("character.json")
        write_json_file(out, change.character)
        if as_json:
            emit_json({"character": change.character, "events": change.events, "file": str(out)})
        else:
            emit_text(character_text(change.character) + f"\nsaved to {out}")


def _new_group(character_app: typer.Typer) -> typer.Typer:
    """The shared ``character new`` group; the first ruleset to ask creates it."""
    for group in character_app.registered_groups:
        if group.name == "new" and group.typer_instance is not None:
            return group.typer_instance
    new_app = typer.Typer(help="Create a character.", no_args_is_help=True)
    character_app.add_typer(new_app, name="new")
    return new_app
