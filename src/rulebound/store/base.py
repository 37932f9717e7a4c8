"""The store interface: tables, members, characters and the table log.

The web layer talks to ``Store`` only, so SQLite and PostgreSQL (``sql.py``)
and any future backend answer the same calls. Rows come back as frozen
dataclasses; JSON columns come back as plain dicts.

Every write is one transaction with the log entry that tells it: opening a table
seats its game master and logs it, a join logs the join, a new character its
creation, a revoke its entry (and the seat's invite link is replaced with it).
``append`` commits a log entry and the sheet changes it causes together or not at
all, and a sheet change only applies when the character is still at the version
the play was computed from.

Every entry is sealed into its table's hash chain inside that transaction
(``rulebound.trust.chain``). ``append_drawn`` also hands the play its committed
dice inside the same transaction: the table's current seed and the roller's own
contribution (refused if the roller saw another commitment, or if it was used
before), so the seed, the chain and the entry can never disagree.

Characters are read as a viewer sees them (``Scope``): the stored sheet less the
changes of entries the viewer may not see (``store.history``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from rulebound.core.errors import RuleboundError
from rulebound.core.stored import Stored
from rulebound.core.verifiable import VerifiableSource
from rulebound.store.cache import Part
from rulebound.store.history import diff, merge
from rulebound.trust.chain import PRIVACY_MODES, Privacy, blinds_dice, dice_of

__all__ = [
    "PRIVACY_MODES",
    "ROLES",
    "CharacterRow",
    "Conflict",
    "Contribution",
    "Dice",
    "EntryOutline",
    "LogEntry",
    "Member",
    "NewEntry",
    "NotFound",
    "Privacy",
    "Role",
    "Scope",
    "Seed",
    "SheetChange",
    "Staged",
    "Stale",
    "StillOpen",
    "Store",
    "StoreError",
    "Stored",
    "TableRow",
]


Role = Literal["gm", "player", "observer"]
ROLES: tuple[Role, ...] = ("gm", "player", "observer")


class StoreError(RuleboundError):
    """Root of the store's own errors."""


class NotFound(StoreError):
    def __init__(self, what: str, key: object) -> None:
        self.what = what
        self.key = key
        super().__init__(f"{what} {key!r} not found")


class Conflict(StoreError):
    """A write lost a race: a sheet changed since it was read, or an entry was already followed."""

    def __init__(self, what: str, detail: str) -> None:
        self.what = what
        self.detail = detail
        super().__init__(f"{what}: {detail}")


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    name: str
    ruleset: str
    variants: dict[str, str]
    gm_token: str
    player_token: str
    observer_token: str | None
    created_at: datetime

    def token_for(self, role: Role) -> str | None:
        return {"gm": self.gm_token, "player": self.player_token}.get(role, self.observer_token)


@dataclass(frozen=True, slots=True)
class Member:
    id: int
    table_id: int
    role: Role
    name: str
    revoked: bool
    grant_all: bool
    """A player the GM allowed to edit and roll every character at the table."""
    created_at: datetime


@dataclass(frozen=True, slots=True)
class CharacterRow:
    id: int
    table_id: int
    owner_id: int | None
    name: str
    sheet: dict[str, Any]
    version: int
    updated_at: datetime
    hidden: int = 0
    """Changes of entries the reader may not see: ``sheet`` and ``version`` leave them out."""
    stored: dict[str, Any] | None = None
    """With ``hidden``, the stored sheet (every change applied): what a write lands on."""

    @property
    def stored_sheet(self) -> dict[str, Any]:
        return self.sheet if self.stored is None else self.stored

    @property
    def stored_version(self) -> int:
        return self.version + self.hidden


@dataclass(frozen=True, slots=True)
class SheetChange:
    """Write ``sheet`` (the stored sheet after the play) to a character, only if it is still
    at ``expected_version``; ``delta`` is what the play changed (``store.history``)."""

    character_id: int
    expected_version: int
    sheet: dict[str, Any]
    delta: list[dict[str, Any]]

    @classmethod
    def of(cls, row: CharacterRow, after: dict[str, Any]) -> SheetChange:
        """A play computed from ``row`` as its author saw it leaves ``after``: its delta, landed
        on the stored sheet (``history.merge``)."""
        delta = diff(row.sheet, after)
        sheet = after if row.stored is None else merge(row.stored, delta)
        return cls(row.id, row.stored_version, sheet, delta)


