"""The JSON API: every table action, documented in the OpenAPI schema at ``/docs``.

Authenticate with ``Authorization: Bearer <session_token>`` (from creating or
joining a table), or with the browser's session cookie plus ``X-CSRF-Token``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.contract import ActionView
from rulebound.rulesets.turns import state_json
from rulebound.store import Contribution, LogEntry, Member, NotFound, Role
from rulebound.trust.export import export_text
from rulebound.web.auth import Viewer
from rulebound.web.caps import shown
from rulebound.web.creation import advance, pending
from rulebound.web.deps import (
    character_detail,
    character_summary,
    entry_views,
    guarded_for,
    service_of,
    viewer_for,
    writer_for,
)
from rulebound.web.feed.hub import Hub
from rulebound.web.routes.fairness import export_document
from rulebound.web.routes.models import (
    ActionIn,
    ChancesIn,
    ChancesOut,
    CharacterDetailOut,
    CharacterIn,
    CharacterOut,
    CreateTableIn,
    CreationIn,
    CreationOut,
    DiceIn,
    EntryOut,
    FollowUpIn,
    JoinIn,
    LogPageOut,
    MemberOut,
    MemberPageOut,
    MemberPatch,
    OwnerIn,
    RollIn,
    RotateIn,
    RulesetOut,
    SeatOut,
    SheetEditIn,
    SheetIn,
    TableOut,
    TalkIn,
    TurnIn,
    TurnsOut,
    VariantOut,
    document_errors,
    error_responses,
)
from rulebound.web.security import api_router, limit_anonymous
from rulebound.web.service import Seat, TableService, contribution_of
from rulebound.web.views import CSV_COLUMNS, chances_view, csv_row

ERRORS = error_responses(
    "No such table, character, entry or invite", "The rules forbid it now, or a write lost a race"
)

router = api_router("/api", ERRORS, "table")
MAX_SEQ = 2**31 - 1
"""The largest seq a log holds (a 32-bit integer column)."""
MEMBER_PAGE = 100
"""Members the table's JSON lists (seating 1,000 observers must not answer each with all)."""
MAX_MEMBER_PAGE = 500
TABLE = "/tables/{table_id}"
CHAR = TABLE + "/characters/{character_id}"


BEARER = "bearer"
"""The security scheme's name in the OpenAPI schema."""
BEARER_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "description": "The session_token that creating a table (POST /api/tables) or joining one "
    "(POST /api/join/{token}) returns. A browser sends the table's session cookie and the "
    "X-CSRF-Token header instead.",
}
SEATED = "/api" + TABLE
"""Every operation under a table is a seated member's (``deps.viewer_for`` and the
helpers built on it): the schema says each needs the bearer token."""


