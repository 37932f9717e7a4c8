"""Fair dice at the table: the committed seed, reveals, and the trust export.

Every table starts with a secret seed whose SHA-256 commitment is public (the
API's ``/dice`` and the table page). Each logged play draws its dice from
``HMAC-SHA256(seed, "contribution:0:cursor")``, where the contribution is the
roller's own fresh random value, sent with the play and made after they saw the
commitment (``Store.append_drawn``; the browser makes one for every roll). Nobody
else can set or shift it. The game master reveals the seed, which commits a fresh
one in the same transaction ("reveal and rotate"), so play never rolls without a
commitment published before it.

The JSON export (``export_document``) is what ``rulebound verify`` checks: every
entry with its place in the hash chain, a body and its salt where the viewer may
see it, a sealed stub where they only know a roll happened, and a link (its
privacy, dice and body hash, nothing of its body) where they may not know of it.
Entries whose dice came from a revealed seed are shown whole to everyone:
revealing a seed discloses every roll made under it, hidden ones included, but for a
whisper's inline rolls: a whisper stays its sender's, its addressee's and the game
masters' (the others' exports keep it a link, its dice checked for freshness only).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from rulebound.store import LogEntry, NewEntry, Seed
from rulebound.trust.chain import BODY_FIELDS, body_hash, entry_body
from rulebound.trust.export import FORMAT
from rulebound.web.auth import CSRF_FIELD, Viewer
from rulebound.web.deps import service_of, viewer_for, writer_for
from rulebound.web.routes.models import error_responses
from rulebound.web.security import api_router, page_router
from rulebound.web.service import TableService
from rulebound.web.views import PRIVACY_LABELS, Context, context_for, entry_view

ERRORS = error_responses("No such table", "A write lost a race: try again")
router = api_router("/api/tables/{table_id}/dice", ERRORS, "fair dice")
pages = page_router()


class SeedOut(BaseModel):
    commitment: str = Field(description="SHA-256 of the seed, published before its first roll")
    server_seed: str | None = Field(description="The seed itself, once revealed")
    created_at: datetime
    revealed_at: datetime | None


class DiceOut(BaseModel):
    commitment: str = Field(
        description="The commitment to the seed the next roll uses: send it with your contribution"
    )
    seeds: list[SeedOut] = Field(description="Every seed of the table, oldest first")


def dice_state(service: TableService, table_id: int) -> DiceOut:
    return DiceOut(
        commitment=service.store.commitment(table_id),
        seeds=[_seed(seed) for seed in service.store.seeds(table_id)],
    )


def _seed(seed: Seed) -> SeedOut:
    return SeedOut(
        commitment=seed.commitment,
        server_seed=seed.server_seed,
        created_at=seed.created_at,
        revealed_at=seed.revealed_at,
    )


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
    if entry.commitment is not None and entry.commitment in revealed and entry.privacy != "whisper":
        shown = entry_view(replace(entry, privacy="public"), ctx) or {}
        label = PRIVACY_LABELS.get(entry.privacy, entry.privacy)
        shown |= {"privacy": entry.privacy, "privacy_label": label, "can_act": False}
        return shown | {"disclosed": True} | _proof(entry, whole=True)
    if viewer.knows_of(entry):
        return (entry_view(entry, ctx) or {}) | _proof(entry, whole=False)
    proof = _proof(entry, whole=False)
    return {"withheld": True, "seq": entry.seq, "privacy": entry.privacy} | {
        key: proof[key] for key in ("dice", "body_hash", "prev_hash", "hash")
    }


def _proof(entry: LogEntry, *, whole: bool) -> dict[str, Any]:
    body = entry_body(**{name: getattr(entry, name) for name in BODY_FIELDS})
    return {
        "prev_hash": entry.prev_hash,
        "hash": entry.hash,
        "dice": entry.dice,
        "body_hash": body_hash(entry.salt, body),
        "salt": entry.salt if whole else None,
        "body": body if whole else None,
    }


# routes: the JSON API


@router.get("", response_model=DiceOut)
def get_dice(table_id: int, request: Request) -> DiceOut:
    """The commitment in use, and every seed (revealed ones with their secret)."""
    viewer_for(request, table_id)
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


@pages.post("/t/{table_id}/dice/reveal")
async def reveal_form(table_id: int, request: Request) -> Response:
    viewer, _ = await _posted(request, table_id)
    await run_in_threadpool(reveal, service_of(request), viewer)
    return RedirectResponse(f"/t/{table_id}#dice", status_code=303)
