"""A hand-entered Legacy character the newer test files build on (``sheet(**changes)``)."""

from collections.abc import Callable

import pytest

from rulebound.rulesets.legacy.character import Character

SCORES = {
    "STR": 34,
    "DEX": 29,
    "CON": 31,
    "CHA": 20,
    "INT": 25,
    "WIL": 30,
    "PER": 28,
    "WPN": 30,
    "BLS": 22,
    "STM": 33,
    "POW": 21,
    "EDU": 26,
    "LDR": 24,
    "INI": 27,
}

Sheet = Callable[..., Character]


def make_sheet(**changes: object) -> Character:
    data: dict[str, object] = {
        "name": "Kara",
        "race": "human",
        "origin": "surface",
        "soul": "human",
        "scores": SCORES,
        "lck": 24,
        "fate": 2,
        "ren": 20,
    }
    return Character.model_validate({**data, **changes})


@pytest.fixture
def sheet() -> Sheet:
    return make_sheet


def extras(soul: str, origin: str) -> tuple[str, ...]:
    """The affinities a test character's soul makes it take at creation (ruling 88: a Human
    soul's two): the first of arcane, stealth and faith that the origin does not give."""
    from rulebound.rulesets.legacy.content import catalogue

    c = catalogue()
    count, held = c.soul(soul).extra_affinities, c.origin(origin).affinity
    return tuple(a for a in ("arcane", "stealth", "faith") if a != held)[:count]
