"""Sheet actions outside any roll: damage, fatigue, death saves, rests and healing.

Each record keeps the sheet before the action, its checked parameters, the scale and
the draws, so its card is rebuilt by running the same package function on the same
faces. Parameters:

- ``take-damage``: ``damage``, ``location``, ``damage_type``, ``critical_hit``,
  ``max_damage``, ``whole_body``, ``ignore`` (natural, physical, magical, soak) and
  ``lethal_critical`` (the GM's deadly critical score, blank for none). Damage past
  the wounds calls the +0 CON save at once.
- ``fatigue``: ``amount`` (past the STM bonus: a +0 STM check or unconscious).
- ``death-save``: ``fate`` ("", "spend": pass this save, "burn": three successes),
  ``important`` (an NPC who may use fate), ``use_stamina`` (a Warlock pays 1d10 STM).
- ``short-rest``: ``points`` (rest points to spend); ``long-rest``; ``heal``: ``amount``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.rulesets.legacy.character import LOCATIONS, Change, Character
from rulebound.rulesets.legacy.checks import LegacyResult, luck_request
from rulebound.rulesets.legacy.combat import bleeding_save, death_save, take_fatigue
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.damage import IGNORABLE, MAX_DAMAGE, apply_damage
from rulebound.rulesets.legacy.odds import death_save_odds, p_success
from rulebound.rulesets.legacy.recovery import heal, long_rest, short_rest
from rulebound.rulesets.legacy.rules import DEATH_SAVE_DIE, SCALES
from rulebound.rulesets.legacy.table_common import (
    bounded,
    changed,
    character,
    choice,
    die_view,
    dump,
    event_lines,
    finished,
    flag,
    pct,
    record_sheet,
    replay,
    text,
    variants,
    whole,
    words,
)
from rulebound.rulesets.table import ActionView, Card, Choice, DieView, Field, Play, Record, Sheet
from rulebound.rulesets.table_support import draws_json

FATE_OPTIONS = ("", "spend", "burn")
LABELS = {
    "take-damage": "Take damage",
    "fatigue": "Take fatigue",
    "death-save": "Death save",
    "short-rest": "Short rest",
    "long-rest": "Long rest",
    "heal": "Heal",
}


def _params(char: Character, action: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The action's parameters, checked and typed (they are stored in the record)."""
    if action == "take-damage":
        lethal = whole(given, "lethal_critical")
        if lethal is not None and lethal < 1:
            raise InvalidInput("lethal_critical", lethal, "a critical score of 1 or more, or blank")
        ignore = words(given, "ignore")
        for key in ignore:
            if key not in IGNORABLE:
                raise InvalidInput("ignore", key, "any of " + ", ".join(IGNORABLE))
        return {
            "damage": bounded(given, "damage", 0, 0, MAX_DAMAGE),
            "location": choice(given, "location", LOCATIONS, "torso"),
            "damage_type": text(given, "damage_type"),
            "critical_hit": flag(given, "critical_hit"),
            "max_damage": flag(given, "max_damage"),
            "whole_body": flag(given, "whole_body"),
            "ignore": list(ignore),
            "lethal_critical": lethal,
        }
    if action == "fatigue":
        return {"amount": bounded(given, "amount", 1, 0, MAX_DAMAGE)}
    if action == "death-save":
        return {
            "fate": choice(given, "fate", FATE_OPTIONS, ""),
            "important": flag(given, "important"),
            "use_stamina": flag(given, "use_stamina"),
        }
    if action == "short-rest":
        return {
            "points": bounded(
                given, "points", char.current_rest_points, 0, char.current_rest_points
            )
        }
    if action == "heal":
        return {"amount": bounded(given, "amount", 1, 0, MAX_DAMAGE)}
    if action == "long-rest":
        return {}
    raise InvalidInput("action", action, "one of " + ", ".join(LABELS))


Ran = tuple[Change, list[str], list[DieView], str, bool | None]
"""(the change, steps, dice, headline, succeeded)."""


def _checks_dice(results: tuple[LegacyResult, ...]) -> list[DieView]:
    return [die_view(d, r.request.label) for r in results for d in r.dice]


