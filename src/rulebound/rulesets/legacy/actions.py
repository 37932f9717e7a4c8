"""What a character does on the table: rolling as that character, attacks, reactions, renown.

``roll_as`` is where a character's own state touches a single roll (``LegacyRoll.as_rolled``
for an opposed or extended check's first roll): an unconscious or dead character fails
automatically without rolling (death saves aside, which ``combat.death_save`` makes), and
a Dark Soul's curse gives disadvantage to the next roll and is then spent, unless the test
is unmodified (ruling 69). Each function returns the new state with its events.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.legacy.character import Change, Character, Event
from rulebound.rulesets.legacy.checks import (
    CheckRequest,
    LegacyResult,
    automatic_failure,
    roll_check,
)
from rulebound.rulesets.legacy.content import Catalogue
from rulebound.rulesets.legacy.rules import DEFAULT_SCALE, Outcome
from rulebound.rulesets.legacy.versions import RULES, Rules, spares_unmodified

AttackKind = Literal["melee", "ranged"]
ATTACK_CHARACTERISTIC: dict[str, str] = {"melee": "WPN", "ranged": "BLS"}


def roll_as(
    char: Character,
    request: CheckRequest,
    source: RandomSource,
    *,
    parent: LegacyResult | None = None,
    note: str = "",
    unmodified: bool = False,
    rules: Rules = RULES,
) -> Change:
    """Roll ``request`` as ``char``: automatic failure while unconscious; a curse is spent.

    ``parent`` links a follow-up (a fate reroll) to the result it replaces. ``unmodified``:
    a test the text says nothing modifies (a luck swap's, a soul's luck check): a curse
    neither touches it nor is spent by it, and waits for the next roll (ruling 69).
    ``rules``: those of the record it replays (``versions.spares_unmodified``).
    """
    if not char.can_act:
        state = "dead" if char.dead else "unconscious"
        failed = automatic_failure(request, f"{char.name} is {state}: automatic failure")
        failed = replace(failed, parent=parent)
        return Change(char, (Event("automatic failure", f"{state}: no roll"),), (failed,))
    if not char.cursed or (unmodified and spares_unmodified(rules)):
        return Change(char, (), (roll_check(request, source, parent=parent, note=note),))
    cursed = replace(request, disadvantage=True)
    result = roll_check(cursed, source, parent=parent, note=note)
    spent = Event("curse spent", "Dark Soul curse: disadvantage on this roll")
    return Change(char.model_copy(update={"cursed": False}), (spent,), (result,))


def attack_request(
    attacker: Character,
    kind: AttackKind,
    *,
    target: Character | None = None,
    target_unconscious: bool = False,
    target_surprised: bool = False,
    difficulty: str = "challenging",
    situations: tuple[str, ...] = (),
    advantage: bool = False,
    disadvantage: bool = False,
    scale: str = DEFAULT_SCALE,
    cat: Catalogue | None = None,
) -> CheckRequest:
    """A melee attack against WPN or a ranged one against BLS, with the target's state.

    An unconscious target is prone: ranged attacks at disadvantage, melee at
    advantage. A surprised target is attacked with advantage.
    """
    if kind not in ATTACK_CHARACTERISTIC:
        raise InvalidInput("kind", kind, "melee or ranged")
    prone = target_unconscious or (target is not None and target.unconscious)
    return attacker.check(
        ATTACK_CHARACTERISTIC[kind],
        difficulty=difficulty,
        situations=situations,
        advantage=advantage or target_surprised or (prone and kind == "melee"),
        disadvantage=disadvantage or (prone and kind == "ranged"),
        scale=scale,
        cat=cat,
    )


def critical_hit(result: LegacyResult) -> bool:
    """An attack (a WPN or BLS check) that is a critical success: "a critical hit is leveled
    against" the target, which takes the extra point of critical damage (ruling 71)."""
    attack = result.request.characteristic in ATTACK_CHARACTERISTIC.values()
    return attack and result.outcome is Outcome.CRITICAL_SUCCESS


def use_reaction(char: Character, *, surprised: bool = False) -> Change:
    """Spend one of the round's reactions (as many as the INI bonus)."""
    if not char.can_act:
        raise RuleViolation("reactions", f"{char.name} is unconscious and can make no actions")
    if surprised:
        raise RuleViolation("surprise", "a surprised character cannot make a reaction")
    if char.reactions_used >= char.reactions:
        raise RuleViolation(
            "reactions", f"all {char.reactions} reactions (the INI bonus) are used this round"
        )
    used = char.reactions_used + 1
    after = char.model_copy(update={"reactions_used": used})
    return Change(after, (Event("reaction", f"{used}/{char.reactions} used", used),))


def start_turn(char: Character) -> Change:
    """Reactions are replenished at the start of the character's turn."""
    after = char.model_copy(update={"reactions_used": 0})
    return Change(after, (Event("turn start", f"{char.reactions} reactions ready"),))


def recognition_request(
    char: Character, *, disguised: bool = False, scale: str = DEFAULT_SCALE
) -> CheckRequest:
    """An NPC trying to recognise ``char`` rolls against the character's REN."""
    if disguised:
        raise RuleViolation(
            "renown", "the REN roll is for an undisguised character; a disguise is the GM's call"
        )
    return CheckRequest(
        score=char.score("REN"),
        bonus=char.bonus("REN"),
        characteristic="REN",
        scale=scale,
        label=f"recognise {char.name} (REN)",
    )


def levy_request(
    char: Character, *, npc_knows: bool, difficulty: str = "challenging", scale: str = DEFAULT_SCALE
) -> CheckRequest:
    """The character levies their renown: only on an NPC who already knows who they are."""
    if not npc_knows:
        raise RuleViolation(
            "renown", "levying REN needs an NPC who already knows who the character is"
        )
    return replace(char.check("REN", difficulty=difficulty, scale=scale), label="levy REN")


def adjust_renown(char: Character, amount: int, reason: str) -> Change:
    """A renown reward or loss from the GM; renown never goes below 0."""
    ren = max(char.ren + amount, 0)
    after = char.model_copy(update={"ren": ren})
    return Change(after, (Event("renown", f"{reason}: REN {char.ren} -> {ren}", amount),))
