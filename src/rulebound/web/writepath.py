"""The short path of the table's plays: rolls, sheet actions and follow-ups without the
framework's per-request machinery.

``POST /api/tables/T/characters/C/roll`` (and ``.../actions/A``, and
``/api/tables/T/entries/E/actions/A``) is the request a busy table makes most. Through
FastAPI it crosses every middleware layer, the router's match over every route, the
dependency solver, two hops to the thread pool (the endpoint, then the answer's
validation) and the request and response models. This pure ASGI app, in front of the
whole FastAPI app (``app.TableApp``: before its own layers, the error handlers among
them), answers a well-formed play itself, in one hop to the thread pool (a few plays at
a time, one on SQLite, in the order they came: ``Lanes``), or on the event loop itself
while nothing makes it wait (``inline``: SQLite without a backplane; PostgreSQL in a
greenlet whose append the loop awaits, ``bridge``): the same
checks in the same order (origin, seat, CSRF token, role, rate limits, then the
service), the same answer byte for byte (the entry validated and dumped by the route's
own response model, the route's headers and the security headers), and every refusal
through the app's own error handlers.

Anything it would not answer exactly as the route does goes on to the route untouched:
another path or method, a query string, a body that is not a JSON object of the
request model's plain shape (the route then names what is wrong), an id past the
database's integers, a body past the size limit (the route answers 413).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, nullcontext, suppress
from functools import partial
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulebound.core.errors import RuleboundError
from rulebound.rulesets.contract import Card
from rulebound.store import LogEntry, NotFound, SqlStore
from rulebound.store.bridge import bridged
from rulebound.store.rawwrite import WouldWait
from rulebound.web.api_models import EntryOut
from rulebound.web.auth import Forbidden, Viewer
from rulebound.web.deps import service_of, writer_for
from rulebound.web.errors import handle, handle_database
from rulebound.web.rollcache import Lru
from rulebound.web.security import HEADERS, HSTS, same_origin
from rulebound.web.service import contribution_of
from rulebound.web.views import context_for, entry_view

MAX_ID = 2**31 - 1
ROLL = re.compile(r"/api/tables/([0-9]{1,10})/characters/([0-9]{1,10})/roll")
SHEET_ACTION = re.compile(r"/api/tables/([0-9]{1,10})/characters/([0-9]{1,10})/actions/([^/]+)")
FOLLOW_UP = re.compile(r"/api/tables/([0-9]{1,10})/entries/([0-9]{1,10})/actions/([^/]+)")
PRIVACY = frozenset({"public", "gm", "blind", "self"})
CONTRIBUTION = re.compile(r"[0-9a-f]{32,64}")
COMMITMENT = re.compile(r"[0-9a-f]{64}")
ANSWER = TypeAdapter(EntryOut)
"""The routes' response model: the answer is validated and dumped exactly as they do."""
CARD = TypeAdapter(Card)
CARDS: Lru[str, bytes] = Lru(1024)
"""Cards validated and dumped for answers, by their JSON text."""
NO_CARD = b'"card":null,"record":'
"""Where an answer dumped without its card has it: once, as nothing before it can hold
these bytes (the fields before it are numbers, words and strings, whose quotes are
escaped), and the model's order puts the record after it."""

Play = Callable[[Request, list[Viewer]], LogEntry]
"""A play as the service makes it: its entry. ``checked`` holds who made it once the
checks passed (and took their rate-limit tokens): a play tried on the event loop that
would have waited is made again in a thread without checking twice."""


class Postponed(Exception):
    """A play tried on the event loop would have waited for a lock: nothing was written."""


