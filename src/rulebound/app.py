"""The whole server: the web table, and Discord where it is configured (its interactions
URL, its gateway connection, or both).

The web table knows nothing of Discord; Discord's app is built on the web table's service
(``web.service``). This is the one place that puts them together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI

from rulebound.web.app import create_app as create_web_app
from rulebound.web.settings import Settings

if TYPE_CHECKING:
    from rulebound.discord.gateway import Bot


def create_app(settings: Settings | None = None, bot: Bot | None = None) -> FastAPI:
    """``bot``: the app's lifespan also keeps a gateway connection with that bot token, so
    Discord's interactions reach the table with no public address (docs/discord.md)."""
    settings = settings or Settings.from_env()
    app = create_web_app(settings)
    if settings.discord_public_key:
        from rulebound.discord.interactions import mount

        mount(app, settings.discord_public_key)  # Discord's interactions URL (docs/discord.md)
    if bot is not None:
        from rulebound.discord.gateway import attach

        attach(app, bot)
    return app
