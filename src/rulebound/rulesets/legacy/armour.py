"""Putting armour on and taking it off, with the Naga's pride.

Worn armour (physical or magical, per location) makes Pride of the Naga's
disadvantage apply to DEX, BLS and WPN checks (``Character.check`` sees it), and a
Naga who dons metal armour loses 1d10 REN each time, never below 0.
"""

from __future__ import annotations

from collections.abc import Iterable

from rulebound.core.errors import InvalidInput
from rulebound.core.keys import check_known, find_key
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.character import LOCATIONS, Armour, Change, Character, Event
from rulebound.rulesets.legacy.content import Catalogue, catalogue


def _locations(locations: Iterable[str]) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(find_key(LOCATIONS, loc) or loc for loc in locations))
    if not chosen:
        raise InvalidInput("locations", [], "at least one of " + ", ".join(LOCATIONS))
    check_known("location", chosen, LOCATIONS)
    return chosen


def don_armour(
    char: Character,
    piece: Armour,
    source: RandomSource,
    locations: Iterable[str] = LOCATIONS,
    cat: Catalogue | None = None,
) -> Change:
    """Wear ``piece`` on ``locations`` (replacing what was there)."""
    c = cat or catalogue()
    where = _locations(locations)
    if not piece.worn:
        raise InvalidInput("armour", piece.model_dump(), "a piece with some armour to wear")
    armour = {**char.armour, **dict.fromkeys(where, piece)}
    kind = "metal armour" if piece.metal else "armour"
    events = [Event("armour donned", f"{kind} on {', '.join(where)}")]
    ren = char.ren
    rec = RecordingSource(source)
    for trait in char.traits(c):
        if trait.edges and any(e.situation == "armoured" for e in trait.edges):
            events.append(Event(trait.name, "disadvantage on DEX, BLS and WPN while armoured"))
        expr = trait.metal_armour_ren_loss
        if piece.metal and expr is not None:
            loss = sum(rec.draw(expr.sides) for _ in range(expr.dice)) + expr.plus
            new_ren = max(ren - loss, 0)
            events.append(
                Event(
                    "renown lost",
                    f"{trait.name}: metal armour, REN {ren} -> {new_ren} (lost {loss})",
                    loss,
                    Provenance.of(rec.describe(), rec.draws[-expr.dice :]),
                )
            )
            ren = new_ren
    after = char.model_copy(update={"armour": armour, "ren": ren})
    return Change(after, tuple(events))


def remove_armour(char: Character, locations: Iterable[str] = LOCATIONS) -> Change:
    where = _locations(locations)
    armour = {loc: piece for loc, piece in char.armour.items() if loc not in where}
    after = char.model_copy(update={"armour": armour})
    return Change(after, (Event("armour removed", ", ".join(where)),))
