"""Ghostburn at the virtual table: forms, cards, and plays built from records.

A stored roll is the ruleset's own JSON request (``request_from_payload``'s
format, with the sheet as it stood at the roll under ``character``, less any
item set aside), the items set aside (``set_aside``, shown on the card) and
its draws; a luck spend is the Luck Bonus it added. ``rebuild`` replays the chain,
so a card shown after a restart is recomputed from the same faces, and a luck
spend returns the new result and the sheet with one Luck Point fewer together.

Forms:

- The roll dialog posts ``skill``, ``trick`` (a core or signature trick key,
  or ``""`` for an improvised trick), ``dl`` and ``chart`` (improvised tricks
  only), ``traits.<trait>`` (the target's trait for a trick that reads its DL
  from one), ``dl_shift`` (GM adjustment, in ladder levels), ``ability`` (``""``
  for the skill's primary ability, or the ability the GM calls for instead) and
  ``set_aside`` (gear and augs the character is not using: values
  ``gear:<name>`` / ``aug:<name>``; every other item for the skill is a
  candidate and stacking picks the highest of each kind). A table's rule
  variants travel as an optional ``variants`` mapping, not listed in the dialog.
- ``spend-luck`` takes no fields; it needs a Luck Point on the current sheet
  and adds the sheet's Luck Bonus.
- The ``regain-luck`` sheet action adds ``points`` Luck Points. The rule text
  does not say how Luck Points come back, so this is the game master's
  bookkeeping, not a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.ghostburn.character import (
    MAX_LUCK_POINTS,
    Character,
    check_character,
    parse_character,
)
from rulebound.rulesets.ghostburn.content import GhostburnContent, TrickKind, builtin_content
from rulebound.rulesets.ghostburn.ladder import Difficulty
from rulebound.rulesets.ghostburn.luck import spend_character_luck, with_luck
from rulebound.rulesets.ghostburn.odds import band_odds, luck_advice, luck_odds, p_success
from rulebound.rulesets.ghostburn.roll import GhostburnResult, roll
from rulebound.rulesets.ghostburn.rules import BonusKind
from rulebound.rulesets.ghostburn.ruleset import request_from_payload
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
    TableRules,
)
from rulebound.rulesets.table_support import (
    TableDefaults,
    draws_json,
    form_int,
    form_int_map,
    form_strings,
    form_text,
    replay_draws,
)

SUCCESS_KEY = "success (reach the DL)"
"""The first key of ``chances``; then one key per band (the chart's labels), summing to 1."""
IMPROVISED = ""
PRIMARY = ""
CAP = DEFAULT_LIMITS.max_modifier
"""The sheet's bound on scores and bonuses (the character model's)."""
ITEM_KINDS = (("gear", "gear"), ("aug", "augs"))
"""(value prefix in ``set_aside``, list on the sheet)."""


# --- records and replay -------------------------------------------------------------


def _root(record: Record) -> GhostburnResult:
    payload = record.get("request")
    if not isinstance(payload, Mapping):
        raise InvalidInput("record.request", payload, "the roll's request as a JSON object")
    source = replay_draws(record)
    result = roll(request_from_payload(payload, builtin_content()), source)
    if not source.exhausted:
        raise InvalidInput("record.draws", record["draws"], "exactly two d10 draws")
    return result


def rebuild(chain: Sequence[Record]) -> GhostburnResult:
    """Replay a stored chain: the roll first, then its luck spend (at most one)."""
    if not chain or chain[0].get("kind") != "roll":
        raise InvalidInput("chain", [r.get("kind") for r in chain], "a roll record first")
    result = _root(chain[0])
    for record in chain[1:]:
        if record.get("kind") != "spend-luck":
            raise InvalidInput("chain.kind", record.get("kind"), "spend-luck")
        bonus = record.get("bonus")
        if not isinstance(bonus, int) or isinstance(bonus, bool):
            raise InvalidInput("record.bonus", bonus, "the Luck Bonus added, a whole number")
        result = with_luck(result, bonus)
    return result


# --- cards ----------------------------------------------------------------------------


def _title(result: GhostburnResult, content: GhostburnContent) -> str:
    request = result.request
    spec = content.skills.get(request.skill or "")
    parts = [spec.name if spec else "Check"]
    if request.trick and request.trick.key is None:
        parts.append("improvised trick")
    elif request.trick:
        parts.append(f"{request.trick.kind} trick {request.trick.name}")
    return f"{', '.join(parts)} vs {request.difficulty.label}"


def _difficulty_text(difficulty: Difficulty) -> str:
    text = f"DL {difficulty.label}, {difficulty.source}"
    if difficulty.shift:
        text += f", shifted {difficulty.shift:+d} level(s) by the GM from {difficulty.base}"
    return text


def _modifiers(result: GhostburnResult) -> tuple[str, ...]:
    lines = []
    for line in result.bonuses:
        text = f"{line.source} ({line.kind.value}): {line.value:+d}"
        if not line.applied:
            text += " (not applied)"
        if line.note:
            text += f" ({line.note})"
        lines.append(text)
    if result.luck is not None:
        lines.append(f"{result.luck.source} (luck): {result.luck.value:+d}")
    return tuple(lines)


def _luck_action(result: GhostburnResult, sheet: Mapping[str, Any]) -> ActionView | None:
    """Offered while the roll has no Luck Bonus and the roller had a point when rolling."""
    if result.luck is not None:
        return None
    points, bonus = sheet.get("luck_points"), sheet.get("luck_bonus")
    if not isinstance(points, int) or not isinstance(bonus, int) or points < 1 or bonus < 1:
        return None
    advice = luck_advice(result, bonus)
    chart = result.request.chart
    verb = "lift it to" if advice.changes_outcome else "leave it at"
    lines = (
        f"+{bonus} would {verb} {chart.band(advice.band_with_luck).label} "
        f"(result {advice.total_with_luck})",
        f"{points} Luck Point(s) when rolled",
    )
    return ActionView("spend-luck", f"Spend a Luck Point (+{bonus})", (), lines)


def card_for(result: GhostburnResult, root: Record) -> Card:
    """``root`` is the chain's roll record: its sheet informs the luck offer."""
    content = builtin_content()
    request = result.request
    dice = " + ".join(str(d.face) for d in result.dice)
    steps = [f"2d10: {dice} = {result.dice_sum}"]
    bonus = sum(m.value for m in result.modifiers if m.kind != BonusKind.LUCK.value)
    steps.append(f"bonuses {bonus:+d}: result {result.dice_sum + bonus}")
    if result.luck is not None:
        steps.append(f"Luck Point {result.luck.value:+d}: result {result.total}")
    steps.append(f"{result.total} vs {request.difficulty.label}: {result.band.label}")
    details = [_difficulty_text(request.difficulty)]
    if request.substitution is not None:
        primary = content.abilities[request.substitution.primary].name
        used = content.abilities[request.substitution.used].name
        details.append(f"The GM called for {used} instead of {primary}")
    trick = content.tricks.get(request.trick.key or "") if request.trick else None
    if trick is not None and trick.summary:
        details.append(trick.summary)
    if result.parent is not None:
        details.append(f"Before the Luck Point: {result.parent.headline}")
    aside = [item.partition(":") for item in root.get("set_aside") or ()]
    if aside:
        details.append("Not in use: " + ", ".join(f"{name} ({kind})" for kind, _, name in aside))
    action = _luck_action(result, root.get("request", {}).get("character") or {})
    return Card(
        title=_title(result, content),
        outcome=f"{result.band.label}: {result.band.outcome}",
        succeeded=result.succeeded,
        dice=tuple(
            DieView(d.label, d.sides, d.face, d.marks, d.state.value, d.history, d.role)
            for d in result.dice
        ),
        modifiers=_modifiers(result),
        steps=tuple(steps),
        details=tuple(details),
        actions=(action,) if action else (),
    )


def _chain_card(chain: Sequence[Record]) -> Card:
    return card_for(rebuild(chain), chain[0])


# --- forms ----------------------------------------------------------------------------


def _sheet_field(error: InvalidInput) -> InvalidInput:
    """The package names sheet fields ``character.<path>``; the table's form uses ``<path>``."""
    field = error.field.removeprefix("character.")
    field = "sheet" if field == "character" else field
    return InvalidInput(field, error.value, error.expected, tip=error.tip)


def _character(sheet: Mapping[str, Any]) -> Character:
    try:
        return check_character(parse_character(sheet), builtin_content())
    except InvalidInput as exc:
        raise _sheet_field(exc) from None


def _parse_items(text: str, field: str, content: GhostburnContent) -> list[dict[str, Any]]:
    """Lines of ``name: skill +N`` (e.g. ``laser sight: firearms +1``)."""
    items = []
    for number, line in enumerate(filter(None, (raw.strip() for raw in text.splitlines())), 1):
        name, _, rest = line.rpartition(":")
        skill, _, bonus = rest.strip().rpartition(" ")
        skill = skill.strip()
        if not name.strip() or not skill or not bonus.lstrip("+").isdigit():
            raise InvalidInput(
                field, line, f"line {number} as name: skill +N, e.g. laser sight: firearms +1"
            )
        if skill not in content.skills:
            known = ", ".join(sorted(content.skills))
            raise InvalidInput(field, line, f"line {number} naming a skill: {known}")
        items.append({"name": name.strip(), "skill": skill, "bonus": int(bonus.lstrip("+"))})
    return items


def _items_text(items: Sequence[Mapping[str, Any]]) -> str:
    return "\n".join(f"{i['name']}: {i['skill']} +{i['bonus']}" for i in items)


class GhostburnTable(TableDefaults):
    title = "Ghostburn"

    key = "ghostburn"

    def validate_sheet(self, sheet: Mapping[str, Any]) -> Sheet:
        return _character(sheet).model_dump(mode="json")

    def new_sheet(self, name: str) -> Sheet:
        """Every ability at 0, no skills or items; Luck Points 0 and the smallest Luck Bonus.

        The rule text sizes neither, so the player sets both on the sheet.
        """
        content = builtin_content()
        return self.validate_sheet(
            {
                "name": name,
                "abilities": dict.fromkeys(content.abilities, 0),
                "luck_points": 0,
                "luck_bonus": 1,
            }
        )

    def sheet_view(self, sheet: Sheet) -> SheetView:
        character = _character(sheet)
        content = builtin_content()
        fields: list[Field] = [Field("name", "Name", "text")]
        fields += [
            Field(
                f"abilities.{a.key}",
                a.name,
                "int",
                minimum=-CAP,
                maximum=CAP,
                help="Blank if the character has no score in it.",
                group="Abilities",
            )
            for a in content.abilities.values()
        ]
        ability_choices = tuple(Choice(a.key, a.name) for a in content.abilities.values())
        for s in content.skills.values():
            primary = content.abilities[s.ability].name
            fields += [
                Field(
                    f"skills.{s.key}.bonus",
                    f"{s.name} bonus",
                    "int",
                    minimum=0,
                    maximum=CAP,
                    help="Blank for no skill bonus. " + s.summary,
                    group="Skills",
                ),
                Field(
                    f"skills.{s.key}.ability",
                    f"{s.name} primary ability",
                    "select",
                    (Choice(PRIMARY, f"{primary} (the skill's own)"), *ability_choices),
                    default=PRIMARY,
                    group="Skills",
                ),
            ]
        signature = tuple(
            Choice(t.key, f"{t.name} ({content.skills[t.skill].name})")
            for t in content.tricks.values()
            if t.kind is TrickKind.SIGNATURE
        )
        fields += [
            Field(
                "gear",
                "Gear (one per line: name: skill +N, e.g. laser sight: firearms +1)",
                "text",
                group="Gear and augs",
            ),
            Field(
                "augs",
                "Augs (one per line: name: skill +N)",
                "text",
                group="Gear and augs",
            ),
            Field("signature_tricks", "Signature tricks known", "multiselect", signature),
            Field(
                "luck_points",
                "Luck Points",
                "int",
                minimum=0,
                maximum=MAX_LUCK_POINTS,
                group="Luck",
            ),
            Field(
                "luck_bonus",
                "Luck Bonus (added by one Luck Point)",
                "int",
                minimum=1,
                maximum=CAP,
                group="Luck",
            ),
        ]
        values: dict[str, Any] = {"name": character.name}
        values |= {f"abilities.{a}": character.abilities.get(a) for a in content.abilities}
        for skill in content.skills:
            entry = character.skills.get(skill)
            values[f"skills.{skill}.bonus"] = entry.bonus if entry else None
            values[f"skills.{skill}.ability"] = (entry.ability if entry else None) or PRIMARY
        dumped = character.model_dump(mode="json")
        values |= {
            "gear": _items_text(dumped["gear"]),
            "augs": _items_text(dumped["augs"]),
            "signature_tricks": tuple(character.signature_tricks),
            "luck_points": character.luck_points,
            "luck_bonus": character.luck_bonus,
        }
        tracks = (
            ("Luck Points", str(character.luck_points)),
            ("Luck Bonus", f"+{character.luck_bonus}"),
        )
        return SheetView(tuple(fields), values, tracks)

    def apply_sheet_form(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        content = builtin_content()
        updated: dict[str, Any] = dict(sheet)
        if "name" in form:
            updated["name"] = str(form["name"] or "").strip()
        abilities = form_int_map(form, "abilities", sheet.get("abilities") or {})
        skills = {k: dict(v) for k, v in (sheet.get("skills") or {}).items()}
        for key in form:
            group, _, rest = key.partition(".")
            if group == "skills" and rest:
                skill, _, part = rest.rpartition(".")
                if part not in ("bonus", "ability") or not skill:
                    raise InvalidInput(key, form[key], "skills.<skill>.bonus or .ability")
                entry = skills.setdefault(skill, {})
                if part == "bonus":
                    entry["bonus"] = form_int(form, key)
                else:
                    entry["ability"] = form_text(form, key)
        for skill, entry in list(skills.items()):
            if entry.get("bonus") is None and not entry.get("ability"):
                del skills[skill]  # no bonus and no override: the same as no entry (G2)
                continue
            skills[skill] = {k: v for k, v in entry.items() if v is not None}
        updated["abilities"], updated["skills"] = abilities, skills
        for kind in ("gear", "augs"):
            if kind in form:
                updated[kind] = _parse_items(str(form[kind] or ""), kind, content)
        if "signature_tricks" in form:
            updated["signature_tricks"] = list(form_strings(form, "signature_tricks"))
        for name in ("luck_points", "luck_bonus"):
            if name in form:
                updated[name] = form_int(form, name)
        try:
            return self.validate_sheet(updated)
        except InvalidInput as exc:
            kind, _, where = exc.field.partition(".")
            if kind in ("gear", "augs") and kind in form:  # "gear.1.bonus": the form's line 2
                line, _, part = where.partition(".")
                place = f"line {int(line) + 1} {part}" if line.isdigit() else where
                raise InvalidInput(kind, exc.value, f"{exc.expected} ({place})") from None
            raise

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        character = _character(sheet)
        content = builtin_content()
        skills = []
        for s in content.skills.values():
            ability = character.primary_ability(s.key, content)
            score = character.abilities.get(ability)
            shown = f"{score:+d}" if score is not None else "not on the sheet"
            bonus = (
                f", skill {character.skill_bonus(s.key):+d}" if s.key in character.skills else ""
            )
            skills.append(
                Choice(s.key, f"{s.name} ({content.abilities[ability].name} {shown}{bonus})")
            )
        default_skill = next(iter(character.skills), skills[0].value)
        tricks = [Choice(IMPROVISED, "Improvised trick (the GM sets the DL)")]
        for t in content.tricks.values():
            if t.kind is TrickKind.SIGNATURE and t.key not in character.signature_tricks:
                continue
            dl = f"DL {t.dl}" if t.dl is not None else f"DL from the target's {t.dl_trait}"
            tricks.append(
                Choice(t.key, f"{t.name} ({content.skills[t.skill].name}, {t.kind.value}, {dl})")
            )
        levels = tuple(
            Choice(level.name, f"{level.name} ({level.value})") for level in content.ladder.levels
        )
        fields = [
            Field("skill", "Skill", "select", tuple(skills), default=default_skill),
            Field(
                "trick",
                "Trick",
                "select",
                tuple(tricks),
                default=IMPROVISED,
                help="A trick sets its skill and DL; an improvised one needs a DL.",
            ),
            Field(
                "dl",
                "DL (improvised trick)",
                "select",
                (Choice("", "-"), *levels),
                default="",
                help="A level, or a number from 1 to 100.",
            ),
            Field(
                "chart",
                "Outcome chart (improvised trick)",
                "select",
                (
                    Choice("", "default"),
                    *(Choice(key, key) for key in content.charts if key != "default"),
                ),
                default="",
                help="A trick uses its own chart.",
            ),
        ]
        fields += [
            Field(
                f"traits.{trait}",
                f"Target's {trait}",
                "text",
                help="A level name or a number; tricks "
                + ", ".join(t.name for t in content.tricks.values() if t.dl_trait == trait)
                + " read their DL from it.",
                group="traits",
            )
            for trait in dict.fromkeys(
                t.dl_trait for t in content.tricks.values() if t.dl_trait is not None
            )
        ]
        fields += [
            Field(
                "dl_shift",
                "GM adjusts the DL (levels)",
                "int",
                default=0,
                minimum=1 - len(content.ladder.levels),
                maximum=len(content.ladder.levels) - 1,
            ),
            Field(
                "ability",
                "Ability (GM substitution)",
                "select",
                (
                    Choice(PRIMARY, "the skill's primary ability"),
                    *(Choice(a.key, a.name) for a in content.abilities.values()),
                ),
                default=PRIMARY,
            ),
        ]
        items = tuple(
            Choice(
                f"{prefix}:{item.name}",
                f"{item.name} ({prefix} {item.bonus:+d}, {content.skills[item.skill].name})",
            )
            for prefix, kind in ITEM_KINDS
            for item in (character.gear if kind == "gear" else character.augs)
        )
        if items:
            fields.append(
                Field(
                    "set_aside",
                    "Gear and augs not in use",
                    "multiselect",
                    items,
                    default=(),
                    help="Every other item for the skill applies; the highest of each kind counts.",
                )
            )
        return tuple(fields)

    def _payload(self, sheet: Sheet, form: Mapping[str, Any]) -> dict[str, Any]:
        """The ruleset's JSON request for this form, with the sheet as it is now."""
        character = _character(sheet).model_dump(mode="json")
        aside = form_strings(form, "set_aside")
        known = {
            f"{prefix}:{item['name']}" for prefix, kind in ITEM_KINDS for item in character[kind]
        }
        for chosen in aside:
            if chosen not in known:
                raise InvalidInput(
                    "set_aside",
                    chosen,
                    "items on the sheet: " + (", ".join(sorted(known)) or "none"),
                )
        for prefix, kind in ITEM_KINDS:
            character[kind] = [i for i in character[kind] if f"{prefix}:{i['name']}" not in aside]
        payload: dict[str, Any] = {
            "character": character,
            "dl_shift": form_int(form, "dl_shift") or 0,
        }
        for name in ("skill", "trick", "dl", "chart", "ability"):
            text = form_text(form, name)
            if text is not None:
                payload[name] = text
        spec = builtin_content().tricks.get(payload.get("trick", ""))
        if spec is not None and spec.dl_trait is not None:
            # only the trait this trick reads; the dialog lists every trait any trick reads
            trait = spec.dl_trait
            nested = form.get("traits")
            value = form_text(form, f"traits.{trait}")
            if value is None and isinstance(nested, Mapping):
                value = form_text(nested, trait)
            if value is not None:
                payload["traits"] = {trait: value}
        variants = form.get("variants")
        if variants:
            if not isinstance(variants, Mapping):
                raise InvalidInput("variants", variants, "an object of variant key to choice")
            payload["variants"] = dict(variants)
        return payload

    def chances(self, sheet: Sheet, form: Mapping[str, Any]) -> dict[str, Fraction]:
        payload = self._payload(sheet, form)
        request = request_from_payload(payload, builtin_content())
        modifier, difficulty, chart = request.modifier, request.difficulty, request.chart
        labels = [band.label for band in chart.bands]
        names = {
            band.key: band.label if labels.count(band.label) == 1 else f"{band.label} ({band.key})"
            for band in chart.bands
        }
        chances = {SUCCESS_KEY: p_success(modifier, difficulty)}
        chances |= {names[k]: p for k, p in band_odds(modifier, difficulty, chart).items()}
        character = payload["character"]
        if character["luck_points"] > 0:
            bonus = character["luck_bonus"]
            luck = luck_odds(modifier, difficulty, chart, bonus)
            chances[f"a Luck Point (+{bonus}) would lift the band"] = luck.p_luck_helps
            chances[f"success spending a Luck Point (+{bonus}) when it helps"] = (
                luck.p_success_with_luck
            )
        return chances

    def roll(self, sheet: Sheet, form: Mapping[str, Any], source: RandomSource) -> Play:
        payload = self._payload(sheet, form)
        result = roll(request_from_payload(payload, builtin_content()), source)
        record: Record = {
            "kind": "roll",
            "request": payload,
            "set_aside": sorted(set(form_strings(form, "set_aside"))),
            "draws": draws_json(result.provenance.draws),
        }
        return Play(record, card_for(result, record), None, result.headline)

    def act(
        self,
        sheet: Sheet,
        chain: Sequence[Record],
        action: str,
        params: Mapping[str, Any],
        source: RandomSource,
    ) -> Play:
        if action != "spend-luck":
            raise InvalidInput("action", action, "spend-luck")
        result = rebuild(chain)
        spent = spend_character_luck(result, _character(sheet))
        luck = spent.result.luck
        assert luck is not None
        record: Record = {"kind": "spend-luck", "bonus": luck.value, "draws": []}
        card = card_for(spent.result, chain[0])
        return Play(record, card, spent.character.model_dump(mode="json"), spent.result.headline)

    def card(self, chain: Sequence[Record]) -> Card:
        if len(chain) == 1 and chain[0].get("kind") == "regain-luck":
            return _regain_card(chain[0])
        return _chain_card(chain)

    def sheet_actions(self, sheet: Sheet) -> tuple[ActionView, ...]:
        character = _character(sheet)
        room = MAX_LUCK_POINTS - character.luck_points
        if room < 1:
            return ()
        points = Field("points", "Luck Points", "int", default=1, minimum=1, maximum=room)
        return (
            ActionView(
                "regain-luck",
                "Regain Luck Points",
                (points,),
                (f"{character.luck_points} now; the GM decides when luck comes back",),
            ),
        )

    def sheet_act(
        self, sheet: Sheet, action: str, params: Mapping[str, Any], source: RandomSource
    ) -> Play:
        if action != "regain-luck":
            raise InvalidInput("action", action, "regain-luck")
        character = _character(sheet)
        room = MAX_LUCK_POINTS - character.luck_points
        points = form_int(params, "points")
        points = 1 if points is None else points
        if not 1 <= points <= room:
            raise InvalidInput("points", points, f"from 1 to {room} (at most {MAX_LUCK_POINTS})")
        after = character.with_luck_points(character.luck_points + points)
        record: Record = {
            "kind": "regain-luck",
            "name": character.name,
            "points": points,
            "before": character.luck_points,
            "draws": [],
        }
        card = _regain_card(record)
        return Play(record, card, after.model_dump(mode="json"), card.outcome)


def _regain_card(record: Record) -> Card:
    try:
        name, points, before = str(record["name"]), int(record["points"]), int(record["before"])
    except (KeyError, TypeError, ValueError):
        raise InvalidInput("record", record, "a regain-luck record: name, points, before") from None
    text = f"{name} regains {points} Luck Point(s): {before} -> {before + points}"
    return Card("Luck Points regained", text, None)


TABLE: TableRules = GhostburnTable()
"""Typed as the protocol so mypy proves the adapter satisfies it."""
