"""Words shared by every front end's text: a count whose noun agrees with it."""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """ "1 success", "2 successes": ``many`` defaults to ``one`` with an s."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def successes(n: int) -> str:
    return counted(n, "success", "successes")


def failures(n: int) -> str:
    return counted(n, "failure")
