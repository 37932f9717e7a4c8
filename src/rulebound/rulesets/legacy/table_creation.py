"""Guided Legacy creation, step by step as the seed gives it, replayable from its state.

The state holds the choices so far and every draw made, in order: each call rebuilds
the ``CreationDraft`` by replaying those draws, applies the posted step, and draws
new dice only when a step needs them (the primaries when the identity is posted, the
secondaries when the assignment is posted, the reroll and then LCK, REN and the
soul's SAN/COR when the secondaries are posted). Posting the same state again never
rerolls what it already holds.

Steps (``state["step"]``): ``identity`` (name, race, origin, soul, class: the soul's
restrictions are enforced), ``assign`` (``assign.STR`` ... ``assign.PER``: the index
of a rolled result, each used once), ``secondaries`` (``reroll``: one secondary or
blank), ``luck`` (LCK, fate and REN shown; ``affinities`` for a soul that grants
extra ones), then the last step shows SAN/COR and carries the finished sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, RandomSource
from rulebound.rulesets.legacy.character import Character, Event
from rulebound.rulesets.legacy.content import PRIMARIES, SECONDARIES, catalogue
from rulebound.rulesets.legacy.creation import CreationDraft, parse_assignment
from rulebound.rulesets.legacy.rules import characteristic_bonus
from rulebound.rulesets.legacy.table_common import dump, event_lines, text, whole, words
from rulebound.rulesets.table import Choice, CreationStep, Field

IDENTITY = ("name", "race", "origin", "soul", "char_class")


class _Resume:
    """Replays the state's draws, then draws new faces from the live source (if any)."""

    def __init__(self, draws: Sequence[Draw], live: RandomSource | None) -> None:
        self._draws = tuple(draws)
        self._live = live
        self.made: list[Draw] = []

    def draw(self, sides: int) -> int:
        index = len(self.made)
        if index < len(self._draws):
            held = self._draws[index]
            if held.sides != sides:
                raise InvalidInput("state.draws", index, f"a d{sides} at draw {index}")
            face = held.face
        elif self._live is None:
            raise InvalidInput("state", "(too few draws)", "the state of the last step")
        else:
            face = self._live.draw(sides)
        self.made.append(Draw(sides, face))
        return face

    def describe(self) -> dict[str, object]:
        return self._live.describe() if self._live is not None else {"kind": "replay"}


def _draws(state: Mapping[str, Any]) -> list[Draw]:
    try:
        return [Draw(int(s), int(f)) for s, f in state.get("draws") or ()]
    except (TypeError, ValueError):
        raise InvalidInput("state.draws", state.get("draws"), "[sides, face] pairs") from None


def _identity(state: Mapping[str, Any]) -> dict[str, str]:
    raw = state.get("identity")
    if not isinstance(raw, Mapping):
        raise InvalidInput("state.identity", raw, "the identity chosen on the first step")
    return {key: str(raw.get(key) or "") for key in IDENTITY}


def _start(identity: Mapping[str, str]) -> CreationDraft:
    return CreationDraft.start(
        identity["name"],
        identity["race"],
        identity["origin"],
        identity["soul"],
        identity["char_class"],
    )


def _assignment(form: Mapping[str, Any]) -> tuple[int, ...]:
    """One rolled-result index per primary; every error names the primary's field."""
    if not any(f"assign.{code}" in form for code in PRIMARIES):
        joined = text(form, "assign")
        return parse_assignment(joined) if joined else tuple(range(len(PRIMARIES)))
    taken: dict[int, str] = {}
    for code in PRIMARIES:
        name = f"assign.{code}"
        index = whole(form, name)
        if index is None or not 0 <= index < len(PRIMARIES):
            raise InvalidInput(name, form.get(name), f"a rolled result, 0 to {len(PRIMARIES) - 1}")
        if index in taken:
            raise InvalidInput(name, index, f"a result not already given to {taken[index]}")
        taken[index] = code
    return tuple(i for i, _ in sorted(taken.items(), key=lambda item: PRIMARIES.index(item[1])))


def _rebuild(
    state: Mapping[str, Any], live: RandomSource | None, until: str
) -> tuple[CreationDraft, _Resume]:
    """The draft after the steps ``state`` records, up to ``until``'s dice."""
    source = _Resume(_draws(state), live)
    draft = _start(_identity(state)).roll_primaries(source)
    if until == "primaries":
        return draft, source
    draft = draft.assign_order(tuple(int(i) for i in state.get("assign") or ()))
    draft = draft.roll_secondaries(source)
    if until == "secondaries":
        return draft, source
    reroll = str(state.get("reroll") or "")
    if reroll:
        draft = draft.reroll_secondary(reroll, source)
    return draft, source


def _finish(
    draft: CreationDraft, source: _Resume, affinities: tuple[str, ...]
) -> tuple[Character, tuple[Event, ...], int]:
    start = len(source.made)
    change, _ = draft.finish(source, affinities)
    return change.character, change.events, start


def _next(state: Mapping[str, Any], step: str, source: _Resume, **more: Any) -> dict[str, Any]:
    kept = {k: v for k, v in state.items() if k in ("identity", "assign", "reroll", "affinities")}
    return kept | more | {"step": step, "draws": [[d.sides, d.face] for d in source.made]}


