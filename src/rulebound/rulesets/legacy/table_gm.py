"""Game-master tools over several sheets: initiative with surprise, and extended checks.

``initiative`` takes ``combatants`` and ``surprised`` (character ids or names, as a
list or comma-separated; blank ``combatants`` means every character not dead). The
aware roll INI checks; the surprised make a Difficult (-2) INI save. The surprise
round runs the aware in order, then the surprised who passed (by their save's
degrees); those who failed stay surprised until their turn next round. Ruling: a
surprised character's save is their initiative check, so the order from the next
round on ranks everyone by the degrees rolled. Ties: INI bonus, INI score, then PCs
(a PC tie keeps the order given). Each check is rolled as the character (fatigue,
affinity rank and traits apply; a curse is spent; an unconscious one fails), and a
spent curse is returned as a changed sheet.

``extended-check`` starts a check for ``character`` (the roll dialog's fields:
``characteristic``, ``affinity``, ``difficulty`` ...) with ``success_threshold``,
``failure_threshold`` and ``max_rolls``; it rolls nothing. Each turn is the follow-up
``extended-roll`` on that chain (no fields); when the rolls run out with more success
than failure, ``accept-partial`` / ``decline-partial`` settle it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import LegacyResult, request_from_json, resolve
from rulebound.rulesets.legacy.combat import Combatant, InitiativeEntry, order
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.extended import (
    MAX_ROLLS,
    ExtendedCheck,
    ExtendedSpec,
    ExtendedStatus,
)
from rulebound.rulesets.legacy.odds import extended_chances
from rulebound.rulesets.legacy.table_common import (
    bounded,
    character,
    die_view,
    dump,
    finished,
    pct,
    record_sheet,
    replay,
    text,
    variant_details,
    variants,
    words,
)
from rulebound.rulesets.legacy.table_dialog import CODES, build
from rulebound.rulesets.table import ActionView, Card, Choice, Field, Play, Record, Sheet, TablePlay
from rulebound.rulesets.table_support import draws_json

ROLL = "extended-roll"
DECISIONS = ("accept-partial", "decline-partial")


# --- picking characters -----------------------------------------------------------------


def _pick(sheets: Mapping[str, Sheet], token: str, field: str) -> str:
    if token in sheets:
        return token
    named = [key for key, s in sheets.items() if str(s.get("name", "")).lower() == token.lower()]
    if len(named) == 1:
        return named[0]
    known = ", ".join(f"{k} ({s.get('name')})" for k, s in sheets.items()) or "none"
    why = "a name two characters share; use the id" if named else "a character at this table"
    raise InvalidInput(field, token, f"{why}: {known}")


def _picked(sheets: Mapping[str, Sheet], params: Mapping[str, Any], field: str) -> list[str]:
    return list(dict.fromkeys(_pick(sheets, token, field) for token in words(params, field)))


# --- initiative -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rolled:
    key: str
    entry: InitiativeEntry
    surprised: bool
    after: Character


def initiative(
    sheets: Mapping[str, Sheet], params: Mapping[str, Any], source: RandomSource
) -> TablePlay:
    chars = {key: character(sheet) for key, sheet in sheets.items()}
    surprised = _picked(sheets, params, "surprised")
    chosen = _picked(sheets, params, "combatants")
    if not chosen:
        chosen = [key for key, c in chars.items() if not c.dead]
    everyone = list(dict.fromkeys([*chosen, *surprised]))
    for key in everyone:
        if chars[key].dead:
            raise RuleViolation("initiative", f"{chars[key].name} is dead")
    if not everyone:
        raise RuleViolation("initiative", "no living character to put in order")
    scale, bonus = variants(params)
    record: Record = {
        "kind": "initiative",
        "aware": [{"id": k, "sheet": dump(chars[k])} for k in everyone if k not in surprised],
        "surprised": [{"id": k, "sheet": dump(chars[k])} for k in surprised],
        "scale": scale,
        "affinity_bonus": bonus,
    }
    rec = RecordingSource(source)
    rolled = _roll_initiative(record, rec)
    record["draws"] = draws_json(rec.draws)
    card = _initiative_card(record, rolled)
    new = {r.key: dump(r.after) for r in rolled if r.after != chars[r.key]}
    return TablePlay(record, card, new, card.outcome)


def _roll_initiative(record: Record, source: RandomSource) -> list[Rolled]:
    scale, bonus = variants(
        {"variants": {"scale": record.get("scale"), "affinity_bonus": record.get("affinity_bonus")}}
    )
    rolled: list[Rolled] = []
    for group, difficulty in (("aware", "challenging"), ("surprised", "difficult")):
        entries = record.get(group)
        if not isinstance(entries, list):
            raise InvalidInput(f"record.{group}", entries, "a list of {id, sheet}")
        for item in entries:
            char = record_sheet(item)
            request = char.check("INI", difficulty=difficulty, scale=scale, affinity_bonus=bonus)
            change = roll_as(char, request, source)
            result = change.results[0]
            entry = InitiativeEntry(Combatant.of(char), result.degrees, result)
            rolled.append(
                Rolled(str(item.get("id")), entry, group == "surprised", change.character)
            )
    return rolled


def _line(n: int, r: Rolled) -> str:
    c, result = r.entry.combatant, r.entry.result
    who = "PC" if c.is_pc else "NPC"
    return (
        f"{n}. {c.name}: step {r.entry.step:+d} ({result.outcome.value}), "
        f"INI bonus {c.ini_bonus}, INI {c.ini_score}, {who}"
    )


def _ordered(rolled: Sequence[Rolled]) -> list[Rolled]:
    by_entry = {id(r.entry): r for r in rolled}
    return [by_entry[id(e)] for e in order([r.entry for r in rolled])]


def _initiative_card(record: Record, rolled: list[Rolled]) -> Card:
    aware = _ordered([r for r in rolled if not r.surprised])
    woke = _ordered([r for r in rolled if r.surprised and r.entry.result.succeeded])
    stuck = [r for r in rolled if r.surprised and not r.entry.result.succeeded]
    overall = _ordered(rolled)
    steps: list[str] = []
    if any(r.surprised for r in rolled):
        steps.append("Surprise round:")
        steps += [_line(n, r) for n, r in enumerate([*aware, *woke], start=1)]
        if stuck:
            names = ", ".join(r.entry.combatant.name for r in stuck)
            steps.append(
                f"Still surprised until their turn next round (no reactions; "
                f"attacks on them have advantage): {names}"
            )
        steps.append("From the next round:")
    steps += [_line(n, r) for n, r in enumerate(overall, start=1)]
    first = [*aware, *woke] if any(r.surprised for r in rolled) else overall
    return Card(
        title="Initiative" + (" with a surprise round" if stuck or woke else ""),
        outcome="Order: " + ", ".join(r.entry.combatant.name for r in first),
        succeeded=None,
        dice=tuple(
            die_view(d, r.entry.combatant.name) for r in rolled for d in r.entry.result.dice
        ),
        steps=tuple(steps),
        details=tuple(variant_details(str(record.get("scale")), str(record.get("affinity_bonus")))),
    )


def initiative_card(record: Record) -> Card:
    source = replay(record)
    rolled = _roll_initiative(record, source)
    finished(source, record)
    return _initiative_card(record, rolled)


# --- extended checks --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Extended:
    check: ExtendedCheck
    name: str
    results: tuple[LegacyResult, ...] = ()
    decided: str | None = None


def start_extended(sheets: Mapping[str, Sheet], params: Mapping[str, Any]) -> TablePlay:
    key = _pick(sheets, text(params, "character"), "character")
    char = character(sheets[key])
    if params.get("favour"):
        raise InvalidInput("favour", params["favour"], "no favour: it is for a single test")
    spec = ExtendedSpec(
        success_threshold=bounded(params, "success_threshold", 10, 1, 10_000),
        failure_threshold=bounded(params, "failure_threshold", 10, 1, 10_000),
        max_rolls=bounded(params, "max_rolls", 5, 1, MAX_ROLLS),
    )
    request = build(char, {k: v for k, v in params.items() if k != "favour"}).request
    record: Record = {
        "kind": "extended-check",
        "character": key,
        "name": char.name,
        "spec": spec.model_dump(),
        "request": to_jsonable(request),
        "draws": [],
    }
    card = extended_card(Extended(ExtendedCheck(spec, request), char.name))
    return TablePlay(record, card, {}, card.outcome)


def rebuild_extended(chain: Sequence[Record]) -> Extended:
    root = chain[0]
    try:
        spec = ExtendedSpec.model_validate(root.get("spec"))
    except ValueError:
        raise InvalidInput("record.spec", root.get("spec"), "the thresholds and rolls") from None
    raw = root.get("request")
    if not isinstance(raw, Mapping):
        raise InvalidInput("record.request", raw, "the check request as a JSON object")
    state = Extended(ExtendedCheck(spec, request_from_json(raw)), str(root.get("name") or "?"))
    for record in chain[1:]:
        source = replay(record)
        state = _turn(state, record, source)
        finished(source, record)
    return state


def _turn(state: Extended, record: Record, source: RandomSource) -> Extended:
    kind = record.get("kind")
    if kind == ROLL:
        check, result = state.check.roll(source)
        return replace(state, check=check, results=(*state.results, result))
    if kind in DECISIONS:
        if state.check.status is not ExtendedStatus.PARTIAL or state.decided:
            raise RuleViolation("extended check", "no partial success to accept or decline")
        return replace(state, decided=str(kind))
    raise InvalidInput("record.kind", kind, "one of " + ", ".join((ROLL, *DECISIONS)))


def act_extended(chain: Sequence[Record], action: str, source: RandomSource) -> Play:
    if action not in (ROLL, *DECISIONS):
        raise InvalidInput("action", action, "one of " + ", ".join((ROLL, *DECISIONS)))
    state = rebuild_extended(chain)
    rec = RecordingSource(source)
    record: Record = {"kind": action, "draws": []}
    new = _turn(state, record, rec)
    record["draws"] = draws_json(rec.draws)
    card = extended_card(new)
    return Play(record, card, None, card.outcome)


def _status(state: Extended) -> tuple[str, bool | None]:
    check, spec = state.check, state.check.spec
    tally = (
        f"success {check.success} / {spec.success_threshold}, failure {check.failure} / "
        f"{spec.failure_threshold}, {check.rolls_made} of {spec.max_rolls} rolls"
    )
    status = check.status
    if status is ExtendedStatus.PARTIAL and state.decided:
        accepted = state.decided == "accept-partial"
        word = "Partial success accepted" if accepted else "Failed (partial success declined)"
        return f"{word}: {tally}", accepted
    verdict = {
        ExtendedStatus.SUCCEEDED: True,
        ExtendedStatus.FAILED: False,
        ExtendedStatus.RAN_OUT: False,
    }.get(status)
    return f"{status.value.capitalize()}: {tally}", verdict


def extended_card(state: Extended) -> Card:
    check = state.check
    request = check.request
    steps = []
    success = failure = 0
    for n, (step, result) in enumerate(zip(check.log, state.results, strict=True), start=1):
        success, failure = success + step.success, failure + step.failure
        double = " (critical: doubled)" if result.outcome.critical else ""
        gained = f"+{step.success} success" if result.outcome.passed else f"+{step.failure} failure"
        steps.append(
            f"Roll {n}: d{result.thresholds.die} {step.face} vs {result.thresholds.target}, "
            f"{step.outcome}, margin {result.margin:+d}: {gained}{double} "
            f"(so far {success} / {failure})"
        )
    outcome, succeeded = _status(state)
    actions: list[ActionView] = []
    odds = extended_chances(request, check.spec, check.success, check.failure, check.rolls_made)
    lines = tuple(f"{status.value}: {pct(p)}" for status, p in odds.items() if p)
    if check.status is ExtendedStatus.IN_PROGRESS:
        actions.append(ActionView(ROLL, "Roll the next turn", (), ("From here:", *lines)))
    elif check.status is ExtendedStatus.PARTIAL and not state.decided:
        actions += [
            ActionView(
                "accept-partial",
                "Accept a partial success",
                (),
                ("More success than failure after the allotted rolls",),
            ),
            ActionView("decline-partial", "Decline it", (), ("The extended check fails",)),
        ]
    last = state.results[-1].dice if state.results else ()
    resolved = resolve(request)
    return Card(
        title=f"Extended check: {state.name}, {request.label or request.characteristic}",
        outcome=outcome,
        succeeded=succeeded,
        dice=tuple(die_view(d) for d in last),
        modifiers=tuple(m.describe() for m in resolved.modifiers),
        steps=tuple(steps),
        details=(
            f"Target {resolved.thresholds.target} ({request.characteristic} {request.score}); "
            "criticals count double; "
            "a single roll's partial success counts as its failure",
            *variant_details(request.scale, request.affinity_bonus),
        ),
        actions=tuple(actions),
    )


def gm_actions() -> tuple[ActionView, ...]:
    c = catalogue()
    codes = tuple(Choice(code, f"{c.names.get(code, code)} ({code})") for code in CODES)
    skills = (
        Choice("", "none: a characteristic check"),
        *(Choice(k, a.name) for k, a in c.affinities.items() if a.kind == "skill"),
    )
    levels = tuple(Choice(d.key, f"{d.name} ({d.modifier:+d})") for d in c.tables.difficulty)
    who = "Character ids or names, separated by commas"
    return (
        ActionView(
            "initiative",
            "Roll initiative",
            (
                Field(
                    "combatants", "Combatants", "text", default="", help=who + "; blank for all."
                ),
                Field(
                    "surprised",
                    "Surprised",
                    "text",
                    default="",
                    help=who + ": a Difficult (-2) INI save, acting after the aware.",
                ),
            ),
            ("Order: degrees, then INI bonus, then INI score, then PCs",),
        ),
        ActionView(
            "extended-check",
            "Start an extended check",
            (
                Field("character", "Character (id or name)", "text"),
                Field("characteristic", "Characteristic", "select", codes, default="STR"),
                Field("affinity", "Skill affinity", "select", skills, default=""),
                Field("difficulty", "Difficulty class", "select", levels, default="challenging"),
                Field("advantage", "Advantage", "bool", default=False),
                Field("disadvantage", "Disadvantage", "bool", default=False),
                Field("success_threshold", "Success needed", "int", default=10, minimum=1),
                Field("failure_threshold", "Failure that ends it", "int", default=10, minimum=1),
                Field("max_rolls", "Rolls allowed", "int", default=5, minimum=1, maximum=MAX_ROLLS),
            ),
            (
                "Each turn is a follow-up roll on the check's card",
                "Margins add up separately; criticals count double",
            ),
        ),
    )
