"""Legacy checks at the table: the roll dialog, exact chances, and result chains with fate.

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
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.rulesets.legacy.advice import FateAdvice, fate_reroll_advice, luck_swap_advice
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import (
    MAX_PENALTY,
    Assist,
    CheckRequest,
    LegacyResult,
    decline_partial,
    luck_request,
    request_from_json,
    resolve,
)
from rulebound.rulesets.legacy.content import CHARACTERISTICS, Catalogue, catalogue
from rulebound.rulesets.legacy.fate import (
    BURN_LCK_COST,
    burn,
    luck_swap,
    spend_reroll,
    use_favour,
)
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.odds import check_chances, p_success
from rulebound.rulesets.legacy.rules import (
    OUTCOMES,
    Outcome,
    characteristic_bonus,
    classify_without_critical_failure,
    difficulty_keys,
)
from rulebound.rulesets.legacy.souls import cancel_critical_failure
from rulebound.rulesets.legacy.table_common import (
    bounded,
    changed,
    character,
    choice,
    die_view,
    draws_json,
    dump,
    event_lines,
    finished,
    flag,
    pct,
    record_sheet,
    replay,
    text,
    variant_details,
    variants,
    words,
)
from rulebound.rulesets.table import ActionView, Card, Choice, Field, Play, Record, Sheet

SUCCESS_KEY = "success (critical included)"
"""The first key of ``chances``; the others are the five outcomes, which sum to 1."""
CODES: tuple[str, ...] = (*CHARACTERISTICS, "LCK", "REN")
ASSIST_MODES: tuple[str, ...] = ("", "advantage", "proficiency")
DECISIONS: tuple[str, ...] = ("accept-partial", "decline-partial")
FATE_ACTIONS: tuple[str, ...] = ("fate-reroll", "luck-swap", "burn-fate", "cancel-critical")


# --- the dialog and the request ---------------------------------------------------------


def _skill_affinities(c: Catalogue) -> list[str]:
    return [k for k, a in c.affinities.items() if a.kind == "skill"]


def _situations(char: Character, c: Catalogue) -> dict[str, str]:
    """The situation keys the character's traits and soul react to (worn armour is automatic)."""
    found: dict[str, str] = {}
    owners = [(t.name, t.edges) for t in char.traits(c)] + [
        (c.soul(char.soul).name, c.soul(char.soul).edges)
    ]
    for owner, edges in owners:
        for rule in edges:
            if rule.situation and rule.situation != "armoured":
                where = f" on {'/'.join(rule.characteristics)}" if rule.characteristics else ""
                label = f"{rule.situation.replace('-', ' ')}: {owner} ({rule.edge}{where})"
                found[rule.situation] = label
    return found


def dialog(sheet: Sheet) -> tuple[Field, ...]:
    char = character(sheet)
    c = catalogue()
    notes = ["Fatigued: -1 applies." if char.fatigued else ""]
    notes += ["Cursed: disadvantage on this roll." if char.cursed else ""]
    notes += ["Unconscious: the check fails automatically." if not char.can_act else ""]
    codes = tuple(
        Choice(code, f"{c.names.get(code, code)} ({code}) {char.score(code)}") for code in CODES
    )
    affinities = [Choice("", "none: a characteristic check")] + [
        Choice(k, c.affinities[k].name + ("" if char.has_affinity(k, c) else " (not held)"))
        for k in _skill_affinities(c)
    ]
    difficulties = tuple(
        Choice(d.key, f"{d.name} ({d.modifier:+d}{', ' + d.edge if d.edge else ''})")
        for d in c.tables.difficulty
    )
    fields = [
        Field("characteristic", "Characteristic", "select", codes, default="STR",
              help=" ".join(n for n in notes if n)),
        Field("affinity", "Skill affinity", "select", tuple(affinities), default="",
              help="A skill check without the affinity is one class harder."),
        Field("proficiency", "Proficiency check", "text", default="",
              help="Held: " + (", ".join(char.proficiencies) or "none")),
        Field("untrained_penalty", "Untrained penalty (the item's entry)", "int", default=0,
              minimum=-MAX_PENALTY, maximum=0),
        Field("difficulty", "Difficulty class", "select", difficulties, default="challenging"),
        Field("rank", "Rank", "int", default=char.rank, minimum=1, maximum=6,
              help="Its bonus applies when the affinity or proficiency is held."),
        Field("advantage", "Advantage", "bool", default=False),
        Field("disadvantage", "Disadvantage", "bool", default=False),
    ]
    situations = _situations(char, c)
    if situations:
        fields.append(Field("situations", "Situations", "multiselect",
                            tuple(Choice(k, v) for k, v in situations.items()), default=()))
    if char.favour:
        fields.append(Field("favour", "Spend favour (advantage)", "bool", default=False))
    fields += [
        Field("assist.mode", "Assisted by", "select",
              (Choice("", "nobody"), Choice("advantage", "a helper lending advantage"),
               Choice("proficiency", "a helper lending their proficiency and rank")),
              default="", group="assist"),
        Field("assist.helper", "Helper's name", "text", default="", group="assist"),
        Field("assist.rank", "Helper's rank", "int", minimum=1, maximum=6, group="assist"),
    ]
    return tuple(fields)