def _damage(char: Character, p: Mapping[str, Any], scale: str, source: RandomSource) -> Ran:
    change, report = apply_damage(
        char,
        p["damage"],
        p["location"],
        p["damage_type"],
        critical_hit=p["critical_hit"],
        max_damage=p["max_damage"],
        whole_body=p["whole_body"],
        ignore=p["ignore"],
        lethal_critical=p["lethal_critical"],
    )
    kind = f" {p['damage_type']}" if p["damage_type"] else ""
    where = "the whole body" if p["whole_body"] else p["location"]
    ignoring = f", ignoring {', '.join(p['ignore'])}" if p["ignore"] else ""
    steps = [
        f"{report.damage}{kind} damage to {where}: {report.blocked} blocked by armour and soak"
        f"{ignoring}: {report.through} through",
        f"After resistance or vulnerability: {report.after_resistance}",
    ]
    if report.healed:
        steps.append(f"Born Dead: heals {report.healed} instead")
        return change, steps, [], f"heals {report.healed} (Born Dead)", None
    after = change.character
    steps.append(
        f"Wounds {char.current_wounds} -> {after.current_wounds}"
        + (f"; {report.excess} past the wounds" if report.excess else "")
    )
    added = ", ".join(f"{loc} +{n}" for loc, n in report.critical.items()) or "none"
    steps.append(f"Critical damage: {added}")
    headline = f"loses {report.wounds_lost} wounds, critical damage {added}"
    if report.killed:
        return change, steps, [], headline + ": killed outright", False
    if not report.con_save_required:
        return change, steps, [], headline, None
    saved = bleeding_save(after, source, scale)
    result = saved.results[0]
    steps.append(f"+0 CON save: {result.outcome.value}")
    both = Change(saved.character, (*change.events, *saved.events), saved.results)
    verdict = "CON save passed" if result.succeeded else "CON save failed: bleeding out"
    return both, steps, _checks_dice(saved.results), f"{headline}; {verdict}", result.succeeded


def _death_save(char: Character, p: Mapping[str, Any], scale: str, source: RandomSource) -> Ran:
    change, save = death_save(
        char,
        source,
        spend_fate=p["fate"] == "spend",
        burn_fate=p["fate"] == "burn",
        important=p["important"],
        use_stamina=p["use_stamina"],
        scale=scale,
    )
    after = change.character
    dice = [] if save.face is None else [DieView("death save d20", DEATH_SAVE_DIE, save.face)]
    dice += _checks_dice(change.results)
    how = f"d20 {save.face} vs 10" if save.face is not None else f"fate {p['fate']}"
    steps = [
        f"{how}: +{save.successes} successes, +{save.failures} failures",
        f"Tally {after.death_successes} successes, {after.death_failures} failures",
    ]
    state = "dead" if after.dead else "stable" if not after.bleeding else "still bleeding out"
    return change, steps, dice, f"death save: {state}", None if after.bleeding else not after.dead


def _simple(
    fn: Callable[[Character, Mapping[str, Any]], Change], what: str
) -> Callable[[Character, Mapping[str, Any], str, RandomSource], Ran]:
    def run(char: Character, p: Mapping[str, Any], scale: str, source: RandomSource) -> Ran:
        change = fn(char, p)
        after = change.character
        steps = [
            f"Wounds {char.current_wounds} -> {after.current_wounds}",
            f"Rest points {char.current_rest_points} -> {after.current_rest_points}",
            f"Fatigue {char.fatigue_taken} -> {after.fatigue_taken}",
        ]
        return change, steps, [], what, None

    return run


def _fatigue(char: Character, p: Mapping[str, Any], scale: str, source: RandomSource) -> Ran:
    change = take_fatigue(char, p["amount"], source, scale)
    after = change.character
    steps = [
        f"Fatigue {char.fatigue_taken} + {p['amount']} -> {after.fatigue_taken} "
        f"(capacity {char.fatigue_capacity})"
    ]
    if change.results:
        steps.append(f"+0 STM check: {change.results[0].outcome.value}")
    headline = "unconscious" if after.unconscious and not char.unconscious else "fatigued"
    passed = change.results[0].succeeded if change.results else None
    return change, steps, _checks_dice(change.results), headline, passed


RUNS: dict[str, Callable[[Character, Mapping[str, Any], str, RandomSource], Ran]] = {
    "take-damage": _damage,
    "fatigue": _fatigue,
    "death-save": _death_save,
    "short-rest": _simple(lambda c, p: short_rest(c, p["points"]), "short rest"),
    "long-rest": _simple(lambda c, p: long_rest(c), "long rest"),
    "heal": _simple(lambda c, p: heal(c, p["amount"]), "healed"),
}


def _play(record: Record, source: RandomSource) -> tuple[Change, Card, Character]:
    action = str(record.get("kind"))
    char = record_sheet(record)
    params = record.get("params")
    if not isinstance(params, Mapping):
        raise InvalidInput("record.params", params, "the action's parameters")
    scale = str(record.get("scale") or "")
    if scale not in SCALES:
        raise InvalidInput("record.scale", scale, "one of " + ", ".join(SCALES))
    p = _params(char, action, params)
    change, steps, dice, headline, succeeded = RUNS[action](char, p, scale, source)
    card = Card(
        title=f"{char.name}: {LABELS[action]}",
        outcome=f"{char.name} {headline}",
        succeeded=succeeded,
        dice=tuple(dice),
        steps=tuple(steps),
        details=tuple(event_lines(change.events)),
    )
    return change, card, char


