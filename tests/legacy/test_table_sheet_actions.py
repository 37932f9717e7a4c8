"""Legacy sheet actions: damage, fatigue, death saves, rests and healing change the sheet.

Kara (the starting sheet): STM 30 (30 wounds, fatigue capacity 3), CON 30 (soak 3,
3 rest points), LCK 20 and 2 fate, no armour.
"""

from typing import Any

import pytest

from rulebound.core import Draw, InvalidInput, ReplaySource, RuleViolation
from rulebound.rulesets.contract import Play
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.plays import TableRules

TABLE = TableRules(GAME)


def kara(**form: Any) -> dict[str, Any]:
    return (
        TABLE.apply_sheet_form(TABLE.new_sheet("Kara"), form) if form else TABLE.new_sheet("Kara")
    )


def dice(*pairs: tuple[int, int]) -> ReplaySource:
    return ReplaySource(Draw(s, f) for s, f in pairs)


def d20(*faces: int) -> ReplaySource:
    return dice(*((20, f) for f in faces))


def act(sheet: dict[str, Any], action: str, source: ReplaySource, **params: Any) -> Play:
    variants = params.pop("variants", {})
    play = TABLE.sheet_act(sheet, action, params, variants, source)
    assert source.exhausted
    assert TABLE.card([play.record]) == play.card  # the log's card rebuilds by replay
    return play


def after(play: Play) -> dict[str, Any]:
    assert play.sheet is not None
    return play.sheet


def test_sheet_actions_on_offer() -> None:
    def offered(sheet: dict[str, Any]) -> list[str]:
        return [a.key for a in TABLE.sheet_actions(sheet, {}) if a.available]

    assert offered(kara()) == [
        "take-damage",
        "fatigue",
        "short-rest",
        "long-rest",
        "heal",
    ]
    assert "death-save" in offered(kara(bleeding=True, unconscious=True))
    assert offered(kara(dead=True)) == []
    (death,) = [a for a in TABLE.sheet_actions(kara(), {}) if a.key == "death-save"]
    assert death.reason == "only a character bleeding out makes death saves"


def test_damage_past_armour_and_soak_costs_wounds_and_critical_damage() -> None:
    hit = act(kara(), "take-damage", d20(), damage=10, location="left-arm")
    sheet = after(hit)
    assert sheet["wounds"] == 23  # 10 - soak 3
    assert sheet["critical"] == {"left-arm": 1}  # a point for being wounded
    assert hit.record["draws"] == []
    assert hit.card.steps[0] == "10 damage to left-arm: 3 blocked by armour and soak: 7 through"
    armoured = kara(**{"armour.torso.physical": "4"})
    crit = act(armoured, "take-damage", d20(), damage=5, critical_hit=True)
    assert after(crit)["wounds"] == 30  # all 5 blocked
    assert after(crit)["critical"] == {"torso": 1}  # the critical hit's point lands anyway


def test_damage_past_the_wounds_calls_the_con_save() -> None:
    down = act(kara(), "take-damage", d20(20), damage=40, location="head", max_damage=True)
    sheet = after(down)
    assert sheet["wounds"] == 0
    assert sheet["critical"] == {"head": 9}  # 7 excess + 1 wound + 1 max damage
    assert (sheet["bleeding"], sheet["unconscious"]) == (True, True)
    assert down.card.outcome.endswith("CON save failed: bleeding out")
    assert [d.face for d in down.card.dice] == [20]
    stands = act(kara(), "take-damage", d20(12), damage=40, location="head")
    assert after(stands)["bleeding"] is False
    assert stands.card.succeeded is True


def test_resistance_whole_body_and_lethal_critical() -> None:
    poison = act(kara(resistances="poison"), "take-damage", d20(), damage=13, damage_type="poison")
    assert after(poison)["wounds"] == 25  # (13 - 3) halved
    blast = act(kara(), "take-damage", d20(), damage=6, whole_body=True, ignore=["soak"])
    assert after(blast)["critical"] == dict.fromkeys(
        ("head", "left-arm", "right-arm", "torso", "left-leg", "right-leg"), 1
    )
    lethal = act(
        kara(**{"critical.head": "4"}),
        "take-damage",
        d20(),
        damage=4,
        location="head",
        lethal_critical=5,
    )
    assert after(lethal)["dead"] is True
    assert lethal.card.outcome.endswith("killed outright")


def test_death_saves_roll_or_use_fate_before_the_roll() -> None:
    bleeding = kara(bleeding=True, unconscious=True, wounds="0")
    (view,) = [a for a in TABLE.sheet_actions(bleeding, {}) if a.key == "death-save"]
    assert view.advice[0].startswith("From 0 successes and 0 failures: stable 1/2 (50.0%)")
    rolled = act(bleeding, "death-save", d20(8))
    assert (after(rolled)["death_successes"], after(rolled)["death_failures"]) == (1, 0)
    nat = act(bleeding, "death-save", d20(20))
    assert after(nat)["death_failures"] == 2  # a critical failure counts twice
    spent = act(bleeding, "death-save", d20(), fate="spend")
    assert (after(spent)["fate"], after(spent)["death_successes"]) == (1, 1)
    burnt = act(bleeding, "death-save", d20(), fate="burn")
    sheet = after(burnt)
    assert (sheet["lck"], sheet["fate"], sheet["death_successes"]) == (10, 1, 3)
    assert sheet["bleeding"] is False  # stable, still unconscious
    assert burnt.card.outcome == "Kara death save: stable"
    dying = kara(bleeding=True, unconscious=True, wounds="0", death_failures="2")
    assert after(act(dying, "death-save", d20(15)))["dead"] is True


