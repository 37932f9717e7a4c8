"""Legacy Machines and Magic at the virtual table: the ``TableRules`` adapter.

The work is split by what the table asks for:

- ``table_sheet``: the starting sheet, the edit form, the tracks (wounds, fatigue,
  fate, LCK, SAN/COR, REN, critical damage by location, death saves);
- ``table_checks``: the roll dialog, exact chances, and result chains with their
  follow-ups (accept or decline a partial success, spend fate to reroll, swap for an
  unmodified LCK test, burn fate, a Halfling's LCK save);
- ``table_sheet_actions``: damage, fatigue, death saves, rests and healing;
- ``table_gm``: initiative with surprise and extended checks across turns;
- ``table_creation``: the guided, replayable creation.

Every record keeps what it needs to be replayed (the sheet as it stood, the
request or parameters, the draws), so ``card`` rebuilds any of them: a roll chain,
an extended-check chain, or a single sheet or table action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.legacy import (
    table_check_cards,
    table_checks,
    table_creation,
    table_dialog,
    table_gm,
    table_sheet,
    table_sheet_actions,
)
from rulebound.rulesets.legacy.rules import DEFAULT_SCALE
from rulebound.rulesets.legacy.table_common import character, dump
from rulebound.rulesets.table import (
    ActionView,
    Card,
    CreationStep,
    Field,
    Play,
    Record,
    Sheet,
    SheetView,
    TablePlay,
    TableRules,
)

SUCCESS_KEY = table_dialog.SUCCESS_KEY


def _root_kind(chain: Sequence[Record]) -> str:
    if not chain or not isinstance(chain[0], Mapping):
        raise InvalidInput("chain", list(chain), "a stored result, its first record first")
    return str(chain[0].get("kind"))


class LegacyTable:
    key = "legacy"

    def validate_sheet(self, sheet: Mapping[str, Any]) -> Sheet:
        return dump(character(sheet))

    def new_sheet(self, name: str) -> Sheet:
        return table_sheet.new_sheet(name)

    def sheet_view(self, sheet: Sheet) -> SheetView:
        return table_sheet.sheet_view(sheet)

    def apply_sheet_form(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        return table_sheet.apply_sheet_form(sheet, form)

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        return table_dialog.dialog(sheet)

    def chances(self, sheet: Sheet, form: Mapping[str, Any]) -> Mapping[str, Fraction]:
        return table_dialog.chances(sheet, form)

    def roll(self, sheet: Sheet, form: Mapping[str, Any], source: RandomSource) -> Play:
        return table_checks.roll(sheet, form, source)

    def act(
        self,
        sheet: Sheet,
        chain: Sequence[Record],
        action: str,
        params: Mapping[str, Any],
        source: RandomSource,
    ) -> Play:
        kind = _root_kind(chain)
        if kind == "roll":
            return table_checks.act(sheet, chain, action, params, source)
        if kind == "extended-check":
            return table_gm.act_extended(chain, action, source)
        raise RuleViolation("follow-up", f"a {kind} entry has no follow-up")

    def card(self, chain: Sequence[Record]) -> Card:
        kind = _root_kind(chain)
        if kind == "roll":
            return table_check_cards.card_for(table_checks.rebuild(chain))
        if kind == "extended-check":
            return table_gm.extended_card(table_gm.rebuild_extended(chain))
        if len(chain) != 1:
            raise InvalidInput("chain", len(chain), f"one record for a {kind} entry")
        if kind == "initiative":
            return table_gm.initiative_card(chain[0])
        if kind in table_sheet_actions.RUNS:
            return table_sheet_actions.sheet_card(chain[0])
        raise InvalidInput("record.kind", kind, "a Legacy roll, sheet or table action")

    def sheet_actions(self, sheet: Sheet) -> tuple[ActionView, ...]:
        return table_sheet_actions.sheet_actions(sheet, DEFAULT_SCALE)

    def sheet_act(
        self, sheet: Sheet, action: str, params: Mapping[str, Any], source: RandomSource
    ) -> Play:
        return table_sheet_actions.sheet_act(sheet, action, params, source)

    def table_actions(self) -> tuple[ActionView, ...]:
        return table_gm.gm_actions()

    def table_act(
        self,
        sheets: Mapping[str, Sheet],
        action: str,
        params: Mapping[str, Any],
        source: RandomSource,
    ) -> TablePlay:
        if action == "initiative":
            return table_gm.initiative(sheets, params, source)
        if action == "extended-check":
            return table_gm.start_extended(sheets, params)
        raise InvalidInput("action", action, "initiative or extended-check")

    def creation(
        self, state: Mapping[str, Any], form: Mapping[str, Any], source: RandomSource
    ) -> CreationStep | None:
        return table_creation.creation(state, form, source)


TABLE: TableRules = LegacyTable()
"""Typed as the protocol so mypy proves the adapter satisfies it."""
