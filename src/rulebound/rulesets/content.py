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

from rulebound.core.errors import ContentError

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
