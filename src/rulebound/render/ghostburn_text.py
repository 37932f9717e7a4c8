"""Plain-text views of Ghostburn results and odds for the terminal.

The text is built from the result alone, so anything the reader sees (each
candidate bonus, the substitution, the DL shift) is in the record itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.odds import LuckAdvice, LuckOdds
from rulebound.rulesets.ghostburn.roll import GhostburnResult

BAR_WIDTH = 30


def result_text(result: GhostburnResult) -> str:
    request = result.request
    lines = [_title(result)]
    faces = " + ".join(str(die.face) for die in result.dice)
    lines.append(f"Dice      2d10: {faces} = {result.dice_sum}")
    for line in result.bonuses:
        mark = "applied" if line.applied else "not applied"
        note = f" ({line.note})" if line.note else ""
        lines.append(f"  {line.kind.value:<8}{line.source:<20}{line.value:+d}  {mark}{note}")
    if result.luck:
        lines.append(f"  luck    {result.luck.source:<20}{result.luck.value:+d}  applied")
    lines.append(f"DL        {difficulty_text(request.difficulty)}")
    lines.append(f"Result    {result.total}")
    lines.append(f"Band      {result.band.label}: {result.band.outcome}")
    return "\n".join(lines)


def _title(result: GhostburnResult) -> str:
    request = result.request
    parts = ["Ghostburn check"]
    if request.roller:
        parts.append(request.roller)
    if request.skill:
        parts.append(request.skill)
    if request.trick and request.trick.key is None:
        parts.append("improvised trick")
    elif request.trick:
        parts.append(f"{request.trick.kind} trick {request.trick.name}")
    if result.parent is not None:
        parts.append("after spending a Luck Point")
    return ", ".join(parts)


def difficulty_text(difficulty: Difficulty) -> str:
    text = f"{difficulty.label}, {difficulty.source}"
    if difficulty.shift:
        text += f", shifted {difficulty.shift:+d} level(s) by the GM from {difficulty.base}"
    return text


def luck_advice_text(result: GhostburnResult, advice: LuckAdvice, bonus: int, points: int) -> str:
    label = result.request.chart.band(advice.band_with_luck).label
    verb = "lift it to" if advice.changes_outcome else "leave it at"
    return (
        f"Luck      {points} point(s) left; spending one (+{bonus}) would {verb} {label}"
        f" (result {advice.total_with_luck})"
    )


def odds_text(
    title: str,
    bands: Mapping[str, Fraction],
    labels: Mapping[str, str],
    success: Fraction,
    luck: LuckOdds | None = None,
) -> str:
    lines = [title, f"  reach the DL  {_percent(success)}  ({_fraction(success)})"]
    for key, p in bands.items():
        bar = "█" * round(float(p) * BAR_WIDTH)
        lines.append(f"  {labels[key]:<12}  {_percent(p)}  {bar:<{BAR_WIDTH}}  {_fraction(p)}")
    if luck is not None:
        helps = _percent(luck.p_luck_helps).strip()
        lines.append(f"Spending a Luck Point only when it lifts the band (it does in {helps}):")
        lines.append(f"  reach the DL  {_percent(luck.p_success_with_luck)}")
        for key, p in luck.bands_with_luck.items():
            lines.append(f"  {labels[key]:<12}  {_percent(p)}  {_fraction(p)}")
    return "\n".join(lines)


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:6.2f}%"


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"
