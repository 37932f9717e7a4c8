"""Every expression of d20's own tests that d20 rolls is accepted with d20's meaning, and its
exact odds equal icepool's (or, without dice, d20's own total); the ones d20 refuses are
refused too, with a message that says why. d% is the documented difference."""

from __future__ import annotations

import random
import warnings
from fractions import Fraction

import pytest

from rulebound.core.dice import Odds, odds, parse
from rulebound.core.errors import InvalidInput

from .d20_cases import ADVANTAGE, COMMENTED, D_PERCENT, REFUSED, ROLLED
from .oracle import constant, of_icepool

with warnings.catch_warnings():  # lark, under d20, imports a module Python deprecates
    warnings.simplefilter("ignore", DeprecationWarning)
    import d20  # type: ignore[import-untyped]


def d20_total(text: str) -> int:
    return int(d20.roll(text, allow_comments=text in COMMENTED).total)


def exact(text: str) -> dict[int, Fraction]:
    found = odds(parse(text))
    assert isinstance(found, Odds), found.line()
    return found.distribution()


@pytest.mark.parametrize("text", list(ROLLED))
def test_d20_rolls_it_and_so_do_we_with_the_same_exact_odds(text: str) -> None:
    d20_total(text)  # d20 rolls it (it raises otherwise)
    oracle = ROLLED[text]
    expected = constant(d20_total(text)) if oracle is None else of_icepool(oracle())
    assert exact(text) == expected


@pytest.mark.parametrize("text", [t for t in ROLLED if t not in D_PERCENT])
def test_every_total_d20_rolls_is_one_we_give_odds_for(text: str) -> None:
    """d20's own rolls (seeded) fall in our support, and their mean is near our exact one."""
    found = exact(text)
    random.seed(20)
    totals = [d20_total(text) for _ in range(400)]
    assert set(totals) <= set(found)
    mean = sum(k * p for k, p in found.items())
    spread = sum((k - mean) ** 2 * p for k, p in found.items())
    assert abs(sum(totals) / len(totals) - mean) <= 5 * (float(spread) / len(totals)) ** 0.5 + 1e-9


@pytest.mark.parametrize("text", D_PERCENT)
def test_d_percent_is_a_d100_here_and_a_tens_die_in_d20(text: str) -> None:
    random.seed(20)
    assert all(d20_total("1d%") % 10 == 0 for _ in range(50))  # d20: 0, 10, ... 90
    assert exact("1d%") == {k: Fraction(1, 100) for k in range(1, 101)}


@pytest.mark.parametrize("text", list(ADVANTAGE))
def test_advantage_words_roll_as_d20s_advantage_argument(text: str) -> None:
    high = text.endswith("adv")
    kind = d20.AdvType.ADV if high else d20.AdvType.DIS
    assert str(d20.roll("1d20", advantage=kind)).startswith("2d20kh1" if high else "2d20kl1")
    assert parse(text).text() == ("2d20kh1" if high else "2d20kl1")
    assert exact(text) == of_icepool(ADVANTAGE[text]())


@pytest.mark.parametrize("text", REFUSED)
def test_what_d20_refuses_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(d20.RollError):
        d20.roll(text).total  # noqa: B018  (d20 works a total out when it is read)
    with pytest.raises(InvalidInput) as caught:
        parse(text)
    assert caught.value.expected


def test_coverage_of_d20s_rolled_expressions_is_complete() -> None:
    accepted = [t for t in ROLLED if isinstance(odds(parse(t)), Odds)]
    assert len(accepted) == len(ROLLED)
