"""Plain-text views of Empty Reach results for the terminal."""

from __future__ import annotations

from collections.abc import Sequence

from rulebound.core.trace import DieRecord, DieState
from rulebound.rulesets.empty_reach.advisor import PushOption
from rulebound.rulesets.empty_reach.roll import EmptyReachResult


def _die(index: int, die: DieRecord) -> str:
    marks = ", ".join(die.marks) if die.marks else "-"
    history = f" (was {', '.join(map(str, die.history))})" if die.history else ""
    state = "" if die.state is DieState.ROLLED else f" [{die.state.value}]"
    return f"  [{index}] {die.role:<9} {die.label:<4} {die.face:>2}  {marks}{history}{state}"


def render_result(result: EmptyReachResult) -> str:
    check = result.check
    lines = []
    title = check.request.skill or "roll"
    if check.attribute:
        title += f" ({check.attribute})"
    lines.append(f"The Empty Reach: {title}")
    if check.modifiers:
        lines.append("Modifiers:")
        lines += [f"  {m.describe()}" for m in check.modifiers]
        lines.append(f"  total: {check.net:+d}")
    if check.steps:
        lines.append(f"Steps: {check.start.describe()} -> {check.pool.describe()}")
        for step in check.steps:
            lines.append(f"  {'+' if step.direction > 0 else '-'}1: {step.description}")
    lines += [f"Note: {note}" for note in check.notes]
    lines.append("Dice:")
    lines += [_die(i, d) for i, d in enumerate(result.dice)]
    lines.append(
        f"Result: {result.headline}" + (f", {result.banes} bane(s)" if result.banes else "")
    )
    if result.costs is not None:
        lines.append(f"Costs: {result.costs.describe()}")
        for gear_check in result.costs.gear_checks:
            lines.append(f"  gear check d6: {gear_check.face} ({', '.join(gear_check.marks)})")
    return "\n".join(lines)


def _selection(option: PushOption) -> str:
    return (
        "don't push" if not option.selection else "reroll " + ",".join(map(str, option.selection))
    )


def render_push_options(options: Sequence[PushOption], recommended: PushOption | None) -> str:
    if not options:
        return "No push left for this roll."
    lines = ["Push options (exact odds after the push):"]
    columns = ("P(success)", 10), ("E[succ]", 8), ("P(bane)", 8), ("E[cost]", 8), ("P(gear-1)", 9)
    lines.append(f"  {'choice':<16} " + " ".join(f"{name:>{width}}" for name, width in columns))
    for option in options:
        star = " *" if option == recommended else ""
        lines.append(
            f"  {_selection(option):<16} {float(option.p_success):>10.1%} "
            f"{float(option.expected_successes):>8.2f} {float(option.p_bane):>8.1%} "
            f"{float(option.expected_points):>8.2f} {float(option.p_gear_loss):>9.1%}{star}"
        )
    if recommended is not None:
        lines.append(f"  * recommended to succeed: {_selection(recommended)}")
    return "\n".join(lines)
