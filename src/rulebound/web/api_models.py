"""Request and response models of the JSON API: they make the OpenAPI schema complete.

Cards, fields and actions reuse the ruleset-facing dataclasses of
``rulebound.rulesets.table``, so the schema documents exactly what an adapter
produces.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from rulebound.rulesets.table import ActionView, Card
from rulebound.rulesets.table import Field as FormField

PrivacyMode = Literal["public", "gm", "blind", "self"]
RoleName = Literal["gm", "player", "observer"]
FormData = dict[str, Any]


class ErrorOut(BaseModel):
    error: str = Field(description="invalid-input, rule-violation, conflict, forbidden, not-found")
    detail: str
    field: str | None = None
    value: Any = None
    expected: str | None = None


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
    name: str = Field(min_length=1, max_length=200)
    ruleset: str
    variants: dict[str, str] = {}
    observers: bool = True
    gm_name: str = Field(min_length=1, max_length=100)


class JoinIn(BaseModel):
    name: str = Field(min_length=1, max_length=100)


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


class TableOut(BaseModel):
    id: int
    name: str
    ruleset: str
    ruleset_title: str
    variants: dict[str, str]
    you: MemberOut
    members: list[MemberOut]
    invites: InvitesOut | None = Field(None, description="Join links; the game master only")
    last_seq: int


class SeatOut(BaseModel):
    table: TableOut
    session_token: str = Field(description="Send as 'Authorization: Bearer ...'; shown once")


class MemberPatch(BaseModel):
    revoked: bool | None = None
    grant_all: bool | None = Field(None, description="May edit and roll every character")


class RotateIn(BaseModel):
    disable: bool = Field(False, description="Switch the observer link off instead")


class CharacterIn(BaseModel):
    name: str | None = Field(None, description="A new starting sheet with this name")
    sheet: dict[str, Any] | None = Field(None, description="Or a whole sheet (character file)")


class OwnerIn(BaseModel):
    owner_id: int | None


class CharacterOut(BaseModel):
    id: int
    name: str
    owner_id: int | None
    version: int
    may_edit: bool
    tracks: list[tuple[str, str]]
    sheet: dict[str, Any]


class CharacterDetailOut(CharacterOut):
    fields: list[FormField]
    values: dict[str, Any]
    dialog: list[FormField]
    actions: list[ActionView]


class SheetEditIn(BaseModel):
    form: FormData
    version: int | None = Field(None, description="Refuse (409) if the sheet moved on")


class SheetIn(BaseModel):
    sheet: dict[str, Any]
    version: int | None = None


class ChancesIn(BaseModel):
    form: FormData = {}


class ChanceOut(BaseModel):
    label: str
    p: str = Field(description="Exact, as a fraction")
    percent: str
    float: float


class ChancesOut(BaseModel):
    chances: list[ChanceOut]


class RollIn(BaseModel):
    form: FormData = {}
    privacy: PrivacyMode = "public"


class ActionIn(BaseModel):
    params: FormData = {}
    privacy: PrivacyMode = "public"


class FollowUpIn(BaseModel):
    params: FormData = {}


class EntryOut(BaseModel):
    id: int
    seq: int
    kind: str
    privacy: PrivacyMode
    privacy_label: str
    actor_id: int | None
    actor: str
    character_id: int | None
    character: str
    parent_id: int | None
    created_at: str
    changed: list[int]
    hidden: bool = Field(description="A blind roll seen by its roller: it happened, no more")
    summary: str
    card: Card | None
    record: dict[str, Any] | None
    can_act: bool


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