@dataclass(frozen=True, slots=True)
class Built:
    request: CheckRequest
    affinity: str | None
    situations: tuple[str, ...]
    favour: bool


def build(char: Character, form: Mapping[str, Any]) -> Built:
    """The check the dialog describes, with the sheet's fatigue, armour, traits and soul."""
    scale, bonus_mode = variants(form)
    c = catalogue()
    code = choice(form, "characteristic", CODES, "")
    affinity = choice(form, "affinity", ("", *_skill_affinities(c)), "") or None
    proficiency = text(form, "proficiency") or None
    if affinity and proficiency:
        raise InvalidInput("proficiency", proficiency, "blank for an affinity check")
    penalty = bounded(form, "untrained_penalty", 0, -MAX_PENALTY, 0)
    if penalty and not proficiency:
        raise InvalidInput("untrained_penalty", penalty, "0 unless a proficiency is named")
    difficulty = choice(form, "difficulty", difficulty_keys(c), "challenging")
    rank = bounded(form, "rank", char.rank, 1, 6)
    known = _situations(char, c)
    situations = words(form, "situations")
    for key in situations:
        if key not in known:
            raise InvalidInput("situations", key, "one of " + (", ".join(known) or "none"))
    favour = flag(form, "favour")
    if favour and not char.favour:
        raise RuleViolation("favour", f"{char.name} holds no favour to spend")
    ranked = char if rank == char.rank else char.model_copy(update={"rank": rank})
    request = ranked.check(
        code,
        affinity=affinity,
        proficiency=proficiency,
        untrained_penalty=penalty,
        difficulty=difficulty,
        situations=situations,
        advantage=flag(form, "advantage"),
        disadvantage=flag(form, "disadvantage"),
        scale=scale,
        affinity_bonus=bonus_mode,
        cat=c,
    )
    return Built(_assisted(char, request, form, affinity, proficiency, c), affinity, situations, favour)


def _assisted(
    char: Character,
    request: CheckRequest,
    form: Mapping[str, Any],
    affinity: str | None,
    proficiency: str | None,
    c: Catalogue,
) -> CheckRequest:
    """A helper's advantage or proficiency, as ``assist.assist`` lends it.

    The table has only the roller's sheet, so the helper is a name: whether they hold
    the relevant affinity or proficiency is for the table to confirm (it is on the card).
    """
    mode = choice(form, "assist.mode", ASSIST_MODES, "")
    if not mode:
        return request
    helper = text(form, "assist.helper")
    if not helper or helper == char.name:
        raise InvalidInput("assist.helper", helper, "the helper's name (another character)")
    if proficiency:
        relevant = f"{proficiency} proficiency"
    else:
        key = affinity or request.characteristic.lower()
        if key not in c.affinities:
            raise InvalidInput("assist.mode", mode, f"nobody: {request.characteristic} has no affinity")
        relevant = f"{c.affinity(key).name} affinity"
    if mode == "advantage":
        lent = Assist(helper, "advantage", relevant)
        return replace(request, advantage=True, assists=(*request.assists, lent))
    rank = bounded(form, "assist.rank", 0, 1, 6)
    lent = Assist(helper, "proficiency", relevant, rank)
    return replace(
        request,
        rank=max(request.rank or 0, rank),
        has_skill_affinity=True,
        untrained_penalty=0,
        assists=(*request.assists, lent),
    )


