"""What the web table (and any other front end) needs from a ruleset.

The table never imports a game's modules: it asks the ruleset's ``TableRules``
adapter for forms (as ``Field`` lists), cards (as ``Card`` views) and plays
(a result plus the new sheet, computed together so the store can commit both
or neither). Results are stored as *records*: the JSON needed to rebuild them
by replaying their draws, so a stored roll can be followed up (pushed, luck
spent...) and re-verified at any time.

Sheets travel as plain JSON dicts (the same format as the CLI's character
files); the adapter validates them.

Conventions every adapter follows:

- The table's chosen rule variants reach ``chances``, ``roll`` and ``act`` as
  ``form["variants"]`` (a mapping of ``Variant.key`` to choice); the web layer
  adds it to every form it passes on.
- ``card(chain)`` rebuilds chains that ``roll`` and ``act`` produced. Sheet and
  table actions carry their card in the log, since they may have no dice to
  replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol, runtime_checkable

from rulebound.core.random_source import RandomSource

FieldKind = Literal["select", "multiselect", "int", "bool", "text", "dice"]
"""``dice`` means: choose dice on the result card (by index); the value is a list of ints."""

Sheet = dict[str, Any]
"""A character sheet as JSON: the CLI's character file format."""

Record = dict[str, Any]
"""What rebuilds one step of a result chain: the request or action, and its draws."""


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class Field:
    """One input of a form; ``name`` is the key the form posts back (dotted when nested)."""

    name: str
    label: str
    kind: FieldKind
    choices: tuple[Choice, ...] = ()
    default: str | int | bool | tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    group: str = ""


@dataclass(frozen=True, slots=True)
class DieView:
    label: str
    sides: int
    face: int
    marks: tuple[str, ...] = ()
    state: str = "rolled"
    history: tuple[int, ...] = ()
    role: str = ""
    selectable: bool = False
    """True when a follow-up lets the player pick this die (a push may reroll it)."""


@dataclass(frozen=True, slots=True)
class ActionView:
    """A follow-up offered on a result card, with the exact odds that inform it."""

    key: str
    label: str
    fields: tuple[Field, ...] = ()
    advice: tuple[str, ...] = ()


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
class TablePlay:
    """A play that touches several sheets at once (initiative order, an extended check)."""

    record: Record
    card: Card
    sheets: Mapping[str, Sheet] = field(default_factory=dict)
    """New sheets by character id, for only the characters the play changed."""
    summary: str = ""


@dataclass(frozen=True, slots=True)
class CreationStep:
    """One page of a guided character creation; post ``state`` back with the form."""

    title: str
    fields: tuple[Field, ...]
    state: Mapping[str, Any]
    notes: tuple[str, ...] = ()
    sheet: Sheet | None = None
    """The finished sheet, on the last step only."""


@runtime_checkable
class TableRules(Protocol):
    """The table-facing adapter a ruleset package exports as ``TABLE``."""

    @property
    def key(self) -> str: ...

    def validate_sheet(self, sheet: Mapping[str, Any]) -> Sheet:
        """Return the normalised sheet, or raise InvalidInput naming the (dotted) field."""
        ...

    def new_sheet(self, name: str) -> Sheet:
        """A valid starting sheet the player can then edit."""
        ...

    def sheet_view(self, sheet: Sheet) -> SheetView: ...

    def apply_sheet_form(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        """Apply an edit form (keys are ``Field.name``s) and validate the result."""
        ...

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        """The roll dialog: the skill to roll and every situational modifier the rules list."""
        ...

    def chances(self, sheet: Sheet, form: Mapping[str, Any]) -> Mapping[str, Fraction]:
        """Exact chance of success and of each degree, before rolling."""
        ...

    def roll(self, sheet: Sheet, form: Mapping[str, Any], source: RandomSource) -> Play: ...

    def act(
        self,
        sheet: Sheet,
        chain: Sequence[Record],
        action: str,
        params: Mapping[str, Any],
        source: RandomSource,
    ) -> Play:
        """Follow up the result ``chain`` (root first) rebuilds; RuleViolation if not allowed."""
        ...

    def card(self, chain: Sequence[Record]) -> Card:
        """Rebuild a stored result by replay and show it (page loads, verification)."""
        ...

    def sheet_actions(self, sheet: Sheet) -> tuple[ActionView, ...]:
        """Actions on a sheet outside any roll (Second Wind, a death save, a rest, repair)."""
        ...

    def sheet_act(
        self, sheet: Sheet, action: str, params: Mapping[str, Any], source: RandomSource
    ) -> Play: ...

    def table_actions(self) -> tuple[ActionView, ...]:
        """Game-master tools over several characters (initiative, extended checks)."""
        ...

    def table_act(
        self,
        sheets: Mapping[str, Sheet],
        action: str,
        params: Mapping[str, Any],
        source: RandomSource,
    ) -> TablePlay: ...

    def creation(
        self, state: Mapping[str, Any], form: Mapping[str, Any], source: RandomSource
    ) -> CreationStep | None:
        """The next step of guided creation, or None when the ruleset has no guided flow."""
        ...
