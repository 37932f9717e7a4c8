"""Load game content (skills, specialties, races, tricks...) from TOML, validated on load.

Built-in content ships as package data; a game master's homebrew file goes
through the same models, so a malformed homebrew race fails with the same clear
error as a malformed built-in one.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from rulebound.core.errors import ContentError, InvalidInput

ModelT = TypeVar("ModelT", bound=BaseModel)


def describe_validation_error(error: ValidationError) -> str:
    """One line per problem: the field path, the offending value, and what was expected."""
    lines = []
    for problem in error.errors():
        where = ".".join(str(part) for part in problem["loc"]) or "(top level)"
        shown = repr(problem.get("input"))
        if len(shown) > 80:
            shown = shown[:77] + "..."
        lines.append(f"{where}: got {shown}; {problem['msg']}")
    return "; ".join(lines)


def input_error(exc: ValidationError, root: str = "request", prefix: str = "") -> InvalidInput:
    """The first problem as our own error: the field's path, the value, and what is accepted.

    A validator that raised ``InvalidInput`` keeps its value and expectation (pydantic would
    otherwise show the whole input and a "Value error, ..." message). ``root`` names the
    field when the problem is with the whole object; ``prefix`` nests every path under it.
    """
    problem = exc.errors()[0]
    path = ".".join(str(part) for part in problem["loc"])
    more = exc.error_count() - 1
    tip = f"{more} more problem(s) in the same input" if more else None
    cause = problem.get("ctx", {}).get("error")
    if isinstance(cause, InvalidInput):
        field, value, expected = path or cause.field, cause.value, cause.expected
        tip = cause.tip or tip
    else:
        field, value = path or root, problem.get("input")
        expected = problem["msg"].removeprefix("Value error, ")
    return InvalidInput(f"{prefix}.{field}" if prefix else field, value, expected, tip=tip)


def parse_content(source: str, text: str, model: type[ModelT]) -> ModelT:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(source, f"not valid TOML: {exc}") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContentError(source, describe_validation_error(exc)) from None


def load_packaged(package: str, filename: str, model: type[ModelT]) -> ModelT:
    """Load a data file shipped inside ``package``'s ``data`` folder."""
    text = (
        resources.files(package).joinpath("data").joinpath(filename).read_text(encoding="utf-8-sig")
    )
    return parse_content(f"{package}/data/{filename}", text, model)


def load_file(path: Path, model: type[ModelT]) -> ModelT:
    """Load a homebrew data file from disk."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ContentError(str(path), f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ContentError(
            str(path), f"not UTF-8 text (byte {exc.start}); save it as UTF-8"
        ) from None
    return parse_content(str(path), text, model)
