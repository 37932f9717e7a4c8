"""Fair dice at the table: the committed seed, the client seed, reveals, and the trust export.

Every table starts with a secret seed whose SHA-256 commitment is public (the
API's ``/dice`` and the table page). Each logged play draws its dice from
``HMAC-SHA256(seed, "client_seed:nonce:cursor")`` with a fresh nonce, taken in
the transaction that logs it (``Store.append_drawn``). Members who play may set
the client seed; the game master reveals the seed, which commits a fresh one in
the same transaction ("reveal and rotate"), so play never rolls without a
commitment published before it.

The JSON export (``export_document``) is what ``rulebound verify`` checks: every
entry with its place in the hash chain, a body and its salt where the viewer may
see it, a sealed stub where they only know a roll happened, and a bare link where
they may not know of it. Entries whose dice came from a revealed seed are shown
whole to everyone: revealing a seed discloses every roll made under it, hidden
ones included.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from rulebound.core.errors import InvalidInput
from rulebound.core.verifiable import MAX_CLIENT_SEED
from rulebound.store import LogEntry, NewEntry, Seed
from rulebound.trust.chain import BODY_FIELDS, body_hash, dice_of, entry_body
from rulebound.trust.export import FORMAT
from rulebound.web.api_models import error_responses
from rulebound.web.auth import CSRF_FIELD, Forbidden, Viewer
from rulebound.web.deps import service_of, viewer_for, writer_for
from rulebound.web.service import TableService
from rulebound.web.views import PRIVACY_LABELS, Context, context_for, entry_view

ERRORS = error_responses("No such table", "A write lost a race: try again")
router = APIRouter(prefix="/api/tables/{table_id}/dice", responses=ERRORS, tags=["fair dice"])
pages = APIRouter(include_in_schema=False)


class SeedOut(BaseModel):
    commitment: str = Field(description="SHA-256 of the seed, published before its first roll")
    server_seed: str | None = Field(description="The seed itself, once revealed")
    created_at: datetime
    revealed_at: datetime | None


class DiceOut(BaseModel):
    commitment: str = Field(description="The commitment to the seed the next roll uses")
    client_seed: str = Field(description="The players' part of every following roll")
    nonce: int = Field(description="The last nonce used: the next roll takes the one after")
    seeds: list[SeedOut] = Field(description="Every seed of the table, oldest first")


class ClientSeedIn(BaseModel):
    client_seed: str = Field(min_length=1, max_length=MAX_CLIENT_SEED, pattern=r"^[^:]+$")


def dice_state(service: TableService, table_id: int) -> DiceOut:
    now = service.store.fairness(table_id)
    return DiceOut(
        commitment=now.commitment,
        client_seed=now.client_seed,
        nonce=now.nonce,
        seeds=[_seed(seed) for seed in service.store.seeds(table_id)],
    )


def _seed(seed: Seed) -> SeedOut:
    return SeedOut(
        commitment=seed.commitment,
        server_seed=seed.server_seed,
        created_at=seed.created_at,
        revealed_at=seed.revealed_at,
    )


def clean_client_seed(value: object) -> str:
    text = value if isinstance(value, str) else ""
    if not 1 <= len(text) <= MAX_CLIENT_SEED or ":" in text or not text.isprintable():
        expected = f"1 to {MAX_CLIENT_SEED} printable characters, without ':'"
        raise InvalidInput("client_seed", str(value)[:40], expected)
    return text


def set_client_seed(service: TableService, viewer: Viewer, value: object) -> LogEntry:
    if viewer.member.role == "observer":
        raise Forbidden("observers watch the table; they cannot act")
    seed = clean_client_seed(value)
    summary = f"{viewer.member.name} set the client seed to “{seed}” for the following rolls"
    entry = NewEntry(
        viewer.table.id,
        "client-seed",
        "public",
        viewer.member.id,
        summary,
        record={"client_seed": seed},
    )
    return service.store.set_client_seed(viewer.table.id, seed, entry)


def reveal(service: TableService, viewer: Viewer) -> LogEntry:
    """Reveal the current seed and commit to a fresh one (the game master)."""
    service.require_gm(viewer)

    def entry(revealed: Seed | None, committed: Seed) -> NewEntry:
        shown = None
        said = "committed to a new seed"
        if revealed is not None:
            shown = {"commitment": revealed.commitment, "server_seed": revealed.server_seed}
            said = f"revealed seed {revealed.server_seed} (commitment {revealed.commitment[:12]}…)"
            said += " and committed to a new one"
        record = {"revealed": shown, "committed": committed.commitment}
        summary = f"{viewer.member.name} {said}: {committed.commitment}"
        return NewEntry(viewer.table.id, "seed", "public", viewer.member.id, summary, record=record)

    return service.store.rotate_seed(viewer.table.id, entry)


# the export that ``rulebound verify`` checks


def export_document(service: TableService, viewer: Viewer) -> dict[str, Any]:
    table = viewer.table
    entries = service.store.log(table.id)
    seeds = service.store.seeds(table.id)
    revealed = {seed.commitment for seed in seeds if seed.server_seed is not None}
    ctx = context_for(service.store, viewer, entries)
    return {
        "format": FORMAT,
        "table": table.name,
        "table_id": table.id,
        "ruleset": table.ruleset,
        "variants": dict(table.variants),
        "seeds": [_seed(seed).model_dump(mode="json") for seed in seeds],
        "entries": [_exported(entry, ctx, revealed) for entry in entries],
    }


def _exported(entry: LogEntry, ctx: Context, revealed: set[str]) -> dict[str, Any]:
    """Whole, sealed or withheld (``trust.export``), by what this viewer may see of it."""
    viewer = ctx.viewer
    if viewer.sees_fully(entry):
        return (entry_view(entry, ctx) or {}) | {"disclosed": False} | _proof(entry, whole=True)
    if entry.commitment is not None and entry.commitment in revealed:
        shown = entry_view(replace(entry, privacy="public"), ctx) or {}
        label = PRIVACY_LABELS.get(entry.privacy, entry.privacy)
        shown |= {"privacy": entry.privacy, "privacy_label": label, "can_act": False}
        return shown | {"disclosed": True} | _proof(entry, whole=True)
    if viewer.knows_of(entry):
        return (entry_view(entry, ctx) or {}) | _proof(entry, whole=False)
    return {"withheld": True, "prev_hash": entry.prev_hash, "hash": entry.hash}


def _proof(entry: LogEntry, *, whole: bool) -> dict[str, Any]:
    body = entry_body(**{name: getattr(entry, name) for name in BODY_FIELDS})
    return {
        "prev_hash": entry.prev_hash,
        "hash": entry.hash,
        "dice": dice_of(entry.commitment, entry.client_seed, entry.nonce),
        "body_hash": body_hash(entry.salt, body),
        "salt": entry.salt if whole else None,
        "body": body if whole else None,
    }


# routes: the JSON API


@router.get("", response_model=DiceOut)
def get_dice(table_id: int, request: Request) -> DiceOut:
    """The commitment in use, the client seed, the last nonce, and every seed (revealed ones
    with their secret)."""
    viewer_for(request, table_id)
    return dice_state(service_of(request), table_id)


@router.put("/client-seed", response_model=DiceOut)
def put_client_seed(table_id: int, body: ClientSeedIn, request: Request) -> DiceOut:
    """Set the client seed for the following rolls (the game master and players)."""
    viewer = writer_for(request, table_id)
    set_client_seed(service_of(request), viewer, body.client_seed)
    return dice_state(service_of(request), table_id)


@router.post("/reveal", response_model=DiceOut)
def post_reveal(table_id: int, request: Request) -> DiceOut:
    """Reveal the current seed and commit to a fresh one (the game master)."""
    viewer = writer_for(request, table_id)
    reveal(service_of(request), viewer)
    return dice_state(service_of(request), table_id)


# routes: the table page's forms


async def _posted(request: Request, table_id: int) -> tuple[Viewer, Any]:
    form = await request.form()
    token = form.get(CSRF_FIELD)
    sent = token if isinstance(token, str) else None
    viewer = await run_in_threadpool(writer_for, request, table_id, sent)
    return viewer, form


@pages.post("/t/{table_id}/dice/client-seed")
async def client_seed_form(table_id: int, request: Request) -> Response:
    viewer, form = await _posted(request, table_id)
    value = form.get("client_seed")
    await run_in_threadpool(set_client_seed, service_of(request), viewer, value)
    return RedirectResponse(f"/t/{table_id}#dice", status_code=303)


@pages.post("/t/{table_id}/dice/reveal")
async def reveal_form(table_id: int, request: Request) -> Response:
    viewer, _ = await _posted(request, table_id)
    await run_in_threadpool(reveal, service_of(request), viewer)
    return RedirectResponse(f"/t/{table_id}#dice", status_code=303)
