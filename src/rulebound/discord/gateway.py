"""Discord's interactions over the gateway: the bot connects out, so no public address is needed.

hikari keeps the websocket (identify, heartbeat, reconnect, resume). The bot asks for no
intents: all Discord then sends it is interactions and the gateway's own events. Each
``INTERACTION_CREATE`` arrives as the raw dict the interactions URL would be sent; the one
``Interactions.handle`` answers it, in a thread (it reads and writes the database), and the
answer goes to Discord's interaction callback as the same JSON body the URL returns. So
both transports give the same answers, and a test holds them to it.

An interaction is answered once: its id is kept in the table's database, as the URL's are
(``Store.first_interaction``), so one delivered again (a resumed session, a second bot
process) is not rolled twice. One older than the URL's timestamp window is not answered
at all: its id may have been pruned, and Discord takes a first answer within seconds only.
"""

from __future__ import annotations

import asyncio
import logging
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import hikari
from fastapi import FastAPI
from starlette.responses import JSONResponse

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput
from rulebound.discord.interactions import Interactions
from rulebound.discord.signature import MAX_AGE_SECONDS, number

API = hikari.urls.REST_API_URL
TOKEN_ENV = "RULEBOUND_DISCORD_TOKEN"
INTERACTION_CREATE = "INTERACTION_CREATE"
CALLBACK_SECONDS = 10.0
USER_AGENT = "DiscordBot (https://github.com/rulebound, 0.1) rulebound"

log = logging.getLogger(__name__)

Payload = Mapping[str, Any]
"""An interaction, as Discord sends it (the same dict over either transport)."""
Answer = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Bot:
    """What the gateway connection needs: the bot token (out of every repr, so of every
    log line) and Discord's API base URL (tests point it at a local fake)."""

    token: str = field(repr=False)
    api: str = API


class Gateway:
    """The bot's connection: delivers each interaction to ``handler`` and sends its answer."""

    def __init__(
        self, handler: Interactions, bot: Bot, now: Callable[[], float] = time.time
    ) -> None:
        self.handler = handler
        self.api = bot.api.rstrip("/")
        self.now = now
        try:
            self.client = hikari.GatewayBot(
                bot.token,
                intents=hikari.Intents.NONE,
                rest_url=self.api,
                cache_settings=hikari.impl.CacheSettings(
                    components=hikari.api.CacheComponents.NONE
                ),
                banner=None,
                logs=None,  # the host configures logging, not the library
                suppress_optimization_warning=True,
            )
        except ValueError:  # hikari reads the bot's id from the token's first part
            raise InvalidInput("bot token", "", "the application's bot token (Bot page)") from None
        self.client.subscribe(hikari.ShardPayloadEvent, self.delivered)
        self.session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        """Connect, and return once the session is ready (hikari raises if it cannot be)."""
        timeout = aiohttp.ClientTimeout(total=CALLBACK_SECONDS)
        self.session = aiohttp.ClientSession(timeout=timeout, headers={"User-Agent": USER_AGENT})
        try:
            await self.client.start(check_for_updates=False)
        except BaseException:
            await self.stop()
            raise

    async def join(self) -> None:
        """Until the connection ends for good (closed, or refused by Discord)."""
        await self.client.join()

    async def stop(self) -> None:
        if self.client.is_alive:
            await self.client.close()
        if self.session is not None:
            await self.session.close()
            self.session = None

    async def delivered(self, event: hikari.ShardPayloadEvent) -> None:
        if event.name != INTERACTION_CREATE:
            return
        payload = dict(event.payload)
        answer = await self.answer(payload)
        if answer is not None:
            await self.respond(payload, answer)

    async def answer(self, payload: Payload) -> Answer | None:
        """The answer to ``payload``; None for one not to answer (said in the log, by id)."""
        interaction = payload.get("id")
        if not isinstance(interaction, str) or not number(interaction):
            log.warning("an interaction without an id is not answered")
            return None
        made = int(hikari.Snowflake(interaction).created_at.timestamp())
        now = int(self.now())
        if abs(now - made) > MAX_AGE_SECONDS:
            log.warning("interaction %s is %d s old: not answered", interaction, now - made)
            return None
        store = self.handler.store
        oldest = now - MAX_AGE_SECONDS - 1
        if not await asyncio.to_thread(store.first_interaction, interaction, made, oldest):
            log.info("interaction %s was answered before: not answered again", interaction)
            return None
        try:
            return await asyncio.to_thread(self.handler.handle, payload)
        except (AttributeError, TypeError, KeyError, ValueError):
            # Discord's, yet not the shape documented (the URL answers it 400)
            log.warning("interaction %s is not one rulebound reads: not answered", interaction)
            return None

    async def respond(self, payload: Payload, answer: Answer) -> None:
        """Send ``answer`` to the interaction's callback (no bot token: the interaction's own
        token, in the path, is its authority); a refusal is logged, never the token."""
        interaction = str(payload["id"])
        token = urllib.parse.quote(str(payload.get("token") or ""), safe="")
        url = f"{self.api}/interactions/{interaction}/{token}/callback"
        body = JSONResponse(to_jsonable(answer)).body  # byte for byte what the URL returns
        assert self.session is not None, "the gateway is not started"
        try:
            async with self.session.post(
                url, data=body, headers={"Content-Type": "application/json"}
            ) as response:
                if response.status >= 400:
                    log.warning(
                        "Discord refused the answer to interaction %s: %s",
                        interaction,
                        response.status,
                    )
        except (aiohttp.ClientError, TimeoutError) as exc:
            # the exception's class only: its text may hold the URL, the interaction's token
            name = type(exc).__name__
            log.warning("the answer to interaction %s was not sent: %s", interaction, name)


def attach(app: FastAPI, bot: Bot) -> Gateway:
    """Keep the gateway connection for as long as ``app`` runs: connected after the app's
    own startup (its store open), closed before its shutdown."""
    handler = getattr(app.state, "discord", None) or Interactions(app.state.service)
    gateway = Gateway(handler, bot)
    app.state.gateway = gateway
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        async with inner(app) as state:
            await gateway.start()
            try:
                yield state
            finally:
                await gateway.stop()

    app.router.lifespan_context = lifespan
    return gateway


async def run(app: FastAPI) -> None:
    """``app`` without its HTTP server: its lifespan (the store, the feed's backplane, the
    gateway connection ``attach`` added) until cancelled or the connection ends for good."""
    async with app.router.lifespan_context(app):
        gateway: Gateway = app.state.gateway
        await gateway.join()