def creation(
    state: Mapping[str, Any], form: Mapping[str, Any], source: RandomSource
) -> CreationStep:
    step = str(state.get("step") or "identity")
    if step == "identity":
        if not form:
            return _identity_page({"step": "identity"})
        identity = {key: text(form, key) for key in IDENTITY}
        _start(identity)  # name, race, origin, soul and its restrictions, before any die
        draft, made = _rebuild({"identity": identity}, source, "primaries")
        return _assign_page(_next({"identity": identity}, "assign", made), draft)
    if step == "assign":
        order = _assignment(form)
        draft, made = _rebuild(state, None, "primaries")
        draft.assign_order(order)
        ahead = dict(state) | {"assign": list(order)}
        draft, made = _rebuild(ahead, source, "secondaries")
        return _secondaries_page(_next(ahead, "secondaries", made), draft)
    if step == "secondaries":
        reroll = text(form, "reroll").upper()
        if reroll and reroll not in SECONDARIES:
            raise InvalidInput("reroll", reroll, "blank or one of " + ", ".join(SECONDARIES))
        ahead = dict(state) | {"reroll": reroll}
        draft, made = _rebuild(ahead, source, "reroll")
        char, events, start = _finish(draft, made, ())
        return _luck_page(_next(ahead, "luck", made), draft, char, made.made[start:])
    if step == "luck":
        draft, made = _rebuild(state, None, "reroll")
        chosen = words(form, "affinities")
        char, events, _ = _finish(draft, made, chosen)
        done = _next(state, "done", made, affinities=list(chosen))
        notes = _sanity_notes(char, events)
        return CreationStep("Sanity and corruption", (), done, notes, dump(char))
    if step == "done":
        return CreationStep("Character created", (), dict(state), ("This character is made.",))
    raise InvalidInput("state.step", step, "identity, assign, secondaries, luck or done")


# --- pages ------------------------------------------------------------------------------


def _identity_page(state: Mapping[str, Any]) -> CreationStep:
    c = catalogue()
    souls = []
    for key, soul in c.souls.items():
        limits = []
        if soul.races:
            limits.append("only " + ", ".join(c.races[r].name for r in soul.races))
        if soul.forbidden_races:
            limits.append("not " + ", ".join(c.races[r].name for r in soul.forbidden_races))
        if soul.forbidden_classes:
            limits.append("no " + ", ".join(soul.forbidden_classes))
        souls.append(
            Choice(key, f"{soul.name} ({soul.kind}" + "".join(f"; {x}" for x in limits) + ")")
        )
    fields = (
        Field("name", "Name", "text"),
        Field(
            "race",
            "Race",
            "select",
            tuple(Choice(k, r.name) for k, r in c.races.items()),
            default=next(iter(c.races)),
        ),
        Field(
            "origin",
            "Origin",
            "select",
            tuple(Choice(k, o.name) for k, o in c.origins.items()),
            default=next(iter(c.origins)),
        ),
        Field("soul", "Soul", "select", tuple(souls), default=next(iter(c.souls))),
        Field(
            "char_class",
            "Class (optional)",
            "text",
            default="",
            help="Some souls bar Engineers or Priests.",
        ),
    )
    notes = (
        "A soul's restrictions are checked before any die is rolled.",
        "Next: roll 2d10 seven times for the primary characteristics.",
    )
    return CreationStep("Name, race, origin and soul", fields, state, notes)


def _assign_page(state: Mapping[str, Any], draft: CreationDraft) -> CreationStep:
    race = catalogue().race(draft.race)
    rolls = draft.primary_rolls
    choices = tuple(Choice(str(i), f"{value} (roll {i + 1})") for i, value in enumerate(rolls))
    fields = tuple(
        Field(
            f"assign.{code}",
            f"{code} (racial {race.base(code)})",
            "select",
            choices,
            default=str(i),
            group="assign",
        )
        for i, code in enumerate(PRIMARIES)
    )
    notes = (
        "Rolled (2d10 x7): " + ", ".join(str(r) for r in rolls),
        "Give each result to one primary; the racial value is added.",
    )
    return CreationStep("Assign the primary characteristics", fields, state, notes)


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
    choices = (Choice("", "keep them all"), *(Choice(s, f"reroll {s}") for s in SECONDARIES))
    field = Field(
        "reroll", "Reroll one secondary (the better result is kept)", "select", choices, default=""
    )
    return CreationStep("Secondary characteristics", (field,), state, tuple(notes))


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
        options = tuple(Choice(k, a.name) for k, a in c.affinities.items() if k != origin.affinity)
        fields = (
            Field(
                "affinities",
                f"{soul.name} soul: up to {soul.extra_affinities} more affinities",
                "multiselect",
                options,
                default=(),
            ),
        )
    return CreationStep("Luck, fate and renown", fields, state, tuple(notes))


def _sanity_notes(char: Character, events: Sequence[Event]) -> tuple[str, ...]:
    notes = [f"SAN {char.san}, COR {char.cor}"]
    notes += [line for line in event_lines(events) if not line.startswith("secondary reroll")]
    notes.append(
        f"{char.name} is ready: wounds {char.max_wounds}, fate {char.fate}, REN {char.ren}"
    )
    return tuple(notes)
