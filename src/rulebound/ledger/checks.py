"""The checks of a log export, each with the exact chance it had when it was rolled.

Read from an export (``trust.export``) as its member sees it, and from nothing else: a
withheld link is a hidden play of someone else's, and leaves no trace here (not even in a
count); a sealed entry is the member's own blind roll, counted as such and nothing more.
What an entry says is read from its hashed ``body``, which ``rulebound verify`` checks
(the names beside it are for display).

- A roll (its record's kind ``roll``): the chance is the game's ``chances(load(request))``
  P(success), worked out once per request; it succeeded when the outcome its card landed
  on is one of the game's success outcomes (the card's ``succeeded`` where the card names
  no outcome of those odds).
- A follow-up: its own decision (``Game.decision``), the chance being the odds of the new
  result given the decision; the chain is replayed from its roll, once per chain.
- A free roll counts where it has a success condition (a comparison, ``1d20+5>=15``).
- Sessions end where the game master closes a scene.

Voided plays are left out and counted; so are results left undecided (a partial success not
yet accepted, an extended check under way) and checks whose chance the game does not give.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

from rulebound.core.errors import RuleboundError
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import Chances, Decision, Extra, Game, Outcome
from rulebound.rulesets.plays import ROLL, params_of, replayed

AnyGame = Game[Any, Any]
PLAYS = ("roll", "sheet-action", "table-action", "follow-up", "free-roll")
"""Entry kinds that are plays (the rest is talk, scenes, seats, seeds...)."""
SCENE = "scene"
BROKEN = (RuleboundError, TypeError, ValueError, KeyError, AttributeError, IndexError)
"""What a crafted record can make a game raise: that check's chance is then unknown."""
_KEY = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True, slots=True)
class Check:
    """One decided check: who made it, its chance, and how it went."""

    member: str
    member_key: int | None
    character: str
    character_key: int | None
    session: int
    kind: str
    """``roll``, ``free-roll`` or the follow-up's action."""
    chance: Fraction
    succeeded: bool
    outcomes: tuple[Outcome, ...] = ()
    """A roll's outcomes and their chances (none for a follow-up or a free roll)."""
    landed: str = ""
    """The key of the outcome it landed on, when it is one of ``outcomes``."""
    extras: tuple[Extra, ...] = ()


@dataclass(frozen=True, slots=True)
class Choice:
    """One follow-up, as a decision: its chance of success before and after."""

    member: str
    member_key: int | None
    character: str
    character_key: int | None
    session: int
    action: str
    label: str
    decision: Decision | None
    """None: the game does not say what it did to the odds."""


@dataclass
class Reading:
    """What the export holds for the ledger, in log order."""

    ruleset: str
    table: str
    checks: list[Check] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    voided: int = 0
    undecided: int = 0
    unknown: int = 0
    """Checks whose chance the game does not give (or whose record does not read)."""
    sealed: int = 0
    """The member's own blind plays: they know a roll happened, not how it went."""
    unconditioned: int = 0
    """Free rolls with no success condition (a total, not a comparison)."""
    tools: int = 0
    """Plays of a game's tools (no single check to measure)."""
    sessions: int = 1


class _Chains:
    """Each play's result, replayed at most once: a follow-up's parent is at hand when it
    comes (the log holds a chain in order)."""

    def __init__(self, game: AnyGame, bodies: Mapping[int, Mapping[str, Any]]) -> None:
        self.game, self.bodies = game, bodies
        self.results: dict[int, Any] = {}
        self.requests: dict[str, Any] = {}

    def request(self, record: Mapping[str, Any]) -> Any:
        """The request a roll record makes, loaded once per request (a table rolls the same
        checks all night)."""
        params = params_of(record)
        key = _KEY.encode(params)
        if key not in self.requests:
            self.requests[key] = self.game.load(params)
        return self.requests[key]

    def result(self, entry_id: int) -> Any:
        found = self.results.get(entry_id)
        if found is not None:
            return found
        body = self.bodies.get(entry_id)
        if body is None:
            raise KeyError(f"entry {entry_id} is not shown to this member")
        record = _record(body)
        parent = body.get("parent_id")
        if parent is None:
            request = self.request(record)
            made = replayed(record, partial(self.game.roll, request), "the roll")
        else:
            made = self.follow(self.result(parent), record)
        self.results[entry_id] = made
        return made

    def follow(self, result: Any, record: Mapping[str, Any]) -> Any:
        kind, params = str(record.get("kind")), params_of(record)
        return replayed(record, partial(_follow, self.game, result, kind, params), kind)


