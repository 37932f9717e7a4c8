"""Rolling checks: traces, replay, follow-ups linked by parent."""

from dataclasses import replace

import pytest

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.contract import Game
from rulebound.rulesets.legacy.chain import CheckState
from rulebound.rulesets.legacy.checks import (
    CheckRequest,
    decline_partial,
    request_from_json,
    reroll,
    roll_check,
)
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.rules import Edge, Outcome


def faces(*values: int, sides: int = 20) -> ReplaySource:
    return ReplaySource([Draw(sides, v) for v in values])


def test_the_game_satisfies_the_contract_and_rolls_a_raw_score() -> None:
    assert isinstance(GAME, Game)
    assert GAME.key == "legacy"
    request = GAME.request({"score": 30}, {"scale": "as-written", "affinity_bonus": "rank-table"})
    result = GAME.roll(request, SeededSource(4))
    assert isinstance(result, CheckState)
    assert result.result.request == CheckRequest(score=30, scale="as-written")


def test_request_json_names_the_bad_field() -> None:
    with pytest.raises(InvalidInput, match="score"):
        request_from_json({"score": -1})
    with pytest.raises(InvalidInput, match="colour"):
        request_from_json({"colour": "red"})
    with pytest.raises(InvalidInput, match="a characteristic from 0 to 200") as error:
        GAME.load({"request": {"score": -1}})
    assert error.value.field.startswith("request")


def test_advantage_keeps_the_lower_and_disadvantage_the_higher() -> None:
    adv = roll_check(CheckRequest(target=10, advantage=True), faces(15, 4))
    assert (adv.face, adv.dice[1].marks) == (4, ("kept",))
    dis = roll_check(CheckRequest(target=10, disadvantage=True), faces(15, 4))
    assert (dis.face, dis.outcome) == (15, Outcome.FAILURE)


def test_both_edges_roll_one_die() -> None:
    result = roll_check(CheckRequest(target=10, advantage=True, disadvantage=True), faces(7))
    assert result.edge is Edge.NONE
    assert len(result.dice) == 1


def test_as_written_nearly_always_passes() -> None:
    written = CheckRequest(score=30, scale="as-written")
    assert roll_check(written, faces(19)).outcome is Outcome.SUCCESS
    assert roll_check(written, faces(20)).outcome is Outcome.CRITICAL_FAILURE


def test_critical_when_the_bonus_would_pass() -> None:
    assert (
        roll_check(CheckRequest(score=34, scale="halved"), faces(3)).outcome
        is Outcome.CRITICAL_SUCCESS
    )
    assert roll_check(CheckRequest(score=34, scale="halved"), faces(4)).outcome is Outcome.SUCCESS


def test_replay_reproduces_the_result_exactly() -> None:
    req = CheckRequest(score=33, rank=2, advantage=True, scale="d100")
    first = roll_check(req, SeededSource(99))
    again = roll_check(req, ReplaySource(first.provenance.draws))
    assert again.provenance.draws == first.provenance.draws
    assert replace(again, provenance=first.provenance) == first


def test_partial_can_be_declined_as_a_new_linked_result() -> None:
    partial = roll_check(CheckRequest(score=30, scale="halved"), faces(17))
    assert partial.outcome is Outcome.PARTIAL
    declined = decline_partial(partial)
    assert (declined.outcome, declined.parent) == (Outcome.FAILURE, partial)
    assert partial.outcome is Outcome.PARTIAL
    with pytest.raises(InvalidInput, match="partial success to decline"):
        decline_partial(declined)


def test_reroll_is_a_new_result_with_parent() -> None:
    first = roll_check(CheckRequest(target=10), faces(18))
    second = reroll(first, faces(3))
    assert second.parent is first
    assert second.face == 3
    assert second.provenance.draws == (Draw(20, 3),)


def test_margin_and_degrees() -> None:
    result = roll_check(CheckRequest(target=12), faces(5))
    assert (result.margin, result.degrees) == (7, 7)
    failed = roll_check(CheckRequest(target=12, bonus=0), faces(15))
    assert (failed.margin, failed.degrees) == (-3, -3)