@dataclass(frozen=True, slots=True)
class NewEntry:
    table_id: int
    kind: str
    privacy: Privacy
    actor_id: int | None
    summary: str
    character_id: int | None = None
    parent_id: int | None = None
    record: dict[str, Any] | Stored = field(default_factory=dict)
    card: dict[str, Any] | Stored | None = None
    to_id: int | None = None
    """A whisper's addressee: the member its record names as ``to`` (the store refuses a
    whisper whose record does not)."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    id: int
    table_id: int
    seq: int
    kind: str
    privacy: Privacy
    actor_id: int | None
    character_id: int | None
    parent_id: int | None
    record: dict[str, Any]
    card: dict[str, Any] | None
    summary: str
    created_at: datetime
    changed: tuple[int, ...] = ()
    """Characters whose sheets this entry changed (filled by ``append``, and on reads)."""
    prev_hash: str = ""
    hash: str = ""
    salt: str = ""
    """The chain (``rulebound.trust.chain``): the salt hides the result inside ``hash``."""
    commitment: str | None = None
    contribution: str | None = None
    server_chosen: bool | None = None
    """The committed dice the entry's draws came from (None: not a committed draw)."""
    client_seed: str | None = None
    nonce: int | None = None
    """Plays logged before per-roll contributions: the table's client seed and nonce."""
    to_id: int | None = None
    """A whisper's addressee (``NewEntry.to_id``)."""

    @property
    def dice(self) -> dict[str, Any] | None:
        """The entry's ``dice`` as the chain hashes them (``trust.chain.dice_of``)."""
        return dice_of(
            self.commitment,
            self.contribution,
            self.server_chosen,
            blinded=blinds_dice(self.privacy, self.record),
            client_seed=self.client_seed,
            nonce=self.nonce,
        )


@dataclass(frozen=True, slots=True)
class EntryOutline:
    """An entry's place in the log and what it follows or acts for, without its content: what
    a check of the entries after another reads (``Store.outlines``), left undecoded."""

    id: int
    seq: int
    kind: str
    parent_id: int | None
    character_id: int | None
    record: dict[str, Any] = field(default_factory=dict)
    """Read only for the kinds asked for (``Store.outlines``): empty for the others."""


@dataclass(frozen=True, slots=True)
class Contribution:
    """The roller's part of one play's dice: a fresh random value, made after they saw
    ``commitment`` (the play is refused if the table has committed to another seed since)."""

    value: str
    commitment: str


@dataclass(frozen=True, slots=True)
class Dice:
    """One play's committed dice: the secret seed and the play's own contribution."""

    server_seed: str
    commitment: str
    contribution: str
    server_chosen: bool
    """True when the roller sent no contribution and the server chose it."""

    def source(self) -> VerifiableSource:
        """Faces are HMAC-SHA256(seed, "contribution:0:cursor"): one play per contribution."""
        return VerifiableSource(self.server_seed, self.contribution, 0)


@dataclass(frozen=True, slots=True)
class Seed:
    """A committed seed as anyone may see it: ``server_seed`` only once it is revealed."""

    commitment: str
    server_seed: str | None
    created_at: datetime
    revealed_at: datetime | None


@dataclass(frozen=True, slots=True)
class StillOpen:
    """What an entry that acts on a result read of the log to know it may: the entries after
    the result's chain began, through ``seq``. Appended, it is checked again under the
    table's lock against the entries logged since (``check`` raises, a ``Conflict``, if one
    closes the chain), so a void or a newer roll that lands between the two is not missed."""

    seq: int
    check: Callable[[Sequence[EntryOutline]], None]
    kinds: tuple[str, ...] = ()
    """The kinds whose records ``check`` reads (``Store.outlines``'s ``kinds``)."""
    scope: Scope = field(default_factory=lambda: Scope(0, True))
    """Whose view of the log ``check`` reads: an entry they may not know of closes nothing
    for them, or a refusal would tell them it exists."""


