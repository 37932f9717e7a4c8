"""What a front end shows of a game: dice, cards, plays, sheet views, content tables.

These belong to the game contract (``contract`` re-exports every one of them, and
``from rulebound.rulesets.contract import Card`` keeps working); they live here so that
a process that only asks for odds (``rulebound odds``) does not build them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rulebound.core.trace import DieRecord
from rulebound.rulesets.contract import ActionView, Field, Record, Roster, Sheet


@dataclass(frozen=True, slots=True)
class DieView:
    label: str
    sides: int
    face: int
    marks: tuple[str, ...] = ()
    """Short words on the die ("success", "bane"); "now 5" says the rules count it as 5 (the
    table shows that over the rolled ``face``, which the card keeps)."""
    state: str = "rolled"
    history: tuple[int, ...] = ()
    role: str = ""
    selectable: bool = False
    """True when a follow-up lets the player pick this die (a push may reroll it)."""

    @classmethod
    def of(
        cls,
        die: DieRecord,
        who: str = "",
        *,
        marks: tuple[str, ...] | None = None,
        selectable: bool = False,
    ) -> DieView:
        """A rolled die as the card shows it, labelled with whose it is (``who``) if given."""
        label = f"{who} {die.label}" if who else die.label
        shown = die.marks if marks is None else marks
        return cls(
            label, die.sides, die.face, shown, die.state.value, die.history, die.role, selectable
        )


MOVED = re.compile(r"now (-?\d+)")
"""A die's mark saying the rules count it as another face (``DieView.marks``, ``moved``)."""


def moved(face: int) -> str:
    """The mark of a die the rules count as ``face`` ("now 5"), which ``MOVED`` reads."""
    return f"now {face}"


WORDING = 5
"""The games' words today (``Card.wording``)."""


@dataclass(frozen=True, slots=True)
class Card:
    """A result as any viewer sees it, in the ruleset's own words."""

    title: str
    outcome: str
    succeeded: bool | None
    dice: tuple[DieView, ...] = ()
    modifiers: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()
    details: tuple[str, ...] = ()
    actions: tuple[ActionView, ...] = ()
    outcome_key: str = ""
    """Which of the game's ``Chances.outcomes`` (by key) the result landed on, so a front end
    can mark it beside the odds; empty where none applies (a tool's card, a check under way)."""
    wording: int = WORDING
    """The version of the games' words the card is in (a card stored without it is 1). A
    log's card is held to its replay word for word only in the same words: ``verify``
    compares a card worded before by what it means (outcome key, success, dice). Raise it
    whenever any game's card words change."""


@cache
def _card_adapter() -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(Card)


def card_json(card: Card) -> dict[str, Any]:
    """The card as JSON values, as an entry stores it (``to_jsonable`` gives the same, more
    slowly: pydantic's serializer walks a card of a hundred dice and actions in its own code)."""
    found: dict[str, Any] = _card_adapter().dump_python(card, mode="json")
    return found


@dataclass(frozen=True, slots=True)
class Play:
    """A roll or follow-up, ready to store: its record, its card, and the sheet after it.

    ``sheet`` is None when the play changes nothing on the sheet. The store writes
    the log entry and the new sheet in one transaction.
    """

    record: Record
    card: Card
    sheet: Sheet | None = None
    summary: str = ""


@dataclass(frozen=True, slots=True)
class SheetView:
    """A sheet as an editable form, plus the state tracks worth showing at a glance."""

    fields: tuple[Field, ...]
    values: Mapping[str, Any] = field(default_factory=dict)
    tracks: tuple[tuple[str, str], ...] = ()
    """(label, value) pairs such as ("Damage", "2 / 4") or ("Fate", "3")."""


@dataclass(frozen=True, slots=True)
class QuickRoll:
    """A one-click roll a sheet offers (one per skill or attribute): the dialog's values
    (by ``Field.name``) that make it, over the dialog's defaults."""

    label: str
    values: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class TablePlay:
    """A play that touches several sheets at once (initiative order, an extended check)."""

    record: Record
    card: Card
    sheets: Roster = field(default_factory=dict)
    """New sheets by character id, for only the characters the play changed."""
    summary: str = ""


@dataclass(frozen=True, slots=True)
class Standing:
    """One combatant's initiative. ``rank`` orders the combatants: the greater acts first,
    compared element by element (the roll, then the game's tie-breaks in turn), so equal
    ranks are the ties the rules leave to the table. ``said`` is the standing in the game's
    words ("step +2 (success), INI bonus 3")."""

    key: str
    rank: tuple[int, ...]
    said: str


@dataclass(frozen=True, slots=True)
class Initiative:
    """Initiative rolled by a game's own rules: each character's standing, in the order the
    characters were given (the order they rolled in), the dice, and the sheets the rolls
    changed (by character id)."""

    standings: tuple[Standing, ...]
    dice: tuple[DieView, ...] = ()
    sheets: Roster = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CreationStep:
    """One page of a guided character creation; post ``state`` back with the form."""

    title: str
    fields: tuple[Field, ...]
    state: Mapping[str, Any]
    notes: tuple[str, ...] = ()
    sheet: Sheet | None = None
    """The finished sheet, on the last step only."""


@dataclass(frozen=True, slots=True)
class ContentTable:
    """One list of a game's content (skills, races, tricks...) for ``rulebound content``."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, title: str, columns: str, rows: Iterable[Sequence[str]]) -> ContentTable:
        """A table from its columns as text (``"name, trait, summary"``) and its rows."""
        return cls(title, tuple(columns.split(", ")), tuple(tuple(row) for row in rows))
