"""Follow-ups on a Legacy result: partial successes and fate, each a new linked entry.

Every follow-up must rebuild: ``card(chain)`` equals the card the follow-up returned,
and the sheet change (fate -1, LCK -10 on a burn) comes back in the same Play.
"""

from typing import Any

import pytest

from rulebound.core import (
    Draw,
    InvalidInput,
    RandomSource,
    ReplaySource,
    RuleViolation,
    SeededSource,
)
from rulebound.rulesets.contract import Play, Record
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.plays import TableRules

TABLE = TableRules(GAME)
CHECK = {"characteristic": "PER", "affinity": "survival", "difficulty": "hard"}
HALVED = {"scale": "halved"}
"""Target 13 on a d20 (halved), bonus 3: 1 critical, 2-13 success, 14-16 partial, 17-19 failure."""


def kara(**form: Any) -> dict[str, Any]:
    return (
        TABLE.apply_sheet_form(TABLE.new_sheet("Kara"), form) if form else TABLE.new_sheet("Kara")
    )


def dice(*pairs: tuple[int, int]) -> ReplaySource:
    return ReplaySource(Draw(s, f) for s, f in pairs)


def d20(*faces: int) -> ReplaySource:
    return dice(*((20, f) for f in faces))


def follow(
    sheet: dict[str, Any], chain: list[Record], action: str, source: RandomSource, **params: Any
) -> Play:
    """Act, then check the new entry rebuilds to the same card from its chain."""
    play = TABLE.act(sheet, chain, action, params, HALVED, source)
    assert TABLE.card([*chain, play.record]) == play.card
    chain.append(play.record)
    return play


def partial(sheet: dict[str, Any]) -> list[Record]:
    play = TABLE.roll(sheet, CHECK, HALVED, d20(15))
    assert play.card.outcome == "Partial success (margin -2): accept or decline it"
    return [play.record]


def keys(play: Play) -> list[str]:
    """The follow-ups the card offers that can be taken (the others show why not)."""
    return [a.key for a in play.card.actions if a.available]


def test_a_partial_success_offers_accept_decline_and_fate() -> None:
    card = TABLE.card(partial(kara()))
    assert card.succeeded is None  # neither a success nor a failure until decided
    assert [a.key for a in card.actions] == [
        "accept-partial",
        "decline-partial",
        "fate-reroll",
        "luck-swap",
        "burn-fate",
    ]
    advice = {a.key: a.advice for a in card.actions}
    assert advice["fate-reroll"][0] == "A reroll improves the outcome: 13/20 (65.0%)"
    # LCK 20 halved is 10 (bonus 2): a pass on 1-10, better than a partial half the time
    assert advice["luck-swap"][0] == "An unmodified LCK test (20) improves the outcome: 1/2 (50.0%)"
    assert advice["burn-fate"] == ("LCK 20 -> 10, fate 2 -> 1",)


def test_accepting_stands_and_declining_is_a_failed_linked_entry() -> None:
    sheet = kara()
    chain = partial(sheet)
    accepted = follow(sheet, list(chain), "accept-partial", d20())
    assert accepted.record == {"kind": "accept-partial", "draws": []}
    assert accepted.sheet is None
    assert accepted.card.succeeded is True
    assert accepted.card.outcome.endswith(", accepted")
    assert accepted.card.actions == ()
    declined = follow(sheet, chain, "decline-partial", d20())
    assert declined.card.outcome.startswith("Failure")
    assert declined.card.succeeded is False
    assert declined.card.dice == TABLE.card(chain[:1]).dice  # judged again, no new dice
    assert keys(declined) == ["fate-reroll", "luck-swap", "burn-fate"]
    with pytest.raises(RuleViolation):
        TABLE.act(sheet, chain, "accept-partial", {}, HALVED, d20())


