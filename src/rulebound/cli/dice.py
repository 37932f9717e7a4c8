"""``rulebound dice EXPR``: roll free dice (``4d6kh3``, ``1d20+5 adv``, ``10d10>=7``) with
their exact odds; ``--odds`` prints the whole distribution instead of rolling.

The notation is docs/notation.md. ``--json`` prints one object whose ``distribution`` maps
each total (as a string) to its exact probability as ``"p/q"`` (null, with ``not_computed``
saying why, when the odds would cost more than the caps allow).
"""

from __future__ import annotations

import re
from typing import Any

import click

from rulebound.cli.output import JSON_HELP, SEED_HELP, emit_json, emit_text, rule_errors

NEGATIVE = re.compile(r"-(?!-|h$).+")
"""A word that starts with one minus and is not ``-h``: dice ("-1d6+4", "-4d6kh3"), never an
option (this command has no short options but ``-h``)."""


class DiceCommand(click.Command):
    """Reads a word that starts with a minus as dice: click would read "-4d6kh3" as options
    letter by letter, and its "h" as ``-h``. A leading space keeps it a word; the parser
    skips spaces. After ``--`` every word is dice already."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        end = args.index("--") if "--" in args else len(args)
        valued = {
            o for p in self.params if isinstance(p, click.Option) and not p.is_flag for o in p.opts
        }  # an option's value ("--seed -1") is left to the option
        kept = [
            f" {a}" if NEGATIVE.fullmatch(a) and (n == 0 or args[n - 1] not in valued) else a
            for n, a in enumerate(args[:end])
        ]
        return super().parse_args(ctx, [*kept, *args[end:]])


@click.command("dice", cls=DiceCommand)
@click.argument("expression", nargs=-1, required=True, metavar="EXPR")
@click.option("--seed", type=int, help=SEED_HELP)
@click.option("--odds", "odds_only", is_flag=True, help="Print the exact distribution; no roll.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def command(expression: tuple[str, ...], seed: int | None, odds_only: bool, as_json: bool) -> None:
    """Roll free dice, e.g. rulebound dice 4d6kh3, with the exact odds."""
    from rulebound.core.dice import NotComputed, odds, parse, roll, roll_lines
    from rulebound.core.random_source import SeededSource, SystemSource

    with rule_errors(flags={"dice": "EXPR"}):
        parsed = parse(" ".join(expression), "dice")
        rolled = None
        if not odds_only:
            source = SystemSource() if seed is None else SeededSource(seed)
            rolled = roll(parsed, source)
        found = odds(parsed)
    if as_json:
        emit_json(_json(parsed.text(), rolled, found))
        return
    if rolled is not None:
        for line in roll_lines(rolled):
            emit_text(line)
        if rolled.expression.comment:
            emit_text(f"  ({rolled.expression.comment})")
    emit_text(found.line())
    if odds_only and not isinstance(found, NotComputed):
        emit_text(f"{'total':>8}  {'chance':>10}  {'or more':>10}  exact")
        tail = found.denominator
        for total, weight in found.items():
            p = weight / found.denominator
            emit_text(
                f"{total:>8}  {p:>10.4%}  {tail / found.denominator:>10.4%}  "
                f"{_fraction(weight, found.denominator)}"
            )
            tail -= weight


def _fraction(numerator: int, denominator: int) -> str:
    from math import gcd

    divisor = gcd(numerator, denominator)
    return f"{numerator // divisor}/{denominator // divisor}"


def _json(text: str, rolled: Any, found: Any) -> dict[str, Any]:
    from rulebound.core.dice import NotComputed, roll_lines

    out: dict[str, Any] = {"expression": text}
    if rolled is not None:
        out["total"] = rolled.total
        out["totals"] = list(rolled.totals)
        out["rolls"] = list(roll_lines(rolled))
        out["dice"] = [
            {"label": d.label, "faces": list(d.faces), "value": d.value, "marks": list(d.marks)}
            for d in rolled.dice
        ]
    if isinstance(found, NotComputed):
        out |= {"distribution": None, "not_computed": found.reason, "odds": found.line()}
        return out
    out |= {
        "kind": found.kind,
        "odds": found.line(),
        "mean": _fraction(*found.mean().as_integer_ratio()),
        "notes": list(found.notes),
        "distribution": {
            str(total): _fraction(weight, found.denominator) for total, weight in found.items()
        },
    }
    return out
