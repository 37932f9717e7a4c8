"""Plain-text views of Legacy results and odds."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import LegacyResult


def result_text(result: LegacyResult) -> str:
    t = result.thresholds
    dice = ", ".join(f"{d.face}{' (' + d.marks[0] + ')' if d.marks else ''}" for d in result.dice)
    mods = "; ".join(m.describe() for m in result.modifiers) or "none"
    return (
        f"{result.request.label or 'check'}: d{t.die} [{dice}] vs {t.target} "
        f"(critical at {max(t.crit_target, 1)} or less; modifiers: {mods})\n"
        f"{result.headline}, margin {result.margin:+d}"
    )


def bar(p: Fraction, width: int = 30) -> str:
    return "#" * round(float(p) * width)


def odds_text(title: str, chances: Mapping[str, Fraction]) -> str:
    lines = [title]
    for name, p in chances.items():
        lines.append(f"  {name:<18} {float(p):7.2%}  {bar(p)}")
    return "\n".join(lines)


def character_text(char: Character) -> str:
    pairs = "  ".join(f"{c} {v}" for c, v in char.scores.items())
    return (
        f"{char.name}: {char.race}, {char.origin}, soul {char.soul}\n{pairs}\n"
        f"LCK {char.lck}  fate {char.fate}  REN {char.ren}  SAN {char.san}  COR {char.cor}"
    )
