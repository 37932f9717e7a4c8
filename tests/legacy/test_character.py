"""Creation step by step, restrictions, manual entry, advances, SAN and COR."""

from typing import NotRequired, TypedDict

import pytest
from pydantic import ValidationError

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.creation import CreationDraft, create_character
from rulebound.rulesets.legacy.progression import advance, fear_immunity, gain_cor, gain_san, reduce
from rulebound.rulesets.legacy.restrictions import check_soul

from .conftest import SCORES


def d10s(*faces: int) -> ReplaySource:
    return ReplaySource([Draw(10, f) for f in faces])


def test_creation_steps_with_known_dice() -> None:
    draft = CreationDraft.start("Brom", "dwarf", "earth", "dwarf")
    draft = draft.roll_primaries(d10s(*([5, 5] * 7)))
    assert draft.primary_rolls == (10,) * 7
    draft = draft.assign((10,) * 7)
    assert draft.primaries["STR"] == 30
    assert draft.primaries["CON"] == 35
    # STR 30 -> bonus 3 -> 2 dice; CON 35 -> 2 dice; all primaries give 2 dice here
    draft = draft.roll_secondaries(d10s(*([1] * 14)))
    assert draft.secondary_dice["WPN"] == (1, 1)
    assert draft.secondaries["WPN"] == 27
    draft = draft.reroll_secondary("WPN", d10s(9, 9))
    assert draft.secondaries["WPN"] == 43
    with pytest.raises(RuleViolation, match="only one reroll"):
        draft.reroll_secondary("BLS", d10s(9, 9))
    change, _ = draft.finish(d10s(3, 4, 6))
    char = change.character
    assert (char.lck, char.fate, char.ren) == (12, 1, 16)
    assert char.scores["DEX"] == 20
    assert char.scores["STM"] == 32
    assert char.affinities == ("technology",)


def test_reroll_keeps_the_better_result() -> None:
    draft = CreationDraft.start("A", "human", "surface", "human").roll_primaries(d10s(*([5] * 14)))
    draft = draft.assign((10,) * 7).roll_secondaries(d10s(*([9] * 14)))
    assert draft.reroll_secondary("POW", d10s(1, 1)).secondaries["POW"] == draft.secondaries["POW"]


def test_assignment_must_use_the_rolled_values() -> None:
    draft = CreationDraft.start("A", "elf", "air", "elf").roll_primaries(d10s(*([5] * 14)))
    with pytest.raises(InvalidInput, match="assignment"):
        draft.assign((11, 10, 10, 10, 10, 10, 10))


class Creation(TypedDict):
    """The keyword arguments of ``create_character`` these tests give."""

    name: str
    race: str
    origin: str
    soul: str
    reroll: NotRequired[str]


def test_whole_creation_replays_exactly() -> None:
    kwargs: Creation = {
        "name": "Vex",
        "race": "drow",
        "origin": "void",
        "soul": "warped",
        "reroll": "INI",
    }
    change, prov = create_character(SeededSource(5), **kwargs)
    again, _ = create_character(ReplaySource(prov.draws), **kwargs)
    assert again.character == change.character
    assert 11 <= change.character.cor <= 20
    assert any(e.kind == "mutation" for e in change.events)


@pytest.mark.parametrize(
    ("soul", "race", "klass", "rule"),
    [
        ("human", "elf", "", "Human"),
        ("elf", "human", "", "Elf"),
        ("dwarf", "orc", "", "Dwarf"),
        ("orc", "human", "", "Orc"),
        ("gnome", "elf", "", "Gnome"),
        ("halfling", "gnome", "", "Halfling"),
        ("dragon", "elf", "", "Dragon Soul"),
        ("dark", "dwarf", "", "Dark Soul"),
        ("god-fragment", "human", "Engineer", "God-Fragment"),
        ("machine-spirit", "drow", "", "Machine Spirit"),
        ("machine-spirit", "human", "priest", "Machine"),
        ("warped", "dragonkin", "", "Warped"),
        ("tortured", "halfling", "", "Tortured"),
        ("warlock", "dwarf", "", "Warlock"),
        ("fey", "human", "", "Fey"),
        ("fey", "feral", "engineer", "Fey"),
    ],
)
def test_every_soul_restriction(soul: str, race: str, klass: str, rule: str) -> None:
    with pytest.raises(RuleViolation, match=f"soul restriction \\({rule}"):
        check_soul(soul, race, klass)


def test_allowed_souls_pass() -> None:
    check_soul("fey", "feral")
    check_soul("soulless", "naga", "engineer")


def test_human_soul_grants_two_extra_affinities() -> None:
    change, _ = create_character(
        SeededSource(1),
        name="H",
        race="human",
        origin="water",
        soul="human",
        affinities=("arcane", "stealth"),
    )
    assert change.character.affinities == ("nature", "arcane", "stealth")
    with pytest.raises(RuleViolation, match="extra affinities"):
        create_character(
            SeededSource(1),
            name="E",
            race="elf",
            origin="water",
            soul="elf",
            affinities=("arcane",),
        )


def manual(**extra: object) -> Character:
    data: dict[str, object] = {
        "name": "Kara",
        "race": "human",
        "origin": "surface",
        "soul": "human",
        "scores": SCORES,
        "lck": 14,
        "fate": 1,
        "ren": 20,
    }
    return Character.model_validate({**data, **extra})


def test_manual_entry_validates_fields() -> None:
    assert manual().bonus("DEX") == 2
    with pytest.raises(ValidationError, match="missing"):
        manual(scores={k: v for k, v in SCORES.items() if k != "INI"})


def test_advance_feeds_the_secondary_only_past_the_old_maximum() -> None:
    char = manual(max_bonus={"DEX": 2})
    up = advance(char, "DEX", d10s(7))
    assert (up.character.scores["DEX"], up.character.scores["BLS"]) == (34, 29)
    down = reduce(up.character, "DEX", 10).character
    back = advance(down, "DEX", d10s())
    assert back.character.scores["BLS"] == 29  # DEX 29: bonus 2, below the old maximum 3
    again = advance(advance(back.character, "DEX", d10s()).character, "DEX", d10s())
    assert again.character.scores["BLS"] == 29  # DEX 39: bonus 3 only equals the maximum
    past = advance(again.character, "DEX", d10s(4))  # DEX 44: bonus 4 passes it
    assert past.character.scores["BLS"] == 33


def test_san_thresholds_make_disorder_events_and_100_is_unplayable() -> None:
    change = gain_san(manual(san=5), 20, ReplaySource([Draw(100, 40), Draw(100, 60)]))
    totals = [e.value for e in change.events if e.kind == "disorder"]
    assert totals == [65, 85]
    assert fear_immunity(change.character) == 1
    assert gain_san(manual(san=95), 5, ReplaySource([])).character.unplayable


def test_cor_daemon_fate_and_warped_halving() -> None:
    assert not gain_cor(
        manual(cor=95, talents=("daemon-fate",)), 5, ReplaySource([])
    ).character.unplayable
    warped = manual(soul="warped", race="human", cor=0)
    assert gain_cor(warped, 9, ReplaySource([])).character.cor == 4
