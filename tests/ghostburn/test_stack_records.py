"""Stacking builds its lines without the constructor (issue 16): every line must be the
very record the constructor-built stacking made, notes, order and tie rule included."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import given
from hypothesis import strategies as st

from rulebound.rulesets.ghostburn.rules import STACKING_KINDS, Bonus, BonusKind, BonusLine, stack


def reference_stack(candidates: Iterable[Bonus]) -> tuple[BonusLine, ...]:
    """Stacking as it was before the fast path, kept as the oracle."""
    pool = list(candidates)
    lines: list[BonusLine] = []
    for kind in STACKING_KINDS:
        same = [bonus for bonus in pool if bonus.kind is kind]
        if not same:
            continue
        best = max(range(len(same)), key=lambda i: (same[i].value, -i))
        for i, bonus in enumerate(same):
            note = bonus.note
            if i != best:
                reason = f"does not stack; {same[best].source} ({same[best].value:+d}) applies"
                note = f"{note}; {reason}" if note else reason
            lines.append(BonusLine(kind, bonus.source, bonus.value, i == best, note))
    return tuple(lines)


bonuses = st.lists(
    st.builds(
        Bonus,
        st.sampled_from(list(BonusKind)),
        st.sampled_from(("scope", "grip", "implant")),
        st.integers(-3, 4),
        st.sampled_from(("", "swapped in")),
    ),
    max_size=7,
)


@given(bonuses)
def test_stacking_makes_the_constructors_lines(candidates: list[Bonus]) -> None:
    lines = stack(candidates)
    want = reference_stack(candidates)
    assert lines == want
    assert [hash(line) for line in lines] == [hash(line) for line in want]
    assert [line.note for line in lines] == [line.note for line in want]


def test_a_tie_applies_the_first_listed_and_notes_the_other() -> None:
    first, second = Bonus(BonusKind.GEAR, "scope", 2), Bonus(BonusKind.GEAR, "grip", 2, "old")
    lines = stack([Bonus(BonusKind.ABILITY, "ability score", 1), first, second])
    assert [(line.source, line.applied) for line in lines] == [
        ("ability score", True),
        ("scope", True),
        ("grip", False),
    ]
    assert lines[2].note == "old; does not stack; scope (+2) applies"


@given(bonuses)
def test_the_stacked_total_is_what_the_lines_apply(candidates: list[Bonus]) -> None:
    from rulebound.rulesets.ghostburn.rules import applied_total, stacked_total

    assert stacked_total(candidates) == applied_total(reference_stack(candidates))
