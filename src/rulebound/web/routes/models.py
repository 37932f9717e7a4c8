"""Request and response models of the JSON API: they make the OpenAPI schema complete.

Cards, fields and actions reuse the ruleset-facing dataclasses of
``rulebound.rulesets.contract``, so the schema documents exactly what an adapter
produces.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field, StrictBool

from rulebound.core.verifiable import CONTRIBUTION_PATTERN, DIGEST_PATTERN
from rulebound.rulesets.contract import ActionView, Card
from rulebound.rulesets.contract import Field as FormField
from rulebound.store import Privacy, Role
from rulebound.web.caps import MAX_NAME, NAME_PATTERN

PrivacyMode = Privacy
PlayPrivacy = Literal["public", "gm", "blind", "self"]
"""Who may see a play (a whisper is table talk: ``TalkIn.to``)."""
RoleName = Role
FormData = dict[str, Any]
Pair = Annotated[list[str], Field(min_length=2, max_length=2)]


def _whole_number(value: object) -> object:
    """Pydantic's lax mode would take ``true`` or ``"7"`` for 1 or 7: a JSON number only."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("a whole number")
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]
"""An integer in a request: a JSON number with no fraction (``2.0`` too), never a bool or text.
Request booleans are ``StrictBool`` for the same reason (lax mode takes ``1`` or ``"yes"``)."""
"""A [label, value] pair (a list, not a tuple: a tuple's ``prefixItems`` trips some tools)."""


COMPONENTS = "#/components/schemas/"


class ErrorOut(BaseModel):
    error: str = Field(
        description="invalid-input, rule-violation, conflict, forbidden, not-found, "
        "rate-limited, bad-request (a body the server cannot read, such as a broken form; "
        "a body that is not JSON is a 422), unavailable (the database "
        "cannot be written: nothing was saved)"
    )
    detail: str
    field: str | None = None
    value: Any = None
    expected: str | None = None