def sheet_act(sheet: Sheet, action: str, params: Mapping[str, Any], source: RandomSource) -> Play:
    if action not in RUNS:
        raise InvalidInput("action", action, "one of " + ", ".join(LABELS))
    char = character(sheet)
    scale, _ = variants(params)
    record: Record = {
        "kind": action,
        "sheet": dump(char),
        "params": _params(char, action, params),
        "scale": scale,
    }
    rec = RecordingSource(source)
    change, card, _ = _play(record, rec)
    record["draws"] = draws_json(rec.draws)
    summary = card.outcome.removeprefix(f"{char.name} ")  # the table names the character
    return Play(record, card, changed(char, change.character), summary)


def sheet_card(record: Record) -> Card:
    source = replay(record)
    _, card, _ = _play(record, source)
    finished(source, record)
    return card


def _death_advice(char: Character, scale: str) -> tuple[str, ...]:
    soul = catalogue().soul(char.soul)
    cancel = Fraction(0)
    if "cancel-critical-failure" in soul.powers:
        cancel = p_success(luck_request(char.lck, scale))
    odds = death_save_odds(char.death_successes, char.death_failures, cancel)
    return (
        f"From {char.death_successes} successes and {char.death_failures} failures: stable "
        f"{pct(odds.p_stable)}, dead {pct(odds.p_dead)}, "
        f"{float(odds.expected_rolls):.2f} saves on average",
        f"Fate {char.fate}, LCK {char.lck}: spend passes one save, burn counts three",
    )


def sheet_actions(sheet: Sheet, scale: str) -> tuple[ActionView, ...]:
    char = character(sheet)
    if char.dead:
        return ()
    locations = tuple(Choice(loc, loc) for loc in LOCATIONS)
    ignorable = tuple(Choice(k, k) for k in IGNORABLE)
    views = [
        ActionView(
            "take-damage",
            LABELS["take-damage"],
            (
                Field("damage", "Damage", "int", default=0, minimum=0, maximum=MAX_DAMAGE),
                Field("location", "Location hit", "select", locations, default="torso"),
                Field("damage_type", "Damage type", "text", default="", help="e.g. fire, poison"),
                Field("critical_hit", "Critical hit", "bool", default=False),
                Field("max_damage", "Maximum damage rolled", "bool", default=False),
                Field("whole_body", "Whole-body attack", "bool", default=False),
                Field("ignore", "Ignores", "multiselect", ignorable, default=()),
                Field("lethal_critical", "Deadly critical score (GM's chart)", "int", minimum=1),
            ),
            (f"Wounds {char.current_wounds} / {char.max_wounds}, soak {char.soak}",),
        ),
        ActionView(
            "fatigue",
            LABELS["fatigue"],
            (Field("amount", "Fatigue", "int", default=1, minimum=0),),
            (f"Fatigue {char.fatigue_taken} / {char.fatigue_capacity}",),
        ),
    ]
    if char.bleeding:
        fate = (
            Choice("", "roll the save"),
            Choice("spend", "spend a fate point: pass it"),
            Choice("burn", "burn a fate point: three successes"),
        )
        fields = [Field("fate", "Fate (before the roll)", "select", fate, default="")]
        if not char.is_pc:
            fields.append(
                Field("important", "An important NPC (may use fate)", "bool", default=False)
            )
        if catalogue().soul(char.soul).stamina_for_fate:
            fields.append(
                Field(
                    "use_stamina",
                    "Pay 1d10 STM instead of spending (Warlock)",
                    "bool",
                    default=False,
                )
            )
        views.append(
            ActionView(
                "death-save", LABELS["death-save"], tuple(fields), _death_advice(char, scale)
            )
        )
    rest = f"Rest points {char.current_rest_points} / {char.max_rest_points}"
    views += [
        ActionView(
            "short-rest",
            LABELS["short-rest"],
            (
                Field(
                    "points",
                    "Rest points to spend",
                    "int",
                    default=char.current_rest_points,
                    minimum=0,
                    maximum=char.current_rest_points,
                ),
            ),
            (rest, "Fatigue is fully restored"),
        ),
        ActionView(
            "long-rest",
            LABELS["long-rest"],
            (),
            (rest + ": the rest are spent, then all restored",),
        ),
        ActionView(
            "heal",
            LABELS["heal"],
            (Field("amount", "Wounds healed", "int", default=1, minimum=0),),
            ("Healing above 0 wounds ends bleeding out",),
        ),
    ]
    return tuple(views)
