"""What the compact card and the play screen show beside the game's own card, for every game:
the chance a roll had (from its record, through the contract), die labels that count dice
shown as places, chances in words at their ends, a blank sheet told apart from a played one,
and a voided roll's follow-ups marked void with it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.forms import initial_values
from rulebound.rulesets.rainwall import RainwallRequest, roll_check
from rulebound.rulesets.rainwall.game import GAME as RAINWALL
from rulebound.rulesets.views import card_json
from rulebound.web.play import close_superseded, looks_blank
from rulebound.web.settings import registry_games
from rulebound.web.templating import chance_had, die_labels, page_templates
from rulebound.web.views import chance_text

GAMES = ("empty-reach", "rainwall", "legacy", "ghostburn")


@pytest.mark.parametrize(
    ("p", "shown"),
    [
        (Fraction(0), "impossible"),
        (Fraction(1), "certain"),
        (Fraction(3, 8), "38%"),
        (Fraction(1, 1000), "<1%"),
        (Fraction(999, 1000), ">99%"),
    ],
)
def test_a_chance_in_a_few_characters_never_rounds_to_its_ends(p: Fraction, shown: str) -> None:
    assert chance_text(p) == shown


@pytest.mark.parametrize("key", GAMES)
def test_the_chance_a_roll_had_is_the_one_its_button_showed(key: str) -> None:
    rules = registry_games()[key].table
    sheet = rules.sheets.starter("Ana")
    quick = rules.sheets.quick_rolls(sheet)[0]
    values = {**initial_values(rules.dialog(sheet), rules.sheets.dialog_values(sheet))}
    values |= quick.values
    variants = rules.variants({})
    _, play = rules.rolled(sheet, values, variants, SeededSource(3))
    had = chance_had(key, play.record)
    expected = rules.chances(sheet, values, variants).success
    assert had is not None
    assert had["shown"] == chance_text(expected)
    assert had["exact"] == f"{expected.numerator}/{expected.denominator}"
    assert had["said"].startswith(chance_text(expected))


def test_only_a_rolls_record_has_a_chance_and_a_foreign_one_none() -> None:
    assert chance_had("empty-reach", None) is None
    assert chance_had("empty-reach", {"kind": "push", "draws": []}) is None
    assert chance_had("empty-reach", {"kind": "roll", "request": "nonsense", "draws": []}) is None
    assert chance_had("no-such-game", {"kind": "roll", "draws": []}) is None


def die(label: str, sides: int) -> dict[str, Any]:
    return {"label": label, "sides": sides, "face": 1}


def test_labels_that_only_count_dice_show_as_places() -> None:
    pool = [die(f"d{n}", 10) for n in range(1, 11)]  # d10 under the tenth d10 too
    assert die_labels(pool) == [f"#{n}" for n in range(1, 11)]
    assert die_labels([die("D8", 8), die("D6", 6)]) == ["D8", "D6"]  # the game's own words
    assert die_labels([die("d6", 6), die("d6", 6)]) == ["d6", "d6"]  # sizes, not a count
    assert die_labels([die("d1", 1)]) == ["d1"]  # a one-sided die is its size
    assert die_labels([die("d1", 10), die("d3", 10)]) == ["d1", "d3"]  # not a count
    assert die_labels([]) == []


def test_a_die_the_rules_moved_shows_what_it_counts_as_over_its_rolled_face() -> None:
    """A Rainwall die lowered by a bonus point counts as its new face: the die shows that,
    with the rolled face struck beside it, as a rerolled die shows its old one."""
    faces = (9, 8, 7, 6, 6, 5, 1)
    request = RainwallRequest(7, 5, 4, 3, trait_name="Dexterity", skill_name="Lockpicking")
    result = roll_check(request, ReplaySource(Draw(10, face) for face in faces))
    card = card_json(RAINWALL.card(result))
    die_html = page_templates().env.get_template("_die.html")
    shown = [
        die_html.render(d=d, dlabel=label)
        for d, label in zip(card["dice"], die_labels(card["dice"]), strict=True)
    ]
    assert "now 5" in card["dice"][3]["marks"]  # the card itself keeps the rolled face
    assert card["dice"][3]["face"] == 6
    assert '<span class="face">5</span>' in shown[3]
    assert '<span class="was" aria-hidden="true">6</span>' in shown[3]
    assert '<span class="visually-hidden"> (was 6)</span>' in shown[3]  # read, not only seen
    assert 'title="#4 showing 5: bonus 1, success (was 6)"' in shown[3]
    assert '<span class="face">9</span>' in shown[0]
    assert 'class="was"' not in shown[0]


def quick(*exact: str) -> list[dict[str, str]]:
    return [{"exact": p, "percent": "x"} for p in exact]


def test_a_blank_sheet_is_one_whose_rolls_say_nothing_yet() -> None:
    assert looks_blank([])
    assert looks_blank(quick("3/8", "3/8", "3/8"))
    assert not looks_blank(quick("3/8", "3/8"))  # two equal skills: a real sheet
    assert not looks_blank(quick("3/8", "3/8", "1/2"))


@pytest.mark.parametrize(("key", "blank"), [("empty-reach", True), ("legacy", False)])
def test_a_new_sheet_prompts_only_where_its_rolls_are_all_alike(key: str, blank: bool) -> None:
    """A new Empty Reach sheet: twelve skills at D8, each 3/8; a new Legacy sheet's
    characteristics differ from the start."""
    rules = registry_games()[key].table
    sheet = rules.sheets.new("Ana")
    base = initial_values(rules.dialog(sheet), rules.sheets.dialog_values(sheet))
    found = []
    for offered in rules.sheets.quick_rolls(sheet):
        p = rules.chances(sheet, {**base, **offered.values}, rules.variants({})).success
        found.append({"exact": f"{p.numerator}/{p.denominator}"})
    assert looks_blank(found) is blank


def view(id: int, seq: int, kind: str, parent: int | None = None, **more: Any) -> dict[str, Any]:
    return {"id": id, "seq": seq, "kind": kind, "parent_id": parent, "character_id": 1} | more


def test_a_voided_rolls_follow_ups_stand_marked_void_with_it() -> None:
    views = [  # newest first, as the pages show them
        view(6, 6, "void", record={"voids": [1]}, character_id=None),
        view(5, 5, "talk", character_id=None),
        view(4, 4, "keep", 3),
        view(3, 3, "follow-up", 2),
        view(2, 2, "follow-up", 1),
        view(1, 1, "roll"),
    ]
    shown = {v["id"]: v for v in close_superseded(views)}
    assert [i for i, v in shown.items() if v.get("voided")] == [4, 3, 2, 1]
    assert not shown[5].get("voided")
    assert all(not shown[i].get("can_act", False) for i in (1, 2, 3, 4))
