"""Every cap refuses with a message that names it; a number of thousands of digits is bad
input, never Python's ValueError; an expression whose odds would cost too much still rolls
and says why it has no odds, decided before any of the work is done."""

from __future__ import annotations

import time

import pytest

from rulebound.core.dice import (
    DEFAULT_LIMITS,
    NotComputed,
    Odds,
    multisets,
    odds,
    parse,
    pools,
    roll,
)
from rulebound.core.dice.checks import reroll_risk
from rulebound.core.errors import InvalidInput, LimitExceeded
from rulebound.core.random_source import SeededSource

HUGE = "9" * 4400
"""More digits than Python turns into an int (4,300)."""


@pytest.mark.parametrize(
    ("typed", "cap"),
    [
        ("1d6+" + "1" * 600, "the cap on an expression's length"),
        ("101d6", "the cap on dice"),
        ("60d6+60d6", "the cap on dice"),
        ("20#6d6", "the cap on dice"),
        ("1d1001", "the cap on sides"),
        ("21#1d6", "the cap on repeats"),
        ("+" * 25 + "1", "the cap on nesting"),
        ("(" * 25 + "1" + ")" * 25, "the cap on nesting"),
        ("(" + ", ".join(["1"] * 21) + ")", "the cap on sets"),
        ("1d6kh1kl1ro1rr2mi2ma5e6p1k2ro3", "the cap on operations"),
        ("+".join(["1"] * 120), "the cap on an expression's size"),
        ("100d6e6ro1", "the cap on draws"),
        ("40d20rr<20", "the cap on draws"),
    ],
)
def test_each_cap_is_refused_with_a_message_that_names_it(typed: str, cap: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(typed, "dice")
    assert cap in caught.value.expected
    assert caught.value.field == "dice"


def test_limit_errors_are_limit_exceeded_with_the_cap_as_a_number() -> None:
    with pytest.raises(LimitExceeded) as caught:
        parse("101d6")
    assert caught.value.limit == DEFAULT_LIMITS.max_dice


@pytest.mark.parametrize(
    "typed", [HUGE, f"1d6+{HUGE}", f"{HUGE}d6", f"1d{HUGE}", f"4d6kh{HUGE}", f"{HUGE}#1d6"]
)
def test_a_4300_digit_number_is_bad_input_naming_the_field(typed: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(typed, "text")
    assert caught.value.field == "text"
    assert len(str(caught.value)) < 300  # the message never repeats the number in full


@pytest.mark.parametrize("typed", ["1d6+" + "9" * 8, "99999999d6", "1d6+1.12345678"])
def test_numbers_within_the_length_are_capped_by_digits_before_conversion(typed: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(typed)
    assert "digits" in caught.value.expected or "up to 1000000" in caught.value.expected


def test_a_reroll_until_none_match_is_refused_only_when_the_cap_on_draws_is_at_risk() -> None:
    assert reroll_risk(1, 0.95, 1990) < 1e-40  # 1d20rr<20, d20's own test
    assert reroll_risk(40, 0.95, 1960) > DEFAULT_LIMITS.max_reroll_risk
    parse("1d20rr<20")
    parse("100d6rr<3")


@pytest.mark.parametrize(
    "typed",
    [
        *("100d1000", "50d100kh25", "3d20rol1", "1d1000*1d1000"),
        # a kept die's totals once counted as 3 (2 dice + 1), not 1000: the product went ahead
        *("2d1000kh1*2d1000kh1", "5d1000kh1*5d1000kh1*5d1000kh1"),
    ],
)
def test_costly_odds_are_not_computed_and_say_why_but_the_roll_happens(typed: str) -> None:
    parsed = parse(typed)
    started = time.perf_counter()
    found = odds(parsed)
    assert time.perf_counter() - started < 0.5
    assert isinstance(found, NotComputed)
    assert "odds not computed" in found.line()
    assert "max_odds_work" in found.reason
    assert roll(parsed, SeededSource(1)).total is not None


def test_the_decision_comes_before_any_of_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("computed before deciding")

    monkeypatch.setattr(pools, "rank_sum", refuse)
    monkeypatch.setattr(multisets, "enumerate_pool", refuse)
    assert isinstance(odds(parse("50d100kh25")), NotComputed)
    assert isinstance(odds(parse("3d20rol1")), NotComputed)


def test_the_odds_of_the_heaviest_plain_sums_within_the_caps_are_computed() -> None:
    for typed in ("100d199", "25d100", "100d6", "20d6kh5", "10d6e6", "4d6e6kh3", "10d10e10"):
        assert isinstance(odds(parse(typed)), Odds), typed
