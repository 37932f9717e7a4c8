"""The card of a Rainwall result, and its text, say what happened in the rules' terms."""

from rulebound.core.random_source import Draw, ReplaySource
from rulebound.render.card_text import card_text, chances_text
from rulebound.rulesets.rainwall import RainwallRequest, RainwallResult, reallocate, roll_check
from rulebound.rulesets.rainwall.game import GAME

SEED_ROLL = (9, 8, 7, 6, 6, 5, 1)
LOCK = RainwallRequest(7, 5, 4, 3, trait_name="Dexterity", skill_name="Lockpicking")


def seed_roll() -> RainwallResult:
    return roll_check(LOCK, ReplaySource(Draw(10, face) for face in SEED_ROLL))


def test_card_lists_dice_moves_ios_and_degree() -> None:
    card = GAME.card(seed_roll())
    assert card.title == "Lockpicking: Dexterity 7d10 vs 5, DR 4"
    assert [d.face for d in card.dice] == list(SEED_ROLL)
    assert card.dice[3].marks == ("bonus 1", "now 5", "success")
    assert card.dice[0].marks == ("failure",)
    assert card.steps == ("#4: 6 -> 5 (bonus 1)", "#5: 6 -> 5 (bonus 1)")  # places, not sizes
    assert "Successes: 2 rolled, 4 after 2 bonus point(s) (optimal, 1 unspent)" in card.details
    assert card.outcome == "Barely Succeeding: 4 successes vs DR 4, IoS 1"
    text = card_text(card).splitlines()
    assert text[0] == card.title
    assert "Result: Barely Succeeding: 4 successes vs DR 4, IoS 1" in text
    assert "  [3] pool      d4     6  bonus 1, now 5, success" in text
    # the table draws a lowered die as its new face: its field names the face it rolled
    (reallocate,) = card.actions
    assert reallocate.fields[3].label == "Die #4 (rolled 6)"


def test_reallocated_card_names_the_original_and_offers_alternatives_best_first() -> None:
    revised = reallocate(seed_roll(), (0, 0, 0, 2, 1, 0, 0))
    card = GAME.card(revised)
    assert "Reallocated by hand; before: Barely Succeeding: 4 successes vs DR 4, IoS 1" in (
        card.details
    )
    assert "(manual)" in card.details[0]
    (action,) = card.actions
    assert action.advice[0].startswith("4 successes, IoS 1, Barely Succeeding, 2 of 3 points")
    assert action.advice[0].endswith("#4: 6 -> 5, #5: 6 -> 5")


def test_chances_text_has_the_success_line_and_a_bar_per_degree() -> None:
    text = chances_text("Rainwall", GAME.chances(RainwallRequest(1, 5, 1)))
    lines = text.splitlines()
    assert lines[1].startswith("success (any degree)")
    assert lines[1].endswith("50.00%  1/2")
    success = next(line for line in lines if line.startswith("Basic Success "))  # IoS 1
    assert success.count("█") == 15
    flubbed = next(line for line in lines if line.startswith("Flubbed"))
    assert "█" not in flubbed
