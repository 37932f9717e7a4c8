"""Jinja2 helpers: field widgets need a few filters; autoescape is on for every template."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fastapi.templating import Jinja2Templates

from rulebound.core.canonical import fraction_text
from rulebound.core.errors import RuleboundError
from rulebound.rulesets.contract import ActionView, Field
from rulebound.rulesets.forms import initial_values as form_values
from rulebound.rulesets.plays import ROLL, params_of
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.views import MOVED
from rulebound.web.play import looks_blank
from rulebound.web.views import PLAY_LABELS, chance_text

DIE_SHAPES = {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20", 100: "d100"}


def die_shape(sides: int) -> str:
    return DIE_SHAPES.get(sides, "dx")


def selected(field: Any, value: Any, choice: str) -> bool:
    """Whether a choice is the field's current value (or among its values)."""
    if isinstance(value, list | tuple | set):
        return choice in {str(v) for v in value}
    return value is not None and str(value) == choice


def grouped(fields: Sequence[Field]) -> list[tuple[str, list[Field]]]:
    """Runs of fields sharing a group, in the adapter's order."""
    runs: list[tuple[str, list[Field]]] = []
    for field in fields:
        if runs and runs[-1][0] == field.group:
            runs[-1][1].append(field)
        else:
            runs.append((field.group, [field]))
    return runs


def field_kinds(fields: Sequence[Field]) -> str:
    return json.dumps([[f.name, f.kind] for f in fields])


def is_multiline(field: Field | Mapping[str, Any], value: Any) -> bool:
    """Text fields shown as a textarea (``field`` may be a stored card's field as a dict)."""
    get = field.get if isinstance(field, Mapping) else lambda key: getattr(field, key, None)
    if get("kind") != "text":
        return False
    return bool(get("multiline")) or "\n" in str(value or "")


def defaults(fields: Sequence[Field]) -> dict[str, Any]:
    return form_values(fields, {})


@cache
def unseen_follow_ups(ruleset: str) -> tuple[ActionView, ...]:
    """What the roller of a blind roll may still do unseen (the same for every result)."""
    try:
        return get_game(ruleset).unseen_follow_ups
    except RuleboundError:
        return ()


def chance_had(ruleset: str, record: Mapping[str, Any] | None) -> dict[str, str] | None:
    """The chance a roll had to succeed before it was rolled, for its card: worked out from
    its record through the game contract (``load``, then ``chances``), so every game and
    plug-in gets it; None for anything but a roll's record, or where the game cannot say.
    A record states the whole request, so the answer is the same for every viewer."""
    if not isinstance(record, Mapping) or record.get("kind") != ROLL:
        return None
    return _chance_of(ruleset, json.dumps(params_of(record), sort_keys=True, default=str))


@lru_cache(maxsize=1024)
def _chance_of(ruleset: str, params: str) -> dict[str, str] | None:
    try:
        game = get_game(ruleset)
        chances = game.chances(game.load(json.loads(params)))
    except (RuleboundError, ValueError, TypeError, KeyError):  # an old or foreign record
        return None
    p, label = chances.success, chances.success_label
    shown = chance_text(p)
    said = {"impossible": f"no chance of {label}", "certain": f"{label} was certain"}
    return {
        "shown": shown,
        "exact": fraction_text(p),
        "said": said.get(shown, f"{shown} chance of {label}"),
    }


def die_labels(dice: Sequence[Mapping[str, Any]]) -> list[str]:
    """The label under each die of a card: its own, unless the labels only count the dice
    (d1, d2, ... in order, on dice of one size, as a pool's are): "d1" under a d10 reads as a
    die size, so those show as #1, #2... Display only: the card, its record and a replay of
    it keep the game's labels."""
    labels = [str(die.get("label", "")) for die in dice]
    counting = [f"d{n}" for n in range(1, len(dice) + 1)]
    sizes = [f"d{die.get('sides')}" for die in dice]
    one_size = len(set(sizes)) == 1
    if dice and one_size and labels == counting and labels != sizes:
        return [f"#{n}" for n in range(1, len(dice) + 1)]
    return labels


def as_shown(die: Mapping[str, Any]) -> tuple[Any, list[Any], list[str]]:
    """The face a die shows, the faces it showed before (struck through), and its other
    marks. A die the rules moved (a mark "now 5") shows what it counts as, its rolled face
    struck beside it. Display only, like ``die_labels``: the card keeps the rolled face."""
    marks = [str(m) for m in die.get("marks") or ()]
    history = list(die.get("history") or ())
    moved = [m for m in marks if MOVED.fullmatch(m)]
    if not moved:
        return die.get("face"), history, marks
    now = MOVED.fullmatch(moved[-1])
    assert now is not None
    kept = [m for m in marks if m not in moved]
    return int(now.group(1)), [*history, die.get("face")], kept


TEMPLATES = Path(__file__).with_name("templates")


@cache
def page_templates() -> Jinja2Templates:
    """The pages' templates, made once per process and shared by its apps: each template
    is compiled once, not again by every app a process builds (a test's, a worker's)."""
    templates = Jinja2Templates(directory=TEMPLATES)
    env = templates.env
    env.autoescape = True
    env.auto_reload = False  # compiled once: no file check on every render
    env.filters.update(die_shape=die_shape, field_kinds=field_kinds)
    env.globals.update(
        selected=selected,
        grouped=grouped,
        defaults=defaults,
        is_multiline=is_multiline,
        privacy_labels=PLAY_LABELS,
        unseen_follow_ups=unseen_follow_ups,
        chance_had=chance_had,
        die_labels=die_labels,
        as_shown=as_shown,
        looks_blank=looks_blank,
    )
    return templates
