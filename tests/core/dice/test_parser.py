"""The notation: what each form means once parsed, the canonical text it prints back, the
forms other bots use, and refusals that name the position and suggest our form."""

from __future__ import annotations

import pytest

from rulebound.core.dice import Odds, odds, parse
from rulebound.core.dice.nodes import Binary, Count, Dice, Pool, unwrap
from rulebound.core.errors import InvalidInput


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("4d6kh3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("1d20+5 adv", "2d20kh1+5"),
        ("d20 + 5 dis", "2d20kl1+5"),
        ("1d20ro1+5 advantage", "2d20kh1ro1+5"),
        ("3d6!", "3d6e6"),
        ("4dF!", "4dFe1"),
        ("3d6!>4", "3d6e>4"),
        ("(1d4+1)*3", "(1d4+1)*3"),
        ("1d8+3 [slashing]", "1d8+3 [slashing]"),
        ("10d10>=7", "10d10>=7"),
        ("10d10t7", "10d10>=7"),
        ("10d10cs>=7", "10d10>=7"),
        ("6d6cs=6", "6d6==6"),
        ("5d10<=6", "5d10<=6"),
        ("10d10!=1", "10d10!=1"),
        ("6#4d6kh3", "6#4d6kh3"),
        ("6 # 4d6kh3", "6#4d6kh3"),
        ("4dF+1", "4dF+1"),
        ("D20 + 1D4", "1d20+1d4"),
        ("d%", "1d%"),
        ("1d20+5 Stealth check", "1d20+5 Stealth check"),
        ("1d20 <@1234> rolls", "1d20 <@1234> rolls"),
        ("2d6 > 3d6", "2d6 > 3d6"),
        ("2d6>3d6", "2d6 > 3d6"),
        ("1d20 + 5 >= 15", "1d20+5 >= 15"),
        ("(3d6)>=10", "(3d6) >= 10"),
        ("10d6k1k2k3", "10d6k1k2k3"),
        ("0d6", "0d6"),
    ],
)
def test_forms_print_back_canonically_and_parse_to_the_same_tree(
    typed: str, canonical: str
) -> None:
    parsed = parse(typed)
    assert parsed.text() == canonical
    assert parse(canonical) == parsed


def test_attached_comparisons_count_dice_and_spaced_ones_compare_totals() -> None:
    counted = unwrap(parse("10d10>=7").root)
    assert isinstance(counted, Count)
    assert (counted.comparator, counted.target) == (">=", 7)
    compared = unwrap(parse("10d10 >= 7").root)
    assert isinstance(compared, Binary)
    assert compared.op == ">="


def test_consecutive_operations_of_one_kind_select_together_as_in_d20() -> None:
    pool = unwrap(parse("10d6kh1kl1").root)
    assert isinstance(pool, Pool)
    assert len(pool.ops) == 1
    assert [s.kind for s in pool.ops[0].selectors] == ["h", "l"]
    minimums = unwrap(parse("10d6mi2mi3").root)
    assert isinstance(minimums, Pool)
    assert len(minimums.ops) == 2  # mi and ma apply one after another


def test_fudge_dice_and_d_percent() -> None:
    fudge = unwrap(parse("4dF").root)
    assert isinstance(fudge, Dice)
    assert fudge.faces == (-1, 0, 1)
    percent = unwrap(parse("d%").root)
    assert isinstance(percent, Dice)
    assert percent.faces == tuple(range(1, 101))


@pytest.mark.parametrize(
    ("typed", "where", "tip"),
    [
        ("2d6+", "at the end", None),
        ("2x6", "at position 2", None),
        ("2d6 3", "at position 5", "write 2d6+3"),
        ("4d6d1", "at position 4", "drop-lowest is written 4d6pl1"),
        ("4d6dl1", "at position 4", "drop-lowest is written 4d6pl1"),
        ("4d6 kh3", "at position 5", "write 4d6kh3, without the space"),
        ("2d20kh", "at position 5", "keep-highest is written 2d20kh3"),
        ("4d6r1", "at position 4", "4d6ro1 (once) or 4d6rr1"),
        ("3d6!!", "at position 4", "compounding explosions are not supported"),
        ("4d6min2", "at position 4", "a minimum face is written 4d6mi2"),
        ("10d6mil1", "at position 5", "write mi2"),
        ("1d20adv", "at position 5", "write the word after a space: 1d20 adv"),
        ("1d6 adv", "at position 5", "adv turns the leftmost 1d20 into 2d20kh1"),
        ("(2d6)rr1", "at position 6", "write 2d6rr1"),
        ("1d20 d4", "at position 6", "write 1d20+d4"),
        ("4d6e", "at position 4", "4d6e1, 4d6e<3"),
        ("10d10f1", "at position 6", "10d10>=7 counts dice of 7 or more"),
        ("6x4d6", "at position 2", None),
        ("(1d6", "at the end", None),
        ("1d6)", "at position 4", None),
        ("d", "at the end", "dice are written 2d6, d20, d% or 4dF"),
    ],
)
def test_refusals_say_where_what_and_how_we_write_it(
    typed: str, where: str, tip: str | None
) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(typed, "dice")
    assert caught.value.field == "dice"
    assert where in caught.value.expected
    if tip is not None:
        assert caught.value.tip is not None
        assert tip in caught.value.tip


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("1d20rr<21", "rerolls every face of d20"),
        ("1d1e1", "explodes on every face of d1"),
        ("4d6rrh1", "with a face selector"),
        ("4d6e5ro1e6", "one explosion per dice term"),
        ("10 / 0", "a divisor that is never 0"),
        ("1d6 // (1d4-2)", "(1d4-2) can be 0"),
        ("10 / 4d6k>3", "4d6k>3 can be 0"),  # kept by face: maybe none
        ("6d0", "a die of at least 1 side"),
    ],
)
def test_expressions_that_could_never_finish_or_divide_by_zero_are_refused(
    typed: str, words: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(typed)
    assert words in caught.value.expected


@pytest.mark.parametrize("typed", ["1d20/2d6kh1", "10/4d6kh3", "1d20//(1d6,1d6)kh1", "1/4d6e6kh3"])
def test_dice_kept_by_rank_are_a_divisor_that_is_never_0(typed: str) -> None:
    """A keep or drop by rank always leaves dice (``kh3`` of four), once taken to leave none."""
    parsed = parse(typed)
    assert isinstance(odds(parsed), Odds)


@pytest.mark.parametrize("typed", ["1d20 dis adv", "1d20+5 adv adv", "1d20 advantage DIS"])
def test_a_second_advantage_word_is_refused_not_kept_as_a_comment(typed: str) -> None:
    """``1d20 dis adv`` was rolled with disadvantage and logged as "2d20kl1 adv"."""
    with pytest.raises(InvalidInput) as caught:
        parse(typed)
    assert "no second adv or dis" in caught.value.expected
    assert caught.value.tip is not None
    assert "cancel" in caught.value.tip


def test_a_non_text_or_empty_expression_says_what_one_looks_like() -> None:
    for value in ("", "   ", None, 12):
        with pytest.raises(InvalidInput) as caught:
            parse(value, "text")
        assert caught.value.field == "text"
        assert "2d6+3" in caught.value.expected
