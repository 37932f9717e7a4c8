"""Sheet actions (damage, fatigue, death saves, rests, healing) and the game master's tools.

Records: a sheet action ``{"kind": action, "sheet", "params", "scale"}`` (the sheet before
it, its parameters as read, the table's scale); ``initiative`` ``{"aware": [{"id",
"sheet"}], "surprised": [...], "scale", "affinity_bonus"}``; ``extended-check``
``{"character", "name", "spec", "request"}`` (and ``"first"``, the first turn's own check
when a curse touches it), which rolls nothing: each turn is the
follow-up ``extended-roll`` (``rolls``/``until_done`` when not one plain turn), settled
at its end by ``accept-partial`` / ``decline-partial``. All keep their ``draws``, and
every card is rebuilt by running the same rules on them. Each but a follow-up names the
rules it was made under (``"rules"``, ``versions``; none on a record logged before they
were numbered); a follow-up's are its chain's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import partial
from typing import Any, Literal

from pydantic import ValidationError

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.core.wording import failures, successes
from rulebound.rulesets import forms, plays
from rulebound.rulesets.contract import (
    ActionView,
    Card,
    Chain,
    CreationStep,
    DieView,
    Field,
    Initiative,
    Params,
    Play,
    Record,
    Roster,
    Sheet,
    Standing,
    TablePlay,
    Variants,
)
from rulebound.rulesets.fields import choices
from rulebound.rulesets.legacy import combat, guided, recovery
from rulebound.rulesets.legacy.card import TURN_FIELDS, extended_card, pct, variant_details
from rulebound.rulesets.legacy.chain import (
    DECISIONS,
    TURN,
    ExtendedState,
    differs,
    event_lines,
    extended_follow,
)
from rulebound.rulesets.legacy.character import LOCATIONS, Change, Character
from rulebound.rulesets.legacy.checks import LegacyResult, luck_request, request_from_json
from rulebound.rulesets.legacy.content import Catalogue, catalogue, scoped
from rulebound.rulesets.legacy.damage import IGNORABLE, MAX_DAMAGE, apply_damage
from rulebound.rulesets.legacy.dialog import affinities, codes, levels, number, switch
from rulebound.rulesets.legacy.extended import MAX_ROLLS, ExtendedCheck, ExtendedSpec
from rulebound.rulesets.legacy.odds import death_save_odds, p_success
from rulebound.rulesets.legacy.request import sheet_request
from rulebound.rulesets.legacy.restrictions import validated
from rulebound.rulesets.legacy.rules import DEATH_SAVE_DIE, VARIANTS
from rulebound.rulesets.legacy.sheets import dump
from rulebound.rulesets.legacy.versions import RULES, named, rules_of, sheet_touches_contest
from rulebound.rulesets.variants import resolve

LABELS = {"take-damage": "Take damage", "fatigue": "Take fatigue", "death-save": "Death save"}
LABELS |= {"short-rest": "Short rest", "long-rest": "Long rest", "heal": "Heal"}
FATE = {"": "roll the save", "spend": "spend fate: pass it", "burn": "burn fate: 3 successes"}
MANY: Literal["many"] = "many"
Ran = tuple[Change, list[str], list[DieView], str, bool | None]
"""(the change, steps, dice, headline, succeeded) of one sheet action."""


def _sheet(record: Mapping[str, Any]) -> Character:
    return validated(plays.record_object(record, "sheet", "the sheet as it stood (JSON)"))


# --- sheet actions --------------------------------------------------------------------------


def action_fields(char: Character) -> dict[str, tuple[Field, ...]]:
    """Every parameter each action takes (its view leaves out those that cannot apply)."""
    amount = number("amount", "Amount", 0, MAX_DAMAGE, default=1)
    rest = char.current_rest_points
    return {
        "take-damage": (
            number("damage", "Damage", 0, MAX_DAMAGE, default=0),
            Field("location", "Location hit", "select", choices(LOCATIONS), default="torso"),
            Field("damage_type", "Damage type", "text", default="", help="e.g. fire, poison"),
            switch("critical_hit", "Critical hit"),
            switch("max_damage", "Maximum damage rolled"),
            switch("whole_body", "Whole-body attack"),
            Field("ignore", "Ignores", "multiselect", choices(IGNORABLE), default=()),
            number("lethal_critical", "Deadly critical score (the GM's chart)", 1, None),
        ),
        "fatigue": (amount,),
        "death-save": (
            Field("fate", "Fate (before the roll)", "select", choices(FATE), default=""),
            switch("important", "An important NPC (may use fate)"),
            switch("use_stamina", "Pay 1d10 STM instead of spending (Warlock)"),
        ),
        "short-rest": (number("points", "Rest points to spend", 0, rest, default=rest),),
        "long-rest": (),
        "heal": (amount,),
    }


def _params(char: Character, action: str, given: Mapping[str, Any]) -> dict[str, Any]:
    fields = action_fields(char)[action]
    values = forms.read(fields, given)
    return {f.name: values.get(f.name) for f in fields}


def _death_advice(char: Character, scale: str) -> tuple[str, ...]:
    cancel = Fraction(0)
    if "cancel-critical-failure" in catalogue().soul(char.soul).powers:
        cancel = p_success(luck_request(char.lck, scale))
    odds = death_save_odds(char.death_successes, char.death_failures, cancel)
    return (
        f"From {successes(char.death_successes)} and {failures(char.death_failures)}: stable "
        f"{pct(odds.p_stable)}, dead {pct(odds.p_dead)}, "
        f"{float(odds.expected_rolls):.2f} saves on average",
        f"Fate {char.fate}, LCK {char.lck}: spend passes one save, burn counts three",
    )


def _dice(results: Sequence[LegacyResult]) -> list[DieView]:
    return [DieView.of(d, r.request.label) for r in results for d in r.dice]


def _damage(char: Character, p: Mapping[str, Any], scale: str, source: RandomSource) -> Ran:
    flags = {k: p[k] for k in ("critical_hit", "max_damage", "whole_body", "ignore")}
    hit = p["damage"], p["location"], p["damage_type"]
    change, report = apply_damage(char, *hit, lethal_critical=p["lethal_critical"], **flags)
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
    past = f"; {report.excess} past the wounds" if report.excess else ""
    added = ", ".join(f"{loc} +{n}" for loc, n in report.critical.items()) or "none"
    steps += [f"Wounds {char.current_wounds} -> {after.current_wounds}{past}"]
    steps += [f"Critical damage: {added}"]
    headline = f"loses {report.wounds_lost} wounds, critical damage {added}"
    if report.killed:
        return change, steps, [], headline + ": killed outright", False
    if not report.con_save_required:
        return change, steps, [], headline, None
    saved = combat.bleeding_save(after, source, scale)
    result = saved.results[0]
    steps.append(f"+0 CON save: {result.outcome.value}")
    both = Change(saved.character, (*change.events, *saved.events), saved.results)
    verdict = "CON save passed" if result.succeeded else "CON save failed: bleeding out"
    return both, steps, _dice(saved.results), f"{headline}; {verdict}", result.succeeded


def _death_save(char: Character, p: Mapping[str, Any], scale: str, source: RandomSource) -> Ran:
    spend, burn = p["fate"] == "spend", p["fate"] == "burn"
    flags = {"important": p["important"], "use_stamina": p["use_stamina"], "scale": scale}
    change, save = combat.death_save(char, source, spend_fate=spend, burn_fate=burn, **flags)
    after = change.character
    dice = [] if save.face is None else [DieView("death save d20", DEATH_SAVE_DIE, save.face)]
    how = f"d20 {save.face} vs 10" if save.face is not None else f"fate {p['fate']}"
    steps = [
        f"{how}: +{successes(save.successes)}, +{failures(save.failures)}",
        f"Tally {successes(after.death_successes)}, {failures(after.death_failures)}",
    ]
    state = "dead" if after.dead else "stable" if not after.bleeding else "still bleeding out"
    passed = None if after.bleeding else not after.dead
    return change, steps, dice + _dice(change.results), f"death save: {state}", passed


def _fatigue(char: Character, p: Mapping[str, Any], scale: str, source: RandomSource) -> Ran:
    change = combat.take_fatigue(char, p["amount"], source, scale)
    after, amount, cap = change.character, p["amount"], char.fatigue_capacity
    steps = [f"Fatigue {char.fatigue_taken} + {amount} -> {after.fatigue_taken} (capacity {cap})"]
    steps += [f"+0 STM check: {r.outcome.value}" for r in change.results[:1]]
    headline = "unconscious" if after.unconscious and not char.unconscious else "fatigued"
    passed = change.results[0].succeeded if change.results else None
    return change, steps, _dice(change.results), headline, passed


def _rest(char: Character, p: Mapping[str, Any], scale: str, source: RandomSource) -> Ran:
    kind = p["kind"]
    if kind == "short-rest":
        change = recovery.short_rest(char, p["points"])
    else:
        change = (
            recovery.long_rest(char) if kind == "long-rest" else recovery.heal(char, p["amount"])
        )
    now = change.character
    steps = [
        f"Wounds {char.current_wounds} -> {now.current_wounds}",
        f"Rest points {char.current_rest_points} -> {now.current_rest_points}",
        f"Fatigue {char.fatigue_taken} -> {now.fatigue_taken}",
    ]
    return change, steps, [], {"heal": "healed"}.get(kind, kind.replace("-", " ")), None


RUNS = {"take-damage": _damage, "fatigue": _fatigue, "death-save": _death_save}
RUNS |= dict.fromkeys(("short-rest", "long-rest", "heal"), _rest)


def _run(record: Mapping[str, Any], source: RandomSource) -> tuple[Change, Card]:
    rules_of(record)  # known rules, though no sheet action differs by them yet
    action, char = str(record.get("kind")), _sheet(record)
    params = plays.record_object(record, "params", "the action's parameters")
    scale = resolve(VARIANTS, {"scale": record.get("scale")})["scale"]
    typed = _params(char, action, params) | {"kind": action}
    change, steps, dice, headline, succeeded = RUNS[action](char, typed, scale, source)
    return change, Card(
        title=f"{char.name}: {LABELS[action]}",
        outcome=f"{char.name} {headline}",
        succeeded=succeeded,
        dice=tuple(dice),
        steps=tuple(steps),
        details=tuple(event_lines(change.events)),
    )


# --- the game master's tools -------------------------------------------------------------


def _initiative(record: Mapping[str, Any], source: RandomSource) -> list[combat.Rolled]:
    rules_of(record)  # known rules, though initiative does not differ by them yet
    chosen = resolve(VARIANTS, {k: record.get(k) for k in ("scale", "affinity_bonus")})
    combatants, allies = [], set()
    for group in ("aware", "surprised"):
        entries = record.get(group)
        if not isinstance(entries, list):
            raise InvalidInput(f"record.{group}", entries, "a list of {id, sheet}")
        combatants += [(str(e.get("id")), _sheet(e), group == "surprised") for e in entries]
        allies |= {str(e.get("id")) for e in entries if e.get("ally") is True}
    return combat.initiative_as(combatants, source, **chosen, allies=allies)


def _standing(r: combat.Rolled) -> str:
    c, result = r.entry.combatant, r.entry.result
    return (
        f"step {r.entry.step:+d} ({result.outcome.value}), "
        f"INI bonus {c.ini_bonus}, INI {c.ini_score}, {c.side}"
    )


def _line(n: int, r: combat.Rolled) -> str:
    return f"{n}. {r.entry.combatant.name}: {_standing(r)}"


def _rank(r: combat.Rolled) -> tuple[int, int, int, int]:
    """``combat.order``'s sort key as a rank (greater first)."""
    c = r.entry.combatant
    return (r.entry.step, c.ini_bonus, c.ini_score, int(c.friendly))


