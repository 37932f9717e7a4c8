"""Load game content (skills, specialties, races, tricks...) from TOML, validated on load.

Built-in content ships as package data; a game master's homebrew file goes
through the same models, so a malformed homebrew race fails with the same clear
error as a malformed built-in one.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rulebound.core.errors import ContentError, InvalidForm, InvalidInput, problems_of

if TYPE_CHECKING:
    from pydantic import ValidationError

ModelT = TypeVar("ModelT", covariant=True)


class Validates(Protocol[ModelT]):
    """A pydantic model, or a class with its ``model_validate`` (raising its errors)."""

    def model_validate(self, obj: Any) -> ModelT: ...


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
    """Every problem as our own error: each field's path, its value, and what is accepted.

    A validator that raised ``InvalidInput`` keeps its value and expectation (pydantic would
    otherwise show the whole input and a "Value error, ..." message). ``root`` names the
    field when the problem is with the whole object; ``prefix`` nests every path under it.
    Several problems come back together as one ``InvalidForm``.
    """
    problems = [_problem(p, root, prefix) for p in exc.errors()]
    return problems[0] if len(problems) == 1 else InvalidForm(problems)


def _problem(problem: Any, root: str, prefix: str) -> InvalidInput:
    path = ".".join(str(part) for part in problem["loc"])
    cause = problem.get("ctx", {}).get("error")
    if isinstance(cause, InvalidInput):
        field, value, expected, tip = path or cause.field, cause.value, cause.expected, cause.tip
    else:
        field, value, expected, tip = (
            path or root,
            problem.get("input"),
            expected_text(problem),
            None,
        )
    if problem["type"] == "missing":
        value = None
    return InvalidInput(f"{prefix}.{field}" if prefix else field, value, expected, tip=tip)


PLAIN: dict[str, str] = {
    "missing": "a value (this field is required)",
    "extra_forbidden": "no such field here (check its spelling, or the game the file is for)",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "text",
    "dict_type": "an object of names to values",
    "list_type": "a list",
    "tuple_type": "a list",
    "model_type": "an object of names to values",
    "finite_number": "a finite number",
    "float_type": "a number",
    "float_parsing": "a number",
}


def expected_text(problem: Any) -> str:
    """What a pydantic problem asked for, in plain words ("a whole number of at least 0")."""
    kind, ctx = problem["type"], problem.get("ctx") or {}
    bounds = {
        "greater_than_equal": "a number of at least {ge}",
        "greater_than": "a number above {gt}",
        "less_than_equal": "a number of at most {le}",
        "less_than": "a number below {lt}",
        "string_too_short": "text of at least {min_length} character(s)",
        "string_too_long": "text of at most {max_length} characters",
        "too_short": "at least {min_length} item(s)",
        "too_long": "at most {max_length} items",
        "literal_error": "one of {expected}",
        "enum": "one of {expected}",
    }
    if kind in bounds:
        try:
            return bounds[kind].format(**ctx).replace("'", "")
        except (KeyError, IndexError):
            pass
    if kind in PLAIN:
        return PLAIN[kind]
    message = str(problem.get("msg", "a valid value"))
    return message.removeprefix("Value error, ").removeprefix("Input should be ")


def parse_content(source: str, text: str, model: Validates[ModelT]) -> ModelT:
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(source, f"not valid TOML: {exc}") from None
    try:
        return model.model_validate(data)
    except Exception as exc:
        from pydantic import ValidationError

        if not isinstance(exc, ValidationError):
            raise
        listed = input_error(exc, "file")
        raise ContentError(source, describe_validation_error(exc), problems_of(listed)) from None


def load_packaged(package: str, filename: str, model: Validates[ModelT]) -> ModelT:
    """Load a data file shipped inside ``package``'s ``data`` folder."""
    return parse_content(f"{package}/data/{filename}", packaged_text(package, filename), model)


def packaged_text(package: str, filename: str) -> str:
    """A data file of ``package``: read from its folder when the package is plain files (no
    ``importlib.resources`` and ``zipfile`` to import), else through ``importlib.resources``."""
    module = sys.modules.get(package) or importlib.import_module(package)
    where = getattr(module, "__file__", None)
    if where is not None:
        path = Path(where).parent / "data" / filename
        if path.is_file():
            return path.read_text(encoding="utf-8-sig")
    from importlib import resources

    found = resources.files(package).joinpath("data").joinpath(filename)
    return found.read_text(encoding="utf-8-sig")


STDIN = "-"
"""The file name that means standard input, as on the command line."""


def load_file(path: Path, model: Validates[ModelT]) -> ModelT:
    """Load a homebrew data file from disk, or from standard input when it is ``-``."""
    where = "standard input" if str(path) == STDIN else str(path)
    try:
        if str(path) == STDIN:
            text = sys.stdin.buffer.read().decode("utf-8-sig")
        else:
            text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ContentError(where, f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ContentError(where, f"not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    return parse_content(where, text, model)
