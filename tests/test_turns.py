"""The turn tracker over the contract (``rulesets.turns``): a pure fold of its moves.

Pass criteria: the order, whose turn and the round follow from the moves alone; a move that
no longer fits (a second "next" on a turn already over) changes nothing; a newcomer joins by
its roll without moving the others; plain ties keep the order given and are marked; Legacy's
ranks order exactly as its own initiative rules do (``combat.order``), a PC before an NPC on
a full tie and a tie between PCs left to the table; a record whose order or ranks do not
follow from its draws is caught by ``replay``.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import Draw, MiddleSource, ReplaySource, SeededSource
from rulebound.rulesets import turns
from rulebound.rulesets.legacy import combat
from rulebound.rulesets.legacy.restrictions import validated
from rulebound.rulesets.legacy.sheets import dump
from rulebound.rulesets.plays import TableRules
from rulebound.rulesets.registry import get_game

from .legacy.conftest import SCORES, make_sheet

PLAIN = TableRules(get_game("empty-reach"))
LEGACY = TableRules(get_game("legacy"))


def _names(state: turns.TurnState) -> list[str]:
    return [c.name for c in state.order]


def _set(*names: str) -> list[dict[str, Any]]:
    """A started order, set by hand (no dice), as its records."""
    entrants = [turns.Entrant(name) for name in names]
    return [turns.start(PLAIN, entrants, "set", "", {}, SeededSource(0)).record]


def _play(records: list[dict[str, Any]], *moves: Any) -> turns.TurnState:
    """Each move made on the state the records so far fold to, its record appended."""
    for make in moves:
        records.append(make(turns.fold(records)).record)
    return turns.fold(records)


def test_a_round_goes_round_and_the_next_begins_with_the_first() -> None:
    records = _set("Ana", "Bo", "Grue")
    state = turns.fold(records)
    assert (_names(state), state.round, state.current and state.current.name) == (
        ["Ana", "Bo", "Grue"],
        1,
        "Ana",
    )
    seen = []
    for _ in range(4):
        state = _play(records, turns.advance)
        assert state.current is not None
        seen.append((state.round, state.current.name))
    assert seen == [(1, "Bo"), (1, "Grue"), (2, "Ana"), (2, "Bo")]
    state = _play(records, turns.new_round)
    assert (state.round, state.current and state.current.name) == (3, "Ana")
    state = _play(records, turns.end)
    assert not state.active
    assert state.order == ()


def test_a_second_next_on_a_turn_already_over_changes_nothing() -> None:
    records = _set("Ana", "Bo", "Grue")
    twice = turns.advance(turns.fold(records)).record
    state = turns.fold([*records, twice, twice])  # two clicks raced: both logged
    assert state.current is not None
    assert state.current.name == "Bo"
    with pytest.raises(RuleViolation, match="Bo's turn is under way"):
        turns.advance(state, ends="c-who-was-up-before")


def test_taking_out_the_one_whose_turn_it_is_passes_the_turn() -> None:
    records = _set("Ana", "Bo", "Grue")
    state = _play(records, turns.advance, lambda s: turns.remove(s, "n2"))
    assert (_names(state), state.current and state.current.name) == (["Ana", "Grue"], "Grue")
    state = _play(records, lambda s: turns.remove(s, "n3"))  # the last: the round ends
    assert (_names(state), state.round, state.current and state.current.name) == (
        ["Ana"],
        2,
        "Ana",
    )


def test_a_move_keeps_the_turn_with_whoever_has_it() -> None:
    records = _set("Ana", "Bo", "Grue")
    state = _play(records, turns.advance, lambda s: turns.move(s, "n3", 1))
    assert _names(state) == ["Grue", "Ana", "Bo"]
    assert state.current is not None
    assert state.current.name == "Bo"
    with pytest.raises(InvalidInput):
        turns.move(state, "n3", 4)


def _d20s(*faces: int) -> ReplaySource:
    return ReplaySource([Draw(20, face) for face in faces])


def test_plain_rolls_order_by_total_and_ties_keep_the_order_given() -> None:
    entrants = [turns.Entrant(name) for name in ("Ana", "Bo", "Cy", "Dee")]
    made = turns.start(PLAIN, entrants, "roll", "1d20", {}, _d20s(7, 15, 7, 3))
    state = turns.fold([made.record])
    assert _names(state) == ["Bo", "Ana", "Cy", "Dee"]
    assert state.tied() == {"n1", "n3"}
    assert made.card is not None
    assert "Tied: Ana, Cy" in made.card.details[0]
    assert turns.replay(made.record, PLAIN.game, {}) is None


def test_a_newcomer_joins_by_its_roll_and_the_others_keep_their_places() -> None:
    entrants = [turns.Entrant(name) for name in ("Ana", "Bo", "Cy")]
    records = [turns.start(PLAIN, entrants, "roll", "1d20", {}, _d20s(18, 10, 4)).record]
    records.append(turns.advance(turns.fold(records)).record)  # Bo's turn
    joins = turns.add(turns.fold(records), PLAIN, turns.Entrant("Dee"), {}, _d20s(12))
    state = turns.fold([*records, joins.record])
    assert _names(state) == ["Ana", "Dee", "Bo", "Cy"]
    assert state.current is not None
    assert state.current.name == "Bo"
    assert turns.replay(joins.record, PLAIN.game, {}) is None


def test_a_game_without_initiative_rules_takes_a_die_or_a_set_order() -> None:
    assert not PLAIN.has_initiative
    assert LEGACY.has_initiative
    with pytest.raises(InvalidInput, match="no initiative rules"):
        turns.start(PLAIN, [turns.Entrant("Ana")], "game", "", {}, SeededSource(0))
    with pytest.raises(InvalidInput):
        turns.start(PLAIN, [turns.Entrant("Ana")], "roll", "2#1d20", {}, SeededSource(0))


def _pc(name: str, *, ini: int = 27, is_pc: bool = True) -> dict[str, Any]:
    return dump(make_sheet(name=name, is_pc=is_pc, scores=SCORES | {"INI": ini}))


@pytest.mark.parametrize("seed", range(12))
def test_legacy_ranks_order_as_its_initiative_rules_do(seed: int) -> None:
    """The tracker's order (ranks sorted) is ``combat.order``'s for the same dice."""
    sheets = {
        "1": _pc("Ana", ini=41),
        "2": _pc("Bo", ini=27),
        "3": _pc("Orc", ini=33, is_pc=False),
        "4": _pc("Cy", ini=19),
    }
    variants = LEGACY.variants({})
    found = LEGACY.initiative(sheets, variants, SeededSource(seed))
    ranks = {s.key: s.rank for s in found.standings}
    chars = [(key, validated(sheet), False) for key, sheet in sheets.items()]
    rules = combat.ordered(combat.initiative_as(chars, SeededSource(seed), variants["scale"]))
    assert [ranks[r.key] for r in rules] == sorted(ranks.values(), reverse=True)
    assert [s.said.split(",")[0] for s in found.standings] == [
        f"step {r.entry.step:+d} ({r.entry.result.outcome.value})"
        for r in combat.initiative_as(chars, SeededSource(seed), variants["scale"])
    ]


def test_legacy_full_ties_go_to_the_pc_and_pc_ties_to_the_table() -> None:
    sheets = {"1": _pc("Ana"), "2": _pc("Orc", is_pc=False), "3": _pc("Bo")}
    entrants = [
        turns.Entrant(str(s["name"]), int(key), s) for key, s in sheets.items()
    ]  # the same INI, the same faces: equal steps
    made = turns.start(LEGACY, entrants, "game", "", LEGACY.variants({}), MiddleSource())
    state = turns.fold([made.record])
    assert _names(state) == ["Ana", "Bo", "Orc"]
    assert state.tied() == {"c1", "c3"}
    assert made.card is not None
    assert made.card.details


def test_a_record_whose_order_or_ranks_do_not_follow_from_its_draws_is_caught() -> None:
    entrants = [turns.Entrant("Ana", 1, _pc("Ana", ini=41)), turns.Entrant("Bo", 2, _pc("Bo"))]
    variants = LEGACY.variants({})
    made = turns.start(LEGACY, entrants, "game", "", variants, SeededSource(3))
    assert turns.replay(made.record, LEGACY.game, variants) is None
    swapped = made.record | {"order": made.record["order"][::-1]}
    assert turns.replay(swapped, LEGACY.game, variants) == (
        "its order is not its combatants sorted by their rolls"
    )
    richer = [dict(c, rank=[99, 9, 99, 1]) for c in made.record["combatants"]]
    assert "other ranks" in str(
        turns.replay(made.record | {"combatants": richer}, LEGACY.game, variants)
    )
    faces = [[20, 1] for _ in made.record["draws"]]
    assert turns.replay(made.record | {"draws": faces}, LEGACY.game, variants) is not None
