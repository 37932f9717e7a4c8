"""Game-master tools: initiative with surprise, and an extended check across turns.

On the as-written scale an INI check's step is its margin: INI score - the d20.
"""

from typing import Any

import pytest

from rulebound.core import Draw, InvalidInput, ReplaySource, RuleViolation, SeededSource
from rulebound.rulesets.contract import Play, Record, TablePlay
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.plays import TableRules

TABLE = TableRules(GAME)


def character(name: str, **form: Any) -> dict[str, Any]:
    return TABLE.apply_sheet_form(TABLE.new_sheet(name), form)


def d20(*faces: int) -> ReplaySource:
    return ReplaySource(Draw(20, f) for f in faces)


WRITTEN = {"scale": "as-written"}
"""The steps below are the text's arithmetic: a d20 against the full INI score."""


def table_act(
    sheets: dict[str, Any], action: str, source: ReplaySource, **params: Any
) -> TablePlay:
    play = TABLE.table_act(sheets, action, params, WRITTEN, source)
    assert source.exhausted
    assert TABLE.card([play.record]) == play.card
    return play


def test_table_actions_on_offer() -> None:
    views = {a.key: a for a in TABLE.table_actions()}
    assert list(views) == ["initiative", "extended-check"]
    assert [f.name for f in views["initiative"].fields] == ["combatants", "surprised", "allies"]
    extended = {f.name for f in views["extended-check"].fields}
    assert {"character", "success_threshold", "failure_threshold", "max_rolls"} <= extended
    with pytest.raises(InvalidInput) as error:
        TABLE.table_act({}, "ambush", {}, {}, d20())
    assert error.value.field == "action"


def test_initiative_ties_go_to_bonus_then_score_then_pcs() -> None:
    sheets = {
        "1": character("Ana", **{"scores.INI": "35"}),  # PC, bonus 3: d20 10 -> step 25
        "2": character("Orc", is_pc=False, **{"scores.INI": "35"}),  # NPC, same numbers
        "3": character("Wolf", is_pc=False, **{"scores.INI": "41"}),  # bonus 4: 16 -> 25
        "4": character("Bo", **{"scores.INI": "36"}),  # bonus 3, INI 36: 11 -> 25
    }
    play = table_act(sheets, "initiative", d20(10, 10, 16, 11))
    assert play.card.outcome == "Order: Wolf, Bo, Ana, Orc"
    assert play.card.steps[0] == "1. Wolf: step +25 (success), INI bonus 4, INI 41, NPC"
    assert play.sheets == {}
    with pytest.raises(RuleViolation):
        TABLE.act(sheets["1"], [play.record], "extended-roll", {}, {}, d20(3))
    assert [d.label for d in play.card.dice] == [
        "Ana d20 #1",
        "Orc d20 #1",
        "Wolf d20 #1",
        "Bo d20 #1",
    ]
    pcs = {"1": sheets["1"], "4": character("Cy", **{"scores.INI": "35"})}
    tied = table_act(pcs, "initiative", d20(10, 10), combatants="4, Ana")
    assert tied.card.outcome == "Order: Cy, Ana"  # a PC tie keeps the order given


def test_a_surprise_round_and_who_stays_surprised() -> None:
    sheets = {
        "1": character("Ana"),  # INI 35
        "2": character("Orc", is_pc=False),
        "3": character("Bo"),
        "9": character("Gone", dead=True),
    }
    play = table_act(sheets, "initiative", d20(10, 20, 5), surprised="orc, 3")
    # Ana rolls as normal; Orc's Difficult (-2) save is a 20, Bo's a 5 (step 28)
    assert play.card.title == "Initiative with a surprise round"
    assert play.card.outcome == "Order: Ana, Bo"
    steps = play.card.steps
    assert steps[0] == "Surprise round:"
    assert steps[2] == "2. Bo: step +28 (success), INI bonus 3, INI 35, PC"
    assert steps[3].startswith("Still surprised until their turn next round")
    assert steps[3].endswith(": Orc")
    assert steps[4:] == (
        "From the next round:",
        "1. Bo: step +28 (success), INI bonus 3, INI 35, PC",
        "2. Ana: step +25 (success), INI bonus 3, INI 35, PC",
        "3. Orc: step +0 (critical failure), INI bonus 3, INI 35, NPC",
    )
    with pytest.raises(RuleViolation):
        TABLE.table_act(sheets, "initiative", {"combatants": "Gone"}, {}, d20(3))
    with pytest.raises(InvalidInput) as error:
        TABLE.table_act(sheets, "initiative", {"surprised": "Zed"}, {}, d20(3))
    assert error.value.field == "surprised"


