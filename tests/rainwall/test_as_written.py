"""Issue 15, Rainwall: the audit's defect (a DR above the pool), the names of the degrees as
the text gives them, and keys matched as people type them.

The rule text is Rainwall's "Skills Checks"; the sections are named in each test. Every
test here failed before its fix (the report of issue 15 lists which).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from itertools import product
from typing import TypedDict, Unpack

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.core.trace import Provenance
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.bonus import optimal_allocation
from rulebound.rulesets.rainwall.character import load_character, request_for
from rulebound.rulesets.rainwall.content import builtin_catalogue
from rulebound.rulesets.rainwall.game import GAME
from rulebound.rulesets.rainwall.odds import check_odds
from rulebound.rulesets.rainwall.request import RainwallRequest
from rulebound.rulesets.rainwall.roll import evaluate
from rulebound.rulesets.rainwall.rules import BarelyRule, Degree, MissIos, Options, SuccessFace

NO_DRAWS = Provenance(())


class OptionFields(TypedDict, total=False):
    success_face: SuccessFace
    miss_ios: MissIos
    barely: BarelyRule


def judged(
    faces: tuple[int, ...], skill: int, dr: int, bonus: int = 0, **options: Unpack[OptionFields]
) -> Degree:
    request = RainwallRequest(
        dice=len(faces), skill=skill, dr=dr, bonus=bonus, options=Options(**options)
    )
    allocation = optimal_allocation(faces, skill, bonus, request.options)
    return evaluate(request, faces, allocation, NO_DRAWS).degree


# --- Wrong 8: a DR above the pool (Degrees of Success: Disaster) -------------------------------


def test_a_pool_where_every_die_succeeds_is_not_a_disaster() -> None:
    """``--dice 3 --skill 10 --dr 10``: three successes of three dice cannot reach DR 10, so
    the check fails, but the dice did all they could: a Failure, not a Disaster."""
    assert judged((3, 10, 2), skill=10, dr=10) is Degree.FAILURE
    out = CliRunner().invoke(
        app, ["roll", "rainwall", "--dice", "3", "--skill", "10", "--dr", "10", "--seed", "1"]
    )
    assert out.exit_code == 0, out.output
    assert "Failure: 3 successes vs DR 10, IoS -6" in out.stdout
    assert "Disaster" not in out.stdout
    assert "DR 10 is more than the 3 dice" in out.stdout


@pytest.mark.parametrize(
    ("faces", "dr", "degree"),
    [
        ((1, 1, 1, 1, 1, 1, 1), 10, Degree.FAILURE),  # all seven succeed: IoS -2
        ((1, 1, 1, 9, 9, 9, 9), 10, Degree.DISASTER),  # four of seven fail: judged at DR 7
        ((1, 1, 1, 1, 9, 9, 9), 10, Degree.FAILURE),  # three of seven fail
        ((9, 9, 9), 10, Degree.FAILURE),  # no success of three: judged at DR 3, IoS -2
        ((9, 9, 9, 9), 4, Degree.DISASTER),  # a DR the pool can reach: as before
    ],
)
def test_a_miss_is_measured_against_what_the_pool_could_reach(
    faces: tuple[int, ...], dr: int, degree: Degree
) -> None:
    assert judged(faces, skill=5, dr=dr) is degree


def test_the_odds_follow_the_same_ruling() -> None:
    """Brute force over every roll of four dice against DR 9, both IoS readings."""
    for miss in MissIos:
        request = RainwallRequest(dice=4, skill=5, dr=9, options=Options(miss_ios=miss))
        counts: dict[Degree, int] = {}
        for faces in product(range(1, 11), repeat=4):
            degree = judged(faces, skill=5, dr=9, miss_ios=miss)
            counts[degree] = counts.get(degree, 0) + 1
        expected = {d: Fraction(counts.get(d, 0), 10**4) for d in Degree}
        assert check_odds(request).degrees == expected
        assert Degree.DISASTER in counts  # four failures of four is still a Disaster


# --- Degrees as the text names them (Degrees of Success) ----------------------------------------


@pytest.mark.parametrize(
    ("faces", "degree", "label"),
    [
        ((1, 2, 3, 4, 9, 9, 9), Degree.BASIC, "Basic Success"),  # IoS 1
        ((1, 2, 3, 4, 5, 9, 9), Degree.SUCCESS, "Success"),  # IoS 2: the text names none
        ((1, 2, 3, 4, 5, 5, 9), Degree.CRITICAL, "Critical Success"),  # IoS 3
    ],
)
def test_ios_one_is_a_basic_success(faces: tuple[int, ...], degree: Degree, label: str) -> None:
    assert judged(faces, skill=5, dr=4) is degree
    assert degree.label == label
    assert degree.succeeded


def test_the_odds_name_the_basic_success() -> None:
    chances = GAME.chances(RainwallRequest(dice=7, skill=5, dr=4))
    keys = [o.key for o in chances.outcomes]
    assert keys == ["critical", "success", "basic", "barely", "failure", "disaster", "flubbed"]
    assert chances.outcome("basic") == Fraction(35, 128)  # exactly 4 of 7 half-chance dice
    assert {o.key: o.label for o in chances.outcomes}["basic"] == "Basic Success"


# --- Keys as people type them ----------------------------------------------------------------


def test_trait_and_skill_names_match_whatever_the_case() -> None:
    held = load_character(
        {"name": "P", "traits": {"dexterity": 7}, "skills": {"LOCKPICKING": {"score": 5}}},
        builtin_catalogue(),
    )
    assert (list(held.traits), list(held.skills)) == (["Dexterity"], ["Lockpicking"])
    request = request_for(held, "lockpicking", dr=4)
    assert (request.dice, request.skill, request.skill_name) == (7, 5, "Lockpicking")
    assert GAME.sheets is not None  # Rainwall keeps character sheets
    sheet = GAME.sheets.validate(
        {"name": "P", "traits": {"Dexterity": 7}, "skills": {"lockpicking": {"score": 5}}}
    )
    assert json.loads(json.dumps(sheet))["skills"] == {"Lockpicking": {"score": 5, "bonus": 0}}


# --- The text's claims about the numbers (Skills Checks; Successes) ---------------------------


@pytest.mark.parametrize("dice", [1, 4, 7])
@pytest.mark.parametrize("bonus", [0, 2])
def test_a_higher_skill_never_lowers_the_chance_and_a_higher_dr_never_raises_it(
    dice: int, bonus: int
) -> None:
    """ "The higher the skill score, the better the chance"; "The more difficult the
    challenge, the more dice must be under the skill point"."""
    for dr in range(1, dice + 2):
        by_skill = [
            check_odds(RainwallRequest(dice=dice, skill=s, dr=dr, bonus=bonus)).p_success
            for s in range(1, 11)
        ]
        assert by_skill == sorted(by_skill)
    for skill in (1, 5, 9):
        by_dr = [
            check_odds(RainwallRequest(dice=dice, skill=skill, dr=dr, bonus=bonus)).p_success
            for dr in range(1, dice + 2)
        ]
        assert by_dr == sorted(by_dr, reverse=True)
        assert by_dr[-1] == 0  # a DR above the pool cannot be met


