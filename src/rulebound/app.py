"""The whole server: the web table, and Discord's interactions URL where it is configured.

The web table knows nothing of Discord; Discord's app is built on the web table's service
(``web.service``). This is the one place that puts them together.
"""

from __future__ import annotations

from fastapi import FastAPI

from rulebound.web.app import create_app as create_web_app
from rulebound.web.settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    app = create_web_app(settings)
    if settings.discord_public_key:
        from rulebound.discord.interactions import mount

        mount(app, settings.discord_public_key)  # Discord's interactions URL (docs/discord.md)
    return app
