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
    events_text,
    extended_text,
    fate_advice_text,
    odds_text,
    opposed_text,
    result_text,
    rolls_text,
    secondaries_text,
)
from rulebound.rulesets.content import describe_validation_error
from rulebound.rulesets.legacy.actions import roll_as
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
from rulebound.rulesets.legacy.restrictions import check_character
from rulebound.rulesets.legacy.rules import DEFAULT_AFFINITY_BONUS, DEFAULT_SCALE, Outcome
from rulebound.rulesets.legacy.tables import success_grid

T = TypeVar("T")


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
        save: bool = typer.Option(
            False, help="With --character, write the sheet back (a spent curse)."
        ),
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
                _roll_extended(
                    extended, build, given, spec_args, rolls, until_done, source, as_json
                )
                return
            if opp is not None:
                duel = roll_opposed(build(), opp, source_for(seed))
                emit_json(result_json(duel)) if as_json else emit_text(opposed_text(duel))
                return
            if character is None:
                result = roll_check(build(), source_for(seed))
            else:
                # Rolled as the character: unconscious or dead fails outright; a curse is spent.
                sheet = _load_character(character)
                change = roll_as(sheet, build(), source_for(seed))
                result = change.results[0]
                if save and change.character != sheet:
                    _write_atomic(character, change.character.model_dump(mode="json"))
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
        affinity_bonus: AffinityBonusOpt = DEFAULT_AFFINITY_BONUS,
        lck_cancel: LckCancelOpt = None,
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
    ) -> None:
        """Exact odds of each outcome, or of death saves, or the designer table.

        With --opposed-* the opposed odds (p_win, p_tie, p_loss); with the extended
        thresholds (or a saved --extended FILE) how an extended check ends.
        """
        with rule_errors():
            check_table_flags(table, csv, plot)
            if table:
                emit_grid(success_grid(), csv, plot, as_json)
                return
            spec_args = (success_threshold, failure_threshold, max_rolls)
            if extended is not None or any(v is not None for v in spec_args):
                if extended is None and target is None and score is None:
                    raise InvalidInput("extended odds", None, "--target or --score for the check")
                req = _request(
                    target if target is not None else 0,
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
                    affinity_bonus=affinity_bonus,
                )
                _extended_odds(extended, req, spec_args, as_json)
                return
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
            if opp is not None:
                if target is None and score is None:
                    raise InvalidInput("opposed odds", None, "--target or --score for the actor")
                actor = _request(
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
                    affinity_bonus=affinity_bonus,
                )
                _opposed_odds(actor, opp, scale, as_json)
                return
            if death_saves:
                ds = death_save_odds(cancel_chance=_cancel_chance(lck_cancel, scale))
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
                affinity_bonus=affinity_bonus,
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
        assign: Annotated[
            str | None,
            typer.Option(
                "--assign",
                help="Which roll (0 = first) each primary takes: STR=0,DEX=3,... or 0,3,1,...",
            ),
        ] = None,
        show_rolls: Annotated[
            bool,
            typer.Option("--show-rolls", help="With --seed: print the seven rolls and stop."),
        ] = False,
        interactive: Annotated[
            bool | None,
            typer.Option(
                "--interactive/--no-interactive",
                help="Prompt for the assignment, reroll and affinities (default: at a terminal).",
            ),
        ] = None,
    ) -> None:
        """Create a Legacy character and save it as JSON.

        At a terminal it shows the seven 2d10 rolls and asks where each goes, then
        which secondary to reroll. Without a terminal, --assign and --reroll choose
        (no --assign: the rolls go to STR..PER in the order rolled).
        """
        with rule_errors():
            source = source_for(seed)
            if show_rolls:
                if seed is None:
                    raise InvalidInput("--show-rolls", True, "--seed too, so the next run matches")
                draft = CreationDraft.start(name, race, origin, soul, char_class)
                draft = draft.roll_primaries(source)
                if as_json:
                    emit_json({"ruleset": "legacy", "primary_rolls": draft.primary_rolls})
                else:
                    emit_text(
                        rolls_text(draft.primary_rolls) + "\nrerun with this --seed and --assign"
                    )
                return
            if interactive and as_json:
                raise InvalidInput("--interactive", True, "no --json (prompts would mix into it)")
            asking = (
                (_interactive_default() and not as_json) if interactive is None else interactive
            )
            change, draft = _create(
                source,
                name=name,
                race=race,
                origin=origin,
                soul=soul,
                char_class=char_class,
                assign_text=assign,
                reroll=reroll,
                affinities=tuple(affinity or ()),
                interactive=asking,
            )
        out = out or Path("character.json")
        write_json_file(out, change.character)
        if as_json:
            emit_json(
                {
                    "character": change.character,
                    "events": change.events,
                    "primary_rolls": draft.primary_rolls,
                    "primaries": {c: draft.primaries[c] for c in PRIMARIES},
                    "rerolled": draft.rerolled,
                    "file": str(out),
                }
            )
        else:
            lines = [rolls_text(draft.primary_rolls), character_text(change.character)]
            if change.events:
                lines.append(events_text(change.events))
            emit_text("\n".join([*lines, f"saved to {out}"]))


