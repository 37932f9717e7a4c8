"""Plain-text views of Legacy results and odds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rulebound.rulesets.legacy.advice import FateAdvice
from rulebound.rulesets.legacy.character import Character, Event
from rulebound.rulesets.legacy.checks import LegacyResult
from rulebound.rulesets.legacy.extended import ExtendedCheck
from rulebound.rulesets.legacy.opposed import OpposedResult


def result_text(result: LegacyResult) -> str:
    t = result.thresholds
    dice = ", ".join(f"{d.face}{' (' + d.marks[0] + ')' if d.marks else ''}" for d in result.dice)
    mods = "; ".join(m.describe() for m in result.modifiers) or "none"
    extra = "".join(f"\n{line}" for line in (assists_text(result), result.note) if line)
    return (
        f"{result.request.label or 'check'}: d{t.die} [{dice}] vs {t.target} "
        f"(critical at {max(t.crit_target, 1)} or less; modifiers: {mods})\n"
        f"{result.headline}, margin {result.margin:+d}{extra}"
    )


def fate_advice_text(advice: FateAdvice) -> str:
    def pct(p: Fraction) -> str:
        return f"{float(p):.2%} ({p.numerator}/{p.denominator})"

    verdict = "worth it" if advice.worth_it else "not worth it"
    return (
        f"{advice.action.capitalize()}: better outcome {pct(advice.p_better)}, "
        f"worse {pct(advice.p_worse)}, success after it {pct(advice.p_success)} ({verdict})"
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


def assists_text(result: LegacyResult) -> str:
    helped = [f"{a.helper} ({a.mode}, {a.relevant})" for a in result.request.assists]
    return f"assisted by {', '.join(helped)}; the helper does not roll" if helped else ""


def opposed_text(result: OpposedResult) -> str:
    return (
        f"actor    {result_text(result.actor)}\n"
        f"opponent {result_text(result.opponent)}\n"
        f"{result.headline}"
    )


def extended_text(check: ExtendedCheck, rolled: Sequence[LegacyResult]) -> str:
    spec = check.spec
    lines = [result_text(r) for r in rolled]
    lines.append(
        f"extended: success {check.success}/{spec.success_threshold}, "
        f"failure {check.failure}/{spec.failure_threshold}, "
        f"rolls {check.rolls_made}/{spec.max_rolls}: {check.status.value}"
    )
    return "\n".join(lines)


def rolls_text(rolls: Sequence[int]) -> str:
    return "rolled 2d10 x7: " + "  ".join(f"[{i}] {v}" for i, v in enumerate(rolls))


def secondaries_text(values: Mapping[str, int], dice: Mapping[str, Sequence[int]]) -> str:
    return "secondaries: " + "  ".join(
        f"{code} {values[code]} ({'+'.join(str(d) for d in dice[code]) or 'no dice'})"
        for code in values
    )


def events_text(events: Sequence[Event]) -> str:
    return "\n".join(f"  {e.kind}: {e.detail}" for e in events)
