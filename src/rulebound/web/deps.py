"""Request plumbing shared by the API and the pages: the service, the viewer, entry views."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from starlette.requests import Request

from rulebound.store import CharacterRow, Contribution, LogEntry
from rulebound.web.auth import Viewer, check_csrf, check_role, find_viewer
from rulebound.web.security import Limiter
from rulebound.web.service import TableService, contribution_of
from rulebound.web.settings import Settings
from rulebound.web.views import context_for, entry_view


def service_of(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def viewer_for(request: Request, table_id: int) -> Viewer:
    service = service_of(request)
    return find_viewer(service.store, request, service.store.table(table_id))


def limiter_of(request: Request) -> Limiter:
    limiter: Limiter = request.app.state.limiter
    return limiter


def guarded_for(request: Request, table_id: int, sent_token: str | None = None) -> Viewer:
    """A seated member's unsafe request that writes nothing (chances): token and rate limits."""
    viewer = viewer_for(request, table_id)
    check_csrf(request, viewer, sent_token)
    limiter_of(request).member(viewer)
    return viewer


def writer_for(request: Request, table_id: int, sent_token: str | None = None) -> Viewer:
    """A seated member who may write: not an observer, with the token, within the limits.

    The origin was checked before (``security.OriginGuard``, app-wide); the role is
    checked before the rate limits, so refused writes never drain a table's budget.
    """
    viewer = viewer_for(request, table_id)
    check_csrf(request, viewer, sent_token)
    check_role(viewer)
    limiter_of(request).member(viewer)
    return viewer


def posted_dice(form: Mapping[str, Any]) -> Contribution | None:
    """A page form's contribution (``app.js`` adds it to every form that rolls dice)."""
    return contribution_of(form.get("contribution"), form.get("commitment"))


def entry_views(
    request: Request,
    viewer: Viewer,
    entries: Sequence[LogEntry],
    *,
    followed: set[int] | None = None,
) -> list[dict[str, Any]]:
    ctx = context_for(service_of(request).store, viewer, entries, followed)
    return [v for v in (entry_view(e, ctx) for e in entries) if v is not None]


def character_detail(request: Request, viewer: Viewer, row: CharacterRow) -> dict[str, Any]:
    rules = service_of(request).game(viewer.table.ruleset).table
    view = rules.sheet_view(row.sheet)
    may_edit = viewer.may_edit(row) and viewer.member.role != "observer"
    return {
        "id": row.id,
        "name": row.name,
        "owner_id": row.owner_id,
        "version": row.version,
        "may_edit": may_edit,
        "tracks": [list(t) for t in view.tracks],
        "sheet": row.sheet,
        "fields": list(view.fields),
        "values": dict(view.values),
        "dialog": list(rules.dialog(row.sheet)),
        "actions": list(rules.sheet_actions(row.sheet, viewer.table.variants)),
    }


def character_summary(request: Request, viewer: Viewer, row: CharacterRow) -> dict[str, Any]:
    rules = service_of(request).game(viewer.table.ruleset).table
    return {
        "id": row.id,
        "name": row.name,
        "owner_id": row.owner_id,
        "version": row.version,
        "may_edit": viewer.may_edit(row) and viewer.member.role != "observer",
        "tracks": [list(t) for t in rules.sheet_view(row.sheet).tracks],
        "sheet": row.sheet,
    }
