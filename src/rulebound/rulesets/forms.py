"""Read form values by each field's kind, for every front end and every game.

Browser forms post strings (and nothing at all for an unticked box), JSON
clients post typed values, the CLI passes option strings; ``read`` accepts all
three, turns each value into its field's kind (int, bool, a choice, a list),
holds it to the field's bounds and choices, and reports every bad field of the
form at once. Choices match case- and separator-insensitively ("deep dark" is
``deep-dark``), and come back as the choice's own value.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.core.keys import key_of
from rulebound.rulesets.contract import Choice, Field

TRUE_WORDS = frozenset({"on", "true", "1", "yes", "y"})
FALSE_WORDS = frozenset({"off", "false", "0", "no", "n", ""})
INT_PATTERN = re.compile(r"[+-]?\d{1,9}")
MISSING = object()


def read(
    fields: Sequence[Field],
    data: Mapping[str, Any],
    *,
    defaults: bool = True,
    required: bool = True,
) -> dict[str, Any]:
    """Typed values by field name; a field left out takes its default (or is left out).

    A ``required`` field left out or blank is an error (unless ``required`` is False, for
    a designer table that only wants what was given); a missing ``bool`` is False.
    Keys that name no field are ignored here (the game decides what it refuses).
    """
    values: dict[str, Any] = {}
    problems: list[InvalidInput] = []
    get = data.get
    plan, usual = _plan(fields)
    if usual is not None and defaults and required:  # a form seen before: its own function
        usual(data, values, problems)
        if problems:
            raise_all(problems)
        return values
    for field, name, needed, is_bool, has_default, how, low, high, default in plan:
        raw = get(name)
        if raw is not None:
            if how and _plain(how, raw, low, high):
                values[name] = raw if how == _WHOLE else _plain_value(how, raw)
                continue
            try:
                value = coerce(field, raw)
            except InvalidInput as exc:
                problems.append(exc)
                continue
            if value is not MISSING:
                values[name] = value
                continue
        if needed and required:
            problems.append(InvalidInput(name, None, required_text(field)))
        elif is_bool:
            values[name] = default if defaults else False
        elif defaults and has_default:
            values[name] = _default(field) if default is MISSING else default
    if problems:
        raise_all(problems)
    return values


_WHOLE, _TEXT, _WORDS = 1, 2, 3
"""Kinds ``read`` takes plain values of at once: a whole number, a one-line text, a
multiselect without choices (words, as ``coerce`` splits them at commas)."""


def _plain(how: int, raw: Any, low: float, high: float) -> bool:
    """Whether ``raw`` is a plain value of its kind, which ``coerce`` would take as is."""
    kind = type(raw)
    if how == _WHOLE:
        return kind is int and low <= raw <= high
    if how == _TEXT:
        return kind is int or (kind is str and bool(raw.strip()))
    return kind is list and all(type(item) is str for item in raw)


def _plain_value(how: int, raw: Any) -> Any:
    """``coerce``'s answer for a plain text or words value (``_plain``)."""
    if how == _TEXT:
        return str(raw).strip()
    words = (word.strip() for item in raw for word in item.split(","))
    return [word for word in words if word]


def _value(field: Field, raw: Any, how: int, low: float, high: float, problems: list[Any]) -> Any:
    """One given value as ``coerce`` reads it; ``MISSING`` for blank, ``_FAILED`` (its
    problem appended) for a bad one."""
    if how and _plain(how, raw, low, high):
        return raw if how == _WHOLE else _plain_value(how, raw)
    try:
        return coerce(field, raw)
    except InvalidInput as exc:
        problems.append(exc)
        return _FAILED


Plan = tuple[tuple[Field, str, bool, bool, bool, int, float, float, Any], ...]
Usual = Callable[[Mapping[str, Any], dict[str, Any], list[InvalidInput]], None]
_FAILED = object()
_PLANS: dict[int, tuple[Sequence[Field], tuple[Plan, Usual | None]]] = {}
_PLANNING = threading.Lock()
MAX_PLANS = 256
_ANY = float("inf")


def _plan(fields: Sequence[Field]) -> tuple[Plan, Usual | None]:
    """Each unique field with its name; whether it is required, a bool, has a default;
    which of the plain kinds it is (a whole number with its bounds, so a plain int in
    them is taken as it is; a one-line text; words); and the value it takes when left
    out (``MISSING`` where a fresh one is made each time: a repeated field's list). And
    the same for the usual reading (defaults and required fields), with what leaving it
    out does there (an error, that value, or nothing). Worked out once per tuple of
    fields (a game's forms are tuples). The usual reading's function (``_reader``) is
    made when the same tuple comes back: a form built afresh for each call (from a sheet)
    would pay for making it every time, so it reads through the plan (None here)."""
    cached = _PLANS.get(id(fields))
    if cached is not None and cached[0] is fields:
        plan, usual = cached[1]
        if usual is None:
            usual = _reader(plan)
            with _PLANNING:
                _PLANS[id(fields)] = (fields, (plan, usual))
        return plan, usual
    plan = tuple(
        (
            f,
            f.name,
            f.required,
            is_bool,
            f.default is not None,
            _WHOLE
            if f.kind == "int"
            else _TEXT
            if f.kind == "text" and not f.multiline
            else _WORDS
            if f.kind == "multiselect" and not f.choices
            else 0,
            -_ANY if f.minimum is None else f.minimum,
            _ANY if f.maximum is None else f.maximum,
            bool(f.default) if is_bool else MISSING if f.repeated else f.default,
        )
        for f in unique(fields)
        for is_bool in (f.kind == "bool",)
    )
    if isinstance(fields, tuple):
        with _PLANNING:  # only on a miss: request threads share the plans
            while len(_PLANS) >= MAX_PLANS:  # bounded: the newest goes, the first stay
                _PLANS.popitem()
            _PLANS[id(fields)] = (fields, (plan, None))
    return plan, None


