"""HTML pages for one character: the sheet form, the roll dialog, sheet actions, import,
and guided creation. Validation errors come back beside the field they name."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from rulebound.core.canonical import UnreadableJSON, read_json
from rulebound.core.errors import InvalidInput, RuleboundError, RuleViolation
from rulebound.render.words import by_field, plain
from rulebound.rulesets.forms import initial_values as form_values
from rulebound.rulesets.forms import parse_html_form as parse_form
from rulebound.web.auth import CSRF_FIELD, Viewer
from rulebound.web.creation import StepResult, advance, pending
from rulebound.web.deps import (
    character_detail,
    entry_views,
    guarded_for,
    posted_dice,
    service_of,
    viewer_for,
)
from rulebound.web.play import close_superseded, quick_basis, quick_rolls, roster_choices
from rulebound.web.play import posted as posted_values
from rulebound.web.routes.pages import back, off_loop, page, posted, return_to
from rulebound.web.security import page_router
from rulebound.web.views import chances_view

router = page_router()
CHAR = "/t/{table_id}/c/{character_id}"


def _errors(fields: Any, exc: InvalidInput) -> dict[str, str]:
    return by_field(fields, exc)


def character_context(
    request: Request, viewer: Viewer, character_id: int, **extra: Any
) -> dict[str, Any]:
    service = service_of(request)
    row = service.character(viewer, character_id)
    detail = character_detail(request, viewer, row)
    opened = service.game(viewer.table.ruleset).table.sheets.dialog_values(row.sheet)
    dialog_values = form_values(detail["dialog"], extra.pop("dialog_values", opened))
    chances: list[dict[str, Any]] = []
    chance_error = None
    try:
        chances = chances_view(service.chances(viewer, row.id, dialog_values))["chances"]
    except RuleboundError as exc:
        chance_error = plain(exc, detail["dialog"])
    if detail["may_edit"]:
        quick = quick_rolls(service, viewer, row)
        names = {
            n
            for q in service.game(viewer.table.ruleset).table.sheets.quick_rolls(row.sheet)
            for n in q.values
        }
        detail |= {"quick": quick, "basis": quick_basis(detail["dialog"], dialog_values, names)}
    mine = list(service.store.entries(viewer.table.id, viewer.scope, limit=30))
    recent = close_superseded(entry_views(request, viewer, mine))
    context = {
        "viewer": viewer,
        "table": viewer.table,
        "recent": [e for e in recent if e["character_id"] == row.id and e["kind"] != "sheet"][:2],
        "c": detail,
        "sheet_values": detail["values"],
        "sheet_errors": {},
        "dialog_values": dialog_values,
        "dialog_errors": {},
        "chances": chances,
        "chance_error": chance_error,
        "import_error": None,
        "roster": roster_choices(service.characters(viewer)),
    }
    return context | extra


@router.post("/t/{table_id}/characters")
async def new_character(table_id: int, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    name = str(form.get("name", ""))
    row = await off_loop(lambda: service_of(request).new_character(viewer, name))
    return back(f"/t/{table_id}/c/{row.id}")


@router.post("/t/{table_id}/characters/import")
async def import_new(table_id: int, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    sheet = await _uploaded(form)
    row = await off_loop(lambda: service_of(request).new_character(viewer, None, sheet))
    return back(f"/t/{table_id}/c/{row.id}")


async def _uploaded(form: Any) -> dict[str, Any]:
    upload = form.get("file")
    text = form.get("sheet") or ""
    if upload is not None and not isinstance(upload, str):
        text = (await upload.read()).decode("utf-8", errors="replace") or text
        await upload.close()
    try:
        sheet = read_json(text)
    except UnreadableJSON as exc:
        raise InvalidInput("sheet", str(text)[:60], f"a character file in JSON ({exc})") from None
    if not isinstance(sheet, dict):
        raise InvalidInput("sheet", sheet, "a JSON object (a character file)")
    return sheet


async def _again(request: Request, viewer: Viewer, character_id: int, **shown: Any) -> HTMLResponse:
    """The character page again (400), with what was posted and what was wrong with it."""
    context = await off_loop(lambda: character_context(request, viewer, character_id, **shown))
    return page(request, "character.html", 400, **context)


@router.get(CHAR, response_class=HTMLResponse)
async def character_page(table_id: int, character_id: int, request: Request) -> HTMLResponse:
    viewer = await off_loop(lambda: viewer_for(request, table_id))
    context = await off_loop(lambda: character_context(request, viewer, character_id))
    return page(request, "character.html", **context)


@router.post(CHAR + "/sheet")
async def edit_sheet(table_id: int, character_id: int, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    service = service_of(request)
    row = await off_loop(lambda: service.editable(viewer, character_id))
    fields = service.game(viewer.table.ruleset).table.sheet_view(row.sheet).fields
    values = parse_form(fields, form)
    version = version_of(form.get("version", row.version))
    try:
        await off_loop(lambda: service.edit_sheet(viewer, character_id, values, version))
    except InvalidInput as exc:
        errors = _errors(fields, exc)
        return await _again(request, viewer, character_id, sheet_values=values, sheet_errors=errors)
    return back(f"/t/{table_id}/c/{character_id}#sheet")


@router.post(CHAR + "/import")
async def import_sheet(table_id: int, character_id: int, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    service = service_of(request)
    try:
        sheet = await _uploaded(form)
        await off_loop(lambda: service.replace_sheet(viewer, character_id, sheet, None))
    except InvalidInput as exc:
        title = service.game(viewer.table.ruleset).title
        return await _again(request, viewer, character_id, import_error=plain(exc, (), title))
    return back(f"/t/{table_id}/c/{character_id}#sheet")


def version_of(value: Any) -> int:
    text = str(value)
    if not (text.isascii() and text.isdigit() and len(text) < 10):
        raise InvalidInput("version", text[:40], "the sheet's version number")
    return int(text)


def _dialog_fields(request: Request, viewer: Viewer, character_id: int) -> Any:
    service = service_of(request)
    row = service.character(viewer, character_id)
    return service.game(viewer.table.ruleset).table.dialog(row.sheet)


def _dialog_values(request: Request, viewer: Viewer, fields: Any, form: Any) -> Any:
    """The dialog's posted values, a picked character as its sheet."""
    return posted_values(fields, form, service_of(request).characters(viewer))


