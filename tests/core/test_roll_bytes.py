"""Issue 16's cheaper roll path changes no byte: results, records, cards and errors.

``data/roll_bytes.json`` holds, for each case, the SHA-256 of what the tree at 9b2d730
(before this stop's roll-path changes) wrote for it: the canonical JSON of the result,
its roll record and its card, the replayed result, and each follow-up offered (its
record, result and card, or its error text), for a spread of forms (plain, string-typed,
every variant, bad values) and seeds. Rewrite the file only for a deliberate format
change: ``python tests/core/test_roll_bytes.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from rulebound.core.canonical import canonical_json
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import SeededSource
from rulebound.rulesets import forms
from rulebound.rulesets.plays import follow_play, replay, roll_play
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.variants import resolve

FIXTURE = Path(__file__).parent / "data" / "roll_bytes.json"
SEEDS = range(6)

CASES: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {
    "rainwall": [
        ({"dice": 7, "skill": 5, "dr": 4, "bonus": 3}, {}),
        ({"dice": "3", "skill": "8", "dr": "1"}, {}),
        ({"dice": 10, "skill": 10, "dr": 2, "bonus": 0, "skill_name": "Climb"}, {}),
        ({"dice": 5, "skill": 1, "dr": 6, "bonus": 4, "trait_name": "Body"}, {}),
        (
            {"dice": 6, "skill": 6, "dr": 3, "bonus": 5},
            {"success-face": "strictly under", "miss-ios": "skip-zero", "barely": "below-critical"},
        ),
        ({"dice": 4, "skill": 2, "dr": 7, "bonus": 2}, {"miss_ios": "Skip Zero"}),
        ({"dice": 11, "skill": 5, "dr": 4}, {}),
        ({"dice": 7, "skill": 5, "dr": 0}, {}),
        ({"dice": 7, "skill": 5, "dr": 4, "bonus": 21}, {}),
        ({"dice": 7, "skill": 5, "dr": 4}, {"barely": "sometimes"}),
        ({"skill": 5}, {}),
    ],
    "ghostburn": [
        ({"dl": 12, "ability_score": 3, "skill_bonus": 2, "gear": ["scope=2"]}, {}),
        ({"dl": "Hard", "ability_score": "4", "gear": ["a=1", "b=3"], "aug": ["eye=2"]}, {}),
        ({"dl": "17", "dl_shift": -1, "ability_score": 2, "chart": "graded"}, {}),
        ({"dl": 12, "ability_score": 1, "luck_points": 2, "luck_bonus": 3}, {}),
        (
            {"dl": 5, "ability_score": -2, "dl_shift": -2},
            {"bottom-fade": "open", "off-ladder-dl": "snap-to-ladder"},
        ),
        ({"dl": 13, "ability_score": 0, "dl_shift": 1, "trait": ["resolve=Hard"]}, {}),
        ({"dl": 12, "ability_score": 3, "gear": ["scope"]}, {}),
        ({"dl": "nope", "ability_score": 3}, {}),
        ({"dl": 12, "ability_score": 30}, {}),
        ({"dl": 12, "ability_score": 3, "dl_shift": 9}, {}),
        ({"ability_score": 3}, {}),
    ],
    "legacy": [
        ({"target": 12, "bonus": 1}, {}),
        ({"score": "45", "rank": "2", "difficulty": "Difficult"}, {}),
        ({"score": 60, "bonus": 3, "advantage": "on"}, {"scale": "d100"}),
        ({"score": 33, "disadvantage": True, "difficulty": "easy"}, {"scale": "halved"}),
        ({"score": 50, "rank": 4}, {"affinity_bonus": "five-per-rank"}),
        ({"target": 8, "opposed.target": 11, "opposed.advantage": True}, {}),
        ({"target": 10, "success_threshold": 20, "failure_threshold": 10, "max_rolls": 5}, {}),
        ({"target": 14, "advantage": True, "disadvantage": True}, {}),
        ({"target": 500}, {}),
        ({"score": 40, "rank": 9}, {}),
        ({"bonus": 2}, {}),
        ({"target": 12}, {"scale": "d12"}),
    ],
}


def _error(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def written(key: str, raw: dict[str, Any], given: dict[str, Any], seed: int) -> str:
    """Every byte one case writes: result, record, card, replay and each follow-up."""
    game = get_game(key)
    parts: list[str] = []
    try:
        request = game.request(forms.read(game.fields, raw), resolve(game.variants, given))
    except (InvalidInput, RuleViolation) as exc:
        return _digest([_error(exc)])
    result, record = roll_play(game, request, SeededSource(seed))
    card = game.card(result)
    parts += [canonical_json(result), canonical_json(record), canonical_json(card)]
    parts.append(canonical_json(replay(game, [json.loads(json.dumps(record))])))
    for view in game.follow_ups(result):
        parts.append(canonical_json(view))
        if not view.available:
            continue
        try:
            new, follow = follow_play(game, result, view.key, {}, SeededSource(seed + 100))
        except (InvalidInput, RuleViolation) as exc:
            parts.append(_error(exc))
            continue
        parts += [canonical_json(follow), canonical_json(new), canonical_json(game.card(new))]
        parts.append(canonical_json(replay(game, [record, json.loads(json.dumps(follow))])))
    return _digest(parts)


def everything() -> dict[str, str]:
    return {
        f"{key} {index} seed {seed}": written(key, raw, given, seed)
        for key, cases in CASES.items()
        for index, (raw, given) in enumerate(cases)
        for seed in SEEDS
    }


@pytest.mark.parametrize("key", sorted(CASES))
def test_every_byte_is_as_before(key: str) -> None:
    want = json.loads(FIXTURE.read_text(encoding="utf-8"))
    got = everything()
    mine = sorted(name for name in want if name.startswith(key + " "))
    assert len(mine) == len(CASES[key]) * len(SEEDS)
    assert {name: got[name] for name in mine} == {name: want[name] for name in mine}


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(everything(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