TEXT_NUMBERS = [
    ("a trait or skill score, from", rules.MIN_SCORE, 1),
    ("a trait or skill score, to", rules.MAX_SCORE, 10),
    ("the dice are", rules.DIE_SIDES, 10),
    ("a Critical Success from IoS", rules.CRITICAL_IOS, 3),
    ("a Basic Success at IoS", rules.BASIC_IOS, 1),
    ("a Disaster from IoS", rules.DISASTER_IOS, -3),
    ("Flubbed needs a trait of", rules.FLUB_TRAIT, 10),
    ("Flubbed needs a skill of", rules.FLUB_SKILL, 10),
    ("Flubbed needs this many 10s", rules.FLUB_COUNT, 3),
    ("Flubbed counts faces of", rules.FLUB_FACE, 10),
]
"""Each number as the text states it (Number of Dice to Roll; Degrees of Success)."""


@pytest.mark.parametrize(("what", "ours", "text"), TEXT_NUMBERS, ids=[t[0] for t in TEXT_NUMBERS])
def test_the_texts_numbers(what: str, ours: int, text: int) -> None:
    assert ours == text, what


def two_columns(rows: Iterable[tuple[str, ...]]) -> dict[str, str]:
    """A two-column table as a mapping, as ``dict(rows)`` reads it (each row a pair)."""
    table: dict[str, str] = {}
    for key, value in rows:
        table[key] = value
    return table


def test_the_content_listing_gives_the_degrees_with_their_numbers() -> None:
    tables = {t.title: two_columns(t.rows) for t in GAME.content() if len(t.columns) == 2}
    degrees = tables["Degrees (the default readings)"]
    assert degrees["Critical Success"] == "IoS 3 or more"
    assert degrees["Basic Success"] == "IoS 1"
    assert degrees["Flubbed"] == "trait 10, skill 10 and 3 or more 10s rolled"
    assert (
        tables["Rules"]["Increment of Success"] == "successes - DR + 1: meeting the DR exactly is 1"
    )
    skills = next(t for t in GAME.content() if t.title == "Skills")
    assert skills.rows[0] == ("Lockpicking", "Dexterity", "Opening a lock without its key.", "")
    assert all(row[3].startswith("example") for row in skills.rows[1:])  # ours, labelled


def test_variant_keys_and_choices_match_whatever_the_case() -> None:
    chosen = Options.from_mapping({"Miss IoS": "Skip Zero", "success_face": "STRICTLY-UNDER"})
    assert chosen.as_mapping() == {
        "success-face": "strictly-under",
        "miss-ios": "skip-zero",
        "barely": "always",
    }
    record = {"dice": 3, "skill": 5, "dr": 2, "variants": {"BARELY": "below critical"}}
    from rulebound.rulesets.rainwall.request import parse_request

    assert parse_request(record).options.barely.value == "below-critical"
