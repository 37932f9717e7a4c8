"""Issue 15, Legacy: the audit's defects, each reproduced first, and the rulings it asked for.

Every test here failed before its fix (or pins a ruling of docs/rulings/legacy.md, named).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rulebound.core import Draw, InvalidInput, ReplaySource, RuleViolation
from rulebound.core.errors import InvalidForm
from rulebound.rulesets.legacy.assist import assist
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import CheckRequest, resolve, roll_check
from rulebound.rulesets.legacy.combat import Combatant, InitiativeEntry, bleeding_save, order
from rulebound.rulesets.legacy.creation import create_character
from rulebound.rulesets.legacy.damage import apply_damage
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.odds import check_chances
from rulebound.rulesets.legacy.progression import advance, reduce
from rulebound.rulesets.legacy.recovery import heal, long_rest, short_rest
from rulebound.rulesets.legacy.restrictions import validated
from rulebound.rulesets.legacy.rules import Outcome, Thresholds, classify
from rulebound.rulesets.legacy.souls import pass_days
from rulebound.rulesets.plays import TableRules

from .conftest import Sheet, extras

TABLE = TableRules(GAME)


def draws(*pairs: tuple[int, int]) -> ReplaySource:
    return ReplaySource(Draw(sides, face) for sides, face in pairs)


def d10(*faces: int) -> list[tuple[int, int]]:
    return [(10, f) for f in faces]


# --- Wrong 3: the previous maximum after an origin penalty ---------------------------------


def metropolitan_human() -> Character:
    """DEX rolls 12: 20 + 12 = 32 (bonus 3) before Metropolitan's -5 takes it to 27."""
    primaries = d10(5, 5, 6, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5)  # 10, 12, 10, 10, 10, 10, 10
    secondaries = d10(*[1] * 14)  # every primary 30-35: bonus 3, two dice each
    lck_ren = d10(5, 5, 5)
    source = draws(*primaries, *secondaries, *lck_ren)
    made, _ = create_character(
        source,
        name="Mira",
        race="human",
        origin="metropolitan",
        soul="human",
        affinities=extras("human", "metropolitan"),
    )
    assert source.exhausted
    return made.character


def test_an_origin_penalty_keeps_the_bonus_the_secondary_was_rolled_from() -> None:
    mira = metropolitan_human()
    assert (mira.scores["DEX"], mira.bonus("DEX"), mira.max_bonus["DEX"]) == (27, 2, 3)
    back = advance(mira, "DEX", draws((10, 7)))  # 27 -> 32: bonus 3, not past the old 3
    assert back.character.scores["BLS"] == mira.scores["BLS"]
    assert [e.kind for e in back.events] == ["advance"]
    past = advance(back.character, "DEX", draws((10, 7)), amount=10)  # 42: bonus 4 > 3
    assert past.character.scores["BLS"] == mira.scores["BLS"] + 7


def test_an_origin_boost_at_creation_raises_the_previous_maximum_without_a_roll() -> None:
    mira = metropolitan_human()  # INT 30 + 5 = 35: the bonus stays 3; EDU 30 + 5
    assert mira.max_bonus["INT"] == mira.bonus("INT") == 3


def test_a_reduction_remembers_the_maximum_of_a_sheet_that_never_recorded_one(
    sheet: Sheet,
) -> None:
    """A hand-entered sheet has no recorded maximum: STR 34 (bonus 3) lowered to 24 and
    advanced back to 34 has not passed its previous maximum, so WPN gains nothing
    (Improving Characteristics). It used to forget the 3 and grant 1d10."""
    kara = sheet()  # STR 34, WPN 30, no max_bonus
    assert kara.max_bonus == {}
    low = reduce(kara, "STR", 10).character
    assert (low.bonus("STR"), low.max_bonus["STR"]) == (2, 3)
    back = advance(low, "STR", draws(), amount=10)
    assert (back.character.scores["STR"], back.character.scores["WPN"]) == (34, 30)
    past = advance(back.character, "STR", draws((10, 7)), amount=10)  # 44: bonus 4 > 3
    assert past.character.scores["WPN"] == 30 + 7


# --- Wrong 4: healing a character who is bleeding out --------------------------------------


def test_healing_above_zero_wakes_a_bleeding_character(sheet: Sheet) -> None:
    dying = sheet(wounds=0, bleeding=True, unconscious=True, death_successes=1, death_failures=2)
    healed = heal(dying, 3).character
    assert (healed.bleeding, healed.unconscious, healed.can_act) == (False, False, True)
    assert (healed.death_successes, healed.death_failures) == (0, 0)
    rolled = roll_check(healed.check("STR"), draws((20, 5)))
    assert rolled.dice  # a real roll, not an automatic failure


def test_healing_at_the_table_returns_the_character_to_combat(sheet: Sheet) -> None:
    dying = sheet(wounds=0, bleeding=True, unconscious=True).model_dump(mode="json")
    play = TABLE.sheet_act(dying, "heal", {"amount": 2}, {}, draws())
    assert play.sheet is not None
    assert (play.sheet["unconscious"], play.sheet["bleeding"]) == (False, False)
    after = TABLE.roll(play.sheet, {"characteristic": "STR"}, {}, draws((20, 4)))
    assert after.record["draws"] == [[20, 4]]


