"""HTML pages for tables: home, joining, the table with its live feed, the log, GM tools.

Actions are plain form POSTs that redirect back (303), so every page works
without JavaScript; ``static/app.js`` adds the live feed and live odds.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any, TypeVar

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from rulebound.core.dice import parse as parse_dice
from rulebound.core.errors import InvalidInput, RuleboundError, RuleViolation
from rulebound.render.words import plain
from rulebound.rulesets.contract import Field
from rulebound.rulesets.forms import initial_values as form_values
from rulebound.rulesets.forms import parse_html_form as parse_form
from rulebound.rulesets.turns import state_json
from rulebound.store import ROLES, CharacterRow, NotFound, Role
from rulebound.web.auth import CSRF_FIELD, Forbidden, Viewer, cookie_name
from rulebound.web.caps import clean_name
from rulebound.web.creation import has_guided_creation
from rulebound.web.deps import (
    character_summary,
    entry_views,
    posted_dice,
    service_of,
    viewer_for,
    writer_for,
)
from rulebound.web.play import (
    close_superseded,
    counters,
    expression_odds,
    qr_svg,
    quick_basis,
    quick_rolls,
    roster_choices,
    variant_words,
)
from rulebound.web.play import posted as posted_values
from rulebound.web.routes.fairness import dice_state
from rulebound.web.security import limit_anonymous, page_router
from rulebound.web.service import Seat, TableService
from rulebound.web.views import chances_view

router = page_router()
T = TypeVar("T")
WHISPER = "whisper:"
"""The talk form's "To" value of a whisper: ``whisper:`` and the member's id."""
COOKIE_AGE = 60 * 60 * 24 * 365


async def off_loop(fn: Callable[[], T]) -> T:
    """Run store-bound work in the thread pool, off the event loop."""
    return await run_in_threadpool(fn)


def page(request: Request, name: str, code: int = 200, **context: Any) -> HTMLResponse:
    templates = request.app.state.templates
    response: HTMLResponse = templates.TemplateResponse(request, name, context, status_code=code)
    return response


def back(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def seat_cookie(request: Request, response: Response, seat: Seat) -> Response:
    """The session cookie: HttpOnly, SameSite=Lax, and Secure when served over https."""
    response.set_cookie(
        cookie_name(seat.table.id),
        seat.session,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return response


async def posted(request: Request, table_id: int) -> tuple[Viewer, FormData]:
    form = await request.form()
    token = form.get(CSRF_FIELD)
    viewer = await off_loop(
        lambda: writer_for(request, table_id, token if isinstance(token, str) else None)
    )
    return viewer, form


def return_to(form: FormData, table_id: int) -> str | None:
    """Where a form asks to go back to after its play (the page it was on), if that is a
    page of this table: a roll made from the sheet stays on the sheet."""
    target = form.get("next")
    prefix = f"/t/{table_id}"
    if not isinstance(target, str) or not (target == prefix or target.startswith(prefix + "/")):
        return None
    if "//" in target or "\\" in target or len(target) > 200 or not target.isascii():
        return None
    return target


def your_tables(request: Request) -> list[dict[str, Any]]:
    service, seats = service_of(request), []
    for name, token in request.cookies.items():
        suffix = name.removeprefix("rb_table_")
        if suffix == name or not suffix.isdecimal():
            continue
        member = service.store.member_by_session(int(suffix), token)
        if member and not member.revoked:
            seats.append({"table": service.store.table(member.table_id), "member": member})
    return seats


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    service = service_of(request)
    seats = await off_loop(lambda: your_tables(request))
    return page(request, "home.html", games=list(service.games.values()), seats=seats, error=None)


@router.get("/favicon.ico")
async def favicon() -> RedirectResponse:
    """Where a browser looks for an icon unasked (a JSON answer opened in a tab): ours."""
    return RedirectResponse("/static/favicon.svg", status_code=301)


@router.post("/tables", dependencies=[Depends(limit_anonymous)])
async def create_table(request: Request) -> Response:
    form = await request.form()
    ruleset = str(form.get("ruleset", ""))
    prefix = f"variant.{ruleset}."
    variants = {k.removeprefix(prefix): str(v) for k, v in form.items() if k.startswith(prefix)}
    service = service_of(request)
    try:
        seat = await off_loop(
            lambda: service.create_table(
                str(form.get("name", "")),
                ruleset,
                variants,
                observers=form.get("observers") == "on",
                gm_name=str(form.get("gm_name", "")),
            )
        )
    except InvalidInput as exc:
        games = list(service.games.values())
        shown = plain(exc)
        return page(request, "home.html", 400, games=games, seats=[], error=shown, form=form)
    return seat_cookie(request, back(f"/t/{seat.table.id}"), seat)


@router.get("/join/{token}", response_class=HTMLResponse, name="join_page")
async def join_page(token: str, request: Request) -> HTMLResponse:
    service = service_of(request)
    table, role = await off_loop(lambda: service.store.table_by_token(token))
    current = await off_loop(lambda: _current_member(request, table.id))
    return page(request, "join.html", table=table, role=role, token=token, current=current)


def _current_member(request: Request, table_id: int) -> Any:
    try:
        return viewer_for(request, table_id).member
    except Forbidden:
        return None


@router.post("/join/{token}", dependencies=[Depends(limit_anonymous)])
async def join(token: str, request: Request) -> Response:
    form = await request.form()
    service = service_of(request)
    seat = await off_loop(lambda: service.join(token, str(form.get("name", ""))))
    character = str(form.get("character", "")).strip()
    if character and seat.member.role == "player":
        # a ready sheet of the player's own at once: the table then offers its rolls
        viewer = Viewer(seat.table, seat.member, "", via_cookie=False)
        with suppress(RuleboundError):  # seated all the same; "New character" can retry
            await off_loop(lambda: starter(service, viewer, character))
    return seat_cookie(request, back(f"/t/{seat.table.id}"), seat)


def starter(service: TableService, viewer: Viewer, name: str) -> CharacterRow:
    """A ready-made sheet (``Sheets.starter``) of the viewer's own, named ``name``."""
    sheets = service.game(viewer.table.ruleset).table.sheets
    return service.new_character(viewer, None, sheets.starter(clean_name("name", name)))


