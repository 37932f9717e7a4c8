"""Tips for notations rulebound does not take, each naming the nearest form it does.

Players arrive with the habits of other bots (Roll20, Foundry, Dice Maiden): an error that
says what is missing and how rulebound writes it gets them rolling on the next try.
"""

from __future__ import annotations

import re

_TIPS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), tip)
    for pattern, tip in (
        (r"^dl?(\d+)", "drop-lowest is written {dice}pl{1} (p drops; d starts dice)"),
        (r"^dh(\d+)", "drop-highest is written {dice}ph{1}"),
        (r"^d$", "keep-highest is written {dice}kh3 and drop-lowest {dice}pl1"),
        (r"^kh?$", "keep-highest is written {dice}kh3"),
        (r"^kl$", "keep-lowest is written {dice}kl1"),
        (r"^ph?$|^pl$", "drop-lowest is written {dice}pl1, drop-highest {dice}ph1"),
        (r"^r(\d+)", "a reroll is written {dice}ro{1} (once) or {dice}rr{1} (until none shows)"),
        (r"^r<(\d+)", "a reroll is written {dice}ro<{1} (once) or {dice}rr<{1} (until none)"),
        (r"^!!", "compounding explosions are not supported: {dice}e6 explodes into extra dice"),
        (r"^!p", "penetrating explosions are not supported: {dice}e6 explodes into extra dice"),
        (r"^min(\d+)", "a minimum face is written {dice}mi{1}"),
        (r"^max(\d+)", "a maximum face is written {dice}ma{1}"),
        (r"^(?:mi|ma)[hl<>]", "mi and ma take a plain number: {dice}mi2"),
        (r"^(rr|ro|ra|e)$", "{1} needs the faces it works on: {dice}{1}1, {dice}{1}<3"),
        (r"^(adv|advantage|dis|disadvantage)\b", "write the word after a space: {dice} {1}"),
        (r"^f(\d+)", "failures are not counted; successes are: {dice}>=7 counts dice of 7 or more"),
        (r"^x(\d+)", "repeats are written {1}#{dice}"),
        (r"^s\b", "sorting is not supported: the dice are shown in the order rolled"),
        (r"^cs(\d+)", "count successes with a comparison: {dice}cs>={1} or {dice}>={1}"),
    )
)


def attached_tip(dice: str, rest: str) -> str | None:
    """A tip for letters written right after dice that are no operation of ours."""
    for pattern, tip in _TIPS:
        found = pattern.match(rest)
        if found:
            groups = [found.group(0), *found.groups()]
            return tip.format(*groups, dice=dice)
    return None
