"""The CLI's edges: printing, reading and writing JSON files, and turning errors into exit 2.

This is the only module that writes to the terminal or to files for the CLI.
Files are written atomically (a temporary file in the same folder, then a rename),
so an interrupted ``--save`` never leaves half a character sheet.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import click

from rulebound.core.canonical import UnreadableJSON, read_json, to_jsonable
from rulebound.core.errors import InvalidForm, InvalidInput, RuleboundError, problems_of

SEED_HELP = "Seed for a reproducible roll; without it, faces come from OS entropy."
JSON_HELP = "Print one JSON object instead of text."


def emit_json(value: Any) -> None:
    """Print exactly one JSON document on stdout (no colour, no wrapping)."""
    sys.stdout.write(json.dumps(to_jsonable(value), indent=2, ensure_ascii=False) + "\n")


def emit_text(text: str) -> None:
    click.echo(text)


def fail(message: str, code: int = 2) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    raise SystemExit(code)


def error_text(exc: RuleboundError, labels: Mapping[str, str] | None = None) -> str:
    """Any error in plain words: one problem on one line; several, one per line under a
    heading (``render.words``, the wording the web table uses too)."""
    from rulebound.render.words import terminal

    return terminal(exc, labels)


@contextmanager
def rule_errors(
    flags: Mapping[str, str] | None = None, labels: Mapping[str, str] | None = None
) -> Iterator[None]:
    """Turn the library's own errors into a message on stderr and exit status 2.

    ``flags`` maps field names to the options that set them, so an error says ``--dr``
    where the game's field is ``dr``; ``labels`` names each option in the game's words.
    """
    try:
        yield
    except InvalidInput as exc:
        fail(error_text(as_flags(exc, flags or {}), labels))
    except RuleboundError as exc:
        fail(error_text(exc))


def as_flags(exc: InvalidInput, flags: Mapping[str, str]) -> InvalidInput:
    renamed = []
    for problem in problems_of(exc):
        head, _, rest = problem.field.partition(".")
        flag = flags.get(problem.field) or flags.get(head)
        if flag is None:
            renamed.append(problem)
            continue
        field = flag if flags.get(problem.field) else f"{flag} {rest}"
        renamed.append(InvalidInput(field, problem.value, problem.expected, tip=problem.tip))
    return renamed[0] if len(renamed) == 1 else InvalidForm(renamed)


STDIN = "-"
"""The file name that means standard input, wherever a command reads a file."""


def is_stdin(path: object) -> bool:
    return path is not None and str(path) == STDIN


def read_text(path: Path) -> str:
    """A file's text (UTF-8, a byte-order mark dropped), or standard input's for ``-``.

    Raises OSError and UnicodeDecodeError as reading the file would."""
    if is_stdin(path):
        return sys.stdin.buffer.read().decode("utf-8-sig")
    return path.read_text(encoding="utf-8-sig")


def read_json_file(path: Path, what: str = "file") -> Any:
    where = f"{what} on standard input" if is_stdin(path) else f"{what} {path}"
    try:
        text = read_text(path)
    except OSError as exc:
        fail(f"{where}: cannot read it ({exc.strerror})")
    except UnicodeDecodeError:
        fail(f"{where}: not a JSON file (it is not text in UTF-8)")
    if is_stdin(path) and not text.strip():
        fail(f"{where}: nothing there (standard input gives one file, once)")
    try:
        return read_json(text)
    except UnreadableJSON as exc:
        fail(f"{where}: not a JSON file ({exc})")


def write_json_file(path: Path, value: Any) -> None:
    """Write ``value`` as JSON to ``path`` atomically."""
    import tempfile

    text = json.dumps(to_jsonable(value), indent=2, ensure_ascii=False) + "\n"
    folder = path.resolve().parent
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