@router.post("/t/{table_id}/characters/starter")
async def new_starter(table_id: int, request: Request) -> Response:
    """One click from a fresh seat to a sheet whose quick rolls work: the table shows them."""
    viewer, form = await posted(request, table_id)
    name = str(form.get("name", "")) or viewer.member.name
    row = await off_loop(lambda: starter(service_of(request), viewer, name))
    return back(f"/t/{table_id}#c{row.id}")


def side_context(request: Request, viewer: Viewer) -> dict[str, Any]:
    """The panel beside the feed: the characters (one-click rolls and the dialog in place
    for those the viewer plays), who is seated, and the table's counters."""
    service = service_of(request)
    rows = service.characters(viewer)
    rules = service.game(viewer.table.ruleset).table
    characters = []
    for row in rows:
        summary = character_summary(request, viewer, row)
        if summary["may_edit"]:
            summary |= dialog_context(service, viewer, row)
        characters.append(summary)
    members = service.members(viewer)
    return {
        "viewer": viewer,
        "characters": characters,
        "members": members,
        "counters": counters(members, len(rows)),
        "roster": roster_choices(rows),
        "table_actions": rules.table_actions() if viewer.is_gm else (),
    }


def dialog_context(service: TableService, viewer: Viewer, row: CharacterRow) -> dict[str, Any]:
    """A character's one-click rolls, and its roll dialog on its defaults with their odds."""
    rules = service.game(viewer.table.ruleset).table
    dialog = rules.dialog(row.sheet)
    values = form_values(dialog, rules.sheets.dialog_values(row.sheet))
    shown: dict[str, Any] = {"dialog": dialog, "dialog_values": values, "chance_error": None}
    try:
        found = rules.chances(row.sheet, values, viewer.table.variants)
        shown["chances"] = chances_view(found)["chances"]
    except RuleboundError as exc:
        shown["chances"], shown["chance_error"] = [], plain(exc, dialog)
    quick = quick_rolls(service, viewer, row)
    names = {name for q in rules.sheets.quick_rolls(row.sheet) for name in q.values}
    return shown | {"quick": quick, "basis": quick_basis(dialog, values, names)}


def table_context(request: Request, viewer: Viewer) -> dict[str, Any]:
    service = service_of(request)
    table = service.store.table(viewer.table.id)
    entries = service.store.entries(table.id, viewer.scope, limit=30)
    game = service.game(table.ruleset)
    return (
        side_context(request, viewer)
        | {
            "table": table,
            "game": game,
            "variant_words": variant_words(service, table.ruleset, table.variants),
            "entries": close_superseded(entry_views(request, viewer, entries)),
            "after": entries[0].seq if entries else 0,
            "older": entries[-1].seq if len(entries) == 30 else None,
            "guided": has_guided_creation(service, table.ruleset),
            "roles": ROLES,
            "dice": dice_state(service, table.id),
        }
        | turns_context(request, viewer)
    )


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table_page(table_id: int, request: Request) -> HTMLResponse:
    viewer = await off_loop(lambda: viewer_for(request, table_id))
    context = await off_loop(lambda: table_context(request, viewer))
    return page(request, "table.html", **context)


