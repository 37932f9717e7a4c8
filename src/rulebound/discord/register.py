"""Send the command definitions to Discord: one bulk overwrite of the global commands.

``PUT {api}/applications/{application id}/commands`` with the bot token; the definitions
come from ``commands.definitions`` (every registered game). Only the standard library
speaks HTTP here; ``api`` is a parameter so tests point it at a local server.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.discord.commands import definitions
from rulebound.discord.signature import number
from rulebound.web.settings import TableGame

API = "https://discord.com/api/v10"
TIMEOUT_SECONDS = 30


def register(
    application_id: str, token: str, games: Mapping[str, TableGame], api: str = API
) -> list[dict[str, Any]]:
    """Overwrite the application's commands; Discord's answer (the commands it now has)."""
    if not number(application_id):
        raise InvalidInput("application id", application_id, "the application's numeric id")
    if not token.strip():
        raise InvalidInput("bot token", "", "the application's bot token (Bot page)")
    if not api.startswith(("https://", "http://")):
        raise InvalidInput("api", api, "Discord's API base URL (https://...)")
    body = json.dumps(definitions(games)).encode()
    request = urllib.request.Request(
        f"{api.rstrip('/')}/applications/{application_id}/commands",
        data=body,
        method="PUT",
        headers={
            "Authorization": f"Bot {token.strip()}",
            "Content-Type": "application/json",
            "User-Agent": "DiscordBot (https://github.com/rulebound, 0.1) rulebound",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
            registered: list[dict[str, Any]] = json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        said = exc.read().decode("utf-8", "replace")[:500]
        raise RuleViolation("register", f"Discord answered {exc.code}: {said}") from None
    except urllib.error.URLError as exc:
        raise RuleViolation("register", f"could not reach {api}: {exc.reason}") from None
    return registered
