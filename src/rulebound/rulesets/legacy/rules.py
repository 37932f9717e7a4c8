"""The Legacy rules tables and pure rule functions, read by both the roller and the odds engine.

Everything numeric about a check lives here: the scale variants, the target and
critical thresholds, outcome classification, margins, degrees, and the death-save
rule. The roller (``checks``) and the exact odds (``odds``) call the same
functions, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.core.keys import find_key, lookup
from rulebound.rulesets.contract import ContentTable, Variant
from rulebound.rulesets.legacy.content import CHARACTERISTICS, Catalogue, catalogue


class Outcome(StrEnum):
    CRITICAL_SUCCESS = "critical success"
    SUCCESS = "success"
    PARTIAL = "partial success"
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical failure"

    @property
    def passed(self) -> bool:
        return self in (Outcome.CRITICAL_SUCCESS, Outcome.SUCCESS)

    @property
    def critical(self) -> bool:
        return self in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE)


OUTCOMES: tuple[Outcome, ...] = tuple(Outcome)


class Edge(StrEnum):
    NONE = "none"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


def net_edge(advantage: bool, disadvantage: bool) -> Edge:
    """Advantage and disadvantage never stack, and any of each cancels to a plain roll."""
    if advantage and not disadvantage:
        return Edge.ADVANTAGE
    if disadvantage and not advantage:
        return Edge.DISADVANTAGE
    return Edge.NONE


@dataclass(frozen=True, slots=True)
class Scale:
    """How a characteristic on a roughly 20-45 scale meets the die (see the scale ruling)."""

    key: str
    die: int
    modifier_factor: int
    halve_score: bool
    degree_size: int
    summary: str


SCALES: dict[str, Scale] = {
    s.key: s
    for s in (
        Scale(
            "as-written", 20, 1, False, 1, "d20 against the full score: nearly every check passes"
        ),
        Scale("d100", 100, 5, False, 10, "d100 against the score; rank, difficulty and fatigue x5"),
        Scale("halved", 20, 1, True, 1, "d20 against half the score (rounded down)"),
    )
}
DEFAULT_SCALE = "halved"
"""The playable reading closest to the text (ruling 1): every number the text gives stays on
the d20 it names; only the 17-45 score is halved to meet it."""

TYPICAL_SCORE = 30
"""A new character's characteristic: 2d10 (11 on average) + a racial value (about 21)."""
TYPICAL_CLASSES = ("challenging", "hard", "very-hard")
"""The difficulty classes whose odds each scale's hint shows for ``TYPICAL_SCORE``."""

SCALE_VARIANT = Variant(
    key="scale",
    choices=("halved", "d100", "as-written"),  # the default first, as every variant lists them
    default=DEFAULT_SCALE,
    summary="How characteristics (about 17-45) meet the check die: the text's d20 against the "
    "full score passes nearly every check, so the default halves the score.",
    label="How a characteristic meets the die",
    choice_labels=(
        "a d20 against half the score",
        "a d100 against the score (modifiers x5)",
        "as written: a d20 against the full score (nearly every check passes)",
    ),
    hints=(
        "A new character (score 30): Challenging 75%, Hard 55%, Very Hard 45%.",
        "A new character (score 30): Challenging 30%, Hard 10%, Very Hard 1%.",
        "A new character (score 30): Challenging 95%, Hard 95%, Very Hard 95%: "
        "nearly every check passes.",
    ),
    asked=True,
)

AFFINITY_BONUSES: tuple[str, ...] = ("rank-table", "five-per-rank")
DEFAULT_AFFINITY_BONUS = "rank-table"

AFFINITY_BONUS_VARIANT = Variant(
    key="affinity_bonus",
    choices=AFFINITY_BONUSES,
    default=DEFAULT_AFFINITY_BONUS,
    summary=(
        "What an affinity or proficiency adds: the rank bonus table (+2/+4/+6) or the "
        "affinity section's '5 times their Rank'."
    ),
    label="What an affinity or proficiency adds",
    choice_labels=("the rank bonus table (+2/+4/+6)", "5 times the rank"),
)

VARIANTS: tuple[Variant, ...] = (SCALE_VARIANT, AFFINITY_BONUS_VARIANT)

DEATH_SAVE_TARGET = 10
DEATH_SAVE_DIE = 20
DEATH_SAVE_LIMIT = 3
FATIGUE_PENALTY = -1
SPEED_FEET_PER_BONUS = 5
PRIMARY_DICE = LCK_DICE = (2, 10)
REN_BASE = 10
ADVANCE = 5
BURN_LCK_COST = 10


