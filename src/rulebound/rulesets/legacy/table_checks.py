"""Legacy check chains at the table: the roll, and its follow-ups with fate.

A roll record keeps the roller's sheet before the roll, the request the dialog built
(JSON), the affinity key, the situations ticked, whether favour was spent, and the
draws. Replaying it runs ``use_favour`` and ``roll_as`` again, so a curse or an
unconscious roller is judged exactly as at the table. Each follow-up record keeps
the sheet it acted on and its own draws:

- ``accept-partial`` / ``decline-partial``: an undecided partial success (declining
  makes a new, failed result).
- ``fate-reroll`` (``use_stamina`` for a Warlock Soul), ``luck-swap`` (an unmodified
  LCK test replaces the result), ``burn-fate`` (``purpose``; LCK -10, fate capped)
  and ``cancel-critical`` (a Halfling soul's LCK save after a critical failure).

Fate belongs to the roller: a follow-up paid from another character's sheet is a
RuleViolation, as is one the sheet cannot pay for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import decline_partial, request_from_json
from rulebound.rulesets.legacy.fate import burn, luck_swap, spend_reroll, use_favour
from rulebound.rulesets.legacy.rules import Outcome
from rulebound.rulesets.legacy.souls import cancel_critical_failure
from rulebound.rulesets.legacy.table_check_cards import (
    DECISIONS,
    FATE_ACTIONS,
    CheckState,
    card_for,
    edge_sources,
)
from rulebound.rulesets.legacy.table_common import (
    changed,
    character,
    dump,
    event_lines,
    finished,
    flag,
    record_sheet,
    replay,
    text,
)
from rulebound.rulesets.legacy.table_dialog import build
from rulebound.rulesets.table import Play, Record, Sheet
from rulebound.rulesets.table_support import draws_json

# --- chains -----------------------------------------------------------------------------


def _root(record: Record, source: RandomSource) -> CheckState:
    char = record_sheet(record)
    raw = record.get("request")
    if not isinstance(raw, Mapping):
        raise InvalidInput("record.request", raw, "the check request as a JSON object")
    request = request_from_json(raw)
    lines: list[str] = []
    if record.get("favour"):
        spent, request = use_favour(char, request)
        char, lines = spent.character, event_lines(spent.events)
    rolled = roll_as(char, request, source)
    affinity = record.get("affinity")
    if affinity is not None and not isinstance(affinity, str):
        raise InvalidInput("record.affinity", affinity, "an affinity key or null")
    lines += event_lines(rolled.events)
    situations = {str(x) for x in record.get("situations") or ()}
    edges = edge_sources(char, request, affinity, situations, bool(record.get("favour")))
    return CheckState(rolled.results[0], rolled.character, affinity, edges, lines=tuple(lines))


def _follow(state: CheckState, record: Record, source: RandomSource) -> CheckState:
    kind = record.get("kind")
    result = state.result
    if kind in DECISIONS:
        if result.outcome is not Outcome.PARTIAL or state.decided is not None:
            raise RuleViolation(
                "partial success",
                "only a partial success not yet decided can be accepted or declined",
            )
        if kind == "accept-partial":
            line = "Partial success accepted: a success, at a cost the GM names"
            return replace(state, decided="accepted", lines=(*state.lines, line))
        line = "Partial success declined: counted as a failure"
        return replace(
            state, result=decline_partial(result), decided="declined", lines=(*state.lines, line)
        )
    if kind not in FATE_ACTIONS:
        raise InvalidInput("record.kind", kind, "one of " + ", ".join((*DECISIONS, *FATE_ACTIONS)))
    if state.decided == "accepted":
        raise RuleViolation("fate", "the partial success was accepted: the result stands")
    char = record_sheet(record)
    if char.name != state.roller.name:
        raise RuleViolation("fate", f"only {state.roller.name}, who rolled, can spend fate on it")
    if kind in state.used and kind == "cancel-critical":
        raise RuleViolation("Halfling soul", "one LCK save per critical failure")
    stamina, scale = bool(record.get("use_stamina")), result.request.scale
    if kind == "fate-reroll":
        change, new = spend_reroll(char, result, source, use_stamina=stamina)
        line = f"Fate reroll: {result.outcome.value} -> {new.outcome.value}"
    elif kind == "luck-swap":
        change, new = luck_swap(
            char, source, affinity=state.affinity, use_stamina=stamina, scale=scale
        )
        new = replace(new, parent=result, note="luck swap")
        line = f"Replaced by an unmodified LCK test: {result.outcome.value} -> {new.outcome.value}"
    elif kind == "burn-fate":
        purpose = str(record.get("purpose") or "avoid death")
        change, new = burn(char, source, purpose, scale=scale), result
        line = f"Fate burnt for {purpose}"
    else:
        change, new = cancel_critical_failure(char, result, source)
        line = "Halfling soul: LCK save after the critical failure"
    lines = (*state.lines, line, *event_lines(change.events))
    if new is result:
        return replace(state, roller=change.character, used=(*state.used, kind), lines=lines)
    edges = () if kind == "luck-swap" else state.edges
    return CheckState(new, change.character, state.affinity, edges, lines=lines)


def rebuild(chain: Sequence[Record]) -> CheckState:
    source = replay(chain[0])
    state = _root(chain[0], source)
    finished(source, chain[0])
    for record in chain[1:]:
        source = replay(record)
        state = _follow(state, record, source)
        finished(source, record)
    return state


def roll(sheet: Sheet, form: Mapping[str, Any], source: RandomSource) -> Play:
    char = character(sheet)
    built = build(char, form)
    record: Record = {
        "kind": "roll",
        "sheet": dump(char),
        "request": to_jsonable(built.request),
        "affinity": built.affinity,
        "situations": list(built.situations),
        "favour": built.favour,
    }
    rec = RecordingSource(source)
    state = _root(record, rec)
    record["draws"] = draws_json(rec.draws)
    card = card_for(state)
    return Play(record, card, changed(char, state.roller), card.outcome)


def act(
    sheet: Sheet,
    chain: Sequence[Record],
    action: str,
    params: Mapping[str, Any],
    source: RandomSource,
) -> Play:
    if action not in (*DECISIONS, *FATE_ACTIONS):
        raise InvalidInput("action", action, "one of " + ", ".join((*DECISIONS, *FATE_ACTIONS)))
    state = rebuild(chain)
    record: Record = {"kind": action}
    before: Character | None = None
    if action in FATE_ACTIONS:
        before = character(sheet)
        record["sheet"] = dump(before)
        if action in ("fate-reroll", "luck-swap"):
            record["use_stamina"] = flag(params, "use_stamina")
        if action == "burn-fate":
            record["purpose"] = text(params, "purpose") or "avoid death"
    rec = RecordingSource(source)
    new = _follow(state, record, rec)
    record["draws"] = draws_json(rec.draws)
    card = card_for(new)
    return Play(record, card, None if before is None else changed(before, new.roller), card.outcome)