def chances(sheet: Sheet, form: Mapping[str, Any]) -> dict[str, Fraction]:
    """Exact chances of the check as it would be rolled now (favour, curse and state included)."""
    char = character(sheet)
    built = build(char, form)
    request = replace(built.request, advantage=built.request.advantage or built.favour)
    request = replace(request, disadvantage=request.disadvantage or char.cursed)
    if char.can_act:
        outcomes = check_chances(request)
    else:
        outcomes = {o: Fraction(int(o is Outcome.FAILURE)) for o in OUTCOMES}
    passed = outcomes[Outcome.CRITICAL_SUCCESS] + outcomes[Outcome.SUCCESS]
    return {SUCCESS_KEY: passed} | {o.value: p for o, p in outcomes.items()}


# --- chains -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CheckState:
    """Where a result chain stands: the result showing and the roller as the chain left them."""

    result: LegacyResult
    roller: Character
    affinity: str | None
    edges: tuple[str, ...]
    decided: str | None = None
    used: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()


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
    edges = _edges(char, request, affinity, situations, bool(record.get("favour")))
    return CheckState(rolled.results[0], rolled.character, affinity, edges, lines=tuple(lines))


def _follow(state: CheckState, record: Record, source: RandomSource) -> CheckState:
    kind = record.get("kind")
    result = state.result
    if kind in DECISIONS:
        if result.outcome is not Outcome.PARTIAL or state.decided is not None:
            raise RuleViolation(
                "partial success", "only a partial success not yet decided can be accepted or declined"
            )
        if kind == "accept-partial":
            line = "Partial success accepted: a success, at a cost the GM names"
            return replace(state, decided="accepted", lines=(*state.lines, line))
        line = "Partial success declined: counted as a failure"
        return replace(state, result=decline_partial(result), decided="declined",
                       lines=(*state.lines, line))
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
        change, new = luck_swap(char, source, affinity=state.affinity, use_stamina=stamina,
                                scale=scale)
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
    sheet: Sheet, chain: Sequence[Record], action: str, params: Mapping[str, Any],
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


# --- the card ---------------------------------------------------------------------------


def _outcome(state: CheckState) -> str:
    r = state.result
    if not r.dice:
        return f"{r.headline}: {r.note}"
    text_ = f"{r.headline} (margin {r.margin:+d}, {r.degrees:+d} degrees)"
    if r.outcome is Outcome.PARTIAL:
        text_ += ", accepted" if state.decided == "accepted" else ": accept or decline it"
    elif state.decided == "declined" and r.parent is not None and r.note:
        text_ += f" ({r.note})"
    return text_


def _edges(
    roller: Character,
    request: CheckRequest,
    affinity: str | None,
    situations: set[str],
    favour: bool,
) -> tuple[str, ...]:
    """Where advantage and disadvantage came from (``Character.check``'s rules, named)."""
    c = catalogue()
    lines = [f"advantage: assisted by {a.helper} ({a.relevant})"
             for a in request.assists if a.mode == "advantage"]
    if favour:
        lines.append("advantage: favour spent")
    diff = c.difficulty(resolve(request).difficulty)
    if diff.edge:
        lines.append(f"{diff.edge}: {diff.name} difficulty")
    if roller.cursed and roller.can_act:
        lines.append("disadvantage: cursed (spent by this roll)")
    if roller.wearing_armour:
        situations = situations | {"armoured"}
    owners = [(t.name, t.edges) for t in roller.traits(c)]
    owners.append((c.soul(roller.soul).name, c.soul(roller.soul).edges))
    for owner, rules in owners:
        for rule in rules:
            if rule.characteristics and request.characteristic not in rule.characteristics:
                continue
            if rule.affinity is not None and rule.affinity != affinity:
                continue
            if rule.situation is not None and rule.situation not in situations:
                continue
            lines.append(f"{rule.edge}: {owner}")
    if any(x.startswith("advantage") for x in lines) and any(
        x.startswith("disadvantage") for x in lines
    ):
        lines.append("advantage and disadvantage cancel: one die")
    return tuple(lines)


def _steps(r: LegacyResult) -> list[str]:
    req, t = r.request, r.thresholds
    total = sum(m.value for m in r.modifiers)
    halved = t.target - total != req.score
    base = f"{req.characteristic} {req.score}" + (f", halved to {t.target - total}" if halved else "")
    steps = [f"Target {t.target}: {base}, modifiers {total:+d}"]
    if req.characteristic:
        steps.append(
            f"Critical success on {max(t.crit_target, 1)} or less (bonus {t.partial_bonus} for "
            f"the score); partial success up to {t.target + t.partial_bonus}; {t.die} fails critically"
        )
    if r.dice:
        how = {"advantage": " (the lower of two)", "disadvantage": " (the higher of two)"}
        steps.append(f"d{t.die} kept {r.face}{how.get(r.edge.value, '')}: {r.outcome.value}")
    return steps


