"""Damage: armour and soak, resistance and vulnerability, wounds and critical damage.

Armour is natural + physical + magical on the location hit; soak is the CON bonus; an
attack may ignore any of those (ruling 58; soak applies "unless told otherwise"). What gets
through is halved or doubled, wounds fall (never below 0), the excess and the flat critical
points go to the location's critical damage track, and a GM-supplied lethal critical score
kills outright. A Born Dead character heals from negative energy instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rulebound.core.errors import InvalidInput
from rulebound.core.keys import check_known, find_key, key_of
from rulebound.rulesets.legacy.character import LOCATIONS, Armour, Change, Character, Event
from rulebound.rulesets.legacy.content import Catalogue, catalogue

MAX_DAMAGE = 1000
IGNORABLE: tuple[str, ...] = ("natural", "physical", "magical", "soak")


@dataclass(frozen=True, slots=True)
class DamageReport:
    """How one hit was worked out, step by step."""

    damage: int
    blocked: int
    through: int
    after_resistance: int
    wounds_lost: int
    excess: int
    critical: dict[str, int]
    con_save_required: bool
    healed: int = 0
    killed: bool = False


def _scale_by(value: int, resistant: bool, vulnerable: bool, round_up: bool = False) -> int:
    if resistant and not vulnerable:
        return -(-value // 2) if round_up else value // 2
    if vulnerable and not resistant:
        return value * 2
    return value


def melee_damage(char: Character, rolled: int) -> int:
    """Melee damage adds the attacker's STR bonus to the weapon's roll."""
    if rolled < 0:
        raise InvalidInput("rolled", rolled, "a damage roll of 0 or more")
    return rolled + char.bonus("STR")


def armour_value(char: Character, location: str, ignore: frozenset[str], cat: Catalogue) -> int:
    piece = char.armour.get(location, Armour())
    parts = {
        "natural": char.natural_armour(cat),
        "physical": piece.physical,
        "magical": piece.magical,
    }
    return sum(v for k, v in parts.items() if k not in ignore)


def _ignored(ignore: Iterable[str]) -> frozenset[str]:
    chosen = frozenset(find_key(IGNORABLE, kind) or kind for kind in ignore)
    check_known("ignore", chosen, IGNORABLE, "any of")
    return chosen


def apply_damage(
    char: Character,
    damage: int,
    location: str = "torso",
    damage_type: str = "",
    *,
    critical_hit: bool = False,
    max_damage: bool = False,
    whole_body: bool = False,
    ignore: Iterable[str] = (),
    lethal_critical: int | None = None,
    cat: Catalogue | None = None,
) -> tuple[Change, DamageReport]:
    """Armour and soak first, then resistance or vulnerability, then wounds and critical damage."""
    c = cat or catalogue()
    if not 0 <= damage <= MAX_DAMAGE:
        raise InvalidInput("damage", damage, f"0 to {MAX_DAMAGE}")
    location = find_key(LOCATIONS, location) or location
    if location not in LOCATIONS:
        raise InvalidInput("location", location, "one of " + ", ".join(LOCATIONS))
    damage_type = key_of(damage_type)  # "Fire" is fire
    if lethal_critical is not None and lethal_critical < 1:
        raise InvalidInput("lethal_critical", lethal_critical, "a critical score of 1 or more")
    skip = _ignored(ignore)

    def same(kind: str) -> bool:
        return bool(damage_type) and key_of(kind) == damage_type

    traits = char.traits(c)
    locations = LOCATIONS if whole_body else (location,)
    armour = min(armour_value(char, loc, skip, c) for loc in locations)
    reduction = sum(v for t in traits for k, v in t.damage_reduction.items() if same(k))
    blocked = armour + (0 if "soak" in skip else char.soak) + reduction
    through = max(damage - blocked, 0)
    resistant = any(map(same, (*char.resistances, *(r for t in traits for r in t.resistances))))
    vulnerable = any(map(same, char.vulnerabilities))
    after = _scale_by(through, resistant, vulnerable)
    if any(same(kind) for t in traits for kind in t.heals_from):
        return _heal_instead(char, damage, blocked, through, after)
    wounds_lost = min(after, char.current_wounds)
    excess = after - wounds_lost
    flat = (1 if after > 0 else 0) + (1 if critical_hit or max_damage else 0)
    # the flat points "always" land: halving rounds up, so never to nothing (ruling 32)
    per_location = excess + _scale_by(flat, resistant, vulnerable, round_up=True)
    critical = dict(char.critical)
    added = dict.fromkeys(locations, per_location) if per_location else {}
    for loc, amount in added.items():
        critical[loc] = critical.get(loc, 0) + amount
    killed = lethal_critical is not None and any(critical[loc] >= lethal_critical for loc in added)
    update: dict[str, object] = {"wounds": char.current_wounds - wounds_lost, "critical": critical}
    events = [Event("damage", f"{wounds_lost} wounds, critical {added or 'none'}", wounds_lost)]
    if killed:
        update |= {"dead": True, "bleeding": False, "unconscious": True}
        events.append(Event("dead", f"critical damage reached {lethal_critical}: no saves or fate"))
    elif excess > 0 and char.bleeding:  # ruling 70: no second save, the tallies stand
        events.append(Event("still bleeding out", "hit again: the death saves go on"))
    elif excess > 0:
        events.append(Event("CON save", "damage exceeded wounds: a +0 CON save or bleed out"))
    report = DamageReport(
        damage,
        blocked,
        through,
        after,
        wounds_lost,
        excess,
        added,
        excess > 0 and not killed and not char.bleeding,
        killed=killed,
    )
    return Change(char.model_copy(update=update), tuple(events)), report


def _heal_instead(
    char: Character, damage: int, blocked: int, through: int, after: int
) -> tuple[Change, DamageReport]:
    """Born Dead: no damage at all; heal half of what would have been taken (rounded down)."""
    wounds = min(char.current_wounds + after // 2, char.max_wounds)
    healed = wounds - char.current_wounds
    after_char = char.model_copy(update={"wounds": wounds})
    event = Event("healed instead", f"negative energy: wounds {char.current_wounds} -> {wounds}")
    report = DamageReport(damage, blocked, through, after, 0, 0, {}, False, healed=healed)
    return Change(after_char, (event,)), report
