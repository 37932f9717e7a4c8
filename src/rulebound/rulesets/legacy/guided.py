"""Guided Legacy creation, step by step as the text gives it, replayable from its state.

The state holds the choices so far and every draw made, in order: each call rebuilds
the ``CreationDraft`` by replaying those draws, applies the posted step, and draws new
dice only when a step needs them. Posting the same state again never rerolls.

Steps (``state["step"]``) and their fields (the CLI option of each in brackets):
``identity``: ``name`` [--name], ``race`` [--race], ``origin`` [--origin], ``soul``
[--soul], ``char_class`` [--class] (the soul's restrictions are enforced before any die);
``assign``: ``assign`` [--assign], which rolled result each primary takes, as
``STR=0,DEX=3,...`` or seven indices (the rolls are in the step's notes);
``secondaries``: ``reroll`` [--reroll], one secondary or blank; ``luck``: ``affinities``
[--affinity, repeatable] for a soul that grants extra ones; then the last step shows
SAN/COR and carries the finished sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import Draw, RandomSource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Choice, CreationStep, Field
from rulebound.rulesets.fields import choices
from rulebound.rulesets.legacy.chain import event_lines
from rulebound.rulesets.legacy.character import Character, Event
from rulebound.rulesets.legacy.content import PRIMARIES, SECONDARIES, catalogue
from rulebound.rulesets.legacy.creation import CreationDraft, ResumeSource, parse_assignment
from rulebound.rulesets.legacy.restrictions import check_soul
from rulebound.rulesets.legacy.rules import characteristic_bonus
from rulebound.rulesets.legacy.sheets import dump

IDENTITY = ("name", "race", "origin", "soul", "char_class")
IN_ORDER = ",".join(str(i) for i in range(len(PRIMARIES)))


def _identity(state: Mapping[str, Any]) -> CreationDraft:
    raw = state.get("identity")
    if not isinstance(raw, Mapping):
        raise InvalidInput("state.identity", raw, "the identity chosen on the first step")
    name, race, origin, soul, char_class = (str(raw.get(key) or "") for key in IDENTITY)
    return CreationDraft.start(name, race, origin, soul, char_class)


def _rebuild(
    state: Mapping[str, Any], live: RandomSource | None, until: str
) -> tuple[CreationDraft, ResumeSource]:
    """The draft after the steps ``state`` records, up to ``until``'s dice."""
    try:
        draws = [Draw(int(s), int(f)) for s, f in state.get("draws") or ()]
    except (TypeError, ValueError):
        raise InvalidInput("state.draws", state.get("draws"), "[sides, face] pairs") from None
    source = ResumeSource(draws, live)
    draft = _identity(state).roll_primaries(source)
    if until == "primaries":
        return draft, source
    draft = draft.assign_order(tuple(int(i) for i in state.get("assign") or ()))
    draft = draft.roll_secondaries(source)
    if until == "secondaries":
        return draft, source
    reroll = str(state.get("reroll") or "")
    return (draft.reroll_secondary(reroll, source) if reroll else draft), source


def _next(state: Mapping[str, Any], step: str, source: ResumeSource, **more: Any) -> dict[str, Any]:
    kept = {k: v for k, v in state.items() if k in ("identity", "assign", "reroll", "affinities")}
    return kept | more | {"step": step, "draws": [[d.sides, d.face] for d in source.made]}


def creation(
    state: Mapping[str, Any], form: Mapping[str, Any], source: RandomSource
) -> CreationStep:
    step = str(state.get("step") or "identity")
    if step == "identity":
        if not form:
            return _identity_page({"step": "identity"})
        values = forms.read(_identity_page({}).fields, form)
        identity = {key: str(values.get(key) or "") for key in IDENTITY}
        chosen = {"identity": identity}
        _identity(chosen)  # name, race, origin, soul and its restrictions, before any die
        draft, made = _rebuild(chosen, source, "primaries")
        return _assign_page(_next(chosen, "assign", made), draft)
    if step == "assign":
        for key in form:
            if key.startswith("assign."):
                raise InvalidInput(key, form[key], f"one 'assign' value: {ASSIGN.help}")
        text = str(forms.read((ASSIGN,), form).get("assign") or "").strip()
        order = parse_assignment(text) if text else tuple(range(len(PRIMARIES)))
        draft, _ = _rebuild(state, None, "primaries")
        draft.assign_order(order)
        ahead = dict(state) | {"assign": list(order)}
        draft, made = _rebuild(ahead, source, "secondaries")
        return _secondaries_page(_next(ahead, "secondaries", made), draft)
    if step == "secondaries":
        reroll = forms.read((REROLL,), form).get("reroll") or ""
        ahead = dict(state) | {"reroll": reroll}
        draft, made = _rebuild(ahead, source, "reroll")
        start = len(made.made)
        char, _ = _finish(draft, made, (), preview=True)
        return _luck_page(_next(ahead, "luck", made), draft, char, made.made[start:])
    if step == "luck":
        draft, made = _rebuild(state, None, "reroll")
        extra = tuple(forms.read((_affinities_field(),), form).get("affinities") or ())
        char, events = _finish(draft, made, extra)
        done = _next(state, "done", made, affinities=list(extra))
        notes = [f"SAN {char.san}, COR {char.cor}"]
        notes += [n for n in event_lines(events) if not n.startswith("secondary reroll")]
        notes.append(
            f"{char.name} is ready: wounds {char.max_wounds}, fate {char.fate}, REN {char.ren}"
        )
        return CreationStep("Sanity and corruption", (), done, tuple(notes), dump(char))
    if step == "done":
        return CreationStep("Character created", (), dict(state), ("This character is made.",))
    raise InvalidInput("state.step", step, "identity, assign, secondaries, luck or done")