def _plain_body(body: Any, form_key: str, privacy: bool) -> dict[str, Any] | None:
    """The fields of a request body of the model's plain shape (``RollIn``, ``ActionIn``,
    ``FollowUpIn``), or None where the model would refuse it or read it otherwise."""
    if not isinstance(body, dict):
        return None
    form = body.get(form_key, {})
    if not isinstance(form, dict):
        return None
    mode = body.get("privacy", "public") if privacy else None
    if privacy and (not isinstance(mode, str) or mode not in PRIVACY):
        return None
    dice = body.get("dice")
    if dice is not None:
        if not isinstance(dice, dict):
            return None
        value, commitment = dice.get("contribution"), dice.get("commitment")
        if not isinstance(value, str) or not CONTRIBUTION.fullmatch(value):
            return None
        if not isinstance(commitment, str) or not COMMITMENT.fullmatch(commitment):
            return None
        dice = contribution_of(value, commitment)
    return {"form": form, "privacy": mode, "dice": dice}


def _play(scope: Scope, body: Any) -> tuple[Play, bool] | None:
    """What a well-formed play request asks for, and whether it is a roll (the play made
    on the event loop, ``WriteShortPath.inline``), or None (the route answers it)."""
    if scope["method"] != "POST" or scope.get("query_string"):
        return None
    path = scope["path"]
    roll, action, follow = ROLL.fullmatch(path), None, None
    if roll is None:
        action = SHEET_ACTION.fullmatch(path)
        if action is None:
            follow = FOLLOW_UP.fullmatch(path)
            if follow is None:
                return None
    found = roll or action or follow
    assert found is not None
    table_id, item = int(found.group(1)), int(found.group(2))
    if table_id > MAX_ID or item > MAX_ID:
        return None
    fields = _plain_body(body, "form" if roll else "params", follow is None)
    if fields is None:
        return None
    form, privacy, dice = fields["form"], fields["privacy"], fields["dice"]

    def play(request: Request, checked: list[Viewer]) -> LogEntry:
        if not checked:
            checked.append(writer_for(request, table_id))
        viewer = checked[0]
        service = service_of(request)
        if roll is not None:
            entry = service.roll(viewer, item, form, privacy, dice)
        elif action is not None:
            entry = service.sheet_act(viewer, item, action.group(3), form, privacy, dice)
        else:
            assert follow is not None
            entry = service.follow_up(viewer, item, follow.group(3), form, dice)
        return entry

    return play, roll is not None


def _json_content_type(scope: Scope) -> bool:
    """Whether the route would read the body as JSON (no content type, or a JSON one)."""
    types = [v for k, v in scope["headers"] if k == b"content-type"]
    if not types:
        return True
    if len(types) > 1:
        return False
    main = types[0].split(b";", 1)[0].strip().lower()
    return bool(main == b"application/json")


def answer_bytes(request: Request, viewer: Viewer, entry: LogEntry) -> bytes | None:
    """The entry a play just logged as its author sees it, dumped as the routes dump it
    (``api._written``); None: not theirs to see (the route answers 404).

    The card is most of the answer, and a busy table logs the same few cards again and
    again (``web/rollcache``): each is validated and dumped by the answer's own card model
    once per text (``CARDS``), and put where the answer dumped without it says null."""
    view = entry_view(entry, context_for(service_of(request).store, viewer, [entry], set()))
    if view is None:
        return None
    if entry.card_text is None or view["card"] is not entry.card:
        return ANSWER.dump_json(ANSWER.validate_python(view))
    card = CARDS.get(entry.card_text, partial(_card_bytes, entry.card))
    bare = ANSWER.dump_json(ANSWER.validate_python(view | {"card": None}))
    return bare.replace(NO_CARD, b'"card":' + card + b',"record":', 1)


def _card_bytes(card: Any) -> bytes:
    return CARD.dump_json(CARD.validate_python(card))


class Lanes:
    """At most ``count`` plays in the thread pool at once, the others waiting their turn in
    the order they came (None: no bound). On SQLite one lane is best: the writes take
    turns anyway (one writer at a time) and the rules run under one interpreter lock, so
    sixteen plays at once only contend for both, and the last of them waits longest. On
    PostgreSQL a few lanes let one play's round trips overlap another's work."""

    def __init__(self, count: int | None) -> None:
        self.count = count
        self._bound: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    def turn(self) -> AbstractAsyncContextManager[Any]:
        if self.count is None:
            return nullcontext()
        loop = asyncio.get_running_loop()
        if self._bound is None or self._bound[0] is not loop:  # one semaphore per loop
            self._bound = loop, asyncio.Semaphore(self.count)
        return self._bound[1]


