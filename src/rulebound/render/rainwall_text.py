"""Plain-text views of Rainwall rolls, odds, alternatives and character sheets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rulebound.rulesets.rainwall.bonus import Alternative
from rulebound.rulesets.rainwall.character import Character
from rulebound.rulesets.rainwall.content import Catalogue
from rulebound.rulesets.rainwall.odds import RainwallOdds
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.roll import RainwallResult

BAR_WIDTH = 30


def request_line(request: RainwallRequest) -> str:
    skill = (
        f"{request.skill_name} {request.skill}" if request.skill_name else f"skill {request.skill}"
    )
    trait = f"{request.trait_name} " if request.trait_name else ""
    bonus = f", bonus +{request.bonus}" if request.bonus else ""
    return f"Rainwall: {trait}{request.dice} dice, {skill}, DR {request.dr}{bonus}"


def die_line(result: RainwallResult, index: int) -> str:
    die, spent = result.dice[index], result.allocation[index]
    move = f"{die.face} -> {die.face - spent} (bonus {spent})" if spent else str(die.face)
    return f"  {die.label:<4}{move:<20}{die.marks[-1]}"


def result_text(result: RainwallResult) -> str:
    lines = [request_line(result.request)]
    if result.parent is not None:
        lines.append(f"Reallocated by hand; the optimal spend gave: {result.parent.headline}")
    lines.append("Dice: " + " ".join(str(face) for face in result.faces))
    lines.extend(die_line(result, i) for i in range(len(result.dice)))
    unspent = f", {result.unspent} unspent" if result.unspent else ""
    spent = result.request.bonus - result.unspent
    lines.append(
        f"Successes: {result.raw_successes} rolled, {result.successes} after "
        f"{spent} bonus points ({result.allocation_kind.value}{unspent})"
    )
    lines.append(f"IoS: {result.ios}")
    lines.append(f"Degree: {result.degree.label}")
    return "\n".join(lines)


def allocation_text(allocation: Sequence[int], faces: Sequence[int]) -> str:
    moves = [
        f"d{n}: {face} -> {face - spent}"
        for n, (face, spent) in enumerate(zip(faces, allocation, strict=True), start=1)
        if spent
    ]
    return ", ".join(moves) or "no points spent"


def alternatives_text(
    alternatives: Sequence[Alternative], faces: Sequence[int], limit: int = 8
) -> str:
    lines = ["Bonus allocations (best first):"]
    for alt in alternatives[:limit]:
        lines.append(
            f"  {alt.successes} successes, IoS {alt.ios:>2}, {alt.degree.label:<17} "
            f"{alt.spent} pts: {allocation_text(alt.allocation, faces)}"
        )
    if len(alternatives) > limit:
        lines.append(f"  ... and {len(alternatives) - limit} more")
    return "\n".join(lines)


def bars(title: str, probabilities: Mapping[str, Fraction]) -> list[str]:
    """One line per outcome: label, percentage and a bar scaled to the largest."""
    top = max(probabilities.values(), default=Fraction(0)) or Fraction(1)
    width = max((len(label) for label in probabilities), default=0)
    lines = [title]
    for label, p in probabilities.items():
        bar = "#" * round(BAR_WIDTH * p / top)
        lines.append(f"  {label:<{width}}  {float(p):8.3%}  {bar}")
    return lines


def odds_text(odds: RainwallOdds) -> str:
    lines = [request_line(odds.request)]
    lines.append(f"P(success) = {float(odds.p_success):.3%}  (exactly {odds.p_success})")
    lines.extend(bars("Degrees:", {d.label: p for d, p in odds.degrees.items()}))
    lines.extend(bars("Successes after the optimal spend:", _by_str(odds.successes)))
    lines.extend(bars("IoS:", _by_str(odds.ios)))
    return "\n".join(lines)


def _by_str(values: Mapping[int, Fraction]) -> dict[str, Fraction]:
    return {str(k): p for k, p in values.items()}


def character_text(character: Character, catalogue: Catalogue) -> str:
    lines = [character.name, "Traits:"]
    lines.extend(f"  {name:<16}{score}" for name, score in character.traits.items())
    lines.append("Skills (dice from the trait, success at or under the score):")
    for name, skill in character.skills.items():
        trait = catalogue.skills[name].trait
        bonus = f" +{skill.bonus}" if skill.bonus else ""
        dice = character.traits[trait]
        lines.append(f"  {name:<16}{skill.score}{bonus:<4} {trait} ({dice} dice)")
    return "\n".join(lines)