def _new_group(character_app: typer.Typer) -> typer.Typer:
    """The shared ``character new`` group; the first ruleset to ask creates it."""
    for group in character_app.registered_groups:
        if group.name == "new" and group.typer_instance is not None:
            return group.typer_instance
    new_app = typer.Typer(help="Create a character.", no_args_is_help=True)
    character_app.add_typer(new_app, name="new")
    return new_app


# --- options shared by roll and odds: opposed, extended, proficiency, assistance -----------

OppTarget = Annotated[
    int | None, typer.Option("--opposed-target", help="Opposed: the other side's final target.")
]
OppScore = Annotated[
    int | None, typer.Option("--opposed-score", help="Opposed: the other side's score.")
]
OppBonus = Annotated[
    int | None, typer.Option("--opposed-bonus", help="Opposed: the other side's ability bonus.")
]
OppRank = Annotated[int | None, typer.Option("--opposed-rank", help="Opposed: their rank.")]
OppDifficulty = Annotated[
    str, typer.Option("--opposed-difficulty", help="Opposed: their difficulty class key.")
]
OppAdvantage = Annotated[bool, typer.Option("--opposed-advantage")]
OppDisadvantage = Annotated[bool, typer.Option("--opposed-disadvantage")]
OppCharacter = Annotated[
    Path | None, typer.Option("--opposed-character", help="Opposed: their character file.")
]
OppCharacteristic = Annotated[
    str, typer.Option("--opposed-characteristic", help="Opposed: code with --opposed-character.")
]
OppAffinity = Annotated[
    str | None, typer.Option("--opposed-affinity", help="Opposed: affinity key, with a file.")
]
ExtendedOpt = Annotated[
    Path | None,
    typer.Option(
        "--extended", help="Extended check state file: started if missing, resumed if present."
    ),
]
SuccessOpt = Annotated[
    int | None, typer.Option("--success-threshold", help="Extended: success needed.")
]
FailureOpt = Annotated[
    int | None, typer.Option("--failure-threshold", help="Extended: failure that ends it.")
]
MaxRollsOpt = Annotated[int | None, typer.Option("--max-rolls", help="Extended: rolls allowed.")]
RollsOpt = Annotated[int, typer.Option("--rolls", help="Extended: rolls to make now.")]
UntilDoneOpt = Annotated[bool, typer.Option("--until-done", help="Extended: roll until it ends.")]
ProficiencyOpt = Annotated[
    str | None, typer.Option("--proficiency", help="A proficiency check (with --character).")
]
UntrainedOpt = Annotated[
    int,
    typer.Option("--untrained-penalty", help="The item's penalty (<= 0) when not proficient."),
]
AffinityBonusOpt = Annotated[
    str, typer.Option("--affinity-bonus", help="Variant: rank-table or five-per-rank.")
]
SituationOpt = Annotated[
    list[str] | None,
    typer.Option("--situation", help="A situation key (bright-light, fear...); repeatable."),
]
HelperOpt = Annotated[
    Path | None, typer.Option("--helper", help="Assisted check: the helper's character file.")
]
AssistModeOpt = Annotated[
    str, typer.Option("--assist-mode", help="What the helper lends: advantage or proficiency.")
]
LckCancelOpt = Annotated[
    int | None,
    typer.Option("--lck-cancel", help="Death saves: LCK of a soul that cancels critical failures."),
]


def _load_character(path: Path) -> Character:
    data = read_json_file(path)
    try:
        return check_character(Character.model_validate(data))
    except ValidationError as exc:
        raise InvalidInput(str(path), "character file", describe_validation_error(exc)) from None


