"""The ledger of a table: each member's luck measured against the exact odds they faced.

``ledger(doc)`` reads a log export (``trust.export``, what ``rulebound verify`` checks) as
one member sees it, and works out a ``Line`` for the whole table, each member, each
character and each session. Every front end (the web page and its JSON, ``rulebound
ledger``, Discord's ``/luck``) calls it on the export its viewer would download, so what it
counts is exactly what that viewer may see: it cannot tell of a hidden roll, not even by a
count. ``ledger_json`` is its JSON, fractions written ``"p/q"`` with a float beside.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from rulebound.core.wording import counted
from rulebound.ledger.checks import Check, Choice, Reading, read
from rulebound.ledger.figures import Line, line
from rulebound.rulesets.contract import Game

FORMAT = "rulebound-ledger/1"
WHOLE = "The whole table"
K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class Ledger:
    table: str
    ruleset: str
    whole: Line
    members: tuple[tuple[int | None, Line], ...]
    """Each member who made a check (by member id), in the order they first did."""
    characters: tuple[Line, ...]
    sessions: tuple[tuple[int, Line], ...]
    """Each session with a check, by number: the first runs to the first closed scene."""
    notes: tuple[str, ...]
    reading: Reading

    def member(self, member_id: int) -> Line | None:
        return next((found for key, found in self.members if key == member_id), None)


def ledger(doc: Mapping[str, Any], game: Game[Any, Any] | None = None) -> Ledger:
    """The ledger of an export; ``game`` by default the installed ruleset it names."""
    if game is None:
        from rulebound.rulesets.registry import get_game

        game = get_game(str(doc.get("ruleset")))
    reading = read(game, doc)
    checks, choices = reading.checks, reading.choices
    by_member = _grouped(checks, choices, lambda c: c.member_key)
    by_character = _grouped(checks, choices, lambda c: c.character_key)
    by_session = _grouped(checks, choices, lambda c: c.session)
    return Ledger(
        table=reading.table,
        ruleset=reading.ruleset,
        whole=line(WHOLE, checks, choices),
        members=tuple(
            (key, line(_name(cs, chs, "member") or "someone", cs, chs))
            for key, (cs, chs) in by_member.items()
        ),
        characters=tuple(
            line(_name(cs, chs, "character") or "a character", cs, chs)
            for key, (cs, chs) in by_character.items()
            if key is not None
        ),
        sessions=tuple(
            (number, line(f"Session {number}", cs, chs, curve=True))
            for number, (cs, chs) in by_session.items()
            if cs
        ),
        notes=notes(reading),
        reading=reading,
    )


def _grouped(
    checks: Sequence[Check], choices: Sequence[Choice], key: Callable[[Any], K]
) -> dict[K, tuple[list[Check], list[Choice]]]:
    groups: dict[K, tuple[list[Check], list[Choice]]] = {}
    for check in checks:
        groups.setdefault(key(check), ([], []))[0].append(check)
    for choice in choices:
        groups.setdefault(key(choice), ([], []))[1].append(choice)
    return groups


def _name(checks: Sequence[Check], choices: Sequence[Choice], attribute: str) -> str:
    for item in (*checks, *choices):
        name = str(getattr(item, attribute))
        if name:
            return name
    return ""


def notes(reading: Reading) -> tuple[str, ...]:
    """What the ledger leaves out, in words (each only when it happened)."""
    said = [
        (reading.voided, "roll", "voided by the game master: left out"),
        (
            reading.undecided,
            "check",
            "left undecided (a partial success not taken, a check under way)",
        ),
        (
            reading.unknown,
            "check",
            "whose chance the game does not give: left out of the expected figures",
        ),
        (reading.sealed, "blind roll", "of yours: only the game master sees the outcome"),
        (reading.unconditioned, "free roll", "without a success condition (not a comparison)"),
        (reading.tools, "play", "of the game's tools, with no single chance to measure"),
    ]
    return tuple(f"{counted(count, noun)} {words}" for count, noun, words in said if count)


# --- JSON ---------------------------------------------------------------------------------


def whole_text(n: int) -> str:
    """A whole number's digits, however long (``str`` refuses past 4,300 digits)."""
    if n.bit_length() < 14_000:
        return str(n)
    with decimal.localcontext(decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX)):
        return str(decimal.Decimal(n))


def exact(p: Fraction) -> str:
    return f"{whole_text(p.numerator)}/{whole_text(p.denominator)}"


def _exact(name: str, p: Fraction) -> dict[str, Any]:
    return {name: exact(p), f"{name}_float": float(p)}


def line_json(found: Line, *, curve: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": found.name,
        "checks": found.checks,
        "actual_successes": found.actual,
        **_exact("expected_successes", found.expected),
        **_exact("luckier_than", found.luckier_than),
        "longest_success_run": {
            "length": found.successes.longest,
            **_exact("chance", found.successes.chance),
        },
        "longest_failure_run": {
            "length": found.failures.longest,
            **_exact("chance", found.failures.chance),
        },
        "calibration": [
            {
                "from": b.low,
                "to": b.high,
                "checks": b.checks,
                "successes": b.successes,
                **_exact("expected", b.expected),
            }
            for b in found.calibration
        ],
        "outcomes": [
            {
                "key": t.key,
                "label": t.label,
                "success": t.success,
                "critical": t.critical,
                "actual": t.actual,
                **_exact("expected", t.expected),
            }
            for t in found.outcomes
        ],
        "figures": [
            {
                "key": f.key,
                "label": f.label,
                "kind": f.kind,
                "checks": f.checks,
                **_exact("total", f.total),
            }
            for f in found.figures
        ],
        "decisions": [
            {
                "action": b.action,
                "label": b.label,
                "taken": b.taken,
                "measured": b.measured,
                "successes": b.successes,
                "paid": dict(b.paid),
                **_exact("raised", b.raised),
            }
            for b in found.bought
        ],
        "each_decision": [choice_json(c) for c in found.decisions],
    }
    if curve:
        out["curve"] = [[round(e, 4), a] for e, a in found.curve]
    return out


def choice_json(choice: Choice) -> dict[str, Any]:
    """One decision: the chance before and after it as the odds showed it, the price, how
    it went (``before``/``after`` null where the game does not give them)."""
    d = choice.decision
    out: dict[str, Any] = {
        "action": choice.action,
        "label": choice.label,
        "member": choice.member,
        "character": choice.character,
        "session": choice.session,
        "before": None,
        "after": None,
        "paid": {} if d is None else dict(d.paid),
        "succeeded": None if d is None else d.succeeded,
    }
    if d is not None:
        out |= _exact("before", d.before) | _exact("after", d.after)
    return out


def ledger_json(found: Ledger) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "table": found.table,
        "ruleset": found.ruleset,
        "whole": line_json(found.whole),
        "members": [line_json(member) for _, member in found.members],
        "characters": [line_json(character) for character in found.characters],
        "sessions": [line_json(session, curve=True) for _, session in found.sessions],
        "notes": list(found.notes),
    }