@dataclass(frozen=True, slots=True)
class Staged:
    """A play ready to append: its entry, the sheet changes it causes, and the sheets it
    read without changing them, as (character id, stored version): the append refuses it
    (``Stale``) if any of those has changed since, so a process that missed another's
    notice never logs a play computed from an old sheet. ``still_open``: the log it read."""

    entry: NewEntry
    changes: Sequence[SheetChange] = ()
    read: Sequence[tuple[int, int]] = ()
    still_open: StillOpen | None = None


class Stale(Conflict):
    """A play was computed from a sheet that has changed since: read it again."""

    def __init__(self, character_id: int) -> None:
        self.character_id = character_id
        super().__init__(
            "character", f"character {character_id} changed since it was read; reload and try again"
        )


@dataclass(frozen=True, slots=True)
class Scope:
    """Who is reading the log: the store filters entries for them in the query itself."""

    member_id: int
    is_gm: bool


class Store(Protocol):
    def create_table(
        self,
        name: str,
        ruleset: str,
        variants: dict[str, str],
        *,
        observers: bool,
        founder: str,
        summary: str,
    ) -> tuple[TableRow, Member, str]:
        """Open a table with a committed seed and seat ``founder`` as its game master, logged
        as the first entry (which records the ruleset, variants and first commitment)."""
        ...

    def table(self, table_id: int) -> TableRow: ...

    def table_by_token(self, token: str) -> tuple[TableRow, Role]: ...

    def rotate_token(self, table_id: int, role: Role, *, disable: bool = False) -> TableRow:
        """Replace an invite token (the old link stops working); observers may be disabled."""
        ...

    def add_member(self, table_id: int, role: Role, name: str, summary: str) -> tuple[Member, str]:
        """Seat a member and log the join; returns it with its session token (stored only as
        a hash)."""
        ...

    def member_by_session(self, table_id: int, token: str) -> Member | None: ...

    def member(self, table_id: int, member_id: int) -> Member: ...

    def members(self, table_id: int) -> list[Member]: ...

    def members_by_id(self, table_id: int, ids: Iterable[int]) -> Mapping[int, Member]:
        """The members of ``ids`` that exist, by id, read-only (a page or an answer names
        each entry's author)."""
        ...

    def update_member(
        self,
        table_id: int,
        member_id: int,
        *,
        revoked: bool | None,
        grant_all: bool | None,
        entry: NewEntry | None = None,
    ) -> Member:
        """Revoking also replaces the invite link of the member's role, so that it cannot seat
        them again; ``entry`` is logged in the same transaction."""
        ...

    def create_character(
        self,
        table_id: int,
        owner_id: int | None,
        sheet: dict[str, Any],
        summary: str,
        *,
        nonce: str | None = None,
    ) -> CharacterRow:
        """Create a character and log it (by its owner), spending ``nonce`` if given."""
        ...

    def use_nonce(self, table_id: int, nonce: str) -> None:
        """Spend a single-use value (Conflict if it was spent before)."""
        ...

    def character(
        self, table_id: int, character_id: int, scope: Scope | None = None, *, shared: bool = False
    ) -> CharacterRow:
        """The character as ``scope`` sees it (None: the stored sheet); ``shared``: a row the
        caller only reads, perhaps the store's own."""
        ...

    def characters(self, table_id: int, scope: Scope | None = None) -> list[CharacterRow]: ...

    def characters_by_id(self, table_id: int, ids: Iterable[int]) -> Mapping[int, CharacterRow]:
        """The characters of ``ids`` that exist, as stored, by id, read-only."""
        ...

    def set_owner(self, table_id: int, character_id: int, owner_id: int | None) -> CharacterRow: ...

    def append(
        self,
        entry: NewEntry,
        changes: Sequence[SheetChange] = (),
        *,
        read: Sequence[tuple[int, int]] = (),
        still_open: StillOpen | None = None,
    ) -> LogEntry:
        """Write the entry and its sheet changes in one transaction; Conflict on a stale
        version (``Stale`` where a sheet it ``read``, (id, stored version), has changed) or
        when what was logged since closes the chain it acts on (``still_open``)."""
        ...

    def append_drawn(
        self,
        table_id: int,
        build: Callable[[Dice], Staged],
        contribution: Contribution | None = None,
    ) -> LogEntry:
        """Build the play with the committed seed and the roller's contribution (None: the
        server chooses one, marked so) and append it, in one transaction."""
        ...

    def commitment(self, table_id: int) -> str:
        """The commitment to the seed the next play rolls under."""
        ...

    def seeds(self, table_id: int) -> list[Seed]:
        """Every seed the table committed to, oldest first (secrets only once revealed)."""
        ...

    def rotate_seed(
        self, table_id: int, build: Callable[[Seed | None, Seed], NewEntry]
    ) -> LogEntry:
        """Reveal the current seed, commit to a fresh one, and log ``build(revealed, new)``."""
        ...

    def log(self, table_id: int) -> list[LogEntry]:
        """Every entry of the table, by seq, unfiltered (exports filter them per viewer)."""
        ...

    def entry(self, table_id: int, entry_id: int) -> LogEntry: ...

    def chain(self, table_id: int, entry_id: int) -> list[LogEntry]:
        """The entry and its ancestors, root first."""
        ...

    def has_child(self, entry_id: int) -> bool: ...

    def followed(self, entry_ids: Sequence[int]) -> set[int]:
        """Which of these entries already have a follow-up."""
        ...

    def revealed(self, entry_ids: Sequence[int]) -> set[int]:
        """Which of these entries a reveal has shown to the table."""
        ...

    def entries(
        self,
        table_id: int,
        scope: Scope,
        *,
        after: int | None = None,
        before: int | None = None,
        limit: int = 50,
        kind: str | None = None,
    ) -> list[LogEntry]:
        """Entries ``scope`` may know of, ascending by seq when ``after`` is given, else the
        newest first (paginate with ``before``); ``kind``: of that kind only."""
        ...

    def outlines(
        self,
        table_id: int,
        scope: Scope,
        *,
        after: int,
        limit: int = 50,
        kinds: Collection[str] = (),
    ) -> list[EntryOutline]:
        """The outlines of the entries after seq ``after`` that ``scope`` may know of,
        ascending (as ``entries``), with the record of those of ``kinds`` only."""
        ...

    def tail(self, table_id: int, after: int, limit: int = 100) -> list[LogEntry]:
        """Every entry after seq ``after``, unfiltered, ascending (the live feed's hub reads
        them once for all its subscribers, and filters per subscriber)."""
        ...

    def forget(self, table_id: int, parts: Sequence[Part] = ()) -> None:
        """Another process changed ``parts`` of this table ("table", "members",
        "characters"; none named: maybe anything): drop them from what is cached."""
        ...

    def last_seq(self, table_id: int) -> int: ...

    def secret(self, name: str) -> bytes:
        """A server secret kept in the database (created on first use)."""
        ...

    # Discord: which table a channel plays at, and which member a Discord user is

    def channel_table(self, channel_id: str) -> TableRow | None: ...

    def link_channel(
        self, channel_id: str, guild_id: str | None, table_id: int, member_id: int
    ) -> None:
        """Bind the channel to the table (a channel linked before moves to this one)."""
        ...

    def discord_member(self, table_id: int, user_id: str) -> Member | None: ...

    def seat_discord_user(
        self, table_id: int, user_id: str, role: Role, name: str, summary: str
    ) -> Member:
        """Seat the user with their Discord identity, in one transaction (a user seated
        already, perhaps by a request at the same moment, keeps their first seat)."""
        ...

    def first_interaction(self, interaction_id: str, signed_at: int, oldest: int) -> bool:
        """Remember an interaction by its id: False when it was answered before (a replay).
        Ids signed before ``oldest`` are forgotten: their timestamps are refused anyway."""
        ...

    def close(self) -> None: ...