def rule_numbers(cat: Catalogue | None = None) -> dict[str, str]:
    """The text's numbers outside the content files, as ``rulebound content`` lists them."""
    t = (cat or catalogue()).tables.thresholds
    dice = "{}d{}".format(*PRIMARY_DICE)
    return {
        "primary characteristic": f"{dice} x7, assigned, + the racial value",
        "secondary characteristic": "d10 x half the primary's bonus (rounded up) + racial value",
        "characteristic bonus": "the tens digit + Unnatural (X)",
        "advance": f"+{ADVANCE}; each level a primary bonus passes its highest adds 1d10",
        "LCK": "{}d{} + the race's base LCK".format(*LCK_DICE),
        "fate points": "the LCK bonus (+ an origin's bonus point)",
        "burning fate": f"LCK -{BURN_LCK_COST}, needs LCK {BURN_LCK_COST} or more",
        "REN": f"{REN_BASE} + 1d10 + the race's REN",
        "disorders (d100 + SAN)": "SAN " + ", ".join(map(str, t.san)),
        "mutations (d100 + COR)": "COR " + ", ".join(map(str, t.cor)),
        "unplayable": f"SAN or COR {t.unplayable} (COR: unless Daemon Fate)",
        "fear ignored": "ratings below SAN / 20, rounded down",
        "speed": f"{SPEED_FEET_PER_BONUS} ft per DEX bonus",
        "wounds / rest points / soak": "the STM score / the CON bonus / the CON bonus",
        "fatigue": f"up to the STM bonus; {FATIGUE_PENALTY} to all checks while any is taken",
        "reactions": "the INI bonus, each round",
        "critical damage": "+1 when wounded, +1 for a critical hit or maximum damage",
        "death saves": f"d{DEATH_SAVE_DIE} against {DEATH_SAVE_TARGET}, criticals count 2, "
        f"{DEATH_SAVE_LIMIT} successes stable, {DEATH_SAVE_LIMIT} failures dead",
        "surprised": "a Difficult (-2) INI save to act last in the surprise round",
    }


def content_tables(c: Catalogue) -> tuple[ContentTable, ...]:
    """Every content table and the text's numbers, as ``rulebound content`` lists them."""

    def signed(items: Mapping[Any, int]) -> str:
        return ", ".join(f"{k} {v:+d}" for k, v in items.items())

    rows: dict[str, list[Any]] = {
        "Characteristics: primary, name, secondary, name": [
            (p, c.names[p], s, c.names[s]) for p, s in c.pairs.items()
        ],
        "Races: key, name, " + ", ".join(CHARACTERISTICS) + ", LCK, unnatural, "
        "natural armour, REN, arms, traits": [
            (
                r.key,
                r.name,
                *(str(r.base(k)) for k in CHARACTERISTICS),
                str(r.base_lck),
                signed(r.unnatural_bonuses),
                str(r.natural_armour),
                f"{r.ren:+d}",
                str(r.arms),
                ", ".join(c.traits[t].name for t in r.traits),
            )
            for r in c.races.values()
        ],
        "Origins: key, name, modifiers, affinity, trait, bonus fate, common skills, mutation": [
            (
                o.key,
                o.name,
                signed(o.modifiers),
                o.affinity,
                o.trait,
                str(o.bonus_fate),
                ", ".join(o.common_skills),
                "minor" if o.starting_mutation else "",
            )
            for o in c.origins.values()
        ],
        "Souls: key, name, kind, restrictions, effects": [
            (s.key, s.name, s.kind, "; ".join(s.limits(c.races)), "; ".join(s.effects()))
            for s in c.souls.values()
        ],
        "Traits: key, name, effects, summary": [
            (t.key, t.name, "; ".join(t.effects()), t.summary) for t in c.traits.values()
        ],
        "Affinities: key, name, kind, characteristics": [
            (a.key, a.name, a.kind, ", ".join(a.uses)) for a in c.affinities.values()
        ],
        "Difficulty classes: key, name, modifier, edge": [
            (d.key, d.name, f"{d.modifier:+d}", d.edge or "") for d in c.tables.difficulty
        ],
        "Rank bonus: ranks, bonus": [
            (f"{b.min_rank}-{b.max_rank}", f"+{b.bonus}") for b in c.tables.rank_bonus
        ],
        "Numbers: rule, value": [(k, str(v)) for k, v in rule_numbers(c).items()],
    }
    tables = ((title.split(": ", 1), listed) for title, listed in rows.items())
    return tuple(ContentTable.of(title, columns, listed) for (title, columns), listed in tables)


def scale(key: str) -> Scale:
    found = SCALES.get(key) if type(key) is str else None  # the key itself: most calls
    if found is not None:
        return found
    return lookup(SCALES, key, "scale")


