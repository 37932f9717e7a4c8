"""The story of the dice: each member's luck against the exact odds, on the table's page and
in the JSON API (``GET /api/tables/ID/ledger``).

Both are the ledger (``rulebound.ledger``) of the export this viewer would download
(``fairness.export_document``): what it counts is what that export shows them, so a hidden
roll of someone else's changes nothing of it, not even a count, and ``rulebound ledger`` on
that export gives the same figures.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from rulebound.ledger import Ledger, ledger, ledger_json
from rulebound.render import ledger_svg
from rulebound.render.ledger_text import (
    bought_words,
    decision_words,
    headline,
    percent,
    run_words,
)
from rulebound.web.auth import Viewer
from rulebound.web.deps import service_of, viewer_for
from rulebound.web.routes.fairness import export_document
from rulebound.web.routes.models import error_responses
from rulebound.web.security import api_router, page_router
from rulebound.web.service import TableService

ERRORS = error_responses("No such table", "Not used: the ledger writes nothing")
router = api_router("/api/tables/{table_id}", ERRORS, "table")
pages = page_router()
CURVES = 3
"""The latest sessions whose curve the page draws."""


def viewer_ledger(service: TableService, viewer: Viewer) -> tuple[Ledger, int]:
    """The ledger of this viewer's export, and the last seq they may see (the feed's start)."""
    doc = export_document(service, viewer)
    seen = [e["seq"] for e in doc["entries"] if not e.get("withheld")]
    game = service.game(viewer.table.ruleset).table.game
    return ledger(doc, game), max(seen, default=0)


@router.get("/ledger", response_model=dict[str, Any])
def get_ledger(table_id: int, request: Request) -> dict[str, Any]:
    """The story of the dice: per member, character and session and for the whole table, the
    checks made, the successes expected (exact) and had, where that lands among every way the
    same checks could have gone (``luckier_than``), calibration, runs, the decisions' worth
    and the game's outcomes; from the entries you may see, as your log export shows them."""
    viewer = viewer_for(request, table_id)
    return ledger_json(viewer_ledger(service_of(request), viewer)[0])


def story_context(found: Ledger, viewer: Viewer) -> dict[str, Any]:
    """What the page shows: the figures in words and the charts as SVG."""
    mine = found.member(viewer.member.id)
    members = [line for _, line in found.members]
    return {
        "ledger": found,
        "mine": mine,
        "whole": found.whole,
        "members": members,
        "sessions": [line for _, line in found.sessions],
        "headline": headline,
        "percent": percent,
        "runs": run_words,
        "bought": bought_words,
        "decision": decision_words,
        "places_svg": Markup(ledger_svg.places_svg(members)),
        "calibration_svg": Markup(ledger_svg.calibration_svg(found.whole.calibration)),
        "curves": [
            (line.name, Markup(ledger_svg.curve_svg(line)))
            for _, line in found.sessions[-CURVES:][::-1]
        ],
    }


async def _story(request: Request, table_id: int, template: str) -> HTMLResponse:
    viewer = await run_in_threadpool(viewer_for, request, table_id)
    found, after = await run_in_threadpool(viewer_ledger, service_of(request), viewer)
    templates = request.app.state.templates
    context = story_context(found, viewer) | {"viewer": viewer, "table": viewer.table}
    response: HTMLResponse = templates.TemplateResponse(
        request, template, context | {"after": after}
    )
    return response


@pages.get("/t/{table_id}/story", response_class=HTMLResponse)
async def story_page(table_id: int, request: Request) -> HTMLResponse:
    return await _story(request, table_id, "story.html")


@pages.get("/t/{table_id}/story/fragment", response_class=HTMLResponse)
async def story_fragment(table_id: int, request: Request) -> HTMLResponse:
    """The page's figures and charts alone: the page fetches them again as the log grows."""
    return await _story(request, table_id, "_story.html")