@router.get("/t/{table_id}/log", response_class=HTMLResponse)
async def log_page(table_id: int, request: Request, before: int | None = None) -> HTMLResponse:
    viewer = await off_loop(lambda: viewer_for(request, table_id))
    size = request.app.state.settings.page_size
    store = service_of(request).store
    entries = await off_loop(
        lambda: store.entries(table_id, viewer.scope, before=before, limit=size)
    )
    views = await off_loop(lambda: close_superseded(entry_views(request, viewer, entries)))
    older = entries[-1].seq if len(entries) == size else None
    return page(request, "log.html", viewer=viewer, table=viewer.table, entries=views, older=older)


@router.get("/t/{table_id}/invites/{role}/qr.svg")
async def invite_qr(table_id: int, role: Role, request: Request) -> Response:
    """An invite link as a QR code (SVG, drawn here): the game master's to show."""
    viewer = await off_loop(lambda: viewer_for(request, table_id))
    service_of(request).require_gm(viewer)
    token = viewer.table.token_for(role)
    if token is None:
        raise RuleViolation("invite", "this link is switched off")
    link = str(request.url_for("join_page", token=token))
    headers = {"Cache-Control": "no-store"}
    return Response(qr_svg(link), media_type="image/svg+xml", headers=headers)


@router.post("/t/{table_id}/invites/{role}")
async def rotate_invite(table_id: int, role: Role, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    disable = form.get("disable") == "on"
    await off_loop(lambda: service_of(request).rotate(viewer, role, disable=disable))
    return back(f"/t/{table_id}?invites=open#invites")  # the links unfolded, as they were


@router.post("/t/{table_id}/members/{member_id}")
async def update_member(table_id: int, member_id: int, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    flags = {k: form.get(k) == "on" if k in form else None for k in ("revoked", "grant_all")}
    service = service_of(request)
    await off_loop(
        lambda: service.update_member(
            viewer, member_id, revoked=flags["revoked"], grant_all=flags["grant_all"]
        )
    )
    return back(f"/t/{table_id}#members")


@router.post("/t/{table_id}/act/{action}")
async def table_action(table_id: int, action: str, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    service = service_of(request)
    view = next(
        (a for a in service.game(viewer.table.ruleset).table.table_actions() if a.key == action),
        None,
    )
    rows = await off_loop(lambda: service.characters(viewer))
    params = posted_values(view.fields if view else (), form, rows)
    privacy = form.get("privacy", "public")
    dice = posted_dice(form)
    entry = await off_loop(lambda: service.table_act(viewer, action, params, privacy, dice))
    return back(f"/t/{table_id}#e{entry.id}")


@router.post("/t/{table_id}/e/{entry_id}/act/{action}")
async def follow_up(table_id: int, entry_id: int, action: str, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    service = service_of(request)
    parent = await off_loop(lambda: service.store.entry(table_id, entry_id))
    card_actions = (parent.card or {}).get("actions", []) if viewer.sees_fully(parent) else []
    fields: list[dict[str, Any]] = next(
        (a.get("fields", []) for a in card_actions if a.get("key") == action), []
    )
    params = parse_form([_field(f) for f in fields], form)
    dice = posted_dice(form)
    entry = await off_loop(lambda: service.follow_up(viewer, entry_id, action, params, dice))
    return back(return_to(form, table_id) or f"/t/{table_id}#e{entry.id}")


@router.post("/t/{table_id}/scene/close")
async def close_scene(table_id: int, request: Request) -> Response:
    """The game master ends the scene: every open follow-up closes (a new entry)."""
    viewer, form = await posted(request, table_id)
    entry = await off_loop(lambda: service_of(request).close_scene(viewer))
    return back(return_to(form, table_id) or f"/t/{table_id}#e{entry.id}")


@router.post("/t/{table_id}/talk")
async def talk(table_id: int, request: Request) -> Response:
    """A message to the table, an emote, or "/r 2d6+3": a free roll with the table's dice.
    "To" is a privacy mode, or "whisper:ID": a whisper to that member."""
    viewer, form = await posted(request, table_id)
    text, privacy = str(form.get("text", "")), form.get("privacy", "public")
    to = None
    if isinstance(privacy, str) and privacy.startswith(WHISPER):
        whom = privacy.removeprefix(WHISPER)
        privacy, to = "whisper", int(whom) if whom.isdecimal() else -1
    dice = posted_dice(form)
    service = service_of(request)
    entry = await off_loop(lambda: service.talk(viewer, text, privacy, dice, to=to))
    return back(return_to(form, table_id) or f"/t/{table_id}#e{entry.id}")


def turns_context(request: Request, viewer: Viewer) -> dict[str, Any]:
    """The turn order panel: the order as the log folds it, and what this viewer may do."""
    service = service_of(request)
    rows = service.characters(viewer)
    state = service.turn_order(viewer)
    current = state.current
    playing = {row.id for row in rows if viewer.may_edit(row)}
    mine = current is not None and current.character_id in playing
    may_end = viewer.member.role == "player" and mine
    rules = service.game(viewer.table.ruleset).table
    placed = {c.character_id for c in state.order}
    return {
        "viewer": viewer,
        "turns": state_json(state),
        "current": current,
        "may_end": may_end,
        "initiative": rules.has_initiative,
        "ruleset_title": rules.game.title,
        "fighters": [(row.id, row.name) for row in rows],
        "newcomers": [(row.id, row.name) for row in rows if row.id not in placed],
    }


PANELS: dict[str, tuple[str, Callable[[Request, Viewer], dict[str, Any]]]] = {
    "characters": ("_characters.html", side_context),
    "members": ("_members.html", side_context),
    "tools": ("_tools.html", side_context),
    "turns": ("_turns.html", turns_context),
}
"""The table page's panels a live update fetches again: each one's template and context."""


@router.get("/t/{table_id}/fragments/{panel}", response_class=HTMLResponse)
async def panel_fragment(table_id: int, panel: str, request: Request) -> HTMLResponse:
    """One panel of the table page, rendered again for this viewer."""
    if panel not in PANELS:
        raise NotFound("panel", panel)
    template, context_of = PANELS[panel]
    viewer = await off_loop(lambda: viewer_for(request, table_id))
    context = await off_loop(lambda: context_of(request, viewer))
    return page(request, template, table=viewer.table, **context)


TURN_FIELDS = ("others", "method", "die", "character", "name", "place", "key", "ends")


@router.post("/t/{table_id}/turns/{action}")
async def turn(table_id: int, action: str, request: Request) -> Response:
    """A move of the turn tracker from the table's panel (``TableService.turn``)."""
    viewer, form = await posted(request, table_id)
    params: dict[str, Any] = {k: str(form.get(k)) for k in TURN_FIELDS if form.get(k)}
    params["characters"] = [str(v) for v in form.getlist("characters")]
    dice = posted_dice(form)
    await off_loop(lambda: service_of(request).turn(viewer, action, params, dice))
    return back(return_to(form, table_id) or f"/t/{table_id}#turns")


@router.get("/t/{table_id}/talk/odds")
async def talk_odds(table_id: int, request: Request, text: str = "") -> JSONResponse:
    """The exact odds of a "/r" expression before it is rolled (reads nothing, writes nothing)."""
    await off_loop(lambda: viewer_for(request, table_id))
    try:  # bounded by the odds' caps, still off the loop: tens of milliseconds at most
        found = await off_loop(
            lambda: expression_odds(parse_dice(text.removeprefix("/r").strip(), "text"))
        )
    except InvalidInput as exc:
        return JSONResponse({"message": plain(exc)}, status_code=400)
    return JSONResponse({"odds": found})


@router.post("/t/{table_id}/e/{entry_id}/keep")
async def keep(table_id: int, entry_id: int, request: Request) -> Response:
    """Keep a result as it stands: its follow-ups close (a new entry, nothing spent)."""
    viewer, form = await posted(request, table_id)
    entry = await off_loop(lambda: service_of(request).keep(viewer, entry_id))
    return back(return_to(form, table_id) or f"/t/{table_id}#e{entry.id}")


@router.post("/t/{table_id}/e/{entry_id}/void")
async def void(table_id: int, entry_id: int, request: Request) -> Response:
    """The game master voids a roll (a new entry that marks it; nothing is deleted)."""
    viewer, form = await posted(request, table_id)
    entry = await off_loop(lambda: service_of(request).void(viewer, entry_id))
    return back(return_to(form, table_id) or f"/t/{table_id}#e{entry.id}")


@router.post("/t/{table_id}/e/{entry_id}/reveal")
async def reveal(table_id: int, entry_id: int, request: Request) -> Response:
    """The game master shows a blind or GM-only result to the table (a new entry)."""
    viewer, form = await posted(request, table_id)
    entry = await off_loop(lambda: service_of(request).reveal(viewer, entry_id))
    return back(return_to(form, table_id) or f"/t/{table_id}#e{entry.id}")


def _field(data: dict[str, Any]) -> Field:
    return Field(str(data["name"]), str(data.get("label", "")), data["kind"])