def test_healing_does_not_wake_a_character_knocked_out_another_way(sheet: Sheet) -> None:
    tired = sheet(wounds=10, unconscious=True)  # fatigue past 0, not bleeding out
    assert heal(tired, 3).character.unconscious
    stable = sheet(wounds=0, unconscious=True, death_successes=3)  # "simply unconscious"
    assert heal(stable, 3).character.unconscious


# --- Wrong 5: initiative ties go to a PC or a PC's ally -------------------------------------


def entry(name: str, *, pc: bool = False, ally: bool = False) -> InitiativeEntry:
    combatant = Combatant(name, 30, 3, is_pc=pc, ally=ally)
    return InitiativeEntry(combatant, 5, roll_check(CheckRequest(target=10), draws((20, 5))))


def test_an_allied_npc_wins_a_full_tie_against_an_enemy() -> None:
    ranked = order([entry("Enemy"), entry("Ally", ally=True)])
    assert [e.combatant.name for e in ranked] == ["Ally", "Enemy"]
    assert Combatant("Ally", 30, 3, ally=True).side == "PC's ally"


def test_friendly_ties_keep_the_order_the_players_give() -> None:
    listed = [entry("Enemy"), entry("Hound", ally=True), entry("Ana", pc=True)]
    assert [e.combatant.name for e in order(listed)] == ["Hound", "Ana", "Enemy"]
    swapped = [entry("Ana", pc=True), entry("Hound", ally=True), entry("Enemy")]
    assert [e.combatant.name for e in order(swapped)] == ["Ana", "Hound", "Enemy"]


def character(name: str, **form: Any) -> dict[str, Any]:
    return TABLE.apply_sheet_form(TABLE.new_sheet(name), form)


def test_the_initiative_tool_takes_the_pcs_allies() -> None:
    sheets = {
        "1": character("Orc", is_pc=False, **{"scores.INI": "35"}),
        "2": character("Hound", is_pc=False, **{"scores.INI": "35"}),
    }
    play = TABLE.table_act(sheets, "initiative", {"allies": "Hound"}, {}, draws((20, 9), (20, 9)))
    assert play.card.outcome == "Order: Hound, Orc"
    assert TABLE.card([play.record]) == play.card
    assert [e.get("ally", False) for e in play.record["aware"]] == [False, True]
    plain = TABLE.table_act(sheets, "initiative", {}, {}, draws((20, 9), (20, 9)))
    assert plain.card.outcome == "Order: Orc, Hound"  # two enemies: the order listed


# --- a dying character hit again --------------------------------------------------------------


def test_a_character_bleeding_out_who_is_hit_again_keeps_the_death_save_tally(
    sheet: Sheet,
) -> None:
    dying = sheet(wounds=0, bleeding=True, unconscious=True, death_successes=2, death_failures=1)
    change, report = apply_damage(dying, 12)
    after = change.character
    assert not report.con_save_required  # already bleeding out: no second CON save
    assert (after.death_successes, after.death_failures, after.bleeding) == (2, 1, True)
    assert after.critical["torso"] == 12 - 3 + 1  # past soak, all past 0 wounds; + 1 point
    with pytest.raises(RuleViolation, match="already bleeding out"):
        bleeding_save(dying, draws((20, 20)))
    play = TABLE.sheet_act(
        dying.model_dump(mode="json"), "take-damage", {"damage": 12}, {}, draws()
    )
    assert play.record["draws"] == []
    assert play.sheet is not None
    assert play.sheet["death_successes"] == 2


# --- the resisted "always" critical point ---------------------------------------------------


