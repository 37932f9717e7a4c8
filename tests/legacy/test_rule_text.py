"""Every content number of the Legacy text, typed here from the text itself (not read from the
data files), and checked against the catalogue, creation, checks and ``rulebound content``.

The text's "WLP" is WIL and "AGL" is DEX (ruling 14); Water's "+PER" is +5 (ruling 15); Air's
"Finesse" is Acrobatics (ruling 16).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.core import Draw, ReplaySource
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import CheckRequest, resolve
from rulebound.rulesets.legacy.content import PRIMARIES, SECONDARIES, catalogue
from rulebound.rulesets.legacy.creation import CreationDraft
from rulebound.rulesets.legacy.damage import apply_damage
from rulebound.rulesets.legacy.recovery import heal
from rulebound.rulesets.legacy.restrictions import check_soul
from rulebound.rulesets.legacy.rules import characteristic_bonus, rank_bonus

from .conftest import Sheet, extras

CAT = catalogue()
CODES = (*PRIMARIES, *SECONDARIES)

# race: (primaries STR DEX CON CHA INT WIL PER, secondaries WPN BLS STM POW EDU LDR INI,
#        base LCK, Unnatural (X), REN change, natural armour, arms, traits)
RACES: dict[str, tuple[Any, ...]] = {
    "dwarf": ((20, 15, 25, 15, 25, 25, 20), (25, 25, 25, 15, 20, 20, 15), 5, {"STM": 1},
              0, 0, 2, ("Dark Vision", "Sturdy")),
    "dragonkin": ((25, 15, 15, 25, 25, 20, 20), (20, 15, 25, 25, 20, 25, 15), 5, {"LDR": 1},
                  0, 2, 2, ("Dark Vision", "Natural Armour")),
    "elf": ((15, 20, 15, 25, 25, 25, 20), (20, 20, 15, 25, 25, 20, 20), 10, {"POW": 1},
            0, 0, 2, ("Heightened Senses (Eyes)",)),
    "naga": ((15, 25, 25, 15, 25, 25, 15), (25, 15, 25, 25, 15, 15, 25), 5, {"CON": 1},
             0, 4, 2, ("Unnatural Armour", "Pride of the Naga", "Slither")),
    "gnome": ((15, 20, 20, 20, 25, 25, 20), (15, 15, 25, 25, 25, 20, 20), 10, {"EDU": 1},
              0, 0, 2, ("Resistance (Poisons)",)),
    "halfling": ((15, 25, 15, 20, 20, 25, 25), (15, 25, 20, 20, 20, 20, 25), 15, {"INI": 1},
                 0, 0, 2, ()),
    "duergar": ((20, 25, 25, 15, 20, 15, 25), (15, 25, 25, 20, 15, 15, 25), 5, {"STM": 1},
                0, 0, 2, ("Dark Vision", "Distrusting", "Light-Sensitive", "Sturdy")),
    "drow": ((15, 20, 20, 25, 25, 25, 20), (20, 20, 15, 25, 20, 25, 25), 5,
             {"POW": 1, "LDR": 1}, 0, 0, 2, ("Dark Vision", "Deceptive", "Light-Sensitive")),
    "goblin": ((15, 25, 15, 15, 25, 25, 25), (15, 25, 15, 25, 20, 20, 25), 10, {"EDU": 1},
               0, 0, 2, ("Dark Vision",)),
    "chitine": ((15, 25, 20, 15, 25, 20, 25), (15, 15, 20, 25, 20, 25, 25), 5, {"DEX": 1},
                0, 0, 4, ("Dark Vision", "Multiple Arms", "Strange Hands", "Light-Sensitive")),
    "orc": ((25, 25, 25, 15, 15, 15, 25), (25, 25, 25, 20, 15, 15, 20), 5, {"STR": 1},
            -10, 0, 2, ("Dark Vision", "One of the Horde")),
    "human": ((20, 20, 20, 20, 20, 25, 20), (20, 20, 20, 25, 20, 20, 20), 10, {"LDR": 1},
              10, 0, 2, ("Families of Prestige",)),
    "feral": ((20, 25, 20, 15, 20, 20, 25), (20, 20, 25, 15, 20, 20, 25), 10,
              {"DEX": 1, "INI": 1}, 0, 0, 2, ()),
}  # fmt: skip

# origin: (characteristic modifiers, affinity, trait, common skills)
ORIGINS: dict[str, tuple[dict[str, int], str, str, tuple[str, ...]]] = {
    "metropolitan": ({"DEX": -5, "INT": 5, "EDU": 5}, "commerce", "City-Wise", ()),
    "surface": ({"CHA": -5, "STR": 5, "INI": 5}, "survival", "Hardy", ()),
    "astrum": ({"CON": -5, "CHA": 5, "POW": 5}, "commerce", "Born of the Astrum", ()),
    "void": ({"WIL": -5, "INT": 5, "POW": 5}, "technology", "Touch of the Void", ()),
    "fire": ({"DEX": -5, "CON": 5, "BLS": 5}, "technology", "Fire Damage Reduction", ()),
    "water": ({"CHA": -5, "PER": 5, "EDU": 5}, "nature", "Amphibious",
              ("Navigate (Seas)", "Medicine")),
    "earth": ({"DEX": -5, "CON": 5, "STM": 5}, "technology", "Dark Vision",
              ("Trade (Miner)", "Disable Device")),
    "air": ({"CON": -5, "PER": 5, "BLS": 5}, "acrobatics", "Unnatural Sense (Eyes)", ()),
    "positive": ({"STR": -5, "CHA": 5, "STM": 5}, "medicine", "Energy Imbued", ()),
    "negative": ({"CON": -5, "WIL": 5, "POW": 5}, "stealth", "Born Dead",
                 ("Interrogate", "Secret Lore (Black Magic)")),
    "deep-dark": ({"CHA": -5, "PER": 5, "STM": 5}, "survival", "Cavern Sense", ()),
}  # fmt: skip

# each skill affinity and the characteristics its examples of use name
AFFINITY_USES: dict[str, set[str]] = {
    "arcane": {"POW", "WIL", "EDU"},
    "acrobatics": {"DEX", "STR", "STM", "CHA"},
    "athletics": {"STR", "STM"},
    "commerce": {"STR", "EDU", "CHA"},
    "deception": {"CHA", "WPN", "DEX", "INT", "EDU"},
    "faith": {"WIL", "EDU"},
    "inspection": {"PER", "INT", "LDR", "EDU"},
    "insight": {"INT", "EDU", "INI"},
    "medicine": {"DEX", "INT", "EDU"},
    "nature": {"CHA", "DEX", "EDU"},
    "persuasion": {"CHA", "STR", "LDR", "INT"},
    "stealth": {"DEX", "WPN", "BLS", "CHA", "INT"},
    "survival": {"STM", "CON", "DEX", "INT", "EDU"},
    "technology": {"DEX", "INT", "EDU", "WIL", "POW", "LDR"},
}

# soul: (kind, only these races, or None for no "only" list; races barred; classes barred)
SOULS: dict[str, tuple[str, set[str] | None, set[str], set[str]]] = {
    "human": ("racial", {"human", "feral"}, set(), set()),
    "elf": ("racial", {"elf", "drow"}, set(), set()),
    "dwarf": ("racial", {"dwarf", "duergar"}, set(), set()),
    "orc": ("racial", {"orc", "feral"}, set(), set()),
    "gnome": ("racial", {"gnome", "goblin"}, set(), set()),
    "halfling": ("racial", {"halfling"}, set(), set()),
    "dragon": ("racial", {"dragonkin"}, set(), set()),
    "dark": ("racial", {"duergar", "drow", "goblin", "chitine"}, set(), set()),
    "soulless": ("anomaly", None, set(), set()),
    "god-fragment": ("anomaly", None, set(), {"engineer"}),
    "machine-spirit": ("anomaly", None, {"elf", "drow", "dragonkin"}, {"priest"}),
    "warped": ("anomaly", None, {"dragonkin"}, set()),
    "tortured": ("anomaly", None, {"elf", "halfling", "gnome"}, set()),
    "warlock": ("anomaly", None, {"orc", "halfling", "dwarf"}, set()),
    "fey": ("anomaly", None, {"human", "gnome", "dwarf", "goblin"}, {"engineer"}),
}

DIFFICULTIES = [  # name, modifier, edge
    ("Very Easy", 6, "advantage"),
    ("Easy", 6, None),
    ("Routine", 4, None),
    ("Ordinary", 2, None),
    ("Challenging", 0, None),
    ("Difficult", -2, None),
    ("Hard", -4, None),
    ("Very Hard", -6, None),
    ("Impossible", -6, "disadvantage"),
]
RANKS = {1: 2, 2: 2, 3: 4, 4: 4, 5: 6, 6: 6}


@pytest.mark.parametrize("key", sorted(RACES))
def test_each_race_holds_the_texts_statistics(key: str) -> None:
    primaries, secondaries, lck, unnatural, ren, armour, arms, traits = RACES[key]
    race = CAT.race(key)
    assert tuple(race.base(c) for c in PRIMARIES) == primaries
    assert tuple(race.base(c) for c in SECONDARIES) == secondaries
    assert (race.base_lck, race.unnatural_bonuses, race.ren) == (lck, unnatural, ren)
    assert (race.natural_armour, race.arms) == (armour, arms)
    assert tuple(CAT.traits[t].name for t in race.traits) == traits


class Fixed:
    """Every die shows ``face``."""

    def __init__(self, face: int) -> None:
        self.face = face

    def draw(self, sides: int) -> int:
        return min(self.face, sides)

    def describe(self) -> dict[str, object]:
        return {"kind": "fixed"}


def made(race: str, origin: str, soul: str) -> Character:
    """Every die a 5: primaries 10 + the racial value, then the origin's modifiers."""
    draft = CreationDraft.start("N", race, origin, soul).roll_primaries(Fixed(5))
    draft = draft.assign(draft.primary_rolls).roll_secondaries(Fixed(5))
    return draft.finish(Fixed(5), extras(soul, origin))[0].character


