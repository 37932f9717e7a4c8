"""The souls' own powers: each checks that the soul grants it, and returns the new state.

Tortured (reroll failed SAN tests), Dwarf (luck saves a failing machine), Dark Soul
(a luck check curses a target), Dragon Soul (absorb a slain foe's racial soul for
1d5 days), Orc (burn fate to alter reality), Halfling (a LCK save cancels a
critical failure) and Fey (spend fate to befriend an animal). Effects that the text
leaves to the game master are events for the GM; see docs/rulings/legacy.md. The souls'
luck checks are unmodified LCK tests: a curse neither touches them nor is spent (ruling 69).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.character import Change, Character, Event
from rulebound.rulesets.legacy.checks import (
    CheckRequest,
    LegacyResult,
    follow_up,
    luck_request,
    reroll,
)
from rulebound.rulesets.legacy.content import Catalogue, Soul, SoulPower, catalogue
from rulebound.rulesets.legacy.fate import burn, spend_fate
from rulebound.rulesets.legacy.rules import (
    DEFAULT_SCALE,
    Outcome,
    classify_without_critical_failure,
)
from rulebound.rulesets.legacy.versions import RULES, Rules


def _granting(char: Character, power: SoulPower, cat: Catalogue) -> Soul:
    soul = cat.soul(char.soul)
    if power not in soul.powers:
        raise RuleViolation(f"soul power ({power})", f"{char.name}'s {soul.name} does not grant it")
    return soul


def _acting(char: Character, rule: str) -> None:
    if not char.can_act:
        state = "dead" if char.dead else "unconscious"
        raise RuleViolation(rule, f"{char.name} is {state} and can make no actions")


def san_test(
    char: Character, request: CheckRequest, source: RandomSource, cat: Catalogue | None = None
) -> Change:
    """A SAN test; a Tortured Soul rerolls a failed one once, and the reroll stands."""
    c = cat or catalogue()
    first = roll_as(char, request, source)
    result = first.results[0]
    soul = c.soul(char.soul)
    if result.succeeded or "reroll-failed-san-tests" not in soul.powers or not result.dice:
        return first
    again = reroll(result, source, note=f"{soul.name}: failed SAN test rerolled")
    event = Event("SAN test rerolled", f"{soul.name}: {result.outcome.value} rerolled")
    return Change(first.character, (*first.events, event), (result, again))


def machine_luck(
    char: Character, source: RandomSource, scale: str = DEFAULT_SCALE, cat: Catalogue | None = None
) -> Change:
    """A machine is failing through the character's doing: a passed luck check stops it."""
    soul = _granting(char, "machine-luck", cat or catalogue())
    request = luck_request(char.lck, scale, f"{soul.name} soul: machine luck")
    check = roll_as(char, request, source, unmodified=True)
    held = check.results[0].succeeded
    event = Event("machine", "the machine does not fail" if held else "the machine fails")
    return Change(check.character, (*check.events, event), check.results)


@dataclass(frozen=True, slots=True)
class CurseOutcome:
    """The caster's change (the luck check), and the target as it now stands (if given)."""

    caster: Change
    target: Character | None
    landed: bool


def dark_curse(
    caster: Character,
    source: RandomSource,
    target: Character | None = None,
    scale: str = DEFAULT_SCALE,
    cat: Catalogue | None = None,
) -> CurseOutcome:
    """As an action, a luck check; on a pass the target has disadvantage on its next roll."""
    soul = _granting(caster, "dark-curse", cat or catalogue())
    _acting(caster, soul.name)
    request = luck_request(caster.lck, scale, f"{soul.name} curse")
    check = roll_as(caster, request, source, unmodified=True)
    landed = check.results[0].succeeded
    cursed = target
    if landed and target is not None:
        cursed = target.model_copy(update={"cursed": True})
    who = target.name if target is not None else "the target"
    event = Event("curse", f"{who} cursed: disadvantage on the next roll" if landed else "no curse")
    return CurseOutcome(
        Change(check.character, (*check.events, event), check.results), cursed, landed
    )