def _initiative_card(rolled: list[combat.Rolled]) -> Card:
    aware = combat.ordered([r for r in rolled if not r.surprised])
    woke = combat.ordered([r for r in rolled if r.surprised and r.entry.result.succeeded])
    stuck = [r.entry.combatant.name for r in rolled if r.surprised and not r.entry.result.succeeded]
    overall, surprise = combat.ordered(rolled), any(r.surprised for r in rolled)
    steps: list[str] = []
    if surprise:
        steps += ["Surprise round:", *(_line(n, r) for n, r in enumerate([*aware, *woke], 1))]
        still = "Still surprised until their turn next round (no reactions; attacks on them"
        steps += [f"{still} have advantage): {', '.join(stuck)}"] if stuck else []
        steps.append("From the next round:")
    steps += [_line(n, r) for n, r in enumerate(overall, start=1)]
    first = [*aware, *woke] if surprise else overall
    return Card(
        title="Initiative" + (" with a surprise round" if stuck or woke else ""),
        outcome="Order: " + ", ".join(r.entry.combatant.name for r in first),
        succeeded=None,
        dice=tuple(
            DieView.of(d, r.entry.combatant.name) for r in rolled for d in r.entry.result.dice
        ),
        steps=tuple(steps),
        details=tuple(variant_details(rolled[0].entry.result.request)),
    )


