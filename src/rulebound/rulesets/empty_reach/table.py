"""The Empty Reach at the virtual table: forms, cards, and plays built from records.

A stored roll is its request plus its draws; a push is its reroll choice plus
its draws. ``rebuild`` replays the chain, so a card shown after a restart is
recomputed from the same faces, never trusted from storage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pydantic import ValidationError

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.content import input_error
from rulebound.rulesets.empty_reach.advisor import push_options, recommend
from rulebound.rulesets.empty_reach.character import (
    Character,
    load_character,
    push_and_pay,
    request_for,
)
from rulebound.rulesets.empty_reach.check import CheckRequest, ExtraModifier, Options, prepare
from rulebound.rulesets.empty_reach.content import default_content
from rulebound.rulesets.empty_reach.gear import repair
from rulebound.rulesets.empty_reach.odds import p_success, success_distribution
from rulebound.rulesets.empty_reach.roll import EmptyReachResult, push, roll_check
from rulebound.rulesets.empty_reach.rules import LADDER
from rulebound.rulesets.empty_reach.specialties import heal, second_wind
from rulebound.rulesets.table import (
    ActionView,
    Card,
    Choice,
    DieView,
    Field,
    Play,
    Record,
    Sheet,
    SheetView,
)
from rulebound.rulesets.table_support import (
    TableDefaults,
    draws_json,
    form_flag,
    form_int,
    form_int_or,
    form_strings,
    replay_draws,
)

NO_SKILL = ""
DIE_CHOICES = tuple(Choice(d.label, d.label) for d in LADDER)


def rebuild(chain: Sequence[Record]) -> EmptyReachResult:
    """Replay a stored chain (root roll first, then each push)."""
    if not chain or chain[0].get("kind") != "roll":
        raise InvalidInput("chain", [r.get("kind") for r in chain], "a roll record first")
    result = roll_check(
        prepare(CheckRequest.model_validate(chain[0]["request"])), replay_draws(chain[0])
    )
    for record in chain[1:]:
        if record.get("kind") != "push":
            raise InvalidInput("chain.kind", record.get("kind"), "push")
        result = push(result, replay_draws(record), record["reroll"])
    return result


def _die_view(result: EmptyReachResult, index: int, pushable: bool) -> DieView:
    die = result.dice[index]
    return DieView(
        die.label,
        die.sides,
        die.face,
        die.marks,
        die.state.value,
        die.history,
        die.role,
        selectable=pushable and index in result.rerollable(),
    )


def _pct(p: Fraction) -> str:
    return f"{float(p):.1%}"


def _push_action(result: EmptyReachResult) -> ActionView | None:
    if result.pushes_left <= 0 or not result.rerollable():
        return None
    best = recommend(result)
    advice = []
    for option in push_options(result):
        if not option.selection:
            continue
        label = "reroll " + ", ".join(f"#{i}" for i in option.selection)
        advice.append(
            f"{label}: success {_pct(option.p_success)}, "
            f"E[successes] {float(option.expected_successes):.2f}, "
            f"bane {_pct(option.p_bane)}, E[cost] {float(option.expected_points):.2f}"
            + (f", gear loss {_pct(option.p_gear_loss)}" if result.check.gear_in_use else "")
            + (" (recommended)" if option == best else "")
        )
    dice = Field(
        "reroll",
        "Dice to reroll",
        "dice",
        default=tuple(str(i) for i in result.default_reroll()),
        help="Click the dice to reroll; 1s are locked.",
    )
    return ActionView("push", "Push the roll", (dice,), tuple(advice))


def card_for(result: EmptyReachResult) -> Card:
    check = result.check
    title = (check.request.skill or "Roll") + (f" ({check.attribute})" if check.attribute else "")
    action = _push_action(result)
    details = list(check.notes)
    if result.banes:
        details.append(f"{result.banes} bane(s) showing")
    if result.costs is not None:
        details.append("Push cost: " + result.costs.describe())
        details += [
            f"gear check d6: {d.face} ({', '.join(d.marks)})" for d in result.costs.gear_checks
        ]
    return Card(
        title=f"{title}: {check.pool.describe()}",
        outcome=result.headline,
        succeeded=result.succeeded,
        dice=tuple(_die_view(result, i, action is not None) for i in range(len(result.dice))),
        modifiers=tuple(m.describe() for m in check.modifiers),
        steps=tuple(s.description + ("" if s.applied else " (no effect)") for s in check.steps),
        details=tuple(details),
        actions=(action,) if action else (),
    )


class EmptyReachTable(TableDefaults):
    title = "The Empty Reach"

    key = "empty-reach"

    def validate_sheet(self, sheet: Mapping[str, Any]) -> Sheet:
        return load_character(sheet).model_dump(mode="json")

    def new_sheet(self, name: str) -> Sheet:
        content = default_content()
        return self.validate_sheet(
            {
                "name": name,
                "attributes": {a.name: "D8" for a in content.attributes.values()},
                "base_health": 4,
                "base_resolve": 4,
            }
        )

    def sheet_view(self, sheet: Sheet) -> SheetView:
        character = load_character(sheet)
        content = default_content()
        fields: list[Field] = [Field("name", "Name", "text")]
        fields += [
            Field(f"attributes.{a.name}", a.name, "select", DIE_CHOICES, group="Attributes")
            for a in content.attributes.values()
        ]
        skill_choices = (Choice(NO_SKILL, "-"), *DIE_CHOICES)
        fields += [
            Field(
                f"skills.{s.name}",
                f"{s.name} ({s.attribute})",
                "select",
                skill_choices,
                group="Skills",
            )
            for s in content.skills.values()
        ]
        fields += [
            Field("specialties", "Specialties (comma separated; repeat Tough/Hardened)", "text"),
            Field("base_health", "Base Health", "int", minimum=1, maximum=20, group="State"),
            Field("base_resolve", "Base Resolve", "int", minimum=1, maximum=20, group="State"),
            Field("damage", "Damage", "int", minimum=0, group="State"),
            Field("stress", "Stress", "int", minimum=0, group="State"),
            Field(
                "gear",
                "Gear (one per line: Name bonus/max, e.g. Crowbar 2/2)",
                "text",
                group="Gear",
            ),
        ]
        values: dict[str, Any] = {"name": character.name}
        values |= {f"attributes.{k}": v.label for k, v in character.attributes.items()}
        values |= {f"skills.{s.name}": NO_SKILL for s in content.skills.values()}
        values |= {f"skills.{k}": v.label for k, v in character.skills.items()}
        values |= {
            "specialties": ", ".join(character.specialties),
            "base_health": character.base_health,
            "base_resolve": character.base_resolve,
            "damage": character.damage,
            "stress": character.stress,
            "gear": "\n".join(f"{g.name} {g.bonus}/{g.max_bonus}" for g in character.gear),
        }
        tracks = (
            ("Health", f"{character.max_health - character.damage} / {character.max_health}"),
            ("Resolve", f"{character.max_resolve - character.stress} / {character.max_resolve}"),
            ("Broken", "yes" if character.broken else "no"),
            *(
                (f"Gear {g.name}", "destroyed" if g.destroyed else f"{g.bonus} / {g.max_bonus}")
                for g in character.gear
            ),
        )
        return SheetView(tuple(fields), values, tracks)

    def apply_sheet_form(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        updated: dict[str, Any] = dict(sheet)
        if "name" in form:
            updated["name"] = str(form["name"]).strip()
        attributes = dict(sheet.get("attributes", {}))
        skills = dict(sheet.get("skills", {}))
        for key, value in form.items():
            group, _, name = key.partition(".")
            if group == "attributes" and name:
                attributes[name] = value
            elif group == "skills" and name:
                if value in (NO_SKILL, None):
                    skills.pop(name, None)
                else:
                    skills[name] = value
        updated["attributes"], updated["skills"] = attributes, skills
        if "specialties" in form:
            updated["specialties"] = [
                s.strip() for s in str(form["specialties"]).split(",") if s.strip()
            ]
        for name in ("base_health", "base_resolve", "damage", "stress"):
            if name in form:
                updated[name] = form_int_or(form, name)
        if "gear" in form:
            updated["gear"] = _parse_gear_lines(str(form["gear"]), sheet.get("gear", []))
        return self.validate_sheet(updated)

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        character = load_character(sheet)
        content = default_content()
        skills = tuple(
            Choice(
                s.name,
                f"{s.name} ({character.attributes[s.attribute].label}"
                + (f" + {character.skills[s.name].label})" if s.name in character.skills else ")"),
            )
            for s in content.skills.values()
        )
        fields = [
            Field("skill", "Skill", "select", skills, default=skills[0].value),
            Field("helpers", "People helping", "int", default=0, minimum=0, maximum=3),
            Field(
                "difficulty_level",
                "Difficulty",
                "select",
                tuple(
                    Choice(d.key, f"{d.name} ({d.value:+d})") for d in content.difficulty.values()
                ),
                default="average",
            ),
            Field(
                "modifier", "Other modifier from the rules", "int", default=0, minimum=-5, maximum=5
            ),
        ]
        for group in ("stealth", "negotiation"):
            choices = tuple(
                Choice(s.key, f"{s.name} ({s.value:+d})")
                for s in content.situations.values()
                if s.group == group
            )
            fields.append(
                Field("situations", f"{group.title()} factors", "multiselect", choices, group=group)
            )
        owned = [content.specialty(n) for n in dict.fromkeys(character.specialties)]
        toggles = tuple(
            Choice(s.toggle_key, f"{s.name}: +1 {'/'.join(s.skills)} when {s.situation}")
            for s in owned
            if s.effect == "situational"
        )
        if toggles:
            fields.append(
                Field(
                    "situations",
                    "Specialties that apply",
                    "multiselect",
                    toggles,
                    group="specialties",
                )
            )
        swaps = tuple(
            Choice(s.name, f"{s.name}: {s.skill} with {s.attribute}")
            for s in owned
            if s.effect == "swap"
        )
        if swaps:
            fields.append(
                Field(
                    "swap", "Use another attribute", "select", (Choice("", "-"), *swaps), default=""
                )
            )
        usable = tuple(
            Choice(g.name, f"{g.name} (+{g.bonus})")
            for g in character.gear
            if g.bonus > 0 and not g.destroyed
        )
        if usable:
            fields.append(
                Field("gear", "Gear", "select", (Choice("", "none"), *usable), default="")
            )
        fields.append(Field("passive", "Passive roll (cannot be pushed)", "bool", default=False))
        return tuple(fields)

    def _request(self, sheet: Sheet, form: Mapping[str, Any]) -> CheckRequest:
        character = load_character(sheet)
        skill = str(form.get("skill") or "")
        if not skill:
            raise InvalidInput("skill", skill, "one of the twelve skills")
        modifier = form_int_or(form, "modifier")
        try:
            extra = (ExtraModifier(source="other modifier", value=modifier),) if modifier else ()
        except ValidationError as exc:
            raise InvalidInput("modifier", modifier, input_error(exc).expected) from None
        return request_for(
            character,
            skill,
            situations=form_strings(form, "situations"),
            helpers=form_int_or(form, "helpers"),
            difficulty_level=str(form.get("difficulty_level") or "") or None,
            gear=str(form.get("gear") or "") or None,
            swap=str(form.get("swap") or "") or None,
            modifiers=extra,
            unpushable="passive roll" if form_flag(form, "passive") else None,
            options=_options(form.get("variants")),
        )

    def chances(self, sheet: Sheet, form: Mapping[str, Any]) -> dict[str, Fraction]:
        check = prepare(self._request(sheet, form))
        counts = success_distribution(check)
        chances = {"success": counts.probability_where(lambda n: n >= 1)}
        if check.max_pushes:
            chances["success if pushed when failing"] = p_success(check, "if-failed")
        chances |= {_count(n): p for n, p in counts.probabilities().items()}
        return chances

    def roll(self, sheet: Sheet, form: Mapping[str, Any], source: RandomSource) -> Play:
        request = self._request(sheet, form)
        result = roll_check(prepare(request), source)
        record = {
            "kind": "roll",
            "request": request.model_dump(mode="json"),
            "draws": draws_json(result.provenance.draws),
        }
        return Play(record, card_for(result), None, result.headline)

    def act(
        self,
        sheet: Sheet,
        chain: Sequence[Record],
        action: str,
        params: Mapping[str, Any],
        source: RandomSource,
    ) -> Play:
        if action != "push":
            raise InvalidInput("action", action, "push")
        result = rebuild(chain)
        raw = params.get("reroll")
        if raw is None or raw == "":
            chosen = list(result.default_reroll())
        else:
            chosen = [_index(v) for v in (raw if isinstance(raw, list | tuple) else [raw])]
        character: Character = load_character(sheet)
        pushed, after = push_and_pay(character, result, source, chosen)
        record = {"kind": "push", "reroll": chosen, "draws": draws_json(pushed.provenance.draws)}
        return Play(record, card_for(pushed), after.model_dump(mode="json"), pushed.headline)

    def card(self, chain: Sequence[Record]) -> Card:
        return card_for(rebuild(chain))

    def sheet_actions(self, sheet: Sheet) -> tuple[ActionView, ...]:
        character = load_character(sheet)
        actions = [
            ActionView(
                "heal",
                "Recover Health or Resolve",
                (
                    Field("health", "Health", "int", default=0, minimum=0),
                    Field("resolve", "Resolve", "int", default=0, minimum=0),
                ),
            )
        ]
        damaged = tuple(
            Choice(g.name, f"{g.name} {g.bonus}/{g.max_bonus}")
            for g in character.gear
            if not g.destroyed and (g.bonus < g.max_bonus or g.bonus == 0)
        )
        if damaged:
            actions.append(
                ActionView(
                    "repair",
                    "Repair gear (Crafting roll)",
                    (Field("gear", "Item", "select", damaged),),
                )
            )
        if (
            character.broken
            and "Second Wind" in character.specialties
            and not character.second_wind_used
        ):
            actions.append(ActionView("second-wind", "Second Wind (Stamina roll, no push)"))
        return tuple(actions)

    def sheet_act(
        self, sheet: Sheet, action: str, params: Mapping[str, Any], source: RandomSource
    ) -> Play:
        character = load_character(sheet)
        if action == "heal":
            return _heal(character, params)
        if action == "repair":
            return _repair(character, str(params.get("gear") or ""), source)
        if action == "second-wind":
            return _second_wind(character, form_int(params, "to_health"), source)
        raise InvalidInput("action", action, "one of heal, repair, second-wind")


def _count(successes: int) -> str:
    return f"{successes} success" + ("" if successes == 1 else "es")


def _with_outcome(card: Card, title: str, outcome: str) -> Card:
    return Card(title, outcome, card.succeeded, card.dice, card.modifiers, card.steps)


def _heal(character: Character, params: Mapping[str, Any]) -> Play:
    health, resolve = form_int_or(params, "health"), form_int_or(params, "resolve")
    healed = heal(character, health, resolve)
    text = f"{character.name} recovers {health} Health, {resolve} Resolve"
    record: Record = {"kind": "heal", "health": health, "resolve": resolve, "draws": []}
    return Play(record, Card("Recovery", text, None), healed.model_dump(mode="json"), text)


def _repair(character: Character, gear: str, source: RandomSource) -> Play:
    crafting = roll_check(prepare(request_for(character, "Crafting")), source)
    after, outcome = repair(character, gear, crafting)
    base = card_for(crafting)
    card = _with_outcome(base, f"Repair {gear}: {base.title}", outcome.describe())
    record: Record = {
        "kind": "repair",
        "gear": gear,
        "draws": draws_json(crafting.provenance.draws),
    }
    return Play(record, card, after.model_dump(mode="json"), outcome.describe())


def _second_wind(character: Character, to_health: int | None, source: RandomSource) -> Play:
    wind, after = second_wind(character, source, to_health)
    text = f"{wind.roll.headline}: +{wind.health} Health, +{wind.resolve} Resolve"
    card = _with_outcome(card_for(wind.roll), "Second Wind", text)
    record: Record = {
        "kind": "second-wind",
        "to_health": wind.health,
        "draws": draws_json(wind.roll.provenance.draws),
    }
    return Play(record, card, after.model_dump(mode="json"), text)


def _options(variants: Any) -> Options:
    if not variants:
        return Options()
    if not isinstance(variants, Mapping):
        raise InvalidInput("variants", variants, "a mapping of variant to choice")
    try:
        return Options.model_validate(dict(variants))
    except ValidationError as exc:
        raise input_error(exc, prefix="variants") from None


def _index(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InvalidInput("reroll", value, "die indices as whole numbers") from None


def _parse_gear_lines(text: str, old: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    previous = {str(g.get("name")): g for g in old}
    items = []
    for number, line in enumerate(filter(None, (raw.strip() for raw in text.splitlines())), 1):
        name, _, numbers = line.rpartition(" ")
        bonus, _, maximum = numbers.partition("/")
        if not name or not bonus.isdigit() or not (maximum or bonus).isdigit():
            raise InvalidInput(f"gear line {number}", line, "Name bonus/max, e.g. Crowbar 2/2")
        item = dict(previous.get(name.strip(), {}))
        item |= {"name": name.strip(), "bonus": int(bonus), "max_bonus": int(maximum or bonus)}
        items.append(item)
    return items


TABLE = EmptyReachTable()
