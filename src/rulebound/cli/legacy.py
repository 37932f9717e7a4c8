"""Legacy Machines and Magic: ``roll legacy``, ``odds legacy`` and ``character new legacy``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from rulebound.cli.common import (
    JSON_HELP,
    SEED_HELP,
    emit_json,
    emit_text,
    read_json_file,
    rule_errors,
    source_for,
    write_json_file,
)
from rulebound.core.canonical import probability_fields
from rulebound.render.json_view import result_json
from rulebound.render.legacy_text import character_text, odds_text, result_text
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import CheckRequest, roll_check
from rulebound.rulesets.legacy.creation import create_character
from rulebound.rulesets.legacy.odds import check_chances, death_save_odds
from rulebound.rulesets.legacy.rules import DEFAULT_SCALE, Outcome


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
) -> CheckRequest:
    if character is not None:
        char = Character.model_validate(read_json_file(character))
        return char.check(
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
    ) -> None:
        """Roll a Legacy check from raw numbers or a character file."""
        with rule_errors():
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
            )
            result = roll_check(req, source_for(seed))
        emit_json(result_json(result)) if as_json else emit_text(result_text(result))

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
    ) -> None:
        """Exact odds of each outcome, or of death saves."""
        with rule_errors():
            if death_saves:
                ds = death_save_odds()
                out: dict[str, Any] = {
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