class WriteShortPath:
    def __init__(
        self,
        app: ASGIApp,
        max_body: int,
        lanes: int | None = None,
        *,
        inline: bool = False,
        bridge: bool = False,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.lanes = Lanes(lanes)
        self.bridge = bridge
        """With ``inline``, make the roll ``bridged`` (PostgreSQL): the loop awaits its
        append, and any read the caches miss, while it serves other requests."""
        self.inline = inline
        """Make each roll on the event loop first, in its lane's turn (SQLite without a
        backplane: one lane): the thread pool's two hops and the interpreter lock's
        hand-overs cost a third of a roll. The store then takes no lock that is held
        (``SqlStore.without_waiting``) and makes no write but the driver's append; a roll
        that would wait or write otherwise is ``Postponed`` to the thread pool, still in
        its turn, its checks not repeated. Sheet actions and follow-ups (which change a
        sheet as a rule, and read the log) go to the thread pool at once."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"
            or not scope["path"].startswith("/api/tables/")
            or not _json_content_type(scope)
        ):
            await self.app(scope, receive, send)
            return
        length = [v for k, v in scope["headers"] if k == b"content-length"]
        if len(length) > 1 or (
            length and (not length[0].isdigit() or int(length[0]) > self.max_body)
        ):
            await self.app(scope, receive, send)
            return
        read: list[Message] = []
        size = 0
        more = True
        while more:
            message = await receive()
            read.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            more = bool(message.get("more_body", False))
            if size > self.max_body:
                break
        complete = not more and size <= self.max_body and read[-1]["type"] == "http.request"
        play = None
        if complete:
            raw = b"".join(m.get("body", b"") for m in read)
            try:
                body = json.loads(raw) if raw else None
            except (ValueError, RecursionError):
                body = None
            play = _play(scope, body)
        if play is None:
            await self.app(scope, _replay(read, receive), send)
            return
        await self._answer(scope, receive, send, *play)

    async def _answer(
        self, scope: Scope, receive: Receive, send: Send, play: Play, roll: bool
    ) -> None:
        request = Request(scope, receive)
        extra = HEADERS + ([HSTS] if scope.get("scheme") == "https" else [])
        response: Response
        try:
            if not same_origin(request):
                raise Forbidden("cross-site request refused: write from this table's own pages")
            done: bytes | None = None
            checked: list[Viewer] = []
            async with self.lanes.turn():  # on the loop or in a thread, in turn
                if self.inline and roll:
                    with suppress(Postponed):
                        if self.bridge:
                            done = await bridged(_played_inline, request, play, checked)
                        else:
                            done = _played_inline(request, play, checked)
                if done is None:
                    done = await run_in_threadpool(_played, request, play, checked)
        except RuleboundError as exc:
            response = await handle(request, exc)
        except (DBAPIError, OverflowError) as exc:
            response = await handle_database(request, exc)
        else:  # as ``Response(done, 201, media_type="application/json")`` sends it
            length = (b"content-length", str(len(done)).encode())
            headers = [length, (b"content-type", b"application/json"), *extra]
            await send({"type": "http.response.start", "status": 201, "headers": headers})
            await send({"type": "http.response.body", "body": done})
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await response(scope, receive, with_headers)


def _played_inline(request: Request, play: Play, checked: list[Viewer]) -> bytes:
    """``_played`` on the event loop, where no write may wait (``Postponed`` instead)."""
    store: SqlStore = request.app.state.store
    try:
        with store.without_waiting():
            return _played(request, play, checked)
    except WouldWait:
        raise Postponed from None


def _played(request: Request, play: Play, checked: list[Viewer]) -> bytes:
    entry = play(request, checked)
    answer = answer_bytes(request, checked[0], entry)
    if answer is None:
        raise NotFound("log entry", entry.id)  # as the route says (``api._written``)
    return answer


def _replay(read: list[Message], receive: Receive) -> Receive:
    """``receive`` again from the start: the messages already read, then the rest."""
    pending = list(read)

    async def again() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return again