def _finish(
    draft: CreationDraft,
    source: ResumeSource,
    affinities: tuple[str, ...],
    *,
    preview: bool = False,
) -> tuple[Character, tuple[Event, ...]]:
    change, _ = draft.finish(source, affinities, preview=preview)
    return change.character, change.events


# --- pages ------------------------------------------------------------------------------

ORDER = (
    "STR=0,DEX=3,... (all seven) or seven indices in STR, DEX, CON, CHA, INT, WIL, PER "
    f"order (0 = the first rolled); {IN_ORDER} keeps the order rolled."
)
ASSIGN = Field(
    "assign", "Which rolled result each primary takes", "text", default=IN_ORDER, help=ORDER
)
REROLLS = choices({s: f"reroll {s}" for s in SECONDARIES}, Choice("", "keep them all"))
REROLL = Field("reroll", "Reroll one secondary (the better result is kept)", "select", REROLLS, "")


def _affinities_field(label: str = "More affinities", exclude: str = "", count: int = 0) -> Field:
    c = catalogue()
    options = tuple(Choice(k, a.name) for k, a in c.affinities.items() if k != exclude)
    help_ = f"Choose exactly {count}, other than the origin's." if count else ""
    return Field(
        "affinities", label, "multiselect", options, default=(), flag="affinity", help=help_
    )


def _allowed(soul: str, race: str) -> bool:
    try:
        check_soul(soul, race)
    except RuleViolation:
        return False
    return True


def _identity_page(state: Mapping[str, Any]) -> CreationStep:
    c = catalogue()
    limits = [f"{s.name}: {'; '.join([s.kind, *s.limits(c.races)])}" for s in c.souls.values()]
    fields = [Field("name", "Name", "text", required=True)]
    soul = next(iter(c.souls.values()))  # the defaults go together: a race the first soul allows
    race = next((r for r in c.races if _allowed(soul.key, r)), next(iter(c.races)))
    firsts = {"race": race, "origin": next(iter(c.origins)), "soul": soul.key}
    for name, table in (("race", c.races), ("origin", c.origins), ("soul", c.souls)):
        shown = choices({k: item.name for k, item in table.items()})  # "Dragon Soul" names it
        limited = ". ".join(limits) if name == "soul" else ""
        label, first = name.capitalize(), firsts[name]
        fields.append(Field(name, label, "select", shown, first, help=limited, required=True))
    help_ = "Some souls bar Engineers or Priests."
    fields.append(
        Field("char_class", "Class (optional)", "text", default="", flag="class", help=help_)
    )
    notes = (
        "A soul's restrictions are checked before any die is rolled.",
        "Next: roll 2d10 seven times for the primary characteristics.",
    )
    return CreationStep("Name, race, origin and soul", tuple(fields), state, notes)


def _assign_page(state: Mapping[str, Any], draft: CreationDraft) -> CreationStep:
    race = catalogue().race(draft.race)
    rolls = draft.primary_rolls
    notes = (
        "Rolled (2d10 x7): " + ", ".join(str(r) for r in rolls),
        "Results by index: " + ", ".join(f"[{i}] {r}" for i, r in enumerate(rolls)),
        "Racial values: " + ", ".join(f"{code} {race.base(code)}" for code in PRIMARIES),
        "Give each result to one primary; the racial value is added.",
    )
    return CreationStep("Assign the primary characteristics", (ASSIGN,), state, notes)


def _secondaries_page(state: Mapping[str, Any], draft: CreationDraft) -> CreationStep:
    c = catalogue()
    race = c.race(draft.race)
    notes = []
    for primary, secondary in c.pairs.items():
        value = draft.primaries[primary]
        bonus = characteristic_bonus(value, race.unnatural_bonuses.get(primary, 0))
        dice = draft.secondary_dice[secondary]
        shown = "+".join(str(d) for d in dice) or "no dice"
        notes.append(
            f"{primary} {value} (bonus {bonus}): {secondary} {len(dice)}d10 ({shown}) "
            f"+ {race.base(secondary)} = {draft.secondaries[secondary]}"
        )
    return CreationStep("Secondary characteristics", (REROLL,), state, tuple(notes))


def _luck_page(
    state: Mapping[str, Any], draft: CreationDraft, char: Character, dice: Sequence[Draw]
) -> CreationStep:
    c = catalogue()
    race, origin, soul = c.race(draft.race), c.origin(draft.origin), c.soul(draft.soul)
    notes = event_lines(draft.events)
    notes.append(
        f"LCK {char.lck} = 2d10 ({dice[0].face}+{dice[1].face}) + {race.base_lck} ({race.name})"
    )
    extra = f" + {origin.bonus_fate} ({origin.name})" if origin.bonus_fate else ""
    notes.append(f"Fate {char.fate} = the LCK bonus {characteristic_bonus(char.lck)}{extra}")
    notes.append(
        f"REN {char.ren} = 10 + 1d10 ({dice[2].face}) {race.ren:+d} ({race.name})"
        + (" + the soul's renown" if soul.start_ren else "")
    )
    mods = ", ".join(f"{k} {v:+d}" for k, v in origin.modifiers.items())
    notes.append(f"{origin.name}: {mods}; affinity {c.affinity(origin.affinity).name}")
    fields: tuple[Field, ...] = ()
    if soul.extra_affinities:
        count = soul.extra_affinities
        label = f"{soul.name} soul: {count} more affinities"
        fields = (_affinities_field(label, origin.affinity, count),)
    return CreationStep("Luck, fate and renown", fields, state, tuple(notes))
