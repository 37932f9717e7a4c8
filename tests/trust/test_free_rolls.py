"""``rulebound verify`` rebuilds a free roll from its record alone: free rolls logged before
the full notation (sums of NdS and numbers) rebuild to the very card they logged, and a
record whose draws do not fit its expression is refused."""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.core.errors import RuleboundError
from rulebound.core.random_source import ReplaySource
from rulebound.rulesets.free_roll import REBUILT, replayed_parts
from rulebound.rulesets.plays import record_draws
from rulebound.rulesets.views import card_json

OLD = {
    "kind": "free-roll",
    "expression": "1d20-1d6+3",
    "draws": [[20, 14], [6, 2]],
}
"""A free roll as the first engine logged it, with the card and summary it logged."""
OLD_CARD: dict[str, Any] = {
    "title": "/r 1d20-1d6+3",
    "outcome": "Total 15",
    "succeeded": None,
    "dice": [
        {
            "label": "d20",
            "sides": 20,
            "face": 14,
            "marks": [],
            "state": "rolled",
            "history": [],
            "role": "",
            "selectable": False,
        },
        {
            "label": "d6",
            "sides": 6,
            "face": 2,
            "marks": [],
            "state": "rolled",
            "history": [],
            "role": "",
            "selectable": False,
        },
    ],
}


def rebuilt(record: dict[str, Any]) -> tuple[dict[str, Any], str]:
    source = ReplaySource(record_draws(record))
    parts = replayed_parts(record, source)
    assert source.exhausted
    return card_json(parts.card), parts.summary


def test_a_free_roll_of_the_first_engine_rebuilds_to_the_card_it_logged() -> None:
    card, summary = rebuilt(OLD)
    assert {key: card[key] for key in REBUILT} == OLD_CARD
    assert summary == "rolled 1d20-1d6+3: 15"


def test_a_d_percent_logged_as_a_d100_rebuilds() -> None:
    card, summary = rebuilt({"expression": "1d100+5", "draws": [[100, 42]]})
    assert card["outcome"] == "Total 47"
    assert summary == "rolled 1d100+5: 47"


@pytest.mark.parametrize(
    "record",
    [
        {"expression": "4d6kh3", "draws": [[6, 1], [6, 2], [6, 3]]},
        {"expression": "4d6kh3", "draws": [[6, 1], [6, 2], [6, 3], [8, 3]]},
        {"expression": "4d6 kh3", "draws": [[6, 1]] * 4},
        {"expression": "9" * 5000, "draws": []},
        {"message": "no rolls here", "draws": []},
    ],
)
def test_a_record_that_does_not_fit_its_expression_is_refused(record: dict[str, Any]) -> None:
    with pytest.raises(RuleboundError):
        rebuilt(record)
