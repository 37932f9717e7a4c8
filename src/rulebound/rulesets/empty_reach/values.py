"""Frozen values with the model API the game's code uses, checked by hand, without pydantic.

A request or a content entry is built from JSON-shaped data many times a second (every
roll, every odds question, every process that loads the content), and importing pydantic
alone costs more than the whole odds question. So each of these values checks its input
by hand: data of the exact types (``int``, ``str``, a list or tuple of them, a nested
object), within its bounds, is checked and built here. Anything else (a number given as
text, a wrong type, a value out of bounds, an unknown field) goes to the pydantic model
that mirrors the class (``schema``), imported only then, which either converts it or
refuses it; so the values accepted and every error's wording are the model's own.

A value is immutable, equal to another of its class with the same fields, hashable, and
dumps as the model did (``model_dump``, ``mode="json"``); ``core.canonical`` converts it
through ``model_dump``, as it converted the model, so serialised bytes are unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import FrozenInstanceError
from enum import Enum
from typing import Any, ClassVar, Self

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.empty_reach.rules import StepDie


class Fallback(Exception):
    """The input is not plainly valid: the pydantic model decides."""


Check = Callable[[Any], Any]
"""A field's check: the value as stored, or ``Fallback``."""

_FALLBACK = Fallback()
_new = object.__new__


def text(low: int = 0, high: int | None = None, pattern: str | None = None) -> Check:
    compiled = re.compile(pattern) if pattern else None

    def check(value: Any) -> Any:
        if type(value) is not str or len(value) < low or (high is not None and len(value) > high):
            raise _FALLBACK
        if compiled is not None and ("\n" in value or compiled.search(value) is None):
            raise _FALLBACK
        return value

    return check


def whole(low: int | None = None, high: int | None = None) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not int or (low is not None and value < low):
            raise _FALLBACK
        if high is not None and value > high:
            raise _FALLBACK
        return value

    return check


def switch(value: Any) -> Any:
    if type(value) is not bool:
        raise _FALLBACK
    return value


def literal(*choices: str) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not str or value not in choices:
            raise _FALLBACK
        return value

    return check


_LABELLED = {die.label: die for die in StepDie}


def die(value: Any) -> Any:
    """A step die as the model's ``Die`` reads it (``StepDie.parse``; a label at once)."""
    if type(value) is StepDie:
        return value
    found = _LABELLED.get(value) if type(value) is str else None
    if found is not None:
        return found
    try:
        return StepDie.parse("die", value)
    except InvalidInput:
        raise _FALLBACK from None


def optional(check: Check) -> Check:
    def maybe(value: Any) -> Any:
        return None if value is None else check(value)

    return maybe


def many(check: Check, high: int | None = None) -> Check:
    """A list or tuple of items, stored as a tuple."""

    def items(value: Any) -> Any:
        kind = type(value)
        if (kind is not tuple and kind is not list) or (high is not None and len(value) > high):
            raise _FALLBACK
        return tuple([check(item) for item in value])

    return items


def nested(cls: type[Frozen]) -> Check:
    """Another value: one of ``cls``, or its fields as a mapping."""

    def check(value: Any) -> Any:
        if type(value) is cls:
            return value
        if type(value) is not dict:
            raise _FALLBACK
        return cls.plain(value)

    return check