def test_a_fate_reroll_spends_the_point_with_the_new_result() -> None:
    sheet = kara()
    chain = partial(sheet)
    rerolled = follow(sheet, chain, "fate-reroll", d20(5))
    assert rerolled.sheet is not None
    assert rerolled.sheet["fate"] == 1
    assert {k: v for k, v in rerolled.sheet.items() if k != "fate"} == {
        k: v for k, v in sheet.items() if k != "fate"
    }
    assert rerolled.record["kind"] == "fate-reroll"
    assert rerolled.record["draws"] == [[20, 5]]
    assert rerolled.card.outcome == "Success (margin +8); fate 2 -> 1"
    assert "Fate reroll: partial success -> success" in rerolled.card.details
    assert "Kara now: fate 1, LCK 20" in rerolled.card.details
    again = follow(rerolled.sheet, chain, "fate-reroll", d20(20))  # the new result stands
    assert again.sheet is not None
    assert again.sheet["fate"] == 0
    assert again.card.outcome.startswith("Critical failure")
    assert keys(again) == []  # no fate left to offer


def test_a_luck_swap_replaces_the_test_with_an_unmodified_lck_test() -> None:
    sheet = kara()
    chain = partial(sheet)
    swapped = follow(sheet, chain, "luck-swap", d20(9))
    assert swapped.sheet is not None
    assert swapped.sheet["fate"] == 1
    assert swapped.card.title == "Kara: LCK test"
    assert swapped.card.steps[0] == "Target 10: LCK 20, halved to 10, modifiers +0"
    assert swapped.card.outcome == "Success (margin +1); fate 2 -> 1"


def test_an_elf_swaps_an_arcane_check_for_luck_free_once_then_pays_as_anyone() -> None:
    """The Elf Soul's free swap replaces the Arcane check; the LCK test it gives is no
    Arcane check, so swapping that again costs a fate point, as anyone's swap does."""
    sheet = TABLE.apply_sheet_form(TABLE.new_sheet("Ela"), {"race": "elf", "soul": "elf"})
    arcane = {"characteristic": "POW", "affinity": "arcane", "difficulty": "hard"}
    chain = [TABLE.roll(sheet, arcane, HALVED, d20(19)).record]

    def swap_advice(card: Any) -> tuple[str, ...]:
        return next(tuple(a.advice) for a in card.actions if a.key == "luck-swap")

    assert "Elf: free for this check" in swap_advice(TABLE.card(chain))
    free = follow(sheet, chain, "luck-swap", d20(19))
    assert free.sheet is None
    assert "Elf: free for this check" not in swap_advice(free.card)
    paid = follow(sheet, chain, "luck-swap", d20(5))
    assert paid.sheet is not None
    assert paid.sheet["fate"] == sheet["fate"] - 1


def test_burning_fate_costs_ten_lck_and_caps_fate() -> None:
    sheet = kara()
    chain = partial(sheet)
    burnt = follow(sheet, chain, "burn-fate", d20(), purpose="survive the fall")
    assert burnt.sheet is not None
    assert (burnt.sheet["lck"], burnt.sheet["fate"]) == (10, 1)
    assert burnt.record["purpose"] == "survive the fall"
    assert "fate burnt: for survive the fall: LCK 20 -> 10" in burnt.card.details
    stands = TABLE.card(chain[:1]).outcome  # the result itself stands; its cost is told
    assert burnt.card.outcome == f"{stands}; fate 2 -> 1, LCK 20 -> 10"


def test_spending_with_no_fate_is_a_rule_violation_and_no_sheet() -> None:
    broke = kara(fate="0")
    chain = partial(broke)
    card = TABLE.roll(broke, CHECK, HALVED, d20(15)).card
    assert keys(Play({}, card)) == ["accept-partial", "decline-partial"]
    reasons = {a.key: a.reason for a in card.actions if not a.available}
    assert reasons["fate-reroll"] == "no fate points left to spend"
    before = dict(broke)
    for action in ("fate-reroll", "luck-swap", "burn-fate"):
        with pytest.raises(RuleViolation):
            TABLE.act(broke, chain, action, {}, HALVED, d20(5))
    assert broke == before


def test_burning_below_lck_10_is_a_rule_violation() -> None:
    unlucky = kara(origin="astrum", lck="9", fate="1")  # Astrum's bonus point: fate cap 1
    chain = partial(unlucky)
    assert "burn-fate" not in keys(TABLE.roll(unlucky, CHECK, HALVED, d20(15)))
    with pytest.raises(RuleViolation) as error:
        TABLE.act(unlucky, chain, "burn-fate", {}, HALVED, d20())
    assert "LCK 9 is under 10" in str(error.value)


