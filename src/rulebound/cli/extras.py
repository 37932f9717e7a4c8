"""Which extra to install when a command needs a library that is not there.

The base package is the engine, the odds and the CLI; the table and its services come
with extras (``pip install 'rulebound[web]'``). A command that imports a missing one ends
with a message naming the extra instead of a traceback (``named_extras``, around every
command in ``cli.app``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rulebound.cli.output import fail

EXTRAS: dict[str, str] = {
    "fastapi": "web",
    "starlette": "web",
    "jinja2": "web",
    "multipart": "web",
    "python_multipart": "web",
    "sqlalchemy": "web",
    "alembic": "web",
    "uvicorn": "web",
    "segno": "web",
    "psycopg": "postgres",
    "redis": "redis",
    "hiredis": "redis",
    "nacl": "discord",
    "hikari": "discord",
    "aiohttp": "discord",
    "matplotlib": "plot",
}
"""A library's top-level module: the extra that installs it."""

MISSING_EXTRA = 1
"""The exit status when an extra is missing (2 is the user's input; this is the install)."""


def extra_for(exc: ModuleNotFoundError) -> str | None:
    """The extra that brings the module ``exc`` did not find, if it is one of ours."""
    top = (exc.name or "").partition(".")[0]
    return EXTRAS.get(top)


@contextmanager
def named_extras(command: Callable[[], str]) -> Iterator[None]:
    """Turn a missing optional library into a message that names the extra to install
    (``command()``: the command's name, as the user typed it)."""
    try:
        yield
    except ModuleNotFoundError as exc:
        extra = extra_for(exc)
        if extra is None:
            raise
        fail(
            f"{command()} needs the {extra} extra, which is not installed "
            f"(no module named {exc.name!r}): pip install 'rulebound[{extra}]'",
            MISSING_EXTRA,
        )
