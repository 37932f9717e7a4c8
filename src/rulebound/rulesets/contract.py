"""The one contract every game implements; every front end is generic over it.

A game subclasses ``Game``: its key, title and rules variants; the fields of a
raw request and how to turn them into a request; ``roll``, ``chances``, the
follow-ups a result offers, ``follow`` and the ``card`` of a result. A game
with characters adds a ``Sheets`` subclass (validate, edit, the roll dialog, the
request a sheet makes, what a result does to the sheet). Everything else a
front end does (forms, records and replay, the CLI, text, the web table,
Discord, ``verify``) is written once in ``rulebound.rulesets.plays``,
``rulebound.rulesets.forms``, ``rulebound.cli`` and ``rulebound.web``.

A result chain is stored as *records*, each ``{"kind": ..., **params, "draws":
[[sides, face], ...]}``: ``{"kind": "roll", **dump(request), ...}`` for the roll,
then ``{"kind": action, **params, ...}`` for each follow-up, with ``params`` as
``follow_params`` normalised them. Replaying a chain feeds back exactly those draws and refuses
surplus or missing ones (``plays.replay``), so a card is always recomputed,
never trusted from storage.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource

if TYPE_CHECKING:
    from rulebound.rulesets.grid import OddsGrid
    from rulebound.rulesets.views import Card as Card
    from rulebound.rulesets.views import ContentTable as ContentTable
    from rulebound.rulesets.views import CreationStep as CreationStep
    from rulebound.rulesets.views import DieView as DieView
    from rulebound.rulesets.views import Initiative as Initiative
    from rulebound.rulesets.views import Play as Play
    from rulebound.rulesets.views import QuickRoll as QuickRoll
    from rulebound.rulesets.views import SheetView as SheetView
    from rulebound.rulesets.views import Standing as Standing
    from rulebound.rulesets.views import TablePlay as TablePlay

_VIEWS = frozenset(
    (
        "Card",
        "ContentTable",
        "CreationStep",
        "DieView",
        "Initiative",
        "Play",
        "QuickRoll",
        "SheetView",
        "Standing",
        "TablePlay",
    )
)
"""What a front end shows (``views``): imported on first use, so that an odds question's
process does not build ten more frozen classes."""


def __getattr__(name: str) -> Any:
    if name in _VIEWS:
        from rulebound.rulesets import views

        value = getattr(views, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


FieldKind = Literal["select", "multiselect", "int", "bool", "text", "dice", "sheet"]
"""``dice`` means: choose dice on the result card (by index); the value is a list of ints.
``sheet`` is another character's sheet as JSON (a helper, the opposed side): the CLI reads it
from a file, the web table offers the table's characters; the game gets the sheet mapping."""

Sheet = dict[str, Any]
"""A character sheet as JSON: the CLI's character file format."""

Record = dict[str, Any]
"""What rebuilds one step of a result chain: the request or the follow-up's params, and draws."""

Variants = Mapping[str, str]
"""The table's chosen rules variants, validated and complete (``variants.resolve``)."""

Params = Mapping[str, Any]
"""A follow-up's or an action's parameters by field name (as its fields read them)."""

Chain = Sequence[Record]
"""A stored result: its records, the first (the roll or the tool that started it) first."""