def _follow(
    game: AnyGame, result: Any, kind: str, params: Mapping[str, Any], source: RandomSource
) -> Any:
    return game.follow(result, kind, game.follow_params(result, kind, params), source)


def _record(body: Mapping[str, Any]) -> dict[str, Any]:
    record = body.get("record")
    if not isinstance(record, Mapping):
        raise TypeError("the entry holds no record")
    return dict(record)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class _Reader:
    def __init__(self, game: AnyGame, doc: Mapping[str, Any]) -> None:
        self.game = game
        entries = [e for e in doc.get("entries") or () if isinstance(e, Mapping)]
        self.entries = entries
        self.bodies: dict[int, Mapping[str, Any]] = {}
        self.names: dict[int, tuple[str, str]] = {}
        for entry in entries:
            body, entry_id = entry.get("body"), _int(entry.get("id"))
            if isinstance(body, Mapping) and entry_id is not None:
                self.bodies[entry_id] = body
                self.names[entry_id] = (
                    str(entry.get("actor") or ""),
                    str(entry.get("character") or ""),
                )
        self.voids = _voided(self.bodies.values())
        self.chains = _Chains(game, self.bodies)
        self.chances: dict[str, tuple[Chances, Fraction] | None] = {}
        """Per request: the game's odds and P(success) (a sum over the outcomes), once each."""
        self.odds: dict[str, Fraction | None] = {}
        self.labels: dict[str, str] = {}
        self.reading = Reading(str(doc.get("ruleset") or ""), str(doc.get("table") or ""))

    def read(self) -> Reading:
        session = 1
        for entry in self.entries:
            if entry.get("withheld"):
                continue  # someone else's hidden play: not even counted
            body = entry.get("body")
            if not isinstance(body, Mapping):
                if entry.get("kind") in PLAYS:
                    self.reading.sealed += 1
                continue
            kind = body.get("kind")
            if kind == SCENE:
                session += 1
                continue
            if kind not in PLAYS:
                continue
            entry_id = _int(entry.get("id"))
            if entry_id is not None and entry_id in self.voids:
                self.reading.voided += 1
                continue
            self._play(entry_id, body, session)
        self.reading.sessions = session
        return self.reading

    def _who(self, entry_id: int | None, body: Mapping[str, Any]) -> dict[str, Any]:
        actor, character = self.names.get(entry_id or -1, ("", ""))
        return {
            "member": actor,
            "member_key": _int(body.get("actor_id")),
            "character": character,
            "character_key": _int(body.get("character_id")),
        }

    def _play(self, entry_id: int | None, body: Mapping[str, Any], session: int) -> None:
        record = body.get("record")
        card = body.get("card")
        if not isinstance(record, Mapping) or not isinstance(card, Mapping):
            return
        who = self._who(entry_id, body)
        if body.get("kind") == "free-roll":
            self._free_roll(record, card, who, session)
        elif body.get("parent_id") is None and record.get("kind") == ROLL:
            self._roll(record, card, who, session)
        elif body.get("parent_id") is not None and entry_id is not None:
            self._follow_up(entry_id, body, record, card, who, session)
        else:
            self.reading.tools += 1

    def _decided(self, check: dict[str, Any], succeeded: Any) -> None:
        if not isinstance(succeeded, bool):
            self.reading.undecided += 1
            return
        self.reading.checks.append(Check(**check, succeeded=succeeded))

    def _roll(
        self, record: Mapping[str, Any], card: Mapping[str, Any], who: dict[str, Any], session: int
    ) -> None:
        found = self._chances(record)
        if found is None:
            self.reading.unknown += 1
            return
        chances, success = found
        landed = str(card.get("outcome_key") or "")
        hit = next((o for o in chances.outcomes if o.key == landed), None)
        succeeded = card.get("succeeded") if hit is None else hit.success
        check = who | {
            "session": session,
            "kind": ROLL,
            "chance": success,
            "outcomes": chances.outcomes if hit is not None else (),
            "landed": landed if hit is not None else "",
            "extras": chances.extras,
        }
        self._decided(check, succeeded)

    def _chances(self, record: Mapping[str, Any]) -> tuple[Chances, Fraction] | None:
        params = params_of(record)
        try:
            key = _KEY.encode(params)
        except (TypeError, ValueError):
            return None
        if key not in self.chances:
            try:
                chances = self.game.chances(self.chains.request(record))
                self.chances[key] = (chances, chances.success)
            except BROKEN:
                self.chances[key] = None
        return self.chances[key]

    def _follow_up(
        self,
        entry_id: int,
        body: Mapping[str, Any],
        record: Mapping[str, Any],
        card: Mapping[str, Any],
        who: dict[str, Any],
        session: int,
    ) -> None:
        action = str(record.get("kind"))
        try:
            root = self._root(body)
            if root.get("kind") != ROLL:
                self.reading.tools += 1
                return
            parent = self.chains.result(int(body["parent_id"]))
            after = self.chains.follow(parent, record)
            self.chains.results[entry_id] = after
            decision = self.game.decision(parent, action, params_of(record), after)
            label = self._label(parent, action)
        except BROKEN:
            self.reading.unknown += 1
            return
        self.reading.choices.append(
            Choice(**who, session=session, action=action, label=label, decision=decision)
        )
        if decision is None:
            if record.get("draws"):
                self.reading.unknown += 1
            return
        if decision.rolls:
            check = who | {"session": session, "kind": action, "chance": decision.after}
            self._decided(check, decision.succeeded)

    def _root(self, body: Mapping[str, Any]) -> Mapping[str, Any]:
        """The record a chain starts with (KeyError: a link this member may not see)."""
        seen = 0
        while (parent := body.get("parent_id")) is not None:
            body = self.bodies[int(parent)]
            seen += 1
            if seen > len(self.bodies):
                raise ValueError("a chain of follow-ups that loops")
        return _record(body)

    def _label(self, parent: Any, action: str) -> str:
        if action not in self.labels:
            offered = {view.key: view.label for view in self.game.follow_ups(parent)}
            self.labels[action] = offered.get(action, action)
        return self.labels[action]

    def _free_roll(
        self, record: Mapping[str, Any], card: Mapping[str, Any], who: dict[str, Any], session: int
    ) -> None:
        chance = self._comparison(record.get("expression"))
        if chance is None:
            self.reading.unconditioned += 1
            return
        check = who | {"session": session, "kind": "free-roll", "chance": chance}
        self._decided(check, card.get("succeeded"))

    def _comparison(self, text: Any) -> Fraction | None:
        """P(success) of a free roll's expression, when it is one comparison."""
        if not isinstance(text, str):
            return None
        if text not in self.odds:
            self.odds[text] = _comparison_odds(text)
        return self.odds[text]


def _comparison_odds(text: str) -> Fraction | None:
    from rulebound.core.dice import Odds, odds, parse
    from rulebound.core.dice.exact import kind_of

    try:
        expression = parse(text, "record.expression")
    except RuleboundError:
        return None
    if expression.repeat != 1 or kind_of(expression) != "comparison":
        return None
    found = odds(expression)
    return found.at_least(1) if isinstance(found, Odds) else None


def _voided(bodies: Sequence[Mapping[str, Any]] | Any) -> set[int]:
    """The plays the game master voided (each void names its chain's entries)."""
    voided: set[int] = set()
    for body in bodies:
        record = body.get("record") if body.get("kind") == "void" else None
        named = record.get("voids") if isinstance(record, Mapping) else None
        voided.update(i for i in named or () if isinstance(i, int))
    return voided


def read(game: AnyGame, doc: Mapping[str, Any]) -> Reading:
    """The checks and decisions of an export (``trust.export``), in log order."""
    return _Reader(game, doc).read()