def test_initiative_rolls_as_the_character_and_returns_changed_sheets() -> None:
    sheets = {"1": character("Ana", cursed=True), "2": character("Bo", fatigue_taken="1")}
    play = table_act(sheets, "initiative", d20(4, 9, 10))
    assert list(play.sheets) == ["1"]  # the curse was spent on this roll
    assert play.sheets["1"]["cursed"] is False
    assert play.card.steps == (
        "1. Ana: step +26 (success), INI bonus 3, INI 35, PC",  # cursed: the higher of 4 and 9
        "2. Bo: step +24 (success), INI bonus 3, INI 35, PC",  # fatigued: 35 - 1 - 10
    )


def start(sheets: dict[str, Any], variants: Any = None, **params: Any) -> list[Record]:
    play = TABLE.table_act(sheets, "extended-check", params, variants or {}, SeededSource(0))
    assert play.record["draws"] == []
    assert play.sheets == {}
    assert TABLE.card([play.record]) == play.card
    return [play.record]


def turn(chain: list[Record], action: str, *faces: int) -> Play:
    play = TABLE.act({}, chain, action, {}, {}, d20(*faces))
    chain.append(play.record)
    assert TABLE.card(chain) == play.card  # each turn rebuilds the whole tally
    assert play.sheet is None
    return play


def test_an_extended_check_adds_margins_across_turns() -> None:
    sheets = {"7": character("Kara")}
    chain = start(
        sheets,
        character="Kara",
        characteristic="INT",
        success_threshold=20,
        failure_threshold=10,
        max_rolls=3,
        variants={"scale": "halved"},
    )
    opening = TABLE.card(chain)
    assert opening.title == "Extended check: Kara, INT"
    assert opening.outcome == "In progress: success 0 / 20, failure 0 / 10, 0 of 3 rolls"
    (roll,) = opening.actions
    assert roll.key == "extended-roll"
    assert roll.advice[0] == "From here:"
    assert {line.split(":")[0] for line in roll.advice[1:]} <= {
        "succeeded",
        "failed",
        "partial success available",
        "ran out of rolls",
    }
    assert chain[0]["character"] == "7"
    # INT 30 halved: target 15, bonus 3
    one = turn(chain, "extended-roll", 10)
    assert one.card.steps[-1] == (
        "Roll 1: d20 10 vs 15, success, margin +5: +5 success (so far 5 / 0)"
    )
    two = turn(chain, "extended-roll", 19)
    assert two.card.steps[-1] == (
        "Roll 2: d20 19 vs 15, failure, margin -4: +4 failure (so far 5 / 4)"
    )
    three = turn(chain, "extended-roll", 2)
    assert three.card.steps[-1] == (
        "Roll 3: d20 2 vs 15, critical success, margin +13: "
        "+26 success (critical: doubled) (so far 31 / 4)"
    )
    assert three.card.outcome.startswith("Succeeded: success 31 / 20")
    assert three.card.succeeded is True
    with pytest.raises(RuleViolation):
        turn(chain, "extended-roll", 5)


def test_the_partial_success_at_the_end_is_accepted_or_declined() -> None:
    chain = start(
        {"7": character("Kara")},
        character="Kara",
        characteristic="INT",
        success_threshold=30,
        failure_threshold=30,
        max_rolls=2,
        variants={"scale": "halved"},
    )
    turn(chain, "extended-roll", 18)  # a partial success counts as its failure: 3
    end = turn(chain, "extended-roll", 10)  # success 5
    assert end.card.outcome == (
        "Partial success available: success 5 / 30, failure 3 / 30, 2 of 2 rolls"
    )
    assert end.card.succeeded is None
    assert [a.key for a in end.card.actions] == ["accept-partial", "decline-partial"]
    accepted = turn(list(chain), "accept-partial")
    assert accepted.card.outcome.startswith("Partial success accepted: success 5 / 30")
    assert accepted.card.succeeded is True
    assert accepted.card.actions == ()
    declined = turn(chain, "decline-partial")
    assert declined.card.outcome.startswith("Failed (partial success declined)")
    assert declined.card.succeeded is False
    with pytest.raises(RuleViolation):
        turn(chain, "accept-partial")
    with pytest.raises(InvalidInput) as error:
        TABLE.act({}, chain, "push", {}, {}, d20())
    assert error.value.field == "action"


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"character": "Nobody", "characteristic": "INT"}, "character"),
        ({"character": "Kara"}, "characteristic"),
        ({"character": "Kara", "characteristic": "INT", "max_rolls": "99"}, "max_rolls"),
        (
            {"character": "Kara", "characteristic": "INT", "success_threshold": "0"},
            "success_threshold",
        ),
    ],
)
def test_bad_extended_starts_name_the_field(params: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.table_act({"7": character("Kara")}, "extended-check", params, {}, SeededSource(0))
    assert error.value.field == field
