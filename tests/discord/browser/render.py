"""A Discord message (an interaction answer's ``data``) as HTML that looks like Discord's:
content, embeds with their colour bar and fields, buttons and select menus. Tests render
each answer with it and screenshot the page for docs/discord.md."""

from __future__ import annotations

import html
import re
from typing import Any

STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger"}
CSS = """
body { background: #313338; color: #dbdee1; font: 15px/1.4 "DejaVu Sans", sans-serif;
       margin: 0; padding: 16px; width: 640px; }
.msg { display: flex; gap: 12px; margin-bottom: 18px; }
.avatar { width: 40px; height: 40px; border-radius: 50%; background: #5865f2; flex: none; }
.who { font-weight: 600; color: #f2f3f5; } .who .tag { background: #5865f2; color: #fff;
       font-size: 10px; border-radius: 3px; padding: 1px 4px; margin-left: 4px; }
.used { color: #949ba4; font-size: 13px; }
.eph { color: #949ba4; font-size: 12px; margin-top: 4px; }
.embed { background: #2b2d31; border-left: 4px solid; border-radius: 4px; padding: 8px 12px;
         margin-top: 4px; max-width: 520px; }
.embed .t { font-weight: 700; color: #f2f3f5; margin-bottom: 4px; }
.embed .f { margin-top: 6px; } .embed .fn { font-weight: 700; font-size: 13px; color: #f2f3f5; }
.embed .fv, .embed .d { white-space: pre-wrap; font-size: 14px; }
.embed .foot { font-size: 12px; color: #949ba4; margin-top: 8px; }
.row { display: flex; gap: 8px; margin-top: 8px; flex-wrap: wrap; }
.btn { border-radius: 3px; padding: 4px 14px; color: #fff; font-size: 14px; }
.primary { background: #5865f2; } .secondary { background: #4e5058; }
.success { background: #248046; } .danger { background: #da373c; }
.select { background: #1e1f22; border-radius: 4px; padding: 8px; width: 400px; color: #949ba4; }
.select li { color: #dbdee1; list-style: none; padding: 2px 0; }
"""


def _md(text: str) -> str:
    escaped = html.escape(text)
    escaped = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", escaped)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", escaped)


def _embed(embed: dict[str, Any]) -> str:
    color = f"#{int(embed.get('color', 0x5865F2)):06x}"
    parts = [f'<div class="embed" style="border-color:{color}">']
    if embed.get("title"):
        parts.append(f'<div class="t">{_md(embed["title"])}</div>')
    if embed.get("description"):
        parts.append(f'<div class="d">{_md(embed["description"])}</div>')
    for field in embed.get("fields", []):
        parts.append(
            f'<div class="f"><div class="fn">{_md(field["name"])}</div>'
            f'<div class="fv">{_md(field["value"])}</div></div>'
        )
    if embed.get("footer"):
        parts.append(f'<div class="foot">{_md(embed["footer"]["text"])}</div>')
    return "".join(parts) + "</div>"


def _component(c: dict[str, Any]) -> str:
    if c["type"] == 2:
        return f'<span class="btn {STYLES[c.get("style", 2)]}">{html.escape(c["label"])}</span>'
    items = "".join(f"<li>☐ {html.escape(o['label'])}</li>" for o in c.get("options", []))
    return f'<div class="select">{html.escape(c.get("placeholder", ""))}<ul>{items}</ul></div>'


def message(data: dict[str, Any], used: str) -> str:
    """One message: who answered, the command it answers, and what Discord would show."""
    body = [f'<div class="used">{html.escape(used)}</div>']
    body.append('<div class="who">rulebound<span class="tag">APP</span></div>')
    if data.get("content"):
        body.append(f"<div>{_md(data['content'])}</div>")
    body += [_embed(e) for e in data.get("embeds", [])]
    for row in data.get("components", []):
        body.append('<div class="row">' + "".join(_component(c) for c in row["components"]))
        body.append("</div>")
    if data.get("flags", 0) & 64:
        body.append('<div class="eph">Only you can see this</div>')
    return f'<div class="msg"><div class="avatar"></div><div>{"".join(body)}</div></div>'


def page(messages: list[str]) -> str:
    return f"<!doctype html><meta charset=utf-8><style>{CSS}</style><body>{''.join(messages)}"
