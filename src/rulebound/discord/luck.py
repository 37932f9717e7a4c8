"""``/luck``: the member's own line of the story of the dice, to them alone.

The line is the ledger (``rulebound.ledger``) of the export this member would download from
the web table, the same figures as the page, the JSON API and ``rulebound ledger``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulebound.render.ledger_text import headline, line_lines

if TYPE_CHECKING:
    from rulebound.web.auth import Viewer
    from rulebound.web.service import TableService

COMMAND: dict[str, Any] = {
    "name": "luck",
    "type": 1,
    "description": "Your luck tonight against the exact odds of your checks (only you see it)",
}


def luck_text(service: TableService, viewer: Viewer) -> str:
    """The member's line in words, with the table's for comparison."""
    from rulebound.web.routes.ledger import viewer_ledger

    found, _ = viewer_ledger(service, viewer)
    mine = found.member(viewer.member.id)
    if mine is None:
        return f"**{viewer.member.name}**: no checks of yours yet at **{viewer.table.name}**."
    lines = line_lines(mine)
    out = [f"**{viewer.member.name}** at **{viewer.table.name}**: {headline(mine)}."]
    out += [f"- {text.strip()}" for text in lines[1:]]
    out.append(f"The whole table: {headline(found.whole)}.")
    return "\n".join(out)