def _opposed_request(
    target: int | None,
    score: int | None,
    bonus: int | None,
    rank: int | None,
    difficulty: str,
    advantage: bool,
    disadvantage: bool,
    character: Path | None,
    characteristic: str,
    affinity: str | None,
    scale: str,
) -> CheckRequest | None:
    """The other side of an opposed check, or None when no --opposed-* side is given."""
    if target is None and score is None and character is None:
        return None
    if character is not None:
        return _load_character(character).check(
            characteristic,
            affinity=affinity,
            difficulty=difficulty,
            advantage=advantage,
            disadvantage=disadvantage,
            scale=scale,
        )
    return CheckRequest(
        score=score or 0,
        bonus=bonus,
        rank=rank,
        difficulty=difficulty,
        advantage=advantage,
        disadvantage=disadvantage,
        scale=scale,
        target=target if score is None else None,
        label="opponent",
    )


def _assisted(
    req: CheckRequest,
    helper: Path | None,
    mode: str,
    affinity: str | None,
    proficiency: str | None,
) -> CheckRequest:
    if helper is None:
        return req
    if mode not in ASSIST_MODES:
        raise InvalidInput("--assist-mode", mode, "one of " + ", ".join(ASSIST_MODES))
    chosen: AssistMode = "proficiency" if mode == "proficiency" else "advantage"
    return assist(
        _load_character(helper), req, mode=chosen, affinity=affinity, proficiency=proficiency
    )


def _spec(success: int | None, failure: int | None, max_rolls: int | None) -> ExtendedSpec:
    if success is None or failure is None or max_rolls is None:
        raise InvalidInput(
            "--extended",
            "a new check",
            "--success-threshold, --failure-threshold and --max-rolls to start it",
        )
    try:
        return ExtendedSpec(
            success_threshold=success, failure_threshold=failure, max_rolls=max_rolls
        )
    except ValidationError as exc:
        raise InvalidInput("extended", "thresholds", describe_validation_error(exc)) from None


def _saved_extended(
    path: Path, success: int | None, failure: int | None, max_rolls: int | None
) -> ExtendedCheck:
    """Resume a saved check; any thresholds given must be the saved ones."""
    check = ExtendedCheck.resume(read_json_file(path))
    given = {
        "--success-threshold": (success, check.spec.success_threshold),
        "--failure-threshold": (failure, check.spec.failure_threshold),
        "--max-rolls": (max_rolls, check.spec.max_rolls),
    }
    for flag, (value, saved) in given.items():
        if value is not None and value != saved:
            raise InvalidInput(flag, value, f"the saved {saved} (or leave it out to resume)")
    return check