def characteristic_bonus(score: int, unnatural: int = 0) -> int:
    """The tens digit plus any Unnatural (X) bonus (a ruling: the text never defines it)."""
    return max(score, 0) // 10 + unnatural


def rank_bonus(rank: int, cat: Catalogue | None = None) -> int:
    for band in (cat or catalogue()).tables.rank_bonus:
        if band.min_rank <= rank <= band.max_rank:
            return band.bonus
    bands = (cat or catalogue()).tables.rank_bonus
    return _raise_rank(rank, bands[0].min_rank, bands[-1].max_rank)


def affinity_bonus_mode(key: str) -> str:
    hit = find_key(AFFINITY_BONUSES, key) if isinstance(key, str) else None
    if hit is None:
        raise InvalidInput("affinity_bonus", key, "one of " + ", ".join(AFFINITY_BONUSES))
    return hit


def rank_modifier(rank: int, mode: str, sc: Scale, cat: Catalogue | None = None) -> int:
    """What a held affinity or proficiency adds to the target under ``mode`` and scale ``sc``.

    ``rank-table`` reads the table (d20 points, x5 on the d100 scale). ``five-per-rank`` adds
    5 x rank, halved on its own (rounded down) on the halved scale and added to the halved
    score: score 31, rank 1 gives 15 + 2 (ruling 43; logs made under it keep verifying).
    """
    if affinity_bonus_mode(mode) == "rank-table":
        return rank_bonus(rank, cat) * sc.modifier_factor
    rank_bonus(rank, cat)  # the same rank range applies
    value = 5 * rank
    return value // 2 if sc.halve_score else value


def _raise_rank(rank: int, low: int, high: int) -> int:
    raise InvalidInput("rank", rank, f"a rank from {low} to {high}")


def difficulty_keys(cat: Catalogue | None = None) -> tuple[str, ...]:
    return tuple(d.key for d in (cat or catalogue()).tables.difficulty)


def harder(key: str, steps: int = 1, cat: Catalogue | None = None) -> str:
    """The class ``steps`` harder; Impossible is the floor (ruling: nothing is harder)."""
    keys = difficulty_keys(cat)
    key = (cat or catalogue()).difficulty(key).key
    return keys[min(keys.index(key) + steps, len(keys) - 1)]


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The numbers a d-N face is judged against. ``crit_target`` swaps the score for its bonus."""

    target: int
    crit_target: int
    partial_bonus: int
    die: int = 20

    def __post_init__(self) -> None:
        if self.die < 2:
            raise InvalidInput("die", self.die, "at least 2 sides")
        if self.partial_bonus < 0:
            raise InvalidInput("bonus", self.partial_bonus, "a bonus of 0 or more")


def classify(face: int, t: Thresholds) -> Outcome:
    """Judge one kept face: top face always critically fails, a 1 always critically succeeds."""
    if face == t.die:
        return Outcome.CRITICAL_FAILURE
    return classify_without_critical_failure(face, t)


def classify_without_critical_failure(face: int, t: Thresholds) -> Outcome:
    """Judge a face as if the top-face rule did not exist (a cancelled critical failure)."""
    if face == 1 or face <= t.crit_target:
        return Outcome.CRITICAL_SUCCESS
    if face <= t.target:
        return Outcome.SUCCESS
    if face - t.target <= t.partial_bonus:
        return Outcome.PARTIAL
    return Outcome.FAILURE


def margin(face: int, t: Thresholds, outcome: Outcome) -> int:
    """How far the roll passed (positive) or failed (negative), never pointing the wrong way.

    A forced result (a 1 under an impossible target, a top face under an easy one)
    has margin 0 rather than a margin on the wrong side.
    """
    raw = t.target - face
    return max(raw, 0) if outcome.passed else min(raw, 0)


def weighted_margin(face: int, t: Thresholds, outcome: Outcome) -> int:
    """The margin with criticals counting double (extended and opposed checks)."""
    m = margin(face, t, outcome)
    return 2 * m if outcome.critical else m


def degrees(signed_margin: int, sc: Scale) -> int:
    """Degrees of success (+) or failure (-): one per ``degree_size`` points of margin."""
    size = sc.degree_size
    return signed_margin // size if signed_margin >= 0 else -((-signed_margin) // size)


def death_save_points(face: int) -> tuple[int, int]:
    """(successes, failures) one death save adds: d20 against 10, criticals count 2."""
    t = Thresholds(DEATH_SAVE_TARGET, 1, 0, DEATH_SAVE_DIE)
    outcome = classify(face, t)
    if outcome is Outcome.CRITICAL_SUCCESS:
        return (2, 0)
    if outcome is Outcome.SUCCESS:
        return (1, 0)
    if outcome is Outcome.CRITICAL_FAILURE:
        return (0, 2)
    return (0, 1)