def error_answer(description: str) -> dict[str, Any]:
    """An error answer as the schema documents it: an ``ErrorOut`` body, by reference.

    Not ``{"model": ErrorOut}``: FastAPI builds a validator for each route and code of a
    ``model`` (about 250 for the table's routes), which no error uses, since
    ``web/errors.py`` writes them. ``document_errors`` puts ``ErrorOut`` itself in the
    schema's components."""
    schema = {"$ref": f"{COMPONENTS}{ErrorOut.__name__}"}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def document_errors(schema: dict[str, Any]) -> None:
    """Add ``ErrorOut``, which the error answers name (``error_answer``), to the components."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components[ErrorOut.__name__] = ErrorOut.model_json_schema(
        ref_template=COMPONENTS + "{model}", mode="serialization"
    )


def error_responses(not_found: str, conflict: str) -> dict[int | str, dict[str, Any]]:
    """The error answers a router documents, each an ``ErrorOut``: what 404 and 409 mean there."""
    described = {
        400: "Invalid input: names the field, value, expected",
        403: "Not seated at the table, or not allowed",
        404: not_found,
        409: conflict,
    }
    return {code: error_answer(text) for code, text in described.items()}


class VariantOut(BaseModel):
    key: str
    choices: list[str]
    default: str
    summary: str


class RulesetOut(BaseModel):
    key: str
    title: str
    variants: list[VariantOut]


class CreateTableIn(BaseModel):
    name: str = Field(min_length=1, max_length=200, pattern=NAME_PATTERN)
    ruleset: str = Field(description="One of the keys of GET /api/rulesets")
    variants: dict[str, str] = {}
    observers: StrictBool = True
    gm_name: str = Field(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN)


class JoinIn(BaseModel):
    name: str = Field(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN)


class MemberOut(BaseModel):
    id: int
    role: RoleName
    name: str
    revoked: bool
    grant_all: bool


class InvitesOut(BaseModel):
    gm: str
    player: str
    observer: str | None


class CombatantOut(BaseModel):
    key: str = Field(description="c<character id> for a character, n<number> for another")
    name: str
    character_id: int | None
    rank: list[int] | None = Field(description="Greater acts first; null: placed by hand")
    said: str = Field(description="How it placed, in the game's words")
    tied: bool = Field(description="Tied with its neighbour: the table settles it (move)")
    up: bool = Field(description="Its turn now")


class TurnsOut(BaseModel):
    active: bool
    round: int = Field(description="0: no turn order is under way")
    up: str | None = Field(description="The key of whose turn it is")
    method: str = Field(description="game (its initiative rules), roll (a die each) or set")
    die: str
    order: list[CombatantOut]
    initiative: bool = Field(description="Whether this game has initiative rules (method game)")


class TableOut(BaseModel):
    id: int
    name: str
    ruleset: str
    ruleset_title: str
    variants: dict[str, str]
    you: MemberOut
    members: list[MemberOut] = Field(
        description="The first members in seat order (at most 100): the rest from "
        "GET /api/tables/ID/members?after=members_after"
    )
    member_count: int = Field(description="How many seats the table has, revoked ones too")
    members_after: int | None = Field(
        None, description="Pass as ?after= to GET /api/tables/ID/members for the rest (none: all)"
    )
    invites: InvitesOut | None = Field(None, description="Join links; the game master only")
    last_seq: int
    turns: TurnsOut = Field(description="The turn order, as its log entries fold it")


class MemberPageOut(BaseModel):
    members: list[MemberOut] = Field(description="Members in seat order, after the id asked for")
    next_after: int | None = Field(description="Pass as ?after= for the next page (none: done)")


class SeatOut(BaseModel):
    table: TableOut
    session_token: str = Field(description="Send as 'Authorization: Bearer ...'; shown once")


class MemberPatch(BaseModel):
    revoked: StrictBool | None = None
    grant_all: StrictBool | None = Field(None, description="May edit and roll every character")


class RotateIn(BaseModel):
    disable: StrictBool = Field(False, description="Switch the observer link off instead")


class CharacterIn(BaseModel):
    name: str | None = Field(
        None,
        min_length=1,
        max_length=MAX_NAME,
        pattern=NAME_PATTERN,
        description="A new starting sheet with this name (a ruleset may allow fewer characters)",
    )
    sheet: dict[str, Any] | None = Field(None, description="Or a whole sheet (character file)")


class OwnerIn(BaseModel):
    owner_id: WholeNumber | None


class CharacterOut(BaseModel):
    id: int
    name: str
    owner_id: int | None
    version: int
    may_edit: bool
    tracks: list[Pair] = Field(description="What the sheet shows first: [label, value] pairs")
    sheet: dict[str, Any]


class CharacterDetailOut(CharacterOut):
    fields: list[FormField]
    values: dict[str, Any]
    dialog: list[FormField]
    actions: list[ActionView]


class SheetEditIn(BaseModel):
    form: FormData
    version: WholeNumber | None = Field(None, description="Refuse (409) if the sheet moved on")


class SheetIn(BaseModel):
    sheet: dict[str, Any]
    version: WholeNumber | None = None


class ChancesIn(BaseModel):
    form: FormData = {}


class ChanceOut(BaseModel):
    label: str
    p: str = Field(description="Exact, as a fraction")
    percent: str
    float: float


class OutcomeOut(ChanceOut):
    key: str
    succeeds: bool


class ExtraOut(BaseModel):
    key: str
    label: str
    kind: str = Field(description="probability or expectation")
    p: str = Field(description="Exact, as a fraction")
    float: float
    shown: str


class ChancesOut(BaseModel):
    chances: list[ChanceOut] = Field(description="Success first, then each named outcome")
    success: ChanceOut
    outcomes: list[OutcomeOut] = Field(description="The game's outcomes; they sum to exactly 1")
    extras: list[ExtraOut] = Field(description="Named figures: E[successes], P(bane)...")


class DiceIn(BaseModel):
    """The roller's part of a play's dice. Make a fresh one for every play, after reading the
    commitment: the server cannot know it before the play arrives, so it cannot pick your
    dice. Without it the server chooses one and marks the play ``server_chosen``."""

    contribution: str = Field(
        pattern=f"^{CONTRIBUTION_PATTERN}$",
        description="16 to 32 fresh random bytes as lowercase hex, never used before",
    )
    commitment: str = Field(
        pattern=f"^{DIGEST_PATTERN}$",
        description="The commitment you saw (GET /api/tables/ID/dice): refused with 409 if "
        "the table has committed to another seed since",
    )


DICE_HELP = "Your contribution to this play's dice (leave it out: the server chooses one)"


class RollIn(BaseModel):
    form: FormData = {}
    privacy: PlayPrivacy = "public"
    dice: DiceIn | None = Field(None, description=DICE_HELP)


class ActionIn(BaseModel):
    params: FormData = {}
    privacy: PlayPrivacy = "public"
    dice: DiceIn | None = Field(None, description=DICE_HELP)


class TalkIn(BaseModel):
    text: str = Field(
        min_length=1,
        max_length=500,
        description='A message; "/me ducks" (an emote); "/r 2d6+3" (a roll); inline '
        '"[[1d20+3]]" rolls in a message',
    )
    privacy: PlayPrivacy | Literal["whisper"] = "public"
    to: WholeNumber | None = Field(
        None,
        description="A whisper to this member (an id): only they, you and the game masters "
        "ever see it. To the game master alone: privacy gm",
    )
    dice: DiceIn | None = Field(None, description=DICE_HELP)


class TurnIn(BaseModel):
    params: FormData = Field(
        {},
        description="start: characters (ids), others (names), method (game, roll or set), "
        "die (for roll: 1d20 unless given); add: character (an id) or name, place; next: "
        "ends (the key of the turn it ends, to refuse a stale click); remove: key; move: "
        "key, place (1 first)",
    )
    dice: DiceIn | None = Field(None, description=DICE_HELP)


class FollowUpIn(BaseModel):
    params: FormData = {}
    dice: DiceIn | None = Field(None, description=DICE_HELP)


class DiceUsedOut(BaseModel):
    commitment: str
    contribution: str | None = Field(None, description="The play's own input to its dice")
    server_chosen: bool | None = Field(
        None, description="True: the roller sent no contribution, the server chose it"
    )
    client_seed: str | None = Field(None, description="Plays logged before contributions")
    nonce: int | None = None


class EntryOut(BaseModel):
    id: int
    seq: int
    kind: str
    privacy: PrivacyMode
    privacy_label: str
    actor_id: int | None
    actor: str
    revealed_from: str = Field("", description="A reveal's: who made the roll it shows")
    character_id: int | None
    character: str
    parent_id: int | None
    created_at: str
    changed: list[int]
    hidden: bool = Field(description="A blind roll seen by its roller: it happened, no more")
    to_id: int | None = Field(None, description="A whisper's addressee")
    to: str = Field("", description="A whisper's addressee, by name")
    summary: str
    card: Card | None
    record: dict[str, Any] | None
    can_act: bool
    may_reveal: bool = Field(False, description="The viewer may reveal this hidden roll")
    may_void: bool = Field(False, description="The viewer may void this entry")
    dice: DiceUsedOut | None = Field(None, description="What the play's dice came from")


class LogPageOut(BaseModel):
    entries: list[EntryOut]
    next_before: int | None = Field(description="Pass as ?before= for the next (older) page")


class CreationIn(BaseModel):
    state: str | None = Field(None, description="The signed state from the previous step")
    form: FormData = {}


class CreationOut(BaseModel):
    title: str
    fields: list[FormField]
    notes: list[str]
    state: str
    character: CharacterOut | None = Field(None, description="Set when the flow is finished")
