"""Step-dice modifiers, applied by the balancing rule.

The modifiers are summed first (they are cumulative), then applied one step at a
time: a step up raises the lower base die, a step down lowers the higher one.
When both dice are equal the skill die moves, so the attribute die stays what
the character has for as long as possible (see the rulings). A lone die steps
up by gaining a D6 skill die; stepping down past two D6s removes the skill die.
Steps that a cap stops are reported, never dropped silently.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebound.core.trace import StepChange
from rulebound.rulesets.empty_reach.rules import LADDER, StepDie


@dataclass(frozen=True, slots=True)
class Pool:
    """The base dice: always an attribute die, and a skill die unless the skill is lacking."""

    attribute: StepDie
    skill: StepDie | None = None

    @property
    def dice(self) -> tuple[StepDie, ...]:
        return (self.attribute,) if self.skill is None else (self.attribute, self.skill)

    @property
    def size(self) -> int:
        """Rungs counted from one D6 as 1; each step up adds one when no cap stops it."""
        return sum(die.rung + 1 for die in self.dice)

    def describe(self) -> str:
        return " + ".join(die.label for die in self.dice)


def _up(die: StepDie) -> StepDie:
    return LADDER[die.rung + 1]


def _down(die: StepDie) -> StepDie:
    return LADDER[die.rung - 1]


def step_up(pool: Pool) -> tuple[Pool, StepChange]:
    if pool.skill is None:
        return Pool(pool.attribute, StepDie.D6), StepChange(+1, "add a D6 skill die")
    if pool.attribute is StepDie.D12 and pool.skill is StepDie.D12:
        return pool, StepChange(+1, "no effect: already two D12s", applied=False)
    if pool.attribute < pool.skill:
        raised = _up(pool.attribute)
        change = f"attribute die {pool.attribute.label} -> {raised.label}"
        return Pool(raised, pool.skill), StepChange(+1, change)
    raised = _up(pool.skill)
    return Pool(pool.attribute, raised), StepChange(
        +1, f"skill die {pool.skill.label} -> {raised.label}"
    )


def step_down(pool: Pool) -> tuple[Pool, StepChange]:
    if pool.skill is None:
        if pool.attribute is StepDie.D6:
            return pool, StepChange(-1, "no effect: already a single D6", applied=False)
        lowered = _down(pool.attribute)
        return Pool(lowered), StepChange(
            -1, f"attribute die {pool.attribute.label} -> {lowered.label}"
        )
    if pool.attribute is StepDie.D6 and pool.skill is StepDie.D6:
        return Pool(pool.attribute), StepChange(-1, "remove the skill die (past two D6s)")
    if pool.attribute > pool.skill:
        lowered = _down(pool.attribute)
        change = f"attribute die {pool.attribute.label} -> {lowered.label}"
        return Pool(lowered, pool.skill), StepChange(-1, change)
    assert pool.skill is not StepDie.D6
    lowered = _down(pool.skill)
    return Pool(pool.attribute, lowered), StepChange(
        -1, f"skill die {pool.skill.label} -> {lowered.label}"
    )


def apply_steps(pool: Pool, net: int) -> tuple[Pool, tuple[StepChange, ...]]:
    """Apply a net modifier step by step, returning the final pool and every step taken."""
    if not net:
        return pool, ()
    changes: list[StepChange] = []
    step = step_up if net > 0 else step_down
    for _ in range(abs(net)):
        pool, change = step(pool)
        changes.append(change)
    return pool, tuple(changes)


def balanced(pool: Pool) -> bool:
    """Balanced in the seed's sense: two dice within one step, or a lone D6."""
    if pool.skill is None:
        return pool.attribute is StepDie.D6
    return abs(pool.attribute.rung - pool.skill.rung) <= 1
