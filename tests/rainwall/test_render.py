"""The plain-text views say what happened, in the terms the rules use."""

from rulebound.core.random_source import Draw, ReplaySource
from rulebound.render import rainwall_text
from rulebound.rulesets.rainwall import (
    RainwallRequest,
    RainwallResult,
    alternatives,
    check_odds,
    reallocate,
    roll_check,
)
from rulebound.rulesets.rainwall.character import character_from_data
from rulebound.rulesets.rainwall.content import builtin_catalogue

SEED_ROLL = (9, 8, 7, 6, 6, 5, 1)
LOCK = RainwallRequest(7, 5, 4, 3, trait_name="Dexterity", skill_name="Lockpicking")


def seed_roll() -> RainwallResult:
    return roll_check(LOCK, ReplaySource(Draw(10, face) for face in SEED_ROLL))


def test_result_text_lists_dice_moves_ios_and_degree() -> None:
    lines = rainwall_text.result_text(seed_roll()).splitlines()
    assert lines[0] == "Rainwall: Dexterity 7 dice, Lockpicking 5, DR 4, bonus +3"
    assert lines[1] == "Dice: 9 8 7 6 6 5 1"
    assert lines[5].split() == ["d4", "6", "->", "5", "(bonus", "1)", "success"]
    assert lines[2].split() == ["d1", "9", "failure"]
    assert "Successes: 2 rolled, 4 after 2 bonus points (optimal, 1 unspent)" in lines
    assert lines[-2:] == ["IoS: 1", "Degree: Barely Succeeding"]


def test_reallocated_text_names_the_original() -> None:
    revised = reallocate(seed_roll(), (0, 0, 0, 2, 1, 0, 0))
    text = rainwall_text.result_text(revised)
    assert "Reallocated by hand; the optimal spend gave: Barely Succeeding" in text
    assert "(manual)" in text


def test_alternatives_text_is_best_first_and_capped() -> None:
    options = alternatives(LOCK, SEED_ROLL)
    lines = rainwall_text.alternatives_text(options, SEED_ROLL, limit=2).splitlines()
    assert lines[1].startswith("  4 successes, IoS  1, Barely Succeeding")
    assert lines[1].endswith("2 pts: d4: 6 -> 5, d5: 6 -> 5")
    assert lines[-1] == f"  ... and {len(options) - 2} more"


def test_odds_text_bars_scale_to_the_likeliest() -> None:
    text = rainwall_text.odds_text(check_odds(RainwallRequest(1, 5, 1)))
    assert "P(success) = 50.000%  (exactly 1/2)" in text
    success = next(line for line in text.splitlines() if line.strip().startswith("Success "))
    assert success.endswith("#" * rainwall_text.BAR_WIDTH)
    flubbed = next(line for line in text.splitlines() if "Flubbed" in line)
    assert "#" not in flubbed


def test_character_text() -> None:
    sheet = character_from_data(
        {"name": "Picker", "traits": {"Dexterity": 7}, "skills": {"Lockpicking": {"score": 5}}}
    )
    text = rainwall_text.character_text(sheet, builtin_catalogue())
    assert text.splitlines()[0] == "Picker"
    assert "Dexterity (7 dice)" in text
