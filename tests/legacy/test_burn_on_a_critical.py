"""Burning fate on a critical success can change nothing: the card lists it greyed, with the
reason, and the table refuses it before anything is spent. Other results still offer it."""

from typing import Any

import pytest

from rulebound.core import Draw, ReplaySource, RuleViolation
from rulebound.rulesets.legacy.card import CANNOT_BURN
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.plays import TableRules

TABLE = TableRules(GAME)
CHECK = {"characteristic": "PER", "affinity": "survival", "difficulty": "hard"}
HALVED = {"scale": "halved"}
"""Target 13 on a d20 (halved): 1 is a critical success, 2-13 a success."""


def d20(face: int) -> ReplaySource:
    return ReplaySource([Draw(20, face)])


def burn(face: int) -> Any:
    card = TABLE.roll(TABLE.new_sheet("Kara"), CHECK, HALVED, d20(face)).card
    return next(a for a in card.actions if a.key == "burn-fate")


def test_a_critical_success_lists_burning_fate_greyed_with_the_reason() -> None:
    shown = burn(1)
    assert (shown.available, shown.reason) == (False, CANNOT_BURN)
    assert shown.advice == ()  # no odds or price for a choice that cannot be taken


def test_the_table_refuses_a_burn_on_a_critical_success_and_spends_nothing() -> None:
    sheet = TABLE.new_sheet("Kara")
    chain = [TABLE.roll(sheet, CHECK, HALVED, d20(1)).record]
    before = dict(sheet)
    with pytest.raises(RuleViolation, match="burning fate cannot change it"):
        TABLE.act(sheet, chain, "burn-fate", {"purpose": "avoid death"}, HALVED, d20(5))
    assert sheet == before


@pytest.mark.parametrize("face", [2, 15, 19])
def test_any_other_result_still_offers_the_burn(face: int) -> None:
    shown = burn(face)
    assert (shown.available, shown.reason) == (True, "")