def _write_atomic(path: Path, value: Any) -> None:
    """Write beside the target, then rename: the file is either the old state or the new."""
    text = json.dumps(to_jsonable(value), indent=2, ensure_ascii=False) + "\n"
    fd, temp = tempfile.mkstemp(dir=path.parent or Path("."), prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _roll_extended(
    path: Path,
    request: Callable[[], CheckRequest],
    request_given: bool,
    spec_args: tuple[int | None, int | None, int | None],
    rolls: int,
    until_done: bool,
    source: RandomSource,
    as_json: bool,
) -> None:
    if path.exists():
        if request_given:
            raise InvalidInput(
                "--extended", str(path), "no check options when resuming: the saved file fixes them"
            )
        check = _saved_extended(path, *spec_args)
    else:
        check = ExtendedCheck(_spec(*spec_args), request())
    if rolls < 1 and not until_done:
        raise InvalidInput("--rolls", rolls, "1 or more (or --until-done)")
    rolled: list[LegacyResult] = []
    wanted = check.spec.max_rolls if until_done else rolls
    for _ in range(wanted):
        if until_done and check.status is not ExtendedStatus.IN_PROGRESS:
            break
        check, result = check.roll(source)
        rolled.append(result)
    _write_atomic(path, check.to_save())
    if as_json:
        emit_json(
            {
                "ruleset": "legacy",
                "extended": check.to_save(),
                "results": [result_json(r) for r in rolled],
                "file": str(path),
            }
        )
    else:
        emit_text(extended_text(check, rolled) + f"\nsaved to {path}")


def _extended_odds(
    path: Path | None,
    req: CheckRequest,
    spec_args: tuple[int | None, int | None, int | None],
    as_json: bool,
) -> None:
    if path is not None:
        check = _saved_extended(path, *spec_args)
        chances = extended_chances(
            check.request, check.spec, check.success, check.failure, check.rolls_made
        )
        spec = check.spec
    else:
        spec = _spec(*spec_args)
        chances = extended_chances(req, spec)
    named = {s.value: p for s, p in chances.items()}
    if as_json:
        emit_json({"ruleset": "legacy", "extended": spec, **probability_fields("ends", named)})
    else:
        emit_text(
            odds_text(
                f"extended check: success {spec.success_threshold}, failure "
                f"{spec.failure_threshold}, {spec.max_rolls} rolls",
                named,
            )
        )


def _opposed_odds(req: CheckRequest, opp: CheckRequest, scale: str, as_json: bool) -> None:
    chances = opposed_chances(req, opp)
    fields: dict[str, Any] = {"ruleset": "legacy", "scale": scale}
    for outcome, p in chances.items():
        fields |= probability_fields(f"p_{outcome.value}", p)
    if as_json:
        emit_json(fields)
    else:
        emit_text(odds_text(f"opposed ({scale})", {o.value: p for o, p in chances.items()}))


def _cancel_chance(lck: int | None, scale: str) -> Fraction:
    return Fraction(0) if lck is None else p_success(luck_request(lck, scale))


# --- character creation -------------------------------------------------------------------


def _interactive_default() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _ask_until_valid(ask: Callable[[], T]) -> T:
    """Prompt again after a clear one-line error, until the answer is valid."""
    while True:
        try:
            return ask()
        except RuleboundError as exc:
            err_console.print(f"error: {exc}", markup=False, style="red")


def _ask_assignment(draft: CreationDraft) -> CreationDraft:
    def ask() -> CreationDraft:
        text = typer.prompt(
            "Assign the rolls: STR=i,DEX=j,... or seven indices (blank: in the order rolled)",
            default="",
            show_default=False,
        ).strip()
        if not text:
            return draft.assign(draft.primary_rolls)
        return draft.assign_order(parse_assignment(text))

    return _ask_until_valid(ask)


def _ask_reroll(draft: CreationDraft, source: RandomSource) -> CreationDraft:
    def ask() -> CreationDraft:
        code = typer.prompt(
            f"Reroll one secondary and keep the better ({', '.join(SECONDARIES)}; blank: none)",
            default="",
            show_default=False,
        ).strip()
        return draft.reroll_secondary(code.upper(), source) if code else draft

    return _ask_until_valid(ask)


def _ask_affinities(count: int) -> tuple[str, ...]:
    def ask() -> tuple[str, ...]:
        text = typer.prompt(
            f"Your soul grants {count} extra affinities (keys, comma-separated)",
            default="",
            show_default=False,
        )
        chosen = tuple(a.strip().lower() for a in text.split(",") if a.strip())
        for key in chosen:
            catalogue().affinity(key)
        if len(chosen) > count:
            raise InvalidInput("affinities", list(chosen), f"at most {count}")
        return chosen

    return _ask_until_valid(ask)


def _create(
    source: RandomSource,
    *,
    name: str,
    race: str,
    origin: str,
    soul: str,
    char_class: str,
    assign_text: str | None,
    reroll: str | None,
    affinities: tuple[str, ...],
    interactive: bool,
) -> tuple[Change, CreationDraft]:
    """Creation step by step; at a prompt each choice waits for the player."""
    draft = CreationDraft.start(name, race, origin, soul, char_class).roll_primaries(source)
    if interactive:
        emit_text(rolls_text(draft.primary_rolls))
    if assign_text is not None:
        draft = draft.assign_order(parse_assignment(assign_text))
    elif interactive:
        draft = _ask_assignment(draft)
    else:
        draft = draft.assign(draft.primary_rolls)
    draft = draft.roll_secondaries(source)
    if reroll is not None:
        draft = draft.reroll_secondary(reroll.upper(), source)
    elif interactive:
        emit_text(secondaries_text(draft.secondaries, draft.secondary_dice))
        draft = _ask_reroll(draft, source)
    extra = catalogue().soul(soul).extra_affinities
    if interactive and extra and not affinities:
        affinities = _ask_affinities(extra)
    change, _ = draft.finish(source, affinities)
    return change, draft