def soul_for(race: str) -> str:
    return next(k for k, (_, only, _b, _c) in SOULS.items() if only and race in only)


@pytest.mark.parametrize("key", sorted(RACES))
def test_creation_adds_the_race_values_lck_unnatural_and_renown(key: str) -> None:
    primaries, secondaries, lck, unnatural, ren, *_ = RACES[key]
    char = made(key, "surface", soul_for(key) if key != "naga" else "soulless")
    surface = ORIGINS["surface"][0]
    for code, base in zip(PRIMARIES, primaries, strict=True):
        assert char.scores[code] == 10 + base + surface.get(code, 0)
    for code, primary, base in zip(SECONDARIES, PRIMARIES, secondaries, strict=True):
        dice = -(-characteristic_bonus(10 + base_of(key, primary), unnatural.get(primary, 0)) // 2)
        assert char.scores[code] == 5 * dice + base + surface.get(code, 0)
    assert (char.lck, char.fate) == (10 + lck, characteristic_bonus(10 + lck))
    assert char.unnatural == unnatural
    assert all(char.bonus(c) == char.scores[c] // 10 + n for c, n in unnatural.items())
    start_ren = 10 + 5 + ren + (5 + 5 if key == "dragonkin" else 0)  # Dragon Soul: 1d5+5
    assert char.ren == start_ren


def base_of(race: str, code: str) -> int:
    primaries, secondaries, *_ = RACES[race]
    values: tuple[int, ...] = (*primaries, *secondaries)
    return values[CODES.index(code)]


@pytest.mark.parametrize("key", sorted(ORIGINS))
def test_each_origin_holds_and_applies_the_texts_modifiers(key: str) -> None:
    modifiers, affinity, trait, skills = ORIGINS[key]
    origin = CAT.origin(key)
    assert (origin.modifiers, origin.affinity, CAT.traits[origin.trait].name) == (
        modifiers,
        affinity,
        trait,
    )
    assert origin.common_skills == skills
    char, plain = made("human", key, "human"), made("human", "surface", "human")
    for code, delta in modifiers.items():
        undo = ORIGINS["surface"][0].get(code, 0)
        assert char.scores[code] == plain.scores[code] - undo + delta
    assert char.affinities[0] == affinity
    assert char.fate == characteristic_bonus(char.lck) + (1 if key == "astrum" else 0)


@pytest.mark.parametrize("key", sorted(AFFINITY_USES))
def test_each_skill_affinity_lists_the_texts_characteristics(key: str, sheet: Sheet) -> None:
    assert set(CAT.affinity(key).uses) == AFFINITY_USES[key]
    holder, lacking = sheet(affinities=(key,)), sheet()
    for code in AFFINITY_USES[key]:
        held = resolve(holder.check(code, affinity=key, scale="as-written"))
        plain = resolve(lacking.check(code, affinity=key, scale="as-written"))
        assert held.thresholds.target == holder.score(code) + 2  # rank 1: +2, Challenging
        assert plain.difficulty == "difficult"  # no affinity: one class harder


def test_every_characteristic_has_its_own_affinity() -> None:
    for code in CODES:
        affinity = CAT.affinity(code.lower())
        assert (affinity.kind, affinity.uses) == ("characteristic", (code,))


@pytest.mark.parametrize("soul", sorted(SOULS))
def test_each_soul_restriction_as_written(soul: str) -> None:
    kind, only, barred, classes = SOULS[soul]
    assert CAT.soul(soul).kind == kind
    for race in RACES:
        allowed = (only is None or race in only) and race not in barred
        if allowed:
            check_soul(soul, race)
        else:
            with pytest.raises(Exception, match="soul restriction"):
                check_soul(soul, race)
    for char_class in ("engineer", "priest"):
        race = next(r for r in RACES if (only is None or r in only) and r not in barred)
        if char_class in classes:
            with pytest.raises(Exception, match="soul restriction"):
                check_soul(soul, race, char_class)
        else:
            check_soul(soul, race, char_class)


@pytest.mark.parametrize(("index", "row"), list(enumerate(DIFFICULTIES)))
def test_the_difficulty_classes_as_written(index: int, row: tuple[str, int, Any]) -> None:
    name, modifier, edge = row
    level = CAT.tables.difficulty[index]
    assert (level.name, level.modifier, level.edge) == (name, modifier, edge)


def test_the_rank_bonus_table_as_written() -> None:
    assert {rank: rank_bonus(rank) for rank in RANKS} == RANKS


def test_a_characteristic_and_a_skill_affinity_give_one_rank_bonus(sheet: Sheet) -> None:
    both = sheet(affinities=("stealth", "dex"), rank=3)
    res = resolve(both.check("DEX", affinity="stealth", scale="as-written"))
    assert [m.kind for m in res.modifiers].count("rank") == 1
    assert res.thresholds.target == 29 + 4


def test_a_skill_checks_relevant_affinity_is_its_skill_affinity(sheet: Sheet) -> None:
    """Ruling 87: a DEX affinity alone does not make a Stealth (DEX) check one the character
    has the affinity for; it still counts on a plain DEX check."""
    dex = sheet(affinities=("dex",), rank=3)
    skill = resolve(dex.check("DEX", affinity="stealth", scale="as-written"))
    assert [m.kind for m in skill.modifiers].count("rank") == 0
    assert (skill.difficulty, skill.thresholds.target) == ("difficult", 29 - 2)
    plain = resolve(dex.check("DEX", scale="as-written"))
    assert (plain.difficulty, plain.thresholds.target) == ("challenging", 29 + 4)


def test_vulnerability_doubles_the_wounds_past_armour_and_soak(sheet: Sheet) -> None:
    weak = sheet(vulnerabilities=("fire",))
    report = apply_damage(weak, 9, damage_type="fire")[1]
    assert (report.through, report.after_resistance, report.wounds_lost) == (6, 12, 12)
    both = sheet(vulnerabilities=("poison",), race="gnome", soul="gnome")  # resistant too
    assert apply_damage(both, 9, damage_type="poison")[1].after_resistance == 6


def test_healing_restores_wounds_never_critical_damage(sheet: Sheet) -> None:
    hurt = sheet(wounds=5, critical={"torso": 3})
    assert heal(hurt, 10).character.critical == {"torso": 3}  # "intensive ... medical care"


def test_the_deep_dark_cavern_sense_is_a_survival_per_check() -> None:
    char = made("human", "deep-dark", "human")
    res = resolve(char.check("PER", affinity="survival", scale="as-written"))
    assert (res.difficulty, res.thresholds.target) == ("challenging", char.score("PER") + 2)


def test_a_raw_check_rolls_a_d20_under_the_target() -> None:
    res = resolve(CheckRequest(target=12))
    assert (res.thresholds.die, res.thresholds.target) == (20, 12)
    source = ReplaySource([Draw(20, 12)])
    from rulebound.rulesets.legacy.checks import roll_check

    assert roll_check(CheckRequest(target=12), source).succeeded  # "less than or equal"


def test_rulebound_content_lists_every_number() -> None:
    out = CliRunner().invoke(app, ["content", "legacy", "--json"])
    assert out.exit_code == 0, out.output
    tables = {t["title"]: t for t in json.loads(out.output)["tables"]}
    races = {
        row[0]: dict(zip(tables["Races"]["columns"], row, strict=True))
        for row in tables["Races"]["rows"]
    }
    for key, (primaries, secondaries, lck, _u, ren, armour, arms, _t) in RACES.items():
        row = races[key]
        assert [int(row[c]) for c in CODES] == [*primaries, *secondaries]
        assert (int(row["LCK"]), int(row["REN"]), int(row["natural armour"]), int(row["arms"])) == (
            lck,
            ren,
            armour,
            arms,
        )
    origins = {row[0]: row for row in tables["Origins"]["rows"]}
    assert origins["fire"][2] == "DEX -5, CON +5, BLS +5"
    assert origins["water"][6] == "Navigate (Seas), Medicine"
    souls = {row[0]: row[4] for row in tables["Souls"]["rows"]}
    assert "starts with 1d10+10 SAN" in souls["tortured"]
    assert "starts with 1d10+10 COR" in souls["warped"]
    assert "starts with 1d5+5 REN" in souls["dragon"]
    assert "absorbs a slain racial soul for 1d5 days" in souls["dragon"]
    assert "2 extra affinities" in souls["human"]
    traits = {row[0]: row[2] for row in tables["Traits"]["rows"]}
    assert traits["fire-reduction"] == "fire damage -3"
    assert "heals 1d5 once a day" in traits["energy-imbued"]
    assert "loses 1d10 REN" in traits["pride-of-the-naga"]
    numbers = dict(map(tuple, tables["Numbers"]["rows"]))
    assert numbers["disorders (d100 + SAN)"] == "SAN 10, 20, 30, 50, 70, 90"
    assert numbers["mutations (d100 + COR)"] == "COR 20, 30, 40, 60, 80"
    assert numbers["burning fate"] == "LCK -10, needs LCK 10 or more"
    difficulty = [(r[1], int(r[2]), r[3] or None) for r in tables["Difficulty classes"]["rows"]]
    assert difficulty == DIFFICULTIES


@pytest.mark.parametrize(("race", "armour"), [("dragonkin", 2), ("naga", 4), ("human", 0)])
def test_natural_armour_counts_on_every_location(sheet: Sheet, race: str, armour: int) -> None:
    char = sheet(race=race, soul=soul_for(race) if race != "naga" else "soulless")
    for location in ("head", "left-arm", "right-arm", "torso", "left-leg", "right-leg"):
        assert apply_damage(char, 20, location)[1].blocked == armour + 3  # + soak (CON 31)


@pytest.mark.parametrize(
    ("origin", "situation"),
    [
        ("metropolitan", "city-dealings"),  # City-Wise: merchants and politics in cities
        ("surface", "poison-or-starvation"),  # Hardy
        ("void", "resisting-corruption"),  # Touch of the Void
    ],
)
def test_origin_traits_give_advantage_in_their_situation(
    sheet: Sheet, origin: str, situation: str
) -> None:
    char = sheet(origin=origin)
    assert char.check("CON", situations=[situation]).advantage
    assert not char.check("CON").advantage


def test_the_void_mutation_and_the_astrum_fate_point_at_creation() -> None:
    void = CreationDraft.start("V", "human", "void", "human").roll_primaries(Fixed(5))
    void = void.assign(void.primary_rolls).roll_secondaries(Fixed(5))
    change, _ = void.finish(Fixed(5), extras("human", "void"))
    assert [e.kind for e in change.events] == [
        "mutation"
    ]  # "begins the game with a minor mutation"
    astrum = made("human", "astrum", "human")
    assert (astrum.lck, astrum.fate) == (20, 2 + 1)  # "does not change their LCK score"


def test_max_wounds_is_the_stamina_score(sheet: Sheet) -> None:
    char = sheet()
    assert (char.max_wounds, char.current_wounds) == (33, 33)
    assert apply_damage(char, 100)[0].character.current_wounds == 0  # never below 0


def test_three_successes_leave_them_simply_unconscious_three_failures_dead(sheet: Sheet) -> None:
    from rulebound.rulesets.legacy.combat import death_save

    dying = {"bleeding": True, "unconscious": True, "wounds": 0}
    stable = death_save(sheet(**dying, death_successes=2), ReplaySource([Draw(20, 5)]))[0]
    after = stable.character
    assert (after.bleeding, after.unconscious, after.dead) == (False, True, False)
    dead = death_save(sheet(**dying, death_failures=2), ReplaySource([Draw(20, 15)]))[0]
    assert (dead.character.dead, dead.character.bleeding) == (True, False)


@pytest.mark.parametrize("soul", ["human", "tortured", "warped"])
def test_everyone_starts_at_san_and_cor_0_unless_the_soul_adds(soul: str) -> None:
    char = made("human", "surface", soul)
    assert (char.san, char.cor) == {
        "human": (0, 0),
        "tortured": (5 + 10, 0),  # 1d10+10 SAN
        "warped": (0, 5 + 10),  # 1d10+10 COR, not halved
    }[soul]


def test_a_drow_rolls_deception_as_if_holding_the_affinity(sheet: Sheet) -> None:
    drow, human = sheet(race="drow", soul="dark"), sheet()
    held, plain = (
        resolve(drow.check("CHA", affinity="deception", scale="as-written")),
        resolve(human.check("CHA", affinity="deception", scale="as-written")),
    )
    assert (held.difficulty, held.thresholds.target) == ("challenging", 20 + 2)
    assert plain.difficulty == "difficult"