def _start_extended(sheets: Roster, params: Params, variants: Variants) -> TablePlay:
    """Start an extended check without a roll. As from a sheet, an unconscious character is
    refused and a curse touches the first turn only: it is spent now, on the check that
    rolls it, and the record keeps that turn's own check as ``first``."""
    key = plays.character_id(sheets, str(params.get("character") or ""), "character")
    char = validated(sheets[key])
    roll = sheet_request(char, params, variants)
    if roll.extended is None:
        raise InvalidInput("success_threshold", None, "the extended check's thresholds")
    first = differs(roll.first_roll(), roll)
    record: Record = {"kind": "extended-check", "character": key, "name": char.name}
    record |= named(RULES)
    record |= {"spec": roll.extended.model_dump(), "request": to_jsonable(roll.request)}
    record |= {} if first is None else {"first": to_jsonable(first)}
    check = ExtendedCheck(roll.extended, roll.request, first=first)
    card = extended_card(ExtendedState(check, char.name))
    after = roll.after()
    changed = {} if after is None else {key: dump(after)}
    return TablePlay({**record, "draws": []}, card, changed, card.outcome)


def turn_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """An extended turn's params as stored: none for one plain turn."""
    values = forms.read(TURN_FIELDS, params)
    return {} if values == {"rolls": 1, "until_done": False} else values