def _advice(a: FateAdvice, what: str) -> list[str]:
    return [
        f"{what} improves the outcome: {pct(a.p_better)}",
        f"Same outcome {pct(a.p_same)}, worse {pct(a.p_worse)}; it passes {pct(a.p_success)}",
        "The new result stands, better or worse",
    ]


def _actions(state: CheckState) -> tuple[ActionView, ...]:
    r, roller, c = state.result, state.roller, catalogue()
    acts: list[ActionView] = []
    if r.outcome is Outcome.PARTIAL and state.decided is None:
        acts += [
            ActionView("accept-partial", "Accept the partial success", (),
                       ("A success at a cost the GM names",)),
            ActionView("decline-partial", "Decline it", (), ("The check counts as failed",)),
        ]
    if state.decided == "accepted" or not r.dice:
        return tuple(acts)
    soul = c.soul(roller.soul)
    can_pay = roller.fate >= 1 or soul.stamina_for_fate
    stamina = (Field("use_stamina", "Pay 1d10 STM instead (Warlock Soul)", "bool", default=False),)
    fields = stamina if soul.stamina_for_fate else ()
    pays = [f"{roller.name} has {roller.fate} fate"]
    if soul.spend_luck_check:
        pays.append("God-Fragment: a passed LCK check keeps the point")
    if can_pay and r.outcome is not Outcome.CRITICAL_SUCCESS:
        advice = _advice(fate_reroll_advice(r), "A reroll")
        acts.append(ActionView("fate-reroll", "Spend a fate point to reroll", fields,
                               (*advice, *pays)))
    free = state.affinity is not None and state.affinity == soul.free_luck_swap_affinity
    if (can_pay or free) and r.outcome is not Outcome.CRITICAL_SUCCESS:
        advice = _advice(luck_swap_advice(r, roller.lck), f"An unmodified LCK test ({roller.lck})")
        extra = [f"{soul.name}: free for this check"] if free else pays
        acts.append(ActionView("luck-swap", "Spend a fate point: take a LCK test instead",
                               () if free else fields, (*advice, *extra)))
    if roller.fate >= 1 and roller.lck >= BURN_LCK_COST:
        lck = roller.lck - BURN_LCK_COST
        cap = characteristic_bonus(lck) + c.origin(roller.origin).bonus_fate
        lines = [f"LCK {roller.lck} -> {lck}, fate {roller.fate} -> {min(roller.fate - 1, cap)}"]
        if soul.burn_luck_check:
            lines.append("Soulless: a passed LCK check makes it a spend")
        purpose = Field("purpose", "What for", "text", default="avoid death")
        acts.append(ActionView("burn-fate", "Burn a fate point", (purpose,), tuple(lines)))
    cancels = "cancel-critical-failure" in soul.powers
    if cancels and r.outcome is Outcome.CRITICAL_FAILURE and "cancel-critical" not in state.used:
        p = p_success(luck_request(roller.lck, r.request.scale))
        judged = classify_without_critical_failure(r.face, r.thresholds).value
        acts.append(ActionView("cancel-critical", f"{soul.name} soul: LCK save", (),
                               (f"The save passes {pct(p)}; the roll is then a {judged}",)))
    return tuple(acts)


def card_for(state: CheckState) -> Card:
    r, roller = state.result, state.roller
    req = r.request
    details = list(state.lines)
    if r.note and r.dice and r.note not in ("partial success declined",):
        details.append(f"Note: {r.note}")
    details.append(f"{roller.name} now: fate {roller.fate}, LCK {roller.lck}")
    details += variant_details(req.scale, req.affinity_bonus)
    return Card(
        title=f"{roller.name}: {req.label or req.characteristic}",
        outcome=_outcome(state),
        succeeded=r.outcome.passed or state.decided == "accepted",
        dice=tuple(die_view(d) for d in r.dice),
        modifiers=(*(m.describe() for m in r.modifiers), *state.edges),
        steps=tuple(_steps(r)),
        details=tuple(details),
        actions=_actions(state),
    )

