"""The Empty Reach designer table: attribute by skill die, per modifier, pushed or not."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from rulebound.core.keys import check_known
from rulebound.rulesets.empty_reach.check import CheckRequest, ExtraModifier, prepare
from rulebound.rulesets.empty_reach.odds import PUSH_POLICIES, PushPolicy, p_success
from rulebound.rulesets.empty_reach.rules import LADDER, StepDie
from rulebound.rulesets.grid import Cell, GridPanel, OddsGrid, build_panel

MODIFIERS: tuple[int, ...] = tuple(range(-3, 4))
POLICIES: tuple[PushPolicy, ...] = ("never", "always")
NO_SKILL = "none"
SKILLS: tuple[StepDie | None, ...] = (None, *LADDER)

_PUSH_WORDS = {"never": "no push", "always": "push always", "if-failed": "push if failed"}


def chance(attribute: StepDie, skill: StepDie | None, modifier: int, policy: PushPolicy) -> Cell:
    """P(at least one success) for the dice before modifiers, as the roller would prepare them."""
    extra = (ExtraModifier(source="modifier", value=modifier),) if modifier else ()
    skill_die = None if skill is None else skill.label
    request = CheckRequest(attribute_die=attribute.label, skill_die=skill_die, modifiers=extra)
    return p_success(prepare(request), policy)


def _panel(modifier: int, policy: PushPolicy) -> GridPanel:
    title = f"modifier {modifier:+d}, {_PUSH_WORDS[policy]}"
    return build_panel(title, LADDER, SKILLS, partial(chance, modifier=modifier, policy=policy))


def success_grid(
    modifiers: Sequence[int] = MODIFIERS, policies: Sequence[PushPolicy] = POLICIES
) -> OddsGrid:
    """One panel per (push policy, modifier); rows are attribute dice, columns skill dice."""
    check_known("policies", policies, PUSH_POLICIES)
    panels = tuple(_panel(modifier, policy) for policy in policies for modifier in modifiers)
    return OddsGrid(
        ruleset="empty-reach",
        title="The Empty Reach",
        measure="P(at least one success)",
        row_axis="attribute die",
        column_axis="skill die",
        rows=tuple(die.label for die in LADDER),
        columns=tuple(NO_SKILL if s is None else s.label for s in SKILLS),
        panels=panels,
        panels_per_row=len(modifiers),
    )
