"""A local Discord for the gateway tests: the REST endpoints a bot calls and a gateway
websocket that speaks Discord's protocol, on 127.0.0.1 (aiohttp's server; aiohttp is
hikari's own dependency).

The gateway: Hello (op 10), Identify (op 2) answered by a READY dispatch, heartbeats
(op 1) acknowledged (op 11), dispatches (op 0) numbered by ``s``, Resume (op 6) answered
by the dispatches the bot missed and RESUMED, and the server's Reconnect (op 7) and
Invalid Session (op 9) on demand. Frames go as the bot asks in its URL: ``zlib-stream``
(one zlib stream per connection, each frame ending in a sync flush) or plain text.
"""

from __future__ import annotations

import asyncio
import base64
import json
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

BOT_ID = "700000000000000001"
TOKEN = base64.b64encode(BOT_ID.encode()).decode().rstrip("=") + ".GfAkEd.t0ps3cr3t-n0t-r34l_xyz"
"""Shaped as Discord's: the bot's id in base64, a timestamp, then the secret part."""
SECRET = TOKEN.rsplit(".", 1)[1]
DISCORD_EPOCH_MS = 1_420_070_400_000
HELLO, IDENTIFY, HEARTBEAT, ACK = 10, 2, 1, 11
DISPATCH, RESUME, RECONNECT, INVALID_SESSION = 0, 6, 7, 9
AUTHENTICATION_FAILED = 4004
WAIT_SECONDS = 20.0


def snowflake(at: float | None = None) -> str:
    """A fresh id made at ``at`` (now by default), as Discord makes an interaction's."""
    ms = int((time.time() if at is None else at) * 1000) - DISCORD_EPOCH_MS
    return str(ms << 22 | secrets.randbits(22))


@dataclass
class Callback:
    """An answer the bot sent to ``POST /interactions/{id}/{token}/callback``."""

    interaction: str
    token: str
    body: Any
    authorization: str | None


class Link:
    """One websocket connection, compressing as the bot asked."""

    def __init__(self, ws: web.WebSocketResponse, compressed: bool) -> None:
        self.ws = ws
        self.deflate = zlib.compressobj() if compressed else None

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame)
        if self.ws.closed:
            return  # the bot went away: a dispatch waits in the session's log for a resume
        try:
            if self.deflate is None:
                await self.ws.send_str(text)
            else:
                data = self.deflate.compress(text.encode())
                await self.ws.send_bytes(data + self.deflate.flush(zlib.Z_SYNC_FLUSH))
        except ConnectionError:  # closing as it was sent: the same as gone before
            return


@dataclass
class Session:
    id: str
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    """Every dispatch, for a resume to send again those after the bot's last ``s``."""