def _reader(plan: Plan) -> Usual:
    """The usual reading of a plan (defaults and required fields) as one small function,
    the fields in their order, each one's left-out rule written in (made once per form,
    like ``trusted_builder``): the same values and problems as the plan's loop gives."""
    scope: dict[str, Any] = {
        "_value": _value,
        "_default": _default,
        "MISSING": MISSING,
        "InvalidInput": InvalidInput,
        "required_text": required_text,
    }
    lines = ["def read(data, values, bad):", "    get = data.get"]
    for i, (field, name, needed, is_bool, has_default, how, low, high, default) in enumerate(plan):
        scope |= {f"f{i}": field, f"n{i}": name, f"d{i}": default, f"lo{i}": low, f"hi{i}": high}
        if needed:
            left_out = f"bad.append(InvalidInput(n{i}, None, required_text(f{i})))"
        elif is_bool or has_default:
            left_out = f"values[n{i}] = " + (f"_default(f{i})" if default is MISSING else f"d{i}")
        else:
            left_out = "pass"
        lines += [f"    raw = get(n{i})", "    if raw is None:", f"        {left_out}"]
        exact = _exact_choices(field)
        if exact:  # a choice's own value, posted as it is: what ``coerce`` gives back
            scope[f"c{i}"] = exact
            lines += [
                f"    elif raw.__class__ is str and raw in c{i}:",
                f"        values[n{i}] = raw",
            ]
        if how == _WHOLE:  # a plain int in bounds, as ``_plain`` takes it, without a call
            lines += [
                f"    elif raw.__class__ is int and lo{i} <= raw <= hi{i}:",
                f"        values[n{i}] = raw",
            ]
        lines += [
            "    else:",
            f"        value = _value(f{i}, raw, {how}, lo{i}, hi{i}, bad)",
            "        if value is MISSING:",
            f"            {left_out}",
            "        elif value is not _FAILED:",
            f"            values[n{i}] = value",
        ]
    scope["_FAILED"] = _FAILED
    exec("\n".join(lines) + "\n", scope)  # one small function per form, made once
    reader: Usual = scope["read"]
    return reader


def _exact_choices(field: Field) -> frozenset[str]:
    """The values a single select takes exactly as given (``choose`` matches a choice's
    value first): the non-blank ones without surrounding spaces (``coerce`` strips a value,
    and reads a blank one as left out). Empty for any other field."""
    if field.kind != "select" or field.repeated:
        return frozenset()
    return frozenset(c.value for c in field.choices if c.value and c.value == c.value.strip())


def unique(fields: Iterable[Field]) -> list[Field]:
    """The first field of each name (a form may list one name in several groups)."""
    seen: dict[str, Field] = {}
    for field in fields:
        if field.name in seen:
            first = seen[field.name]
            if first.choices or field.choices:
                seen[field.name] = _merged(first, field)
            continue
        seen[field.name] = field
    return list(seen.values())


def _merged(first: Field, other: Field) -> Field:
    return replace(first, choices=(*first.choices, *other.choices))


def _default(field: Field) -> Any:
    default = field.default
    if field.repeated:
        return list(default) if isinstance(default, tuple) else [default]
    return default


def required_text(field: Field) -> str:
    return f"{what(field)} (required: {field.label or field.name} must be given)"


def coerce(field: Field, raw: Any) -> Any:
    """One field's value as its kind, or ``MISSING`` for left out or blank."""
    if raw is MISSING or raw is None:
        return MISSING
    if field.repeated:
        items = _items(field, raw)
        if field.kind == "dice":
            return [_int(field, item) for item in items]
        return [_choice(field, item) for item in items]
    if isinstance(raw, list | tuple):
        if not raw:
            return MISSING
        raw = raw[-1]
    if field.kind == "sheet":
        if not isinstance(raw, Mapping):
            raise InvalidInput(field.name, raw, what(field))
        return dict(raw)
    if field.kind == "bool":
        return _bool(field, raw)
    if isinstance(raw, str) and not raw.strip():
        return MISSING
    if field.kind == "int":
        return _int(field, raw)
    if field.kind == "select":
        return _choice(field, raw)
    if not isinstance(raw, str | int) or isinstance(raw, bool):
        raise InvalidInput(field.name, raw, what(field))
    return str(raw) if field.multiline else str(raw).strip()