def document_rulesets(app: FastAPI, keys: Iterable[str]) -> None:
    """The schema names the rulesets this server plays (known only when the app is built)
    and the bearer token the operations of a table need (``document_security``)."""
    build, known = app.openapi, sorted(keys)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            props = schema["components"]["schemas"]["CreateTableIn"]["properties"]
            props["ruleset"]["enum"] = known
            document_security(schema)
            document_errors(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def document_security(schema: dict[str, Any]) -> None:
    """Declare the bearer scheme and require it on every operation of a table (``SEATED``).

    Only the schema changes: the routes authenticate as before (``auth.find_viewer``: the
    bearer token, or the cookie with its CSRF token), so a generated client knows which
    calls need the token and sends it as ``Authorization: Bearer``."""
    schema.setdefault("components", {}).setdefault("securitySchemes", {})[BEARER] = BEARER_SCHEME
    for path, operations in schema.get("paths", {}).items():
        if path == SEATED or path.startswith(SEATED + "/"):
            for operation in operations.values():
                operation["security"] = [{BEARER: []}]


def _member(member: Member) -> MemberOut:
    return MemberOut.model_validate(member, from_attributes=True)


def table_out(request: Request, viewer: Viewer) -> TableOut:
    service = service_of(request)
    table = service.store.table(viewer.table.id)
    invites = None
    if viewer.is_gm:

        def link(token: str) -> str:
            return str(request.url_for("join_page", token=token))

        observer = link(table.observer_token) if table.observer_token else None
        invites = {
            "gm": link(table.gm_token),
            "player": link(table.player_token),
            "observer": observer,
        }
    seated = service.members(viewer)
    shown = seated[:MEMBER_PAGE]
    return TableOut.model_validate(
        {
            "id": table.id,
            "name": table.name,
            "ruleset": table.ruleset,
            "ruleset_title": service.game(table.ruleset).title,
            "variants": table.variants,
            "you": _member(viewer.member),
            "members": [_member(m) for m in shown],
            "member_count": len(seated),
            "members_after": shown[-1].id if len(seated) > len(shown) else None,
            "invites": invites,
            "last_seq": service.store.last_seq(table.id),
            "turns": turns_out(service, viewer),
        }
    )


def turns_out(service: TableService, viewer: Viewer) -> TurnsOut:
    rules = service.game(viewer.table.ruleset).table
    found = state_json(service.turn_order(viewer)) | {"initiative": rules.has_initiative}
    return TurnsOut.model_validate(found)


def _seat(request: Request, seat: Seat) -> SeatOut:
    viewer = Viewer(seat.table, seat.member, "", via_cookie=False)
    return SeatOut(table=table_out(request, viewer), session_token=seat.session)


def _dice(given: DiceIn | None) -> Contribution | None:
    return None if given is None else contribution_of(given.contribution, given.commitment)


Entry = dict[str, Any]
"""An entry as its viewer is shown it: the routes' ``EntryOut`` validates it once."""


def _entry(request: Request, viewer: Viewer, entry_id: int) -> Entry:
    entry = service_of(request).store.entry(viewer.table.id, entry_id)
    views = entry_views(request, viewer, [entry])
    if not views:
        raise NotFound("log entry", entry_id)
    return views[0]


def _written(request: Request, viewer: Viewer, entry: LogEntry) -> Entry:
    """The entry a write just logged, as its author sees it: not read back (nothing can
    have followed it up yet that its author could act on)."""
    views = entry_views(request, viewer, [entry], followed=set())
    if not views:
        raise NotFound("log entry", entry.id)
    return views[0]


# the plays a table makes most come first: the router tries its routes in order


async def _played(
    request: Request, table_id: int, play: Callable[[TableService, Viewer], LogEntry]
) -> Entry:
    """A play by a seated member who may write, made in one hop to a worker thread (the
    checks, the rules and the store's wait for its commit), and the entry it logged as
    its author sees it."""

    def made() -> Entry:
        viewer = writer_for(request, table_id)
        return _written(request, viewer, play(service_of(request), viewer))

    return await run_in_threadpool(made)


@router.post(CHAR + "/roll", response_model=EntryOut, status_code=201)
async def roll(table_id: int, character_id: int, body: RollIn, request: Request) -> Entry:
    dice = _dice(body.dice)

    def play(service: TableService, viewer: Viewer) -> LogEntry:
        return service.roll(viewer, character_id, body.form, body.privacy, dice)

    return await _played(request, table_id, play)


@router.post(CHAR + "/actions/{action}", response_model=EntryOut, status_code=201)
async def sheet_action(
    table_id: int, character_id: int, action: str, body: ActionIn, request: Request
) -> Entry:
    dice = _dice(body.dice)

    def play(service: TableService, viewer: Viewer) -> LogEntry:
        return service.sheet_act(viewer, character_id, action, body.params, body.privacy, dice)

    return await _played(request, table_id, play)


@router.post(
    TABLE + "/entries/{entry_id}/actions/{action}", response_model=EntryOut, status_code=201
)
async def follow_up(
    table_id: int, entry_id: int, action: str, body: FollowUpIn, request: Request
) -> Entry:
    dice = _dice(body.dice)

    def play(service: TableService, viewer: Viewer) -> LogEntry:
        return service.follow_up(viewer, entry_id, action, body.params, dice)

    return await _played(request, table_id, play)


@router.post(TABLE + "/talk", response_model=EntryOut, status_code=201)
async def talk(table_id: int, body: TalkIn, request: Request) -> Entry:
    """Table talk: a message, an emote ("/me ducks"), a roll ("/r 2d6+3") or a message with
    inline rolls ("[[1d20+3]]"); with ``to``, a whisper to that member alone (and the game
    masters), filtered like every other hidden entry: nobody else learns it exists."""
    dice = _dice(body.dice)

    def play(service: TableService, viewer: Viewer) -> LogEntry:
        return service.talk(viewer, body.text, body.privacy, dice, to=body.to)

    return await _played(request, table_id, play)


@router.get(TABLE + "/turns", response_model=TurnsOut)
def get_turns(table_id: int, request: Request) -> TurnsOut:
    """The turn order: who is in it, in what order, whose turn, which round (folded from the
    table's turn entries, so it is what the log says)."""
    return turns_out(service_of(request), viewer_for(request, table_id))


@router.post(TABLE + "/turns/{action}", response_model=EntryOut, status_code=201)
async def turn(
    table_id: int,
    action: Literal["start", "add", "next", "round", "remove", "move", "end"],
    body: TurnIn,
    request: Request,
) -> Entry:
    """A move of the turn tracker (the game master's; "next" also the player whose character
    it is), logged as a public entry; a start or an add rolls with the table's dice."""
    dice = _dice(body.dice)

    def play(service: TableService, viewer: Viewer) -> LogEntry:
        return service.turn(viewer, action, body.params, dice)

    return await _played(request, table_id, play)


@router.post(CHAR + "/chances", response_model=ChancesOut)
def chances(table_id: int, character_id: int, body: ChancesIn, request: Request) -> ChancesOut:
    viewer = guarded_for(request, table_id)
    found = service_of(request).chances(viewer, character_id, body.form)
    return ChancesOut.model_validate(chances_view(found))


@router.get("/rulesets", response_model=list[RulesetOut])
def rulesets(request: Request) -> list[RulesetOut]:
    return [
        RulesetOut(
            key=game.key,
            title=game.title,
            variants=[
                VariantOut(key=v.key, choices=list(v.choices), default=v.default, summary=v.summary)
                for v in game.variants
            ],
        )
        for game in service_of(request).games.values()
    ]


@router.post(
    "/tables", response_model=SeatOut, status_code=201, dependencies=[Depends(limit_anonymous)]
)
def create_table(body: CreateTableIn, request: Request) -> SeatOut:
    seat = service_of(request).create_table(
        body.name, body.ruleset, body.variants, observers=body.observers, gm_name=body.gm_name
    )
    return _seat(request, seat)


@router.post(
    "/join/{token}",
    response_model=SeatOut,
    status_code=201,
    dependencies=[Depends(limit_anonymous)],
)
def join(token: str, body: JoinIn, request: Request) -> SeatOut:
    return _seat(request, service_of(request).join(token, body.name))


@router.get(TABLE, response_model=TableOut)
def get_table(table_id: int, request: Request) -> TableOut:
    return table_out(request, viewer_for(request, table_id))


@router.get(TABLE + "/members", response_model=MemberPageOut)
def list_members(
    table_id: int,
    request: Request,
    after: int = Query(0, ge=0, le=MAX_SEQ, description="Members seated after this id"),
    limit: int = Query(MEMBER_PAGE, ge=1, le=MAX_MEMBER_PAGE),
) -> MemberPageOut:
    """The table's members in seat order, a page at a time (the table itself shows the first)."""
    viewer = viewer_for(request, table_id)
    later = [m for m in service_of(request).members(viewer) if m.id > after]
    page = later[:limit]
    return MemberPageOut(
        members=[_member(m) for m in page], next_after=page[-1].id if len(later) > limit else None
    )


@router.post(TABLE + "/invites/{role}/rotate", response_model=TableOut)
def rotate_invite(table_id: int, role: Role, body: RotateIn, request: Request) -> TableOut:
    viewer = writer_for(request, table_id)
    service_of(request).rotate(viewer, role, disable=body.disable)
    return table_out(request, viewer)


@router.patch(TABLE + "/members/{member_id}", response_model=MemberOut)
def update_member(table_id: int, member_id: int, body: MemberPatch, request: Request) -> MemberOut:
    viewer = writer_for(request, table_id)
    member = service_of(request).update_member(
        viewer, member_id, revoked=body.revoked, grant_all=body.grant_all
    )
    return _member(member)


@router.get(TABLE + "/characters", response_model=list[CharacterOut])
def list_characters(table_id: int, request: Request) -> list[dict[str, Any]]:
    viewer = viewer_for(request, table_id)
    rows = service_of(request).characters(viewer)
    return [character_summary(request, viewer, row) for row in rows]


@router.post(TABLE + "/characters", response_model=CharacterDetailOut, status_code=201)
def create_character(table_id: int, body: CharacterIn, request: Request) -> dict[str, Any]:
    viewer = writer_for(request, table_id)
    row = service_of(request).new_character(viewer, body.name, body.sheet)
    return character_detail(request, viewer, row)


@router.get(CHAR, response_model=CharacterDetailOut)
def get_character(table_id: int, character_id: int, request: Request) -> dict[str, Any]:
    viewer = viewer_for(request, table_id)
    row = service_of(request).character(viewer, character_id)
    return character_detail(request, viewer, row)


@router.patch(CHAR, response_model=CharacterDetailOut)
def edit_character(
    table_id: int, character_id: int, body: SheetEditIn, request: Request
) -> dict[str, Any]:
    """Change fields of the sheet from a form, as the character page does."""
    viewer = writer_for(request, table_id)
    edited = service_of(request).edit_sheet(viewer, character_id, body.form, body.version)
    return character_detail(request, viewer, edited)


@router.put(CHAR + "/sheet", response_model=CharacterDetailOut)
def replace_sheet(
    table_id: int, character_id: int, body: SheetIn, request: Request
) -> dict[str, Any]:
    """Put a whole sheet (an imported character file) in place of the stored one."""
    service, viewer = service_of(request), writer_for(request, table_id)
    return character_detail(
        request, viewer, service.replace_sheet(viewer, character_id, body.sheet, body.version)
    )


@router.put(CHAR + "/owner", response_model=CharacterOut)
def set_owner(table_id: int, character_id: int, body: OwnerIn, request: Request) -> dict[str, Any]:
    viewer = writer_for(request, table_id)
    row = service_of(request).set_owner(viewer, character_id, body.owner_id)
    return character_summary(request, viewer, row)


@router.get(CHAR + "/export", response_model=dict[str, Any])
def export_character(table_id: int, character_id: int, request: Request) -> Response:
    viewer = viewer_for(request, table_id)
    row = service_of(request).character(viewer, character_id)
    body = json.dumps(row.sheet, indent=2, ensure_ascii=False) + "\n"
    filename = "".join(ch for ch in row.name if ch.isalnum() or ch in "-_") or "character"
    headers = {"Content-Disposition": f'attachment; filename="{filename}.json"'}
    return Response(body, media_type="application/json", headers=headers)


@router.get(TABLE + "/entries/{entry_id}", response_model=EntryOut)
def get_entry(table_id: int, entry_id: int, request: Request) -> Entry:
    return _entry(request, viewer_for(request, table_id), entry_id)


@router.post(TABLE + "/entries/{entry_id}/keep", response_model=EntryOut, status_code=201)
def keep(table_id: int, entry_id: int, request: Request) -> Entry:
    """Keep a result as it stands: a new entry that closes its follow-ups, nothing spent."""
    viewer = writer_for(request, table_id)
    return _written(request, viewer, service_of(request).keep(viewer, entry_id))


@router.post(TABLE + "/scene/close", response_model=EntryOut, status_code=201)
def close_scene(table_id: int, request: Request) -> Entry:
    """The game master ends the scene: every result's open follow-ups close."""
    viewer = writer_for(request, table_id)
    return _written(request, viewer, service_of(request).close_scene(viewer))


@router.post(TABLE + "/entries/{entry_id}/void", response_model=EntryOut, status_code=201)
def void(table_id: int, entry_id: int, request: Request) -> Entry:
    """The game master voids a roll: a new entry that marks it void, never a deletion."""
    viewer = writer_for(request, table_id)
    return _written(request, viewer, service_of(request).void(viewer, entry_id))


@router.post(TABLE + "/entries/{entry_id}/reveal", response_model=EntryOut, status_code=201)
def reveal(table_id: int, entry_id: int, request: Request) -> Entry:
    """The game master shows a blind or GM-only result to the table (a new public entry)."""
    viewer = writer_for(request, table_id)
    return _written(request, viewer, service_of(request).reveal(viewer, entry_id))


@router.get(TABLE + "/actions", response_model=list[ActionView])
def table_actions(table_id: int, request: Request) -> list[ActionView]:
    viewer = viewer_for(request, table_id)
    service_of(request).require_gm(viewer)
    return list(service_of(request).game(viewer.table.ruleset).table.table_actions())


@router.post(TABLE + "/actions/{action}", response_model=EntryOut, status_code=201)
def table_action(table_id: int, action: str, body: ActionIn, request: Request) -> Entry:
    service, viewer = service_of(request), writer_for(request, table_id)
    acted = service.table_act(viewer, action, body.params, body.privacy, _dice(body.dice))
    return _written(request, viewer, acted)


@router.post(TABLE + "/creation", response_model=CreationOut)
def creation(table_id: int, body: CreationIn, request: Request) -> dict[str, Any]:
    viewer = writer_for(request, table_id)
    service = service_of(request)
    result = advance(service, viewer, pending(service, viewer, body.state), body.form)
    made = result.character
    return {
        "title": result.step.title,
        "fields": list(result.step.fields),
        "notes": list(result.step.notes),
        "state": result.state,
        "character": None if made is None else character_summary(request, viewer, made),
    }


@router.get(TABLE + "/log", response_model=LogPageOut)
def log_page(
    table_id: int,
    request: Request,
    before: int | None = Query(None, ge=1, le=MAX_SEQ),
    limit: int = Query(50, ge=1, le=200),
) -> dict[str, Any]:
    viewer = viewer_for(request, table_id)
    entries = service_of(request).store.entries(table_id, viewer.scope, before=before, limit=limit)
    more = len(entries) == limit
    return {
        "entries": entry_views(request, viewer, entries),
        "next_before": entries[-1].seq if entries and more else None,
    }


@router.get(
    TABLE + "/log/export",
    responses={200: {"content": {"application/json": {}, "text/csv": {}}}},
)
def export_log(
    table_id: int, request: Request, format: Literal["json", "csv"] = "json"
) -> Response:
    """JSON: the hash-chained log that ``rulebound verify`` checks (``trust.export``); CSV: the
    entries you may see, one row each."""
    viewer = viewer_for(request, table_id)
    store = service_of(request).store
    name = f"table-{table_id}-log.{format}"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    if format == "json":
        document = export_document(service_of(request), viewer)
        body = export_text(document)
        return Response(body, media_type="application/json", headers=headers)
    entries = store.entries(table_id, viewer.scope, after=0, limit=1_000_000)
    views = entry_views(request, viewer, entries)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    writer.writerows(csv_row(v) for v in views)
    return Response(out.getvalue(), media_type="text/csv", headers=headers)


@router.get(
    TABLE + "/feed",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}, "description": "Server-sent events"}},
)
async def feed(
    table_id: int,
    request: Request,
    after: int | None = Query(None, ge=0, le=MAX_SEQ, description="Resume after this seq"),
    follow: bool = Query(True, description="false: send what is there, then close"),
    last_event_id: str | None = Header(None),
) -> StreamingResponse:
    """Entries after ``Last-Event-ID`` (or ``after``) that you may see, then live ones."""
    viewer = await run_in_threadpool(viewer_for, request, table_id)
    start = after if after is not None else resume_after(last_event_id)
    return StreamingResponse(
        event_stream(request, viewer, start, follow),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def resume_after(last_event_id: str | None) -> int:
    """The seq a reconnecting feed resumes after (``Last-Event-ID``; none: the start)."""
    if not last_event_id:
        return 0
    if last_event_id.isascii() and last_event_id.isdigit() and int(last_event_id) <= MAX_SEQ:
        return int(last_event_id)
    raise InvalidInput("Last-Event-ID", shown(last_event_id), f"a seq from 0 to {MAX_SEQ}")


def event_stream(
    request: Request, viewer: Viewer, start: int, follow: bool
) -> AsyncIterator[bytes]:
    """The table's live feed for ``viewer``, pushed by this process's hub (``web/hub.py``)."""
    hub: Hub = request.app.state.hub
    return hub.stream(viewer, start, follow=follow)