def test_resistance_never_halves_away_a_point_that_always_lands(sheet: Sheet) -> None:
    gnome = sheet(race="gnome", soul="gnome")  # Resistance (Poisons)
    blocked = apply_damage(gnome, 0, damage_type="poison", critical_hit=True)[1]
    assert blocked.critical == {"torso": 1}  # "always succeeds", resisted or not
    both = apply_damage(gnome, 13, damage_type="poison", critical_hit=True)[1]
    assert (both.wounds_lost, both.critical) == ((13 - 3) // 2, {"torso": 1})  # 2 halved to 1
    plain = apply_damage(sheet(vulnerabilities=("fire",)), 0, damage_type="fire", max_damage=True)
    assert plain[1].critical == {"torso": 2}  # vulnerability doubles it


# --- a raw target below its bonus -------------------------------------------------------------


def test_a_critical_success_is_never_above_the_target() -> None:
    t = resolve(CheckRequest(target=2, bonus=5)).thresholds
    assert [classify(face, t) for face in range(1, 8)] == [
        Outcome.CRITICAL_SUCCESS,
        Outcome.CRITICAL_SUCCESS,
        *[Outcome.PARTIAL] * 5,  # 3..7 fail by 5 or less
    ]
    chances = check_chances(CheckRequest(target=2, bonus=5))
    assert chances[Outcome.CRITICAL_SUCCESS] == Fraction(2, 20)
    assert chances[Outcome.SUCCESS] == 0
    assert classify(3, Thresholds(30, 3, 3)) is Outcome.CRITICAL_SUCCESS  # unchanged below


# --- helpers ----------------------------------------------------------------------------------


def test_one_helper_assists_a_check_once(sheet: Sheet) -> None:
    bo = sheet(name="Bo", affinities=("str",))
    kara = sheet()
    helped = assist(bo, kara.check("STR", scale="as-written"), mode="advantage")
    with pytest.raises(RuleViolation, match="Bo already assists"):
        assist(bo, helped, mode="proficiency")
    cy = sheet(name="Cy", affinities=("str",), rank=5)
    both = assist(cy, helped, mode="proficiency")  # a second helper lends the other benefit
    assert (both.advantage, both.rank, len(both.assists)) == (True, 5, 2)
    dee = sheet(name="Dee", affinities=("str",), rank=3)
    third = assist(dee, both, mode="proficiency")  # one rank bonus: the highest stays
    assert (third.rank, resolve(third).thresholds.target) == (5, 34 + 6)


# --- rulings: fate refresh, rests ------------------------------------------------------------


def test_fate_points_do_not_refresh_by_themselves(sheet: Sheet) -> None:
    spent = sheet(fate=0, wounds=20, rest_points=1)
    assert long_rest(spent).character.fate == 0
    assert short_rest(spent, 1).character.fate == 0
    assert pass_days(spent, 7).character.fate == 0


def test_a_long_rest_is_not_a_day(sheet: Sheet) -> None:
    used = sheet(origin="positive", daily_heal_used=True)
    assert long_rest(used).character.daily_heal_used
    assert not pass_days(used, 1).character.daily_heal_used


def test_a_lower_stm_or_con_holds_the_tracks_to_their_new_maxima(sheet: Sheet) -> None:
    from rulebound.rulesets.legacy.fate import spend_fate
    from rulebound.rulesets.legacy.progression import reduce

    tired = sheet(soul="warlock", wounds=33, fatigue_taken=3, rest_points=3)  # STM 33, CON 31
    paid = spend_fate(tired, draws((10, 10)), use_stamina=True).character  # STM 23: bonus 2
    assert (paid.scores["STM"], paid.wounds, paid.fatigue_taken) == (23, 23, 2)
    weaker = reduce(tired, "CON", 12).character  # CON 19: bonus 1
    assert weaker.rest_points == 1
    TABLE.validate_sheet(paid.model_dump(mode="json"))
    TABLE.validate_sheet(weaker.model_dump(mode="json"))


def test_a_critical_hit_is_an_attack_that_succeeds_critically(sheet: Sheet) -> None:
    from rulebound.rulesets.legacy.actions import attack_request, critical_hit

    kara = sheet()
    melee = attack_request(kara, "melee")  # WPN 30: bonus 3, criticals on 1 to 3
    assert [critical_hit(roll_check(melee, draws((20, f)))) for f in (1, 3, 4)] == [
        True,
        True,
        False,
    ]
    assert not critical_hit(roll_check(kara.check("STR"), draws((20, 1))))  # not an attack
    play = TABLE.roll(kara.model_dump(mode="json"), {"characteristic": "BLS"}, {}, draws((20, 2)))
    assert "A critical hit: +1 critical damage on the target (tick it)" in play.card.details
    miss = TABLE.roll(kara.model_dump(mode="json"), {"characteristic": "BLS"}, {}, draws((20, 9)))
    assert not any("critical hit" in line for line in miss.card.details)


def test_a_card_from_a_bare_score_names_the_score() -> None:
    card = GAME.card(GAME.roll(GAME.request({"score": 30}, PLAIN), draws((20, 8))))
    assert card.steps[0] == "Target 30: score 30, modifiers +0"


PLAIN = {"scale": "as-written", "affinity_bonus": "rank-table"}


def test_a_sheet_score_beyond_what_a_check_takes_is_refused_on_the_sheet() -> None:
    """A score of 999 used to be saved, and then every check on it failed in the dialog."""
    with pytest.raises(InvalidInput) as refused:
        character("Giant", **{"scores.STR": "999"})
    assert "STR" in str(refused.value)
    assert "200" in str(refused.value)
    assert character("Strong", **{"scores.STR": "200"})["scores"]["STR"] == 200


def test_every_problem_of_a_bad_sheet_is_named_at_once() -> None:
    """Missing scores used to hide the wrong-typed and unknown fields until fixed."""
    sheet = character("Bad")
    sheet["scores"] = {"STR": "abc", "DEX": 10}
    sheet |= {"rank": "x", "bogus": 1}
    with pytest.raises(InvalidForm) as refused:
        validated(sheet)
    fields = {p.field for p in refused.value.problems}
    assert {"scores.CON", "scores.STR", "rank", "bogus"} <= fields
