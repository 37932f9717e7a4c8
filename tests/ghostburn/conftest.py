"""Shared fixtures: the built-in content and a sheet echoing the rule text's Firearms example."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.rulesets.ghostburn.character import Character, parse_character
from rulebound.rulesets.ghostburn.content import GhostburnContent, builtin_content


@pytest.fixture
def content() -> GhostburnContent:
    return builtin_content()


@pytest.fixture
def sheet() -> dict[str, Any]:
    return {
        "name": "Vex",
        "abilities": {"agility": 3, "strength": 1, "intelligence": 2, "presence": 0},
        "skills": {"firearms": {"bonus": 1}, "drive": {"bonus": 2}},
        "gear": [
            {"name": "laser sight", "skill": "firearms", "bonus": 1},
            {"name": "tow rope", "skill": "athletics", "bonus": 2},
        ],
        "augs": [],
        "luck_points": 2,
        "luck_bonus": 3,
        "signature_tricks": [],
    }


@pytest.fixture
def vex(sheet: dict[str, Any]) -> Character:
    return parse_character(sheet)