def _extended(chain: Chain) -> ExtendedState:
    root = chain[0]
    try:
        spec = ExtendedSpec.model_validate(root.get("spec"))
    except ValidationError:
        raise InvalidInput("record.spec", root.get("spec"), "the thresholds and rolls") from None
    request = request_from_json(root.get("request") or {})
    touched = sheet_touches_contest(rules_of(root))  # the first rules knew no "first"
    first = request_from_json(root["first"]) if touched and root.get("first") else None
    check = ExtendedCheck(spec, request, first=first)
    state = ExtendedState(check, str(root.get("name") or "?"))
    plays.replayed(root, lambda source: None)
    for record in chain[1:]:
        kind = str(record.get("kind"))
        params = turn_params(plays.params_of(record)) if kind == TURN else {}
        state = plays.replayed(record, partial(extended_follow, state, kind, params))
    return state


def _root(chain: Chain) -> str:
    if not chain or not isinstance(chain[0], Mapping):
        raise InvalidInput("chain", list(chain), "a stored result, its first record first")
    return str(chain[0].get("kind"))


@scoped
class Tools:
    """The sheet actions, game-master tools and guided creation of a ``Legacy`` game."""

    catalogue: Catalogue

    def sheet_actions(self, sheet: Sheet, variants: Variants) -> tuple[ActionView, ...]:
        char = validated(sheet)
        fields, soul = action_fields(char), catalogue().soul(char.soul)
        shown = {"fate": True, "important": not char.is_pc, "use_stamina": soul.stamina_for_fate}
        fields["death-save"] = tuple(f for f in fields["death-save"] if shown[f.name])
        rest = f"Rest points {char.current_rest_points} / {char.max_rest_points}"
        advice = {
            "take-damage": (f"Wounds {char.current_wounds} / {char.max_wounds}, soak {char.soak}",),
            "fatigue": (f"Fatigue {char.fatigue_taken} / {char.fatigue_capacity}",),
            "death-save": _death_advice(char, variants["scale"]) if char.bleeding else (),
            "short-rest": (rest, "Fatigue is fully restored"),
            "long-rest": (rest + ": the rest are spent, then all restored",),
            "heal": ("Healing above 0 wounds ends bleeding out",),
        }
        views = []
        for key, label in LABELS.items():
            why = f"{char.name} is dead" if char.dead else ""
            if key == "death-save" and not char.bleeding:
                why = why or "only a character bleeding out makes death saves"
            views.append(ActionView(key, label, fields[key], advice[key], "", not why, why))
        return tuple(views)

    def sheet_act(
        self, sheet: Sheet, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> Play:
        char = validated(sheet)
        view = next((a for a in self.sheet_actions(sheet, variants) if a.key == action), None)
        if view is None:
            raise InvalidInput("action", action, "one of " + ", ".join(LABELS))
        if not view.available:
            raise RuleViolation(view.label, view.reason)
        params = _params(char, action, params)
        stored: Record = {"sheet": dump(char), "params": params, "scale": variants["scale"]}
        stored |= named(RULES)
        (change, card), draws = plays.recorded(partial(_run, {"kind": action, **stored}), source)
        after = None if change.character == char else dump(change.character)
        outcome = card.outcome.removeprefix(f"{char.name} ")
        return Play(plays.make_record(action, stored, draws), card, after, outcome)

    def table_actions(self) -> tuple[ActionView, ...]:
        c, who = catalogue(), "Character ids or names, separated by commas"
        surprised = who + ": a Difficult (-2) INI save, acting after the aware."
        allies = who + ": NPCs on the PCs' side (they win ties against other NPCs)."
        initiative = (
            Field("combatants", "Combatants", "text", help=who + "; blank: all", picks=MANY),
            Field("surprised", "Surprised", "text", default="", help=surprised, picks=MANY),
            Field("allies", "The PCs' allies", "text", default="", help=allies, picks=MANY),
        )
        extended = (
            Field(
                "character", "Character", "text", required=True, help="Its id or name", picks="one"
            ),
            codes(c, required=True),
            affinities(c),
            levels(c),
            switch("advantage", "Advantage"),
            switch("disadvantage", "Disadvantage"),
            number("success_threshold", "Success needed", 1, 10_000, default=10),
            number("failure_threshold", "Failure that ends it", 1, 10_000, default=10),
            number("max_rolls", "Rolls allowed", 1, MAX_ROLLS, default=5),
        )
        order = ("Order: degrees, then INI bonus, then INI score, then PCs and allies",)
        turns = ("Each turn is a follow-up on the card", "Margins add up; criticals count double")
        return (
            ActionView("initiative", "Roll initiative", initiative, order),
            ActionView("extended-check", "Start an extended check", extended, turns),
        )

    def table_act(
        self, sheets: Roster, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> TablePlay:
        if action == "extended-check":
            values = forms.read(self.table_actions()[1].fields, params)  # with the defaults
            return _start_extended(sheets, values, variants)
        if action != "initiative":
            raise InvalidInput("action", action, "initiative or extended-check")
        chars = {key: validated(sheet) for key, sheet in sheets.items()}
        surprised, allies = (
            plays.character_ids(sheets, params, f) for f in ("surprised", "allies")
        )
        chosen = plays.character_ids(sheets, params, "combatants") or [
            k for k, c in chars.items() if not c.dead
        ]
        everyone = list(dict.fromkeys([*chosen, *surprised, *allies]))
        dead = [chars[key].name for key in everyone if chars[key].dead]
        if dead or not everyone:
            why = f"{dead[0]} is dead" if dead else "no living character to put in order"
            raise RuleViolation("initiative", why)
        entry: dict[str, Record] = {k: {"id": k, "sheet": dump(chars[k])} for k in everyone}
        for k in allies:
            entry[k] |= {"ally": True}
        stored: Record = {"aware": [entry[k] for k in everyone if k not in surprised]}
        stored |= {"surprised": [entry[k] for k in surprised]}
        stored |= {"scale": variants["scale"], "affinity_bonus": variants["affinity_bonus"]}
        stored |= named(RULES)
        rolled, draws = plays.recorded(partial(_initiative, stored), source)
        record = plays.make_record("initiative", stored, draws)
        card = _initiative_card(rolled)
        new = {r.key: dump(r.after) for r in rolled if r.after != chars[r.key]}
        return TablePlay(record, card, new, card.outcome)

    def initiative(self, sheets: Roster, variants: Variants, source: RandomSource) -> Initiative:
        """The turn tracker's order: each rolls INI as the character (fatigue, affinity, a
        curse spent); ranked by step, then INI bonus, then INI score, then a PC before an
        NPC. Equal ranks are left to the table: friendly ties are the PCs' choice."""
        chars = {key: validated(sheet) for key, sheet in sheets.items()}
        dead = [char.name for char in chars.values() if char.dead]
        if dead:
            raise RuleViolation("initiative", f"{dead[0]} is dead")
        chosen = {key: variants[key] for key in ("scale", "affinity_bonus")}
        combatants = [(key, char, False) for key, char in chars.items()]
        rolled = combat.initiative_as(combatants, source, **chosen)
        return Initiative(
            tuple(Standing(r.key, _rank(r), _standing(r)) for r in rolled),
            tuple(
                DieView.of(d, r.entry.combatant.name) for r in rolled for d in r.entry.result.dice
            ),
            {r.key: dump(r.after) for r in rolled if r.after != chars[r.key]},
        )

    def tool_follow(
        self, chain: Chain, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> Play:
        if _root(chain) != "extended-check":
            raise RuleViolation("follow-up", f"a {_root(chain)} entry has no follow-up")
        if action not in (TURN, *DECISIONS):
            raise InvalidInput("action", action, "one of " + ", ".join((TURN, *DECISIONS)))
        stored = turn_params(params) if action == TURN else {}
        new, draws = plays.recorded(
            partial(extended_follow, _extended(chain), action, stored), source
        )
        card = extended_card(new)
        return Play(plays.make_record(action, stored, draws), card, None, card.outcome)

    def tool_card(self, chain: Chain) -> Card:
        kind = _root(chain)
        if kind == "extended-check":
            return extended_card(_extended(chain))
        if len(chain) != 1:
            raise InvalidInput("chain", len(chain), f"one record for a {kind} entry")
        if kind == "initiative":
            return _initiative_card(plays.replayed(chain[0], partial(_initiative, chain[0])))
        if kind in RUNS:
            return plays.replayed(chain[0], partial(_run, chain[0]))[1]
        raise InvalidInput("record.kind", kind, "a Legacy roll, sheet or table action")

    def creation(self, state: Params, form: Params, source: RandomSource) -> CreationStep | None:
        return guided.creation(state, form, source)