def test_death_save_fate_is_refused_as_the_rules_say() -> None:
    broke = kara(bleeding=True, unconscious=True, wounds="0", fate="0")
    with pytest.raises(RuleViolation):
        TABLE.sheet_act(broke, "death-save", {"fate": "spend"}, {}, d20())
    unlucky = kara(bleeding=True, origin="astrum", lck="9", fate="1")
    with pytest.raises(RuleViolation):
        TABLE.sheet_act(unlucky, "death-save", {"fate": "burn"}, {}, d20())
    npc = kara(bleeding=True, is_pc=False)
    with pytest.raises(RuleViolation):
        TABLE.sheet_act(npc, "death-save", {"fate": "spend"}, {}, d20())
    assert after(act(npc, "death-save", d20(), fate="spend", important=True))["fate"] == 1
    with pytest.raises(RuleViolation):
        TABLE.sheet_act(kara(), "death-save", {}, {}, d20(5))  # not bleeding out


def test_death_save_spend_pays_like_any_fate_spend() -> None:
    """Regression: the God-Fragment's LCK check was skipped on a death-save spend."""
    fragment = kara(soul="god-fragment", bleeding=True, unconscious=True, wounds="0")
    kept = act(fragment, "death-save", d20(4), fate="spend")  # LCK 20: the check passes
    assert (after(kept)["fate"], after(kept)["death_successes"]) == (2, 1)
    halfling = TABLE.apply_sheet_form(
        TABLE.new_sheet("Pip"), {"race": "halfling", "soul": "halfling", "bleeding": True}
    )
    scaled = TABLE.sheet_act(
        halfling, "death-save", {}, {"scale": "d100"}, dice((20, 20), (100, 15))
    )
    assert scaled.record["draws"] == [[20, 20], [100, 15]]  # the LCK save on the table's scale
    assert after(scaled)["death_failures"] == 1  # the critical is ignored: one failure
    assert TABLE.card([scaled.record]) == scaled.card


def test_rests_and_healing() -> None:
    hurt = kara(wounds="20", fatigue_taken="2")
    short = act(hurt, "short-rest", d20(), points=2)
    assert (after(short)["wounds"], after(short)["rest_points"], after(short)["fatigue_taken"]) == (
        22,
        1,
        0,
    )
    long = act(after(short), "long-rest", d20())
    assert (after(long)["wounds"], after(long)["rest_points"]) == (23, 3)
    with pytest.raises(InvalidInput) as error:
        TABLE.sheet_act(after(short), "short-rest", {"points": 2}, {}, d20())
    assert error.value.field == "points"
    saved = act(kara(bleeding=True, wounds="0", death_failures="2"), "heal", d20(), amount=5)
    assert (after(saved)["wounds"], after(saved)["bleeding"], after(saved)["death_failures"]) == (
        5,
        False,
        0,
    )
    capped = act(kara(wounds="29"), "heal", d20(), amount=5)
    assert after(capped)["wounds"] == 30
    with pytest.raises(RuleViolation):
        TABLE.sheet_act(kara(dead=True), "heal", {"amount": 3}, {}, d20())


def test_fatigue_past_capacity_calls_the_stm_check() -> None:
    tired = act(kara(), "fatigue", d20(), amount=2)
    assert after(tired)["fatigue_taken"] == 2
    assert tired.card.outcome == "Kara fatigued"
    assert tired.summary == "fatigued"  # the table puts the character's name in front
    out = act(kara(fatigue_taken="3"), "fatigue", d20(20), amount=1)
    assert after(out)["unconscious"] is True
    assert out.card.steps[-1] == "+0 STM check: critical failure"


@pytest.mark.parametrize(
    ("action", "params", "field"),
    [
        ("fly", {}, "action"),
        ("take-damage", {"damage": "lots"}, "damage"),
        ("take-damage", {"damage": 3, "location": "tail"}, "location"),
        ("take-damage", {"damage": 3, "ignore": ["shield"]}, "ignore"),
        ("take-damage", {"damage": 3, "lethal_critical": "0"}, "lethal_critical"),
        ("fatigue", {"amount": "-1"}, "amount"),
        ("death-save", {"fate": "pray"}, "fate"),
        ("heal", {"amount": 3, "variants": {"scale": "d12"}}, "variants.scale"),
    ],
)
def test_bad_sheet_action_params_name_the_field(
    action: str, params: dict[str, Any], field: str
) -> None:
    variants = params.pop("variants", {})
    with pytest.raises(InvalidInput) as error:
        TABLE.sheet_act(kara(bleeding=True), action, params, variants, d20(5))
    assert error.value.field == field
