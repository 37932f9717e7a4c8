"""Plays of the four games made directly through the contract, and a log export of them as
one member would see it (``trust.export``'s whole, sealed and withheld entries)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulebound.core.random_source import SeededSource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Game
from rulebound.rulesets.plays import TableRules, follow_play, roll_play
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.views import card_json

RAW: dict[str, dict[str, Any]] = {
    "empty-reach": {"attribute_die": "D8", "skill_die": "D6"},
    "legacy": {"score": 55},
    "ghostburn": {"dl": "Moderate", "luck_points": 3, "luck_bonus": 4},
    "rainwall": {"dice": 5, "skill": 5, "dr": 3, "bonus": 2},
}


def raw_request(key: str, **values: Any) -> tuple[Game[Any, Any], Any]:
    game = get_game(key)
    rules = TableRules(game)
    typed = forms.read(game.fields, RAW[key] | values)
    return game, game.request(typed, rules.variants(None))


def rolled(game: Game[Any, Any], request: Any, seed: int) -> tuple[Any, dict[str, Any]]:
    return roll_play(game, request, SeededSource(seed))


def followed(
    game: Game[Any, Any], result: Any, action: str, params: dict[str, Any], seed: int = 1
) -> tuple[Any, dict[str, Any]]:
    return follow_play(game, result, action, params, SeededSource(seed))


@dataclass
class Log:
    """Entries in log order, as an export shows them."""

    ruleset: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=lambda: {1: "Gina", 2: "Pia", 3: "Oz"})

    def add(
        self,
        kind: str,
        actor: int,
        record: dict[str, Any] | None = None,
        card: Any = None,
        *,
        parent: int | None = None,
        character: int | None = None,
        shown: str = "whole",
    ) -> int:
        seq = len(self.entries) + 1
        entry_id = 100 + seq
        if shown == "withheld":
            self.entries.append({"withheld": True, "seq": seq, "privacy": "self"})
            return entry_id
        view: dict[str, Any] = {
            "id": entry_id,
            "seq": seq,
            "kind": kind,
            "actor": self.names[actor],
            "character": {None: "", 7: "Ana", 8: "Bo"}[character],
        }
        if shown == "sealed":
            self.entries.append(view | {"hidden": True, "body": None})
            return entry_id
        body = {
            "kind": kind,
            "actor_id": actor,
            "character_id": character,
            "parent_id": parent,
            "record": record,
            "card": None if card is None else card_json(card),
        }
        self.entries.append(view | {"hidden": False, "body": body})
        return entry_id

    def doc(self) -> dict[str, Any]:
        return {
            "format": "rulebound-log/2",
            "table": "Night run",
            "table_id": 1,
            "ruleset": self.ruleset,
            "entries": self.entries,
        }