def test_fate_belongs_to_the_roller_and_unknown_actions_name_the_field() -> None:
    chain = partial(kara())
    other = TABLE.new_sheet("Bo")
    with pytest.raises(RuleViolation):
        TABLE.act(other, chain, "fate-reroll", {}, HALVED, d20(5))
    with pytest.raises(InvalidInput) as error:
        TABLE.act(kara(), chain, "push", {}, HALVED, d20(5))
    assert error.value.field == "action"
    with pytest.raises(InvalidInput):
        TABLE.card([{"kind": "fate-reroll", "draws": []}])


def test_accepted_partial_closes_fate() -> None:
    sheet = kara()
    chain = partial(sheet)
    follow(sheet, chain, "accept-partial", d20())
    with pytest.raises(RuleViolation):
        TABLE.act(sheet, chain, "fate-reroll", {}, HALVED, d20(5))


def test_god_fragment_checks_lck_on_the_table_scale() -> None:
    """Regression: the soul's LCK check followed the d20 even on the d100 scale."""
    sheet = kara(soul="god-fragment")
    roll = TABLE.roll(sheet, {"characteristic": "PER"}, {"scale": "d100"}, dice((100, 90)))
    kept = follow(sheet, [roll.record], "fate-reroll", dice((100, 15), (100, 40)))
    assert [s for s, _ in kept.record["draws"]] == [100, 100]
    assert kept.sheet is None  # LCK 20: the d100 15 passes, so the point is kept
    assert "fate kept: God-Fragment: the LCK check passed" in kept.card.details


def test_a_warlock_pays_in_stm_and_wounds_never_exceed_it() -> None:
    """Regression: paying 1d10 STM left wounds above the new STM score."""
    sheet = kara(soul="warlock", wounds="29")
    roll = TABLE.roll(sheet, CHECK, HALVED, d20(15))
    (action,) = [a for a in roll.card.actions if a.key == "fate-reroll"]
    assert [f.name for f in action.fields] == ["use_stamina"]
    paid = follow(sheet, [roll.record], "fate-reroll", dice((10, 9), (20, 4)), use_stamina=True)
    assert paid.sheet is not None
    assert (paid.sheet["scores"]["STM"], paid.sheet["wounds"], paid.sheet["fate"]) == (21, 21, 2)
    assert TABLE.validate_sheet(paid.sheet) == paid.sheet


def test_a_halfling_may_save_against_a_critical_failure_once() -> None:
    halfling = TABLE.apply_sheet_form(
        TABLE.new_sheet("Pip"), {"race": "halfling", "soul": "halfling"}
    )
    roll = TABLE.roll(halfling, {"characteristic": "DEX"}, {"scale": "as-written"}, d20(20))
    assert "cancel-critical" in keys(roll)
    chain = [roll.record]
    saved = follow(halfling, list(chain), "cancel-critical", d20(19))  # LCK 20: 19 passes
    assert saved.card.outcome.startswith("Success")  # DEX 30: a 20 is a success without the rule
    assert "critical failure ignored: judged as success" in saved.card.details
    stuck = follow(halfling, chain, "cancel-critical", d20(20))
    assert stuck.card.outcome.startswith("Critical failure")
    assert "cancel-critical" not in keys(stuck)
    with pytest.raises(RuleViolation):
        TABLE.act(halfling, chain, "cancel-critical", {}, HALVED, d20(1))
    with pytest.raises(RuleViolation):
        TABLE.act(
            kara(),
            [TABLE.roll(kara(), CHECK, HALVED, d20(20)).record],
            "cancel-critical",
            {},
            HALVED,
            d20(1),
        )


def test_many_seeds_replay_through_every_follow_up() -> None:
    sheet = kara()
    for seed in range(30):
        chain = [TABLE.roll(sheet, CHECK, HALVED, SeededSource(seed)).record]
        live = sheet
        for action in ("fate-reroll", "luck-swap"):
            if action not in keys_of(chain):  # not offered after a critical success
                continue
            play = follow(live, chain, action, SeededSource(100 + seed))
            assert play.sheet is not None
            assert play.sheet["fate"] == live["fate"] - 1
            live = play.sheet


def keys_of(chain: list[Record]) -> list[str]:
    return [a.key for a in TABLE.card(chain).actions if a.available]
