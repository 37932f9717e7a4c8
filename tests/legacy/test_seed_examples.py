"""Each number the seed states, checked as written (the seed has no longer worked examples)."""

from collections.abc import Callable
from typing import Any

import pytest

from rulebound.core.random_source import Draw, ReplaySource
from rulebound.rulesets.legacy.character import Change, Character
from rulebound.rulesets.legacy.checks import CheckRequest, resolve
from rulebound.rulesets.legacy.combat import bleeding_save
from rulebound.rulesets.legacy.creation import CreationDraft, secondary_dice_count
from rulebound.rulesets.legacy.damage import apply_damage
from rulebound.rulesets.legacy.progression import gain_cor, gain_san, gain_unnatural
from rulebound.rulesets.legacy.rules import Edge

from .conftest import extras

Sheet = Callable[..., Character]


def d(sides: int, *faces: int) -> ReplaySource:
    return ReplaySource([Draw(sides, f) for f in faces])


@pytest.mark.parametrize(("bonus", "dice"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_secondary_dice_are_half_the_bonus_rounded_up(bonus: int, dice: int) -> None:
    assert secondary_dice_count(bonus) == dice


def test_unnatural_raising_a_bonus_feeds_the_secondary(sheet: Sheet) -> None:
    char = sheet(max_bonus={"STR": 3})
    change = gain_unnatural(char, "STR", 1, d(10, 6))  # "Unnatural (X) ... includes the increase"
    assert (change.character.bonus("STR"), change.character.scores["WPN"]) == (4, 36)


@pytest.mark.parametrize(
    ("key", "modifier", "edge"),
    [
        ("very-easy", 6, Edge.ADVANTAGE),
        ("easy", 6, Edge.NONE),
        ("routine", 4, Edge.NONE),
        ("ordinary", 2, Edge.NONE),
        ("challenging", 0, Edge.NONE),
        ("difficult", -2, Edge.NONE),
        ("hard", -4, Edge.NONE),
        ("very-hard", -6, Edge.NONE),
        ("impossible", -6, Edge.DISADVANTAGE),
    ],
)
def test_the_difficulty_table_row_by_row(key: str, modifier: int, edge: Edge) -> None:
    res = resolve(CheckRequest(score=30, difficulty=key, scale="as-written"))
    assert (res.thresholds.target, res.edge) == (30 + modifier, edge)


@pytest.mark.parametrize("threshold", [10, 20, 30, 50, 70, 90])
def test_each_san_threshold_makes_a_disorder(sheet: Sheet, threshold: int) -> None:
    change = gain_san(sheet(san=threshold - 1), 1, d(100, 50))
    assert [e.value for e in change.events if e.kind == "disorder"] == [50 + threshold]


@pytest.mark.parametrize("threshold", [20, 30, 40, 60, 80])
def test_each_cor_threshold_makes_a_mutation(sheet: Sheet, threshold: int) -> None:
    change = gain_cor(sheet(cor=threshold - 1), 1, d(100, 50))
    assert [e.value for e in change.events if e.kind == "mutation"] == [50 + threshold]
    assert gain_cor(sheet(cor=threshold), 1, d(100)).events[1:] == ()


def test_halfling_and_warped_souls_roll_twice_and_keep_the_better(sheet: Sheet) -> None:
    halfling = sheet(race="halfling", soul="halfling", san=9)
    assert gain_san(halfling, 1, d(100, 70, 20)).events[-1].value == 20 + 10
    warped = sheet(race="human", soul="warped", cor=19)
    assert gain_cor(warped, 2, d(100, 40, 90)).events[-1].value == 40 + 20


def test_the_constitution_save_after_excess_damage(sheet: Sheet) -> None:
    hurt = apply_damage(sheet(wounds=1), 10)[0].character
    assert not bleeding_save(hurt, d(20, 12)).character.bleeding
    failed = bleeding_save(hurt, d(20, 20)).character
    assert (failed.bleeding, failed.unconscious) == (True, True)


def test_fire_origin_reduces_fire_damage_by_3(sheet: Sheet) -> None:
    fire = sheet(origin="fire")
    assert apply_damage(fire, 10, damage_type="fire")[1].through == 10 - 3 - 3
    assert apply_damage(fire, 10, damage_type="cold")[1].through == 10 - 3


class Ones:
    """Every die shows 1 (primaries 2 each, secondaries their dice count)."""

    def draw(self, sides: int) -> int:
        return 1

    def describe(self) -> dict[str, object]:
        return {"kind": "ones"}


def _made(race: str, origin: str, soul: str, finish: list[Draw]) -> Change:
    draft = CreationDraft.start("N", race, origin, soul).roll_primaries(Ones())
    draft = draft.assign(draft.primary_rolls).roll_secondaries(Ones())
    change, _ = draft.finish(ReplaySource(finish), extras(soul, origin))
    return change


def ten(*faces: int) -> list[Draw]:
    return [Draw(10, f) for f in faces]


def test_creation_numbers_from_races_souls_and_origins() -> None:
    lck_and_ren = ten(1, 1, 4)  # LCK 2d10 = 2, REN 10 + 1d10 = 14
    assert _made("human", "surface", "human", lck_and_ren).character.ren == 14 + 10  # Prestige
    assert _made("orc", "surface", "orc", lck_and_ren).character.ren == 14 - 10  # the horde
    dragon = _made("dragonkin", "air", "dragon", [*lck_and_ren, Draw(5, 3)]).character
    assert dragon.ren == 14 + 3 + 5  # 1d5+5 "FAM" read as renown
    astrum = _made("elf", "astrum", "elf", ten(9, 9, 4)).character
    assert (astrum.lck, astrum.fate) == (18 + 10, 2 + 1)  # the bonus point leaves LCK alone
    tortured = _made("orc", "air", "tortured", [*lck_and_ren, Draw(10, 5), Draw(100, 1)])
    assert tortured.character.san == 15  # 1d10 + 10
    assert [e.kind for e in tortured.events].count("disorder") == 1
    warped = _made("orc", "air", "warped", [*lck_and_ren, Draw(10, 9)]).character
    assert warped.cor == 19  # 1d10 + 10, not halved; no threshold below 20


@pytest.mark.parametrize(
    ("race", "soul", "code", "kwargs", "edge"),
    [
        ("gnome", "gnome", "INT", {"affinity": "insight"}, "advantage"),
        ("human", "machine-spirit", "INT", {"affinity": "technology"}, "advantage"),
        ("elf", "fey", "CHA", {"affinity": "nature"}, "advantage"),
        ("orc", "tortured", "WIL", {"situations": ["fear"]}, "advantage"),
        ("duergar", "dark", "LDR", {"situations": ["detecting-deception"]}, "advantage"),
        ("drow", "dark", "PER", {"situations": ["bright-light"]}, "disadvantage"),
        (
            "chitine",
            "dark",
            "BLS",
            {"situations": ["caster-gunpowder-or-tech-weapon"]},
            "disadvantage",
        ),
    ],
)
def test_soul_and_trait_edges(
    sheet: Sheet, race: str, soul: str, code: str, kwargs: dict[str, Any], edge: str
) -> None:
    req = sheet(race=race, soul=soul).check(code, **kwargs)
    assert getattr(req, edge)
    assert not getattr(sheet().check(code, **kwargs), edge)