def _items(field: Field, raw: Any) -> list[Any]:
    if isinstance(raw, str):
        return [part for part in (p.strip() for p in raw.split(",")) if part]
    if isinstance(raw, list | tuple):
        items: list[Any] = []
        for item in raw:
            items += _items(field, item) if isinstance(item, str) else [item]
        return items
    if isinstance(raw, int) and not isinstance(raw, bool) and field.kind == "dice":
        return [raw]
    raise InvalidInput(field.name, raw, what(field))


def _bool(field: Field, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        return raw.strip().lower() in TRUE_WORDS
    raise InvalidInput(field.name, raw, what(field))


def _int(field: Field, raw: Any) -> int:
    if isinstance(raw, bool):
        raise InvalidInput(field.name, raw, what(field))
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, float) and raw.is_integer() and abs(raw) < 1e9:
        value = int(raw)
    elif isinstance(raw, str) and INT_PATTERN.fullmatch(raw.strip()):
        value = int(raw.strip())
    else:
        raise InvalidInput(field.name, raw, what(field))
    low, high = field.minimum, field.maximum
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidInput(field.name, value, what(field))
    return value


def _choice(field: Field, raw: Any) -> str:
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise InvalidInput(field.name, raw, what(field))
    text = str(raw).strip()
    if not field.choices:
        return text
    found = choose(field.choices, text)
    if found is None:
        raise InvalidInput(field.name, text, what(field))
    return found


def choose(choices: Sequence[Choice], given: str) -> str | None:
    """The choice ``given`` names: its value exactly, else by key, else by label."""
    for choice in choices:
        if choice.value == given:
            return choice.value
    wanted = key_of(given)
    for choice in choices:
        if key_of(choice.value) == wanted:
            return choice.value
    for choice in choices:
        if key_of(choice.label) == wanted:
            return choice.value
    return None


def what(field: Field) -> str:
    """What a field accepts, in words."""
    if field.kind == "bool":
        return "yes or no (true/false)"
    if field.kind == "sheet":
        return "a character sheet (a JSON object; a character file in the CLI)"
    if field.kind in ("int", "dice"):
        low, high = field.minimum, field.maximum
        noun = "die numbers" if field.kind == "dice" else "a whole number"
        if low is not None and high is not None:
            return f"{noun} from {low} to {high}"
        if low is not None:
            return f"{noun} of at least {low}"
        if high is not None:
            return f"{noun} of at most {high}"
        return noun
    if field.choices:
        shown = [c.value for c in field.choices if c.value]
        names = ", ".join(shown[:12]) + (
            f" (and {len(shown) - 12} more)" if len(shown) > 12 else ""
        )
        many = "any of" if field.kind == "multiselect" else "one of"
        return f"{many} {names}" if shown else "nothing (there is no choice yet)"
    if field.kind in ("select", "multiselect"):  # no choice to offer: its help says why
        why = f": {field.help.rstrip('.')}" if field.help else ""
        return f"a choice (there is none yet{why})"
    return "text"


def pairs(field: str, values: Sequence[str] | None, whole: bool = False) -> list[tuple[str, Any]]:
    """``NAME=VALUE`` texts (``--trait resolve=Hard``), each value a whole number with ``whole``
    (``--gear "scope=2"``); every bad one is reported at once, as ``field`` or ``field.NAME``."""
    found, problems = [], []
    for value in values or ():
        name, sep, rest = (part.strip() for part in value.partition("="))
        try:
            if not (sep and name and rest):
                raise InvalidInput(field, value, "NAME=VALUE")
            found.append(
                (name, coerce(Field(f"{field}.{name}", "", "int"), rest) if whole else rest)
            )
        except InvalidInput as exc:
            problems.append(exc)
    raise_all(problems)
    return found


def parse_html_form(fields: Sequence[Field], data: Any) -> dict[str, Any]:
    """A posted HTML form (``getlist``) as raw values ``read`` takes: lists where repeated."""
    parsed: dict[str, Any] = {}
    for field in unique(fields):
        values = [v for v in data.getlist(field.name) if isinstance(v, str)]
        if field.repeated:
            parsed[field.name] = values
        elif field.kind == "bool":
            parsed[field.name] = any(v.strip().lower() in TRUE_WORDS for v in values)
        elif values:
            parsed[field.name] = values[-1]
    return parsed


def initial_values(fields: Sequence[Field], values: Mapping[str, Any]) -> dict[str, Any]:
    """Current values for a form: the given ones, else each field's default."""
    result = {}
    for field in fields:
        if field.name in values:
            result[field.name] = values[field.name]
        elif field.default is not None:
            result[field.name] = field.default
    return result


def field_for_error(fields: Sequence[Field], error_field: str) -> str | None:
    """The form field an ``InvalidInput.field`` points at (exact, or its dotted/spaced prefix)."""
    names = [f.name for f in fields]
    if error_field in names:
        return error_field
    for name in sorted(names, key=len, reverse=True):
        if error_field.startswith((name + ".", name + " ", name + "[")):
            return name
    head = error_field.split(" ")[0].split(".")[0]
    return head if head in names else None