class FakeDiscord:
    def __init__(self, token: str = TOKEN, heartbeat_ms: int = 45_000) -> None:
        self.token = token
        self.heartbeat_ms = heartbeat_ms
        self.requests: list[tuple[str, str, str | None]] = []
        """Every REST request: method, path and Authorization header."""
        self.callbacks: list[Callback] = []
        self.identified: list[dict[str, Any]] = []
        self.resumed: list[dict[str, Any]] = []
        self.connections: list[str] = []
        """The path and query of each websocket the bot opened."""
        self.heartbeats = 0
        self.replayed: list[str] = []
        """The dispatches a resume sent again, by name."""
        self.handshakes: list[str] = []
        """READY or RESUMED, once per connection that finished its handshake."""
        self.session: Session | None = None
        self.link: Link | None = None
        self.changed = asyncio.Event()
        self.runner: web.AppRunner | None = None
        self.port = 0

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/api/v10/gateway/bot", self.gateway_bot)
        app.router.add_post("/api/v10/interactions/{id}/{token}/callback", self.callback)
        app.router.add_get("/gateway", self.socket)
        app.router.add_get("/resume", self.socket)
        app.router.add_route("*", "/{tail:.*}", self.unknown)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self.runner.addresses[0][1])

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    # what a test does

    async def until(self, test: Callable[[], bool], seconds: float = WAIT_SECONDS) -> None:
        """Until ``test()`` holds (checked on every change the fake sees)."""
        async with asyncio.timeout(seconds):
            while not test():
                self.changed.clear()
                await self.changed.wait()

    async def interact(self, payload: dict[str, Any]) -> Any:
        """Deliver ``payload`` as an INTERACTION_CREATE; the body of the bot's answer."""
        await self.dispatch("INTERACTION_CREATE", payload)
        return await self.answered(str(payload["id"]))

    async def answered(self, interaction: str) -> Any:
        await self.until(lambda: any(c.interaction == interaction for c in self.callbacks))
        return next(c.body for c in self.callbacks if c.interaction == interaction)

    async def dispatch(self, name: str, data: Any) -> None:
        """Send a dispatch on the session: now if the bot is connected, else on its resume."""
        assert self.session is not None, "no session: the bot has not identified"
        self.session.seq += 1
        frame = {"op": DISPATCH, "t": name, "s": self.session.seq, "d": data}
        self.session.sent.append(frame)
        if self.link is not None:
            await self.link.send(frame)

    async def reconnect(self) -> None:
        """Op 7: the bot should reconnect and resume; until it does, dispatches wait."""
        link, self.link = self.link, None
        assert link is not None, "the bot is not connected"
        await link.send({"op": RECONNECT, "d": None})

    async def invalidate(self, resumable: bool) -> None:
        """Op 9: the session is invalid; ``resumable`` says whether the bot may resume it."""
        link, self.link = self.link, None
        assert link is not None, "the bot is not connected"
        if not resumable:
            self.session = None
        await link.send({"op": INVALID_SESSION, "d": resumable})

    # the REST endpoints

    def _seen(self, request: web.Request) -> None:
        self.requests.append((request.method, request.path, request.headers.get("Authorization")))
        self.changed.set()

    async def gateway_bot(self, request: web.Request) -> web.Response:
        self._seen(request)
        if request.headers.get("Authorization") != f"Bot {self.token}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        url = f"ws://127.0.0.1:{self.port}/gateway"
        return web.json_response({"url": url, "shards": 1, "session_start_limit": limit})

    async def callback(self, request: web.Request) -> web.Response:
        self._seen(request)
        body = await request.json()
        auth = request.headers.get("Authorization")
        interaction, token = request.match_info["id"], request.match_info["token"]
        self.callbacks.append(Callback(interaction, token, body, auth))
        self.changed.set()
        return web.Response(status=204)

    async def unknown(self, request: web.Request) -> web.Response:
        self._seen(request)
        return web.json_response({"message": "404: Not Found", "code": 0}, status=404)

    # the gateway

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.connections.append(request.path_qs)
        link = Link(ws, request.query.get("compress") == "zlib-stream")
        await link.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_ms}})
        try:
            async for message in ws:
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                frame = json.loads(message.data)
                await self.received(link, frame["op"], frame.get("d"))
        finally:
            if self.link is link:
                self.link = None
            self.changed.set()
        return ws

    async def received(self, link: Link, op: int, data: Any) -> None:
        if op == HEARTBEAT:
            self.heartbeats += 1
            await link.send({"op": ACK})
        elif op == IDENTIFY:
            self.identified.append(data)
            if data.get("token") != self.token:
                await link.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
                return
            self.session = Session(secrets.token_hex(16))
            self.link = link
            # recorded before it is sent: the bot may act on it before this task runs again
            self.handshakes.append("READY")
            await self.dispatch("READY", self.ready(self.session))
        elif op == RESUME:
            self.resumed.append(data)
            session = self.session
            if session is None or data.get("session_id") != session.id:
                await link.send({"op": INVALID_SESSION, "d": False})
                return
            for frame in session.sent:
                if frame["s"] > int(data.get("seq") or 0):
                    self.replayed.append(frame["t"])
                    await link.send(frame)
            self.link = link
            self.handshakes.append("RESUMED")  # before it is sent, as READY
            await self.dispatch("RESUMED", {"_trace": ["fake-discord"]})  # as Discord sends it
        self.changed.set()

    def ready(self, session: Session) -> dict[str, Any]:
        user = {
            "id": BOT_ID,
            "username": "rulebound",
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": True,
        }
        return {
            "v": 10,
            "user": user,
            "guilds": [],
            "session_id": session.id,
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/resume",
            "shard": [0, 1],
            "application": {"id": BOT_ID, "flags": 0},
        }