class Frozen:
    """The base of the hand-checked values: fields, checks, defaults, and the model API.

    A subclass names, as class keywords, a check per field in the fields' order
    (``checks``: the order of a dump; the fields are annotated too), the optional
    fields' defaults (``defaults``) and the fields a dump leaves out when None
    (``dropped``: added later, so old JSON stays unchanged); ``validate`` may add a
    check of the whole. The mirroring pydantic model in ``schema`` has the class's name.
    """

    __slots__ = ()
    _checks: ClassVar[dict[str, Check]]
    _defaults: ClassVar[dict[str, Any]]
    _dropped: ClassVar[tuple[str, ...]]
    _build: ClassVar[Callable[..., Any]]
    _names: ClassVar[tuple[str, ...]]
    _required: ClassVar[frozenset[str]]
    _template: ClassVar[dict[str, Any]]

    def __init_subclass__(
        cls,
        *,
        checks: dict[str, Check],
        defaults: dict[str, Any] | None = None,
        dropped: tuple[str, ...] = (),
    ) -> None:
        cls._checks, cls._defaults, cls._dropped = checks, defaults or {}, dropped
        cls._names = names = tuple(checks)
        cls._required = frozenset(n for n in names if n not in cls._defaults)
        cls._build = _builder(cls, names)
        cls._template = {name: cls._defaults.get(name) for name in names}

    def __init__(self, **data: Any) -> None:
        built = type(self).model_validate(data)
        object.__setattr__(self, "__dict__", dict(built.__dict__))

    # building

    @classmethod
    def plain(cls, data: Mapping[str, Any]) -> Self:
        """``data`` checked by hand, or ``Fallback`` when it is not plainly valid."""
        checks, defaults = cls._checks, cls._defaults
        if not cls._required.issubset(data):
            raise _FALLBACK
        values = cls._template.copy()  # every field, in order (``_builder``)
        for key, value in data.items():
            check = checks.get(key)
            if check is None:
                raise _FALLBACK
            # a default is valid as it is (None, 0, an empty tuple: the same object)
            values[key] = value if value is defaults.get(key, _FALLBACK) else check(value)
        built: Self = _new(cls)
        built.__dict__.update(values)
        try:
            built.validate()
        except (InvalidInput, ValueError):
            raise _FALLBACK from None
        return built

    def validate(self) -> None:
        """A check of the whole value, raising ``InvalidInput`` or ``ValueError`` as the
        model's ``model_validator`` does; none by default."""

    @classmethod
    def model_validate(cls, data: Any) -> Self:
        """The value ``data`` describes; pydantic's ``ValidationError`` when it is invalid."""
        if type(data) is cls:
            return data
        if type(data) is dict:
            try:
                return cls.plain(data)
            except Fallback:
                pass
        return cls.from_model(cls.schema().model_validate(for_model(data)))

    @classmethod
    def schema(cls) -> Any:
        """The pydantic model that mirrors this class (imported only when it is needed)."""
        from rulebound.rulesets.empty_reach import schema

        return getattr(schema, cls.__name__)

    @classmethod
    def from_model(cls, model: Any) -> Self:
        """The value a validated model holds (the model converted what it accepted)."""
        return cls.plain(model.model_dump())

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Self:
        """A copy with ``update`` applied, unchecked (as pydantic's ``model_copy``)."""
        built: Self = type(self)._build(**(self.__dict__ | dict(update or {})))
        return built

    # reading

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        as_json = mode == "json"
        dropped = self._dropped
        return {
            name: dumped(value, as_json)
            for name, value in self.__dict__.items()
            if not (value is None and name in dropped)
        }

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(self.__dict__.values())  # always in the fields' order (``_builder``)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.__dict__.items())
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self._values()))


def _builder(cls: type[Frozen], names: tuple[str, ...]) -> Callable[..., Any]:
    """A constructor of ``cls`` from its fields (by position or name), unchecked: one small
    function per class, made once at import, that fills the instance's fields at once."""
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    filled = ", ".join(f"{name!r}: {name}" for name in names)
    code = (
        f"def build({', '.join(names)}):\n"
        f"    o = _new(_cls)\n    o.__dict__.update({{{filled}}})\n    return o\n"
    )
    exec(code, scope)
    build: Callable[..., Any] = scope["build"]
    build.__qualname__ = f"{cls.__name__}.build"
    return build


def _rebuild(cls: type[Frozen], values: tuple[Any, ...]) -> Frozen:
    """A value from its fields (unpickling, ``copy``)."""
    built: Frozen = cls._build(*values)
    return built


def dumped(value: Any, as_json: bool) -> Any:
    """A field's value as the model dumped it: a die as its label, a value as its fields,
    a tuple as a list in JSON."""
    kind = type(value)
    if kind is StepDie:
        return value.label
    if kind is tuple:
        items = [dumped(item, as_json) for item in value]
        return items if as_json else tuple(items)
    if isinstance(value, Frozen):
        return value.model_dump(mode="json" if as_json else "python")
    if as_json and isinstance(value, Enum):
        return value.value
    return value


def for_model(data: Any) -> Any:
    """``data`` with the values inside it as the model takes them (their fields); anything
    holding no value is passed on as it is, so the model's errors show the input as given."""
    if isinstance(data, Frozen):
        return data.model_dump()
    if type(data) is dict:
        converted = {key: for_model(value) for key, value in data.items()}
        same = all(converted[key] is value for key, value in data.items())
        return data if same else converted
    if type(data) is list or type(data) is tuple:
        items = [for_model(item) for item in data]
        if all(new is old for new, old in zip(items, data, strict=True)):
            return data
        return items if type(data) is list else tuple(items)
    return data