Roster = Mapping[str, Sheet]
"""The characters at a table: each one's sheet by character id."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a select: what the form posts, and what the player reads."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class Field:
    """One input of a form; ``name`` is the key the form posts back (dotted when nested).

    ``flag`` is its CLI option (``--flag``; by default the name with dashes) and
    ``aliases`` older spellings that keep working. A ``required`` field has no silent
    default: leaving it out is an error that names it.
    """

    name: str
    label: str
    kind: FieldKind
    choices: tuple[Choice, ...] = ()
    default: str | int | bool | tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    group: str = ""
    required: bool = False
    multiline: bool = False
    flag: str = ""
    aliases: tuple[str, ...] = ()
    shown_for: tuple[str, tuple[str, ...]] | None = None
    """(another field's name, its values): the field applies only when that one holds one of
    them (stealth factors for a stealth skill); a screen may hide it otherwise."""
    picks: Literal["", "one", "many"] = ""
    """A text field that names characters of the table by id or name: a screen offers them
    as a picker ("many": several, sent as one comma-separated text)."""

    @property
    def cli_flag(self) -> str:
        return self.flag or self.name.replace("_", "-").replace(".", "-")

    @property
    def repeated(self) -> bool:
        return self.kind in ("multiselect", "dice")


@dataclass(frozen=True, slots=True)
class Variant:
    """A named rules option: the alternative reading of an ambiguous rule."""

    key: str
    choices: tuple[str, ...]
    default: str
    summary: str
    label: str = ""
    """The variant in words ("Which banes risk the gear"); the key when empty."""
    choice_labels: tuple[str, ...] = ()
    """One label per choice, in order; the choices themselves when empty."""
    hints: tuple[str, ...] = ()
    """One line per choice, in order, shown beside it where it is chosen (what it does to a
    typical check); none when empty."""
    asked: bool = False
    """Asked when a table is opened, beside the ruleset, rather than folded away with the
    other variants: a choice that changes every roll."""

    @classmethod
    def of(cls, key: str, kind: type[StrEnum], label: str, summary: str, *words: str) -> Variant:
        """A choice of an enum's values, the first of them (our ruling) the default; ``words``
        label the choices in order."""
        choices = tuple(choice.value for choice in kind)
        return cls(key, choices, choices[0], summary, label, words)

    def words(self, choice: str) -> str:
        if choice in self.choices and len(self.choice_labels) == len(self.choices):
            return self.choice_labels[self.choices.index(choice)]
        return choice

    def hint(self, choice: str) -> str:
        if choice in self.choices and len(self.hints) == len(self.choices):
            return self.hints[self.choices.index(choice)]
        return ""


# --- chances -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """One of the game's named outcomes and its exact chance."""

    key: str
    label: str
    probability: Fraction
    success: bool
    """Whether this outcome counts as the check succeeding."""
    critical: bool = False
    """A critical success (``success``) or a critical failure: the ledger counts how often
    these came up against how often they were expected to."""


@dataclass(frozen=True, slots=True)
class Extra:
    """A named figure beside the outcomes: E[successes], P(bane), P(success) if pushed..."""

    key: str
    label: str
    value: Fraction
    kind: Literal["probability", "expectation"] = "probability"


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Another exact distribution of the same roll (IoS, successes before a spend...)."""

    key: str
    label: str
    values: tuple[tuple[str, Fraction], ...]
    """(value as text, chance) in order; the chances sum to 1."""


@dataclass(frozen=True, slots=True)
class Chances:
    """Exact odds before rolling: the outcomes (summing to exactly 1) and named extras.

    P(success) is derived from the outcomes, so it cannot disagree with them.
    """

    outcomes: tuple[Outcome, ...]
    extras: tuple[Extra, ...] = ()
    breakdowns: tuple[Breakdown, ...] = ()
    success_label: str = "success"
    outcome_name: str = "outcomes"
    """What the outcomes are called in JSON ("successes", "degrees", "bands")."""

    def __post_init__(self) -> None:
        total = sum((o.probability for o in self.outcomes), Fraction(0))
        if total != 1:
            raise ValueError(f"chances: outcomes sum to {total}, not 1")
        for breakdown in self.breakdowns:
            part = sum((p for _, p in breakdown.values), Fraction(0))
            if part != 1:
                raise ValueError(f"chances: {breakdown.key} sums to {part}, not 1")
        keys = [o.key for o in self.outcomes]
        names = [e.key for e in self.extras] + [b.key for b in self.breakdowns]
        for group in (keys, names):
            if len(set(group)) != len(group):
                raise ValueError(f"chances: repeated keys in {group}")

    @classmethod
    def over(
        cls,
        chances: Mapping[Any, Fraction],
        succeeding: Collection[Any],
        extras: tuple[Extra, ...] = (),
        *,
        success_label: str = "success",
        outcome_name: str = "outcomes",
        critical: Collection[Any] = (),
    ) -> Chances:
        """The chances of named outcomes (each key, as text, names and labels its outcome);
        those in ``succeeding`` count as the check succeeding, those in ``critical`` are
        critical successes or failures."""
        outcomes = tuple(
            Outcome(str(k), str(k), p, k in succeeding, k in critical) for k, p in chances.items()
        )
        return cls(outcomes, extras, success_label=success_label, outcome_name=outcome_name)

    @property
    def success(self) -> Fraction:
        return sum((o.probability for o in self.outcomes if o.success), Fraction(0))

    def extra(self, key: str) -> Fraction:
        for extra in self.extras:
            if extra.key == key:
                return extra.value
        raise KeyError(key)

    def outcome(self, key: str) -> Fraction:
        for outcome in self.outcomes:
            if outcome.key == key:
                return outcome.probability
        raise KeyError(key)

    def as_mapping(self) -> dict[str, Fraction]:
        """Label to chance: success first, then every outcome, then the probability extras."""
        mapping = {self.success_label: self.success}
        mapping |= {o.label: o.probability for o in self.outcomes}
        mapping |= {e.label: e.value for e in self.extras if e.kind == "probability"}
        return mapping

    def _repr_html_(self) -> str:
        """A notebook's view: P(success) and each outcome, the figures, the breakdowns, as
        tables of percentages with their exact fractions."""
        from rulebound.core.display import expectation, html_table

        rows: list[tuple[str, Fraction | str]] = [(self.success_label, self.success)]
        rows += [(o.label, o.probability) for o in self.outcomes]
        tables = [html_table([self.outcome_name, "chance"], rows)]
        if self.extras:
            figures = [
                (e.label, e.value if e.kind == "probability" else expectation(e.value))
                for e in self.extras
            ]
            tables.append(html_table(["figure", "value"], figures))
        tables += [html_table([b.label, "chance"], b.values) for b in self.breakdowns]
        return "".join(tables)


# --- views ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionView:
    """A follow-up (or a sheet or table action), with the exact odds that inform it.

    ``spends`` names the scarce thing it uses up or risks ("1 fate point", "damage
    and gear"), so a front end asks before spending; ``available`` is False (with
    ``reason``) for an option the rules allow but that cannot change the outcome.
    """

    key: str
    label: str
    fields: tuple[Field, ...] = ()
    advice: tuple[str, ...] = ()
    spends: str = ""
    available: bool = True
    reason: str = ""


FollowUp = ActionView


@dataclass(frozen=True, slots=True)
class Decision:
    """What a follow-up did to its check's chance of success, as the odds stood when it was
    taken (``Game.decision``): the ledger's "what the decisions bought"."""

    before: Fraction
    """P(success) of the result as it stood: 0 or 1 once its dice are down, or the odds from
    where it stands (an extended check under way)."""
    after: Fraction
    """P(success) of the result the follow-up makes, before any of its own dice: the odds the
    player was shown for the choice they made."""
    succeeded: bool | None
    """Whether the new result succeeded, in the sense ``after`` measures (None: undecided)."""
    paid: tuple[tuple[str, int], ...] = ()
    """What it cost, by name, as the new result shows it (("damage", 2), ("fate point", 1))."""
    rolls: bool = True
    """Whether its own dice decide success (a push, a reroll): then it counts as a check of its
    own, at chance ``after``. False for a choice the dice do not decide (a Luck Point spent
    after the roll, accepting a partial success, moving bonus points)."""


@dataclass(frozen=True, slots=True)
class FollowFlag:
    """A CLI option that takes a follow-up after the roll (``--reroll 0,1``, ``--luck spend``).

    Each use of the option is one follow-up, its value given to ``field`` (none: the value
    only says to take it; ``default`` or empty: the follow-up's own defaults). With
    ``gather``, all uses together make one follow-up whose ``field`` gets the list.
    """

    flag: str
    action: str
    field: str = ""
    help: str = ""
    gather: bool = False
    skip: tuple[str, ...] = ()
    """Values that mean "do not take it" (``--luck keep``)."""


# --- the contract --------------------------------------------------------------------

Req = TypeVar("Req")
Res = TypeVar("Res")


UNSEEN = "unseen"
"""The param of a follow-up its roller takes without seeing the result (``unseen_follow_ups``)."""


def _missing(owner: object, name: str) -> NotImplementedError:
    return NotImplementedError(f"{type(owner).__name__} must implement {name}")


class Sheets(Generic[Req, Res]):
    """A game's characters: the sheet file, its edit form, and rolling from it.

    Subclasses implement the first six methods; by default a follow-up needs nothing
    from the sheet and no result changes it.
    """

    choice_fields: tuple[Field, ...] = ()
    """Every input a roll from a sheet may take, sheet-independent (CLI options); the web
    dialog is ``dialog(sheet)``, the same inputs with the sheet's own choices."""

    def validate(self, sheet: Mapping[str, Any]) -> Sheet:
        """The normalised sheet, or InvalidForm naming every bad (dotted) field at once."""
        raise _missing(self, "validate")

    def new(self, name: str) -> Sheet:
        raise _missing(self, "new")

    def starter(self, name: str) -> Sheet:
        """A sheet to play at once, its quick rolls working (a player who joins without one):
        by default ``new``; a game whose blank sheet cannot roll yet fills in what it lacks."""
        return self.new(name)

    def view(self, sheet: Sheet) -> SheetView:
        raise _missing(self, "view")

    def edit(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        """Apply an edit form (keys are ``Field.name``s) and validate the result."""
        raise _missing(self, "edit")

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        raise _missing(self, "dialog")

    def request(self, sheet: Sheet, values: Mapping[str, Any], variants: Variants) -> Req:
        """The check this sheet makes with the player's choices (``dialog`` field names)."""
        raise _missing(self, "request")

    def dialog_values(self, sheet: Sheet) -> dict[str, Any]:
        """What the roll dialog opens with (a screen's first values, never a silent default
        of the rules): by default each field's own default."""
        return {f.name: f.default for f in self.dialog(sheet) if f.default is not None}

    def quick_rolls(self, sheet: Sheet) -> tuple[QuickRoll, ...]:
        """The one-click rolls of this sheet, on the dialog's other defaults: by default one per
        choice of its first required choice, else of its first (the skill, the characteristic)."""
        from rulebound.rulesets.views import QuickRoll

        selects = [f for f in self.dialog(sheet) if f.kind == "select"]
        first = next((f for f in selects if f.required), selects[0] if selects else None)
        if first is None:
            return ()
        return tuple(QuickRoll(c.label, {first.name: c.value}) for c in first.choices if c.value)

    def follow_params(self, sheet: Sheet, result: Res, action: str, params: Params) -> Params:
        """Add what the sheet holds to a follow-up's params, or refuse it (no fate left)."""
        return params

    def settle(self, sheet: Sheet, result: Res) -> Sheet | None:
        """The sheet after ``result`` (a roll or a follow-up), or None when it is unchanged."""
        return None


class Game(Generic[Req, Res]):
    """One game, written once. A game (built in or a plug-in) subclasses this.

    Required: ``key``, ``title``, ``fields``, and ``request``, ``load``, ``dump``,
    ``roll``, ``chances`` and ``card``. Everything else has a default: no odds-only
    fields, the follow-ups the card shows, no sheets, tools, designer table or guided
    creation.
    """

    key: str = ""
    """The stable identifier used in URLs, files and the CLI ("empty-reach")."""
    title: str = ""
    variants: tuple[Variant, ...] = ()
    fields: tuple[Field, ...] = ()
    """A raw request's inputs, with no sheet: what the CLI, the API and Discord ask for."""
    odds_fields: tuple[Field, ...] = ()
    """Inputs only an odds question takes (a push policy, the other side of an opposed roll)."""
    follow_flags: tuple[FollowFlag, ...] = ()
    cli_aliases: Mapping[str, tuple[str, ...]] = {}
    """More spellings for the CLI's generic options (``{"chain": ("extended",)}``)."""
    sheets: Sheets[Req, Res] | None = None
    unseen_follow_ups: tuple[ActionView, ...] = ()
    """The follow-ups a roller may take on a blind roll they cannot see: the same for every
    result (a push, a luck spend), so offering them tells nothing of it. Taking one passes
    ``follow_params`` the param ``UNSEEN``: the game then takes it whatever the result shows
    (a push with no die left to reroll rerolls none), since a refusal would tell of it."""

    # requests and rolls

    def request(self, values: Mapping[str, Any], variants: Variants) -> Req:
        """A request from typed ``fields`` values (``forms.read``); InvalidInput names the field."""
        raise _missing(self, "request")

    def load(self, data: Mapping[str, Any]) -> Req:
        """A request from ``dump``'s output (a roll record less ``kind`` and ``draws``)."""
        raise _missing(self, "load")

    def dump(self, request: Req) -> dict[str, Any]:
        raise _missing(self, "dump")

    def rules_named(self, record: Mapping[str, Any]) -> int:
        """The version of the game's rules a roll record says it was played under, where the
        game numbers them (a record that names none replays under the first): 1 here. A log's
        rolls may name only the same or later rules as they go (``rulebound verify``)."""
        return 1

    def roll(self, request: Req, source: RandomSource) -> Res:
        raise _missing(self, "roll")

    def chances(self, request: Req) -> Chances:
        raise _missing(self, "chances")

    def odds(self, values: Mapping[str, Any], variants: Variants) -> Chances:
        """An odds question from ``fields`` and ``odds_fields`` values."""
        return self.chances(self.request(values, variants))

    def suggestions(self, field: str, values: Mapping[str, Any]) -> tuple[Choice, ...]:
        """Values a screen may offer for the free-text roll field named ``field``, given the
        others (``values``, as typed): the game's levels for a DL, the trait a trick reads.
        Offered, never imposed: the field still takes what its rules read. None by default."""
        return ()

    def card(self, result: Res) -> Card:
        raise _missing(self, "card")

    # follow-ups

    def follow_ups(self, result: Res) -> tuple[ActionView, ...]:
        """What ``result`` offers: by default the actions on its card (a game whose ``card``
        lists ``follow_ups`` overrides this instead)."""
        return self.card(result).actions

    def after_chances(self, result: Res) -> Chances | None:
        """The odds from where a result stands (an extended check under way), if any."""
        return None

    def decision(self, result: Res, action: str, params: Params, after: Res) -> Decision | None:
        """What the follow-up ``action`` (its ``params`` as its record stores them) did to the
        chance of success of ``result``, the new result being ``after``; None (the default)
        when the game does not say: the ledger then counts it with its chance unknown."""
        return None

    def follow_params(self, result: Res, action: str, params: Params) -> Record:
        """Validate and normalise a follow-up's params into what its record stores."""
        raise self.no_follow_up(result, action)

    def follow(self, result: Res, action: str, params: Params, source: RandomSource) -> Res:
        """The new result (``params`` as ``follow_params`` returned them); never mutates."""
        raise self.no_follow_up(result, action)

    def no_follow_up(self, result: Res, action: str) -> InvalidInput | RuleViolation:
        offered = [a.key for a in self.follow_ups(result)]
        if not offered:
            return RuleViolation("follow-up", "this result offers no follow-up")
        return InvalidInput("action", action, "one of " + ", ".join(offered))

    # tools

    def grid(self, values: Mapping[str, Any], variants: Variants) -> OddsGrid:
        """The designer table: success chances over the game's main axes (``values`` from
        ``fields`` and ``odds_fields``, none required, pick the fixed knobs)."""
        raise InvalidInput("--table", self.key, "a game with a designer table")

    def with_content(self, path: Path) -> Game[Req, Res]:
        """The game with a homebrew content file merged over its built-in content."""
        raise InvalidInput("--content", str(path), f"nothing: {self.title} has no homebrew files")

    def content(self) -> tuple[ContentTable, ...]:
        return ()

    def sheet_actions(self, sheet: Sheet, variants: Variants) -> tuple[ActionView, ...]:
        """Actions on a sheet outside any roll (Second Wind, a death save, a rest, repair)."""
        return ()

    def sheet_act(
        self, sheet: Sheet, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> Play:
        raise InvalidInput("action", action, f"a sheet action {self.title} offers (none)")

    def table_actions(self) -> tuple[ActionView, ...]:
        """Game-master tools over several characters (initiative, extended checks)."""
        return ()

    def table_act(
        self, sheets: Roster, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> TablePlay:
        raise InvalidInput("action", action, f"a game-master tool {self.title} offers (none)")

    def initiative(self, sheets: Roster, variants: Variants, source: RandomSource) -> Initiative:
        """Roll initiative for these characters by the game's own rules, for the table's turn
        tracker (``rulesets.turns``). A game without initiative rules keeps this default: the
        tracker then takes an order the game master sets, or a plain die for each."""
        raise RuleViolation("initiative", f"{self.title} has no initiative rules")

    def tool_follow(
        self, chain: Chain, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> Play:
        """Follow up a chain a sheet or table action started (an extended check's next turn)."""
        raise RuleViolation("follow-up", "this entry has no follow-up")

    unreplayed_actions: tuple[str, ...] = ()
    """The record kinds of sheet or table actions whose card ``tool_card`` cannot rebuild:
    they roll nothing, and their record lacks what their card says (a name). ``rulebound
    verify`` leaves them unreplayed, and refuses one that holds draws or is followed up."""

    def tool_card(self, chain: Chain) -> Card:
        """Rebuild the card of a chain a sheet or table action started (``rulebound verify``
        holds every such chain's logged card to it, but ``unreplayed_actions``)."""
        kind = chain[0].get("kind") if chain else None
        raise InvalidInput("record.kind", kind, f"a {self.title} roll")

    def creation(
        self, state: Mapping[str, Any], form: Mapping[str, Any], source: RandomSource
    ) -> CreationStep | None:
        """The next step of guided creation, or None when the game has no guided flow."""
        return None