@router.post(CHAR + "/chances")
async def chances(table_id: int, character_id: int, request: Request) -> JSONResponse:
    form = await request.form()
    token = form.get(CSRF_FIELD)
    viewer = await off_loop(
        lambda: guarded_for(request, table_id, token if isinstance(token, str) else None)
    )
    fields = await off_loop(lambda: _dialog_fields(request, viewer, character_id))
    try:
        values = await off_loop(lambda: _dialog_values(request, viewer, fields, form))
        found = await off_loop(lambda: service_of(request).chances(viewer, character_id, values))
    except (InvalidInput, RuleViolation) as exc:
        return JSONResponse({"detail": plain(exc, fields)}, status_code=400)
    return JSONResponse(chances_view(found))


@router.post(CHAR + "/roll")
async def roll(table_id: int, character_id: int, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    fields = await off_loop(lambda: _dialog_fields(request, viewer, character_id))
    try:
        values = await off_loop(lambda: _dialog_values(request, viewer, fields, form))
    except InvalidInput as exc:
        if request.headers.get("accept", "").startswith("application/json"):
            raise
        errors = _errors(fields, exc)
        return await _again(request, viewer, character_id, dialog_errors=errors)
    privacy = form.get("privacy", "public")
    dice = posted_dice(form)
    try:
        entry = await off_loop(
            lambda: service_of(request).roll(viewer, character_id, values, privacy, dice)
        )
    except InvalidInput as exc:
        if request.headers.get("accept", "").startswith("application/json"):
            raise  # a roll from the table: the error handler answers in JSON
        errors = _errors(fields, exc)
        return await _again(
            request, viewer, character_id, dialog_values=values, dialog_errors=errors
        )
    return back(return_to(form, table_id) or f"/t/{table_id}#e{entry.id}")


@router.post(CHAR + "/act/{action}")
async def sheet_action(table_id: int, character_id: int, action: str, request: Request) -> Response:
    viewer, form = await posted(request, table_id)
    service = service_of(request)
    row = await off_loop(lambda: service.character(viewer, character_id))
    rules = service.game(viewer.table.ruleset).table
    actions = rules.sheet_actions(row.sheet, viewer.table.variants)
    view = next((a for a in actions if a.key == action), None)
    rows = await off_loop(lambda: service.characters(viewer))
    params = posted_values(view.fields if view else (), form, rows)
    privacy = form.get("privacy", "public")
    dice = posted_dice(form)
    entry = await off_loop(
        lambda: service.sheet_act(viewer, character_id, action, params, privacy, dice)
    )
    return back(return_to(form, table_id) or f"/t/{table_id}#e{entry.id}")


@router.api_route("/t/{table_id}/create", methods=["GET", "POST"], response_class=HTMLResponse)
async def guided_creation(table_id: int, request: Request) -> Response:
    """Each step posts back its signed blob; an error re-shows that step, beside its field."""
    service = service_of(request)
    if request.method == "POST":
        viewer, form = await posted(request, table_id)
        blob = str(form.get("state", "")) or None
    else:
        viewer = await off_loop(lambda: viewer_for(request, table_id))
        form, blob = None, None
    last = await off_loop(lambda: pending(service, viewer, blob))
    values = parse_form(last.step.fields, form) if form is not None else {}
    try:
        result = await off_loop(lambda: advance(service, viewer, last, values))
    except (InvalidInput, RuleViolation) as exc:
        again = StepResult(last.step, blob or "", None)
        if isinstance(exc, InvalidInput):
            errors = by_field(last.step.fields, exc)
        else:
            errors = {"_form": plain(exc)}
        return page(
            request,
            "creation.html",
            400,
            viewer=viewer,
            table=viewer.table,
            result=again,
            values=values,
            errors=errors,
        )
    if result.character is not None:
        return back(f"/t/{table_id}/c/{result.character.id}")
    return page(
        request,
        "creation.html",
        viewer=viewer,
        table=viewer.table,
        result=result,
        values=form_values(result.step.fields, {}),
        errors={},
    )