def absorb_soul(
    char: Character,
    slain_soul: str,
    source: RandomSource,
    cat: Catalogue | None = None,
) -> Change:
    """Spend a fate point to hold a slain foe's racial soul for 1d5 days (one at a time)."""
    c = cat or catalogue()
    soul = c.soul(char.soul)
    if soul.absorb_days is None:
        raise RuleViolation(
            "soul power (absorb-soul)", f"{char.name}'s {soul.name} does not grant it"
        )
    _acting(char, soul.name)
    taken = c.soul(slain_soul)
    if taken.kind != "racial":
        raise RuleViolation(soul.name, f"racial souls only; {taken.name} is an anomaly")
    if char.absorbed_soul is not None:
        raise RuleViolation(
            soul.name,
            f"one absorbed soul at a time; {char.absorbed_soul} is held "
            f"{char.absorbed_days} more days",
        )
    paid = spend_fate(char, source, purpose=f"{soul.name}: absorb a {taken.name} soul", cat=c)
    rec = RecordingSource(source)
    expr = soul.absorb_days
    days = sum(rec.draw(expr.sides) for _ in range(expr.dice)) + expr.plus
    after = paid.character.model_copy(update={"absorbed_soul": taken.key, "absorbed_days": days})
    event = Event(
        "soul absorbed",
        f"{taken.name} soul held for {days} days",
        days,
        Provenance.of(rec.describe(), rec.draws),
    )
    return Change(after, (*paid.events, event), paid.results)


def pass_days(char: Character, days: int) -> Change:
    """Days go by: an absorbed soul's time runs down, and a once-a-day power is ready again."""
    if days < 0:
        raise InvalidInput("days", days, "0 or more days")
    if days == 0:
        return Change(char)
    left = max(char.absorbed_days - days, 0)
    held = char.absorbed_soul if left else None
    events = [Event("days pass", f"{days} days", days)]
    if char.absorbed_soul is not None and held is None:
        events.append(Event("soul released", f"the {char.absorbed_soul} soul departs"))
    after = char.model_copy(
        update={"absorbed_days": left, "absorbed_soul": held, "daily_heal_used": False}
    )
    return Change(after, tuple(events))


def alter_reality(
    char: Character, source: RandomSource, change: str, cat: Catalogue | None = None
) -> Change:
    """Burn a fate point to alter reality in some minor way (the GM decides what happens)."""
    c = cat or catalogue()
    soul = _granting(char, "alter-reality", c)
    burnt = burn(char, source, f"{soul.name} soul: {change}", c)
    event = Event("reality altered", f"{change} (Gameaster's discretion)")
    return Change(burnt.character, (*burnt.events, event), burnt.results)


def cancel_critical_failure(
    char: Character,
    result: LegacyResult,
    source: RandomSource,
    cat: Catalogue | None = None,
    rules: Rules = RULES,
) -> tuple[Change, LegacyResult]:
    """A LCK save after a critical failure; if it passes, the roll is judged without it.
    ``rules``: those of the record it replays (an unmodified test: ``roll_as``)."""
    soul = _granting(char, "cancel-critical-failure", cat or catalogue())
    if result.outcome is not Outcome.CRITICAL_FAILURE:
        raise InvalidInput("outcome", result.outcome.value, "a critical failure to cancel")
    request = luck_request(char.lck, result.request.scale, f"{soul.name} LCK save")
    save = roll_as(char, request, source, unmodified=True, rules=rules)
    if not save.results[0].succeeded:
        event = Event("critical failure stands", "the LCK save failed")
        return Change(save.character, (*save.events, event), save.results), result
    outcome = classify_without_critical_failure(result.face, result.thresholds)
    judged = follow_up(result, outcome, f"{soul.name}: critical failure ignored")
    event = Event("critical failure ignored", f"judged as {outcome.value}")
    return Change(save.character, (*save.events, event), (*save.results, judged)), judged


def befriend_animal(
    char: Character,
    source: RandomSource,
    animal: str,
    *,
    use_stamina: bool = False,
    cat: Catalogue | None = None,
) -> Change:
    """Pay a fate point (God-Fragment and Warlock rules apply) and befriend ``animal``."""
    c = cat or catalogue()
    soul = _granting(char, "befriend-animal", c)
    _acting(char, soul.name)
    paid = spend_fate(char, source, use_stamina=use_stamina, cat=c)
    event = Event("animal befriended", f"{soul.name}: {animal}")
    return Change(paid.character, (*paid.events, event), paid.results)
