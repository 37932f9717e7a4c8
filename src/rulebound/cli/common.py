"""Shared CLI plumbing: the random source from --seed, JSON output, and error reporting."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import RuleboundError
from rulebound.core.random_source import RandomSource, SeededSource, SystemSource

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

SEED_HELP = "Seed for a reproducible roll; without it, faces come from OS entropy."
JSON_HELP = "Print one JSON object instead of text."


def source_for(seed: int | None) -> RandomSource:
    return SystemSource() if seed is None else SeededSource(seed)


def emit_json(value: Any) -> None:
    """Print exactly one JSON document on stdout (no colour, no wrapping)."""
    sys.stdout.write(json.dumps(to_jsonable(value), indent=2, ensure_ascii=False) + "\n")


def emit_text(text: str) -> None:
    console.print(text, markup=False)


def fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"error: {message}", markup=False, style="red")
    raise typer.Exit(code)


@contextmanager
def rule_errors() -> Iterator[None]:
    """Turn the library's own errors into a one-line message and exit status 2."""
    try:
        yield
    except RuleboundError as exc:
        fail(str(exc))


def read_json_file(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        fail(f"{path}: cannot read: {exc.strerror}")
    except json.JSONDecodeError as exc:
        fail(f"{path}: not valid JSON: {exc}")


def write_json_file(path: Path, value: Any) -> None:
    path.write_text(json.dumps(to_jsonable(value), indent=2, ensure_ascii=False) + "\n", "utf-8")


Registrar = Callable[[typer.Typer, typer.Typer, typer.Typer], None]
