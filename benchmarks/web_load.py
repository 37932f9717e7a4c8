"""The web table under load: every game's typical roll, old commit against new (issue 13).

Bounded and loopback only: it starts every server itself on 127.0.0.1, drives it for a
fixed time, stops it, and prints the figures. Run it alone (``flock /tmp/bench.lock ...``):
the load generator shares the machine's cores with the servers it measures.

Servers, all on uvicorn as ``rulebound serve`` runs it (``uvicorn.run``: its default loop
and HTTP, uvloop and httptools here; log level warning, no access log):

- two baselines, bare Starlette apps that append the request's body as one row to SQLite
  (WAL, synchronous=NORMAL, busy_timeout, foreign_keys; BEGIN IMMEDIATE, INSERT, COMMIT):
  ``thread pool`` hands every append to ``run_in_threadpool`` (as rulebound does); ``inline``
  appends on the event loop, one connection, no hop (about 4,000/s where the thread pool's
  rate drifts with where the kernel puts its thread): what one SQLite writer can do at all;
- ``rulebound serve`` of the tree ``--new`` names (this one by default) and, given ``--old``,
  of another tree (a ``git worktree`` of another commit), one process on a fresh SQLite
  file each; the tree is imported through ``PYTHONPATH=TREE/src``, checked first in a
  process of its own (``rulebound.__file__`` must lie in it) and printed to the log;
- with ``RULEBOUND_TEST_PG_URL`` and ``RULEBOUND_TEST_REDIS_URL`` (``scripts/with-postgres
  scripts/with-redis``): ``rulebound serve --workers 2`` per tree on a database of its own
  made on that server, new on that Redis, old on a private ``redis-server`` (pub/sub
  ignores Redis's database number, so two trees on one Redis would hear each other).

Workloads, through the public JSON API only, each player with a sheet of its own and a
cycle of ``--forms`` forms of its own, drawn from the sheet (seeded, so the old and the new
tree get the same ones). A sheet and a form make a roll's request, which rulebound keeps
per (sheet, form) (``rulesets.plays.Remembered``): one form from identical sheets hits the
memo every time and flatters it. Every player's every form is rolled once, and must answer 201,
before anything is timed.

- rainwall: ``traits.Dexterity`` 4-10 dice, ``skills.Lockpicking`` score 3-8 and bonus
  1-5; form ``{"skill": "Lockpicking", "dr": 1-7}``: the card spends the bonus points on
  the dice rolled (``without_bonus`` left false);
- legacy: every characteristic 25-45, rank 1-4, three affinities; form a characteristic,
  one of the sheet's affinities that uses it (or none), a difficulty from routine to
  hard, ``"advantage": true``;
- ghostburn: abilities -1 to 3, three skills (bonus 0-3), gear on two of them (one or two
  items, +1 to +3: the best applies), an aug; form a skill with gear, a DL (a level or a
  number), ``dl_shift`` 0 or 1;
- empty-reach: attribute and skill dice D6-D12, four skills, an item of gear; form a skill,
  ``difficulty_level``, ``helpers``, ``modifier``; then ``POST .../entries/{id}/actions/push``
  with ``{"params": {"reroll": [...]}}``: the dice that show no success (or, with none, every
  die the card marks selectable). Roll and push are each a request, both counted.

The PostgreSQL + Redis rate is a mix: the ``--clients`` players spread over the games
picked, each playing its game's workload, against two worker processes.

Measures: ``--clients`` players post as fast as they can (one keep-alive connection each);
every answered roll is committed (201 after the commit). Loads are taken in turn, in
``--rounds`` stretches (A B C, then C B A), after ``--warmup`` seconds each that do not
count, each stretch on a quiet machine (``settle``): a container's speed drifts over a
minute, so loads measured one after the other would meet different machines. Feed: N
observers hold the live feed open while one player makes ``--feed-rolls`` rolls,
``--feed-gap`` s apart, each tree's feeds open at once and the trees' rolls alternating;
an event's latency is its arrival minus the entry's ``created_at`` (set just before the
commit, same clock). The feeds come first, before the roll loads leave PostgreSQL
vacuuming. Idle: each server's CPU while ``--idle-viewers`` feeds sit open.

    python benchmarks/web_load.py [--old ../rb-old] [--games rainwall,legacy] [--json]
    scripts/with-postgres scripts/with-redis python benchmarks/web_load.py --old PATH
    python benchmarks/web_load.py --in-process 3000 [--games legacy] [--profile]
    python benchmarks/web_load.py --in-process 3200 --at-once 16
    (CPU per request through the ASGI app in this process, this interpreter's rulebound:
    one request at a time, or 16 players at once with the CPU split by thread;
    --uncached: no roll cache; PROFILE_SORT, PROFILE_LINES, PROFILE_CALLERS)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import random
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

HOST = "127.0.0.1"
HERE = Path(__file__).resolve().parents[1]
NO_LIMITS = {f"RULEBOUND_RATE_{k}": "off" for k in ("SESSION", "TABLE", "ANONYMOUS")}
START_SECONDS = 60.0
FEED_ROLL = {"form": {"skill": "Force"}, "privacy": "public"}
"""The feed's roll (a blank Empty Reach sheet): the feed measures fan-out, not the roll."""
T = TypeVar("T")
Json = dict[str, Any]
Call = tuple[str, Json]
"""A request: its path and JSON body (always POST)."""

_STORE = """
db = sqlite3.connect(sys.argv[1], check_same_thread=False, isolation_level=None)
for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA busy_timeout=5000",
               "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON"):
    db.execute(pragma)
db.execute("CREATE TABLE IF NOT EXISTS rolls (id INTEGER PRIMARY KEY, body TEXT)")

def append(body):
    db.execute("BEGIN IMMEDIATE")
    row = db.execute("INSERT INTO rolls (body) VALUES (?)", (body,)).lastrowid
    db.execute("COMMIT")
    return row
"""
_SERVE = """
app = Starlette(routes=[Route("/roll", roll, methods=["POST"])])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning", access_log=False)
"""
_IMPORTS = """
import sqlite3, sys, threading, uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse
from starlette.routing import Route
"""
BASELINES: dict[str, str] = {}
"""Each baseline's source: ``python -c SOURCE DATABASE PORT``."""
BASELINES["thread pool"] = textwrap.dedent(
    _IMPORTS
    + _STORE.replace("def append(body):\n", "lock = threading.Lock()\n\ndef locked(body):\n")
    + """
def append(body):
    with lock:
        return locked(body)

async def roll(request):
    body = (await request.body()).decode()
    return JSONResponse({"id": await run_in_threadpool(append, body)}, status_code=201)
"""
    + _SERVE
)
BASELINES["inline"] = textwrap.dedent(
    _IMPORTS
    + _STORE
    + """
async def roll(request):
    body = (await request.body()).decode()
    return JSONResponse({"id": append(body)}, status_code=201)
"""
    + _SERVE
)


# the workloads: a sheet and a cycle of forms per player, each game its typical roll


def rainwall_sheet(rng: random.Random, name: str) -> Json:
    skill = {"score": rng.randint(3, 8), "bonus": rng.randint(1, 5)}
    return {
        "name": name,
        "traits": {"Dexterity": rng.randint(4, 10)},
        "skills": {"Lockpicking": skill},
    }


def rainwall_form(rng: random.Random, sheet: Json) -> Json:
    return {"skill": "Lockpicking", "dr": rng.randint(1, 7)}


LEGACY_SCORES = ("STR", "DEX", "CON", "CHA", "INT", "WIL", "PER", "WPN", "BLS", "STM", "POW")
LEGACY_SCORES_ALL = (*LEGACY_SCORES, "EDU", "LDR", "INI")
LEGACY_AFFINITIES = {  # legacy/data/affinities.toml: the characteristics each uses
    "acrobatics": ("DEX", "STR", "STM", "CHA"),
    "athletics": ("STR", "STM"),
    "deception": ("CHA", "WPN", "DEX", "INT"),
    "inspection": ("PER", "INT"),
    "medicine": ("DEX", "INT"),
    "persuasion": ("CHA", "STR", "INT"),
    "stealth": ("DEX", "WPN", "BLS", "CHA", "INT"),
    "survival": ("STM", "CON", "DEX", "INT"),
}
LEGACY_DIFFICULTIES = ("routine", "ordinary", "challenging", "difficult", "hard")


def legacy_sheet(rng: random.Random, name: str) -> Json:
    lck = rng.randint(15, 30)
    return {
        "name": name,
        "race": "human",
        "origin": "surface",
        "soul": "human",
        "scores": {code: rng.randint(25, 45) for code in LEGACY_SCORES_ALL},
        "rank": rng.randint(1, 4),
        "affinities": sorted(rng.sample(sorted(LEGACY_AFFINITIES), 3)),
        "lck": lck,
        "fate": rng.randint(1, lck // 10),  # at most the LCK bonus
        "ren": rng.randint(20, 30),
    }


def legacy_form(rng: random.Random, sheet: Json) -> Json:
    affinity = rng.choice(["", *sheet["affinities"]])
    uses = LEGACY_AFFINITIES[affinity] if affinity else LEGACY_SCORES
    return {
        "characteristic": rng.choice(uses),
        "affinity": affinity,
        "difficulty": rng.choice(LEGACY_DIFFICULTIES),
        "advantage": True,
    }


GHOSTBURN_SKILLS = ("firearms", "athletics", "intimidate", "drive")
GHOSTBURN_LEVELS = ("Easy", "Moderate", "Hard")


def ghostburn_sheet(rng: random.Random, name: str) -> Json:
    skills = rng.sample(GHOSTBURN_SKILLS, 3)
    gear = [
        {"name": f"{skill} kit {n}", "skill": skill, "bonus": rng.randint(1, 3)}
        for skill in rng.sample(skills, 2)
        for n in range(rng.randint(1, 2))
    ]
    return {
        "name": name,
        "abilities": {
            k: rng.randint(-1, 3) for k in ("strength", "agility", "intelligence", "presence")
        },
        "skills": {skill: {"bonus": rng.randint(0, 3)} for skill in skills},
        "gear": gear,
        "augs": [{"name": "implant", "skill": rng.choice(skills), "bonus": rng.randint(1, 2)}],
        "luck_points": rng.randint(0, 3),
        "luck_bonus": rng.randint(1, 2),
    }


def ghostburn_form(rng: random.Random, sheet: Json) -> Json:
    geared = sorted({item["skill"] for item in sheet["gear"]})
    dl = rng.choice([*GHOSTBURN_LEVELS, str(rng.randint(8, 22))])
    return {"skill": rng.choice(geared), "dl": dl, "dl_shift": rng.choice((0, 0, 1))}


REACH_ATTRIBUTES = ("Strength", "Agility", "Wits", "Empathy")
REACH_SKILLS = (
    *("Force", "Melee", "Stamina", "Marksmanship", "Mobility", "Stealth"),
    *("Crafting", "Observation", "Survival", "Healing", "Insight", "Persuasion"),
)
REACH_DICE = ("D6", "D8", "D10", "D12")
REACH_LEVELS = ("easy", "average", "demanding", "hard")


def reach_sheet(rng: random.Random, name: str) -> Json:
    skills = rng.sample(REACH_SKILLS, 4)
    bonus = rng.randint(1, 2)
    item = {"name": "kit", "bonus": bonus, "max_bonus": bonus, "skills": [rng.choice(skills)]}
    return {
        "name": name,
        "attributes": {a: rng.choice(REACH_DICE) for a in REACH_ATTRIBUTES},
        "skills": {skill: rng.choice(REACH_DICE) for skill in skills},
        "gear": [item],
        "base_health": rng.randint(3, 6),
        "base_resolve": rng.randint(3, 6),
    }


def reach_form(rng: random.Random, sheet: Json) -> Json:
    return {
        "skill": rng.choice(sorted(sheet["skills"])),
        "difficulty_level": rng.choice(REACH_LEVELS),
        "helpers": rng.choice((0, 0, 1)),
        "modifier": rng.choice((0, 0, 1, -1)),
    }


def push_of(table: int) -> Callable[[Any], Call | None]:
    """The Empty Reach's follow-up: push the roll just answered, rerolling the dice that
    show no success (all the selectable ones when every die succeeded); None when the card
    offers no push (every die a 1)."""

    def follow(answer: Any) -> Call | None:
        card = answer["card"]
        if not any(a["key"] == "push" and a.get("available", True) for a in card["actions"]):
            return None
        dice = card["dice"]
        chosen = [i for i, d in enumerate(dice) if d["selectable"] and "success" not in d["marks"]]
        chosen = chosen or [i for i, d in enumerate(dice) if d["selectable"]]
        if not chosen:
            return None
        path = f"/api/tables/{table}/entries/{answer['id']}/actions/push"
        return path, {"params": {"reroll": chosen}}

    return follow


@dataclass(frozen=True)
class Game:
    key: str
    sheet: Callable[[random.Random, str], Json]
    form: Callable[[random.Random, Json], Json]
    pushes: bool
    what: str


GAMES = {
    game.key: game
    for game in (
        Game("rainwall", rainwall_sheet, rainwall_form, False, "a roll spending bonus points"),
        Game("legacy", legacy_sheet, legacy_form, False, "a check with advantage"),
        Game("ghostburn", ghostburn_sheet, ghostburn_form, False, "a check with gear bonuses"),
        Game("empty-reach", reach_sheet, reach_form, True, "a roll, then its push"),
    )
}


@dataclass(frozen=True)
class Player:
    game: str
    token: str | None
    calls: tuple[Call, ...]
    """The rolls it cycles through."""
    follow: Callable[[Any], Call | None] | None = None
    """From a roll's answer (parsed), the request that follows it, if any."""


def player_forms(game: Game, rng: random.Random, sheet: Json, forms: int) -> list[Json]:
    """Up to ``forms`` different forms for this sheet (fewer where the game has fewer)."""
    found: list[Json] = []
    for _ in range(forms * 20):
        form = game.form(rng, sheet)
        if form not in found:
            found.append(form)
        if len(found) == forms:
            break
    return found


class Requester(Protocol):
    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]: ...


async def seat_players(client: Requester, game: Game, players: int, forms: int) -> list[Player]:
    """A table of ``game`` with ``players`` seated players, each with a character made from
    a sheet of its own and a cycle of forms of its own (seeded by game and seat)."""
    body = {"name": "Load", "ruleset": game.key, "gm_name": "Gina"}
    status, made = await client.request("POST", "/api/tables", body)
    assert status == 201, made
    table = made["table"]
    tid = table["id"]
    invite = table["invites"]["player"].rsplit("/", 1)[1]
    seated = []
    for i in range(players):
        status, joined = await client.request("POST", f"/api/join/{invite}", {"name": f"P{i}"})
        assert status == 201, joined
        token = joined["session_token"]
        rng = random.Random(f"{game.key}/{i}")
        sheet = game.sheet(rng, f"C{i}")
        path = f"/api/tables/{tid}/characters"
        status, char = await client.request("POST", path, {"sheet": sheet}, token)
        if status != 201:
            raise RuntimeError(f"{game.key}: sheet {sheet} answered {status}: {char}")
        roll = f"{path}/{char['id']}/roll"
        calls = tuple(
            (roll, {"form": form, "privacy": "public"})
            for form in player_forms(game, rng, sheet, forms)
        )
        seated.append(Player(game.key, token, calls, push_of(tid) if game.pushes else None))
    return seated


async def verify(client: Requester, players: Sequence[Player]) -> int:
    """Every player's every roll (and its follow-up) once: each must answer 201. The
    follow-ups made."""
    follows = 0
    for player in players:
        for path, body in player.calls:
            status, answer = await client.request("POST", path, body, player.token)
            if status != 201:
                raise RuntimeError(f"{player.game}: {path} {body} answered {status}: {answer}")
            nxt = player.follow(answer) if player.follow else None
            if nxt is not None:
                status, answer = await client.request("POST", *nxt, player.token)
                if status != 201:
                    raise RuntimeError(f"{player.game}: {nxt} answered {status}: {answer}")
                follows += 1
    if any(p.follow for p in players) and not follows:
        raise RuntimeError(f"{players[0].game}: no roll offered its follow-up")
    return follows


async def game_players(port: int, games: Sequence[Game], clients: int, forms: int) -> list[Player]:
    """``clients`` players spread over ``games`` (one table each), checked with ``verify``."""
    conn = Conn(port)
    found: list[Player] = []
    for n, game in enumerate(games):
        share = clients // len(games) + (n < clients % len(games))
        players = await seat_players(conn, game, share, forms)
        await verify(conn, players)
        found += players
    conn.close()
    return found


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on uvloop where it is installed (as the servers run): the load
    generator's own event loop costs the cores it shares with them less."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, command: list[str], port: int, env: dict[str, str], log: Path) -> None:
        self.port = port
        self.log = log
        self._log = log.open("ab")
        self._proc = subprocess.Popen(
            command, env=os.environ | env, stdout=self._log, stderr=subprocess.STDOUT
        )
        self.pid = self._proc.pid
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"server exited: see {log}:\n{log.read_text()[-3000:]}")
            try:
                socket.create_connection((HOST, port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        self._proc.terminate()
        try:
            self._proc.wait(10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._log.close()


IMPORTED = "import rulebound, rulebound.cli.app; print(rulebound.__file__)"
SERVE = (
    "import sys, rulebound; print('rulebound from', rulebound.__file__, file=sys.stderr,"
    " flush=True); from rulebound.cli.app import main; main()"
)


def tree_env(tree: Path) -> dict[str, str]:
    return {"PYTHONPATH": str(tree / "src")}


def check_tree(tree: Path) -> str:
    """The ``rulebound/__init__.py`` a server of ``tree`` imports, which must be the tree's
    own (not the editable install of this one)."""
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED],
        env=os.environ | tree_env(tree),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: rulebound does not import:\n{done.stderr[-3000:]}")
    found = Path(done.stdout.strip()).resolve()
    if not found.is_relative_to((tree / "src").resolve()):
        raise SystemExit(f"{tree}: PYTHONPATH={tree / 'src'} imports {found} instead")
    return str(found)


def rulebound_server(
    folder: Path, tree: Path, name: str, database: str, extra: Sequence[str] = ()
) -> Server:
    port = free_port()
    command = [sys.executable, "-c", SERVE, "serve", "--database", database]
    command += ["--port", str(port), *extra]
    return Server(command, port, NO_LIMITS | tree_env(tree), folder / f"{name}.log")


def fresh_database(url: str, name: str) -> tuple[str, Callable[[], None]]:
    """A new database ``name`` on ``url``'s PostgreSQL server (an old one dropped first): its
    URL, and what drops it. Each tree its own, whatever schema each migrates to."""
    sqlalchemy = importlib.import_module("sqlalchemy")
    base = sqlalchemy.engine.make_url(url)

    def admin(*statements: str) -> None:
        engine = sqlalchemy.create_engine(base, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            for statement in statements:
                conn.execute(sqlalchemy.text(statement))
        engine.dispose()

    drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
    admin(drop, f'CREATE DATABASE "{name}"')
    made = base.set(database=name).render_as_string(hide_password=False)
    return str(made), lambda: admin(drop)


def private_redis(folder: Path) -> tuple[Server, str] | None:
    """A throwaway ``redis-server`` as ``scripts/with-redis`` starts one (None without it)."""
    binary = shutil.which("redis-server")
    if binary is None:
        return None
    port = free_port()
    command = [binary, "--bind", HOST, "--port", str(port), "--save", "", "--appendonly", "no"]
    server = Server([*command, "--dir", str(folder)], port, {}, folder / "redis-old.log")
    return server, f"redis://{HOST}:{port}/0"


# a lean HTTP/1.1 client: one keep-alive connection, no parsing beyond what is needed


class Conn:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        self.writer.write(request_bytes(method, self.port, path, body, token))
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        raw = await self.reader.readexactly(length)
        return status, json.loads(raw) if raw else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Poster(asyncio.Protocol):
    """The hammer's client: one keep-alive connection posting prepared requests, reading
    each answer's status, length and body (parsed only where a follow-up needs it). The
    load generator shares the machine's cores with the servers it measures, so it spends
    as little as it can."""

    LENGTH = re.compile(rb"\r\ncontent-length: *([0-9]+)", re.IGNORECASE)

    def __init__(self) -> None:
        self.buffer = b""
        self.answer: asyncio.Future[tuple[int, bytes]] | None = None
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    async def post(self, request: bytes) -> tuple[int, bytes]:
        """Send ``request``; the answer's status and body."""
        assert self.transport is not None
        self.answer = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return await self.answer

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        found = self.LENGTH.search(self.buffer, 0, end + 2)
        size = end + 4 + (int(found.group(1)) if found else 0)
        if len(self.buffer) < size:
            return
        status, body = int(self.buffer[9:12]), self.buffer[end + 4 : size]
        self.buffer = self.buffer[size:]
        if self.answer is not None and not self.answer.done():
            self.answer.set_result((status, body))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(exc or ConnectionResetError("the server closed"))


def request_bytes(method: str, port: int, path: str, body: Any, token: str | None) -> bytes:
    """An HTTP/1.1 request with a JSON body (none where ``body`` is None)."""
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
    head += f"Content-Length: {len(data)}\r\nContent-Type: application/json\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    return head.encode() + b"\r\n" + data


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def hammer(port: int, players: Sequence[Player], seconds: float, pid: int) -> dict[str, Any]:
    """Each player posts its rolls in turn (and each one's follow-up, if any) as fast as it
    can for ``seconds``: the raw figures of one stretch of load (``summary`` turns one or
    more into the report's). The CPU is the server's (``pid`` and its worker processes),
    and of what shares the machine with it (``cpu_around``)."""
    latencies: list[float] = []
    failures = 0
    stop = time.perf_counter() + seconds

    async def client(player: Player) -> None:
        nonlocal failures
        loop = asyncio.get_running_loop()
        requests = [request_bytes("POST", port, *call, player.token) for call in player.calls]
        transport, conn = await loop.create_connection(Poster, HOST, port)
        turn = 0
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            status, body = await conn.post(requests[turn % len(requests)])
            turn += 1
            if status != 201:
                failures += 1
                continue
            latencies.append(time.perf_counter() - t0)
            if player.follow is None:
                continue
            nxt = player.follow(json.loads(body))
            if nxt is None:
                continue
            t0 = time.perf_counter()
            status, _ = await conn.post(request_bytes("POST", port, *nxt, player.token))
            if status == 201:
                latencies.append(time.perf_counter() - t0)
            else:
                failures += 1
        transport.close()

    t0 = time.perf_counter()
    cpu, around = tree_cpu_seconds(pid), cpu_around(pid)
    await asyncio.gather(*(client(p) for p in players))
    used, around = tree_cpu_seconds(pid) - cpu, cpu_around(pid, around)
    return {
        "latencies": latencies,
        "failures": failures,
        "elapsed": time.perf_counter() - t0,
        "used": used,
        "around": around,
    }


def summary(loads: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one load's stretches together: requests/s over their time, p50 and
    p99 over all their answers, CPU per answered request (what load on the machine skews
    least)."""
    latencies = [x for load in loads for x in load["latencies"]]
    failures = sum(load["failures"] for load in loads)
    answered = max(1, len(latencies) + failures)
    around: dict[str, float] = {}
    for load in loads:
        for name, spent in load["around"].items():
            around[name] = around.get(name, 0.0) + spent
    return {
        "cpu_ms": {name: spent / answered * 1000 for name, spent in around.items()},
        "requests": len(latencies),
        "failures": failures,
        "per_second": len(latencies) / max(1e-9, sum(load["elapsed"] for load in loads)),
        "p50_ms": pct(latencies, 0.50) * 1000,
        "p99_ms": pct(latencies, 0.99) * 1000,
        "server_cpu_ms": sum(load["used"] for load in loads) / answered * 1000,
        "stretches": [len(load["latencies"]) / load["elapsed"] for load in loads],
    }


def busy_cores(window: float = 0.25) -> float:
    """How many cores' worth of CPU the whole machine used over ``window`` seconds."""

    def sample() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = fields[3] + fields[4]  # idle and iowait
        return sum(fields) - idle, sum(fields)

    busy0, all0 = sample()
    time.sleep(window)
    busy1, all1 = sample()
    cores = os.cpu_count() or 1
    return (busy1 - busy0) / max(1, all1 - all0) * cores


SETTLE = {"limit": 10.0}


def settle(quiet: float = 0.1) -> None:
    """Wait (at most ``--settle`` seconds) until the machine is quiet: what one load left
    running (PostgreSQL's autovacuum after tens of thousands of inserts, a checkpoint)
    would otherwise slow the next one's."""
    deadline = time.monotonic() + SETTLE["limit"]
    while time.monotonic() < deadline and busy_cores() > quiet:
        pass


Load = tuple[Server, list[Player]]


def interleaved(
    loads: dict[str, Load], seconds: float, rounds: int, warmup: float = 0.0
) -> dict[str, dict[str, Any]]:
    """Each load, ``seconds`` in all, in ``rounds`` stretches taken in turn (the order
    reversed every other round: A B C, C B A): the machine's speed drifts (a container's
    cores slow down after an idle spell ends), and loads measured one after the other
    would each meet another machine. First, ``warmup`` seconds of each, not counted (a
    fresh server fills its caches)."""
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in loads}
    names = list(loads)
    for server, players in loads.values():
        if warmup > 0:
            run(hammer(server.port, players, warmup, server.pid))
    for turn in range(rounds):
        for name in names if turn % 2 == 0 else names[::-1]:
            server, players = loads[name]
            settle()
            found[name].append(run(hammer(server.port, players, seconds / rounds, server.pid)))
    return {name: summary(stretches) for name, stretches in found.items()}


class Watcher(asyncio.Protocol):
    """One viewer's feed: every chunk is timestamped on arrival and parsed afterwards."""

    def __init__(self) -> None:
        self.chunks: list[tuple[float, bytes]] = []
        self.opened = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        self.chunks.append((time.time(), data))
        if self.opened.done():
            return
        if b"retry:" in data:
            self.opened.set_result(None)
        elif data.startswith(b"HTTP/1.1 ") and not data.startswith(b"HTTP/1.1 200"):
            self.opened.set_exception(RuntimeError(f"a feed answered {data[:600]!r}"))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionResetError("a feed closed unopened"))

    def latencies(self) -> list[float]:
        found = []
        buffer = b""
        for at, data in self.chunks:
            buffer += data
            for match in CREATED.finditer(buffer):
                created = datetime.fromisoformat(match.group(1).decode()).timestamp()
                found.append(at - created)
            cut = buffer.rfind(b"\n\n")
            if cut >= 0:
                buffer = buffer[cut + 2 :]
        return found


CREATED = re.compile(rb'"kind":"roll".*?"created_at":"([^"]+)"')


async def seat_table(port: int, players: int, observers: int) -> dict[str, Any]:
    """An Empty Reach table with ``players`` seats (a blank character each) and
    ``observers`` seats: the feed's and the idle measure's."""
    conn = Conn(port)
    body = {"name": "Load", "ruleset": "empty-reach", "gm_name": "Gina", "observers": True}
    status, made = await conn.request("POST", "/api/tables", body)
    assert status == 201, made
    table = made["table"]
    tid = table["id"]
    invites = {k: v.rsplit("/", 1)[1] for k, v in table["invites"].items() if v}
    seats: list[tuple[str, int]] = []
    for i in range(players):
        path = f"/api/join/{invites['player']}"
        status, joined = await conn.request("POST", path, {"name": f"P{i}"})
        assert status == 201, joined
        token = joined["session_token"]
        path = f"/api/tables/{tid}/characters"
        status, char = await conn.request("POST", path, {"name": f"C{i}"}, token)
        assert status == 201, char
        seats.append((token, char["id"]))
    watchers = []
    for i in range(observers):
        path = f"/api/join/{invites['observer']}"
        status, joined = await conn.request("POST", path, {"name": f"O{i}"})
        assert status == 201, joined
        watchers.append(joined["session_token"])
    status, now = await conn.request("GET", f"/api/tables/{tid}", None, made["session_token"])
    assert status == 200, now
    conn.close()
    return {"id": tid, "seats": seats, "observers": watchers, "last": now["last_seq"]}


async def open_feeds(
    port: int, table: dict[str, Any], batch: int = 100
) -> list[tuple[asyncio.Transport, Watcher]]:
    """The observers' feeds of ``table``, open, ``batch`` at a time: a thousand asked for
    in one instant queue (each reads its seat on the thread pool), which on a loaded
    machine once outlasted the 120 s wait; an answer other than the stream fails."""
    loop = asyncio.get_running_loop()
    held: list[tuple[asyncio.Transport, Watcher]] = []
    tokens = table["observers"]
    for start in range(0, len(tokens), batch):
        opening = []
        for token in tokens[start : start + batch]:
            transport, watcher = await loop.create_connection(Watcher, HOST, port)
            transport.write(
                (
                    f"GET /api/tables/{table['id']}/feed?after={table['last']} HTTP/1.1\r\n"
                    f"Host: {HOST}\r\nAuthorization: Bearer {token}\r\n"
                    "Accept: text/event-stream\r\n\r\n"
                ).encode()
            )
            opening.append((transport, watcher))
        held += opening
        await asyncio.wait_for(asyncio.gather(*(w.opened for _, w in opening)), 120)
    return held


async def feed_load(ports: dict[str, int], viewers: int, rolls: int, gap: float) -> dict[str, Json]:
    """Each server's feed latency with ``viewers`` open on one table: every server's feeds
    are open at once, and the rolls alternate between the servers (the order reversed
    every other roll), so the machine's drift falls on all alike; the feeds of a server
    not rolling sit idle, which costs it next to nothing (see ``idle_cpu``)."""
    tables = {name: await seat_table(port, 1, viewers) for name, port in ports.items()}
    held = {name: await open_feeds(ports[name], table) for name, table in tables.items()}
    conns = {name: Conn(port) for name, port in ports.items()}

    async def roll(name: str) -> None:
        token, cid = tables[name]["seats"][0]
        path = f"/api/tables/{tables[name]['id']}/characters/{cid}/roll"
        status, answer = await conns[name].request("POST", path, FEED_ROLL, token)
        assert status == 201, answer

    await asyncio.sleep(1.0)
    for name in ports:
        await roll(name)  # a first roll to warm up, not counted
    await asyncio.sleep(1.0)
    for watchers in held.values():
        for _, watcher in watchers:
            watcher.chunks.clear()
    names = list(ports)
    for turn in range(rolls):
        for name in names if turn % 2 == 0 else names[::-1]:
            await roll(name)
            await asyncio.sleep(gap)
    await asyncio.sleep(2.0)
    found: dict[str, Json] = {}
    for name, watchers in held.items():
        conns[name].close()
        latencies: list[float] = []
        for transport, watcher in watchers:
            latencies += watcher.latencies()
            transport.close()
        found[name] = {
            "viewers": viewers,
            "events": len(latencies),
            "expected": viewers * rolls,
            "p50_ms": pct(latencies, 0.50) * 1000,
            "p99_ms": pct(latencies, 0.99) * 1000,
        }
    return found


def idle_cpu(port: int, pid: int, viewers: int, seconds: float) -> float:
    """The server's CPU use (% of one core) while ``viewers`` feeds sit idle."""

    async def measure() -> float:
        held = await open_feeds(port, await seat_table(port, 0, viewers))
        await asyncio.sleep(1.0)
        before = cpu_seconds(pid)
        await asyncio.sleep(seconds)
        used = cpu_seconds(pid) - before
        for transport, _ in held:
            transport.close()
        return 100 * used / seconds

    return run(measure())


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """The CPU of process ``pid`` (user + system), or of one of its threads."""
    stat = Path(f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat")
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """The CPU of ``pid`` and of every process below it (``--workers``' processes)."""
    try:
        total = cpu_seconds(pid)
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    return total + sum(tree_cpu_seconds(int(child)) for child in children)


def cpu_around(pid: int, before: dict[str, float] | None = None) -> dict[str, float]:
    """CPU seconds of what shares the machine with a server under load: each of its worker
    processes (``worker PID``), PostgreSQL's and Redis's processes, and this load generator;
    given ``before``, what each spent since."""
    now: dict[str, float] = {"load generator": time.process_time()}
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            now[f"worker {child}"] = tree_cpu_seconds(int(child))
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError, ValueError):
                name = (proc / "comm").read_text().strip()
                if name in ("postgres", "redis-server"):
                    now[name] = now.get(name, 0.0) + cpu_seconds(int(proc.name))
    if before is None:
        return now
    return {name: now[name] - before.get(name, 0.0) for name in now if name in before}


def measure_feeds(servers: dict[str, Server], args: argparse.Namespace) -> dict[str, list[Json]]:
    """Each tree's feed latency at each size (``feed_load``: the trees' rolls alternate)."""
    found: dict[str, list[Json]] = {name: [] for name in servers}
    ports = {name: server.port for name, server in servers.items()}
    for viewers in args.viewers:
        settle()
        for name, figures in run(feed_load(ports, viewers, args.feed_rolls, args.feed_gap)).items():
            found[name].append(figures)
    return found


class InProcess:
    """Requests straight into an ASGI app (no HTTP, no sockets): ``Requester``'s shape."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        headers = [(b"host", HOST.encode()), (b"content-type", b"application/json")]
        headers.append((b"content-length", str(len(data)).encode()))
        if token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        scope: dict[str, Any] = {"type": "http", "asgi": {"version": "3.0"}}
        scope |= {"http_version": "1.1", "method": method, "scheme": "http", "path": path}
        scope |= {"query_string": b"", "raw_path": path.encode(), "headers": headers}
        scope |= {"root_path": "", "client": (HOST, 1), "server": (HOST, 80), "state": {}}
        messages = [{"type": "http.request", "body": data, "more_body": False}]
        answer: dict[str, Any] = {"body": b""}

        async def receive() -> Any:
            if messages:
                return messages.pop()
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: Any) -> None:
            answer["status"] = message.get("status", answer.get("status"))
            answer["body"] += message.get("body", b"")

        await self.app(scope, receive, send)
        return answer["status"], json.loads(answer["body"]) if answer["body"] else None


def in_process(args: argparse.Namespace) -> dict[str, Any]:
    """CPU per request of each game's workload through the real ASGI app in this process,
    without HTTP or sockets: what a roll costs the server itself.

    ``--at-once 1`` (the default): one request at a time, the thread pool's hops run
    inline, so one profile sees all of it; each write is then a batch of its own, which
    overstates the write's share. ``--at-once N``: ``--clients`` players, N of them rolling
    at once (each one roll after another) through the real thread pool, as a loaded server
    runs: the writes wait together and are batched. The CPU is then also split by thread
    (the event loop, the writer threads, the request threads), with the writes per batch.
    ``--profile``: the top functions by cumulative time, per game (only one at a time:
    several threads' stacks would mix). ``--uncached``: the roll cache keeps nothing.
    ``--pg-in-process``: on ``--pg-url`` and ``--redis-url``."""
    import cProfile
    import pstats

    import anyio.to_thread

    at_once = max(1, args.at_once)
    if at_once == 1:

        async def inline(func: Any, *given: Any, **_: Any) -> Any:
            return func(*given)

        anyio.to_thread.run_sync = inline  # type: ignore[assignment]
    elif args.profile:
        raise SystemExit("--profile needs --at-once 1: several threads' stacks would mix")
    # imported by name: this drives whichever rulebound the interpreter finds
    create_app = app_factory()
    settings = importlib.import_module("rulebound.web.settings").Settings
    found: dict[str, Any] = {"rulebound": importlib.import_module("rulebound").__file__}
    with tempfile.TemporaryDirectory(prefix="rulebound-profile-") as tmp:
        url, redis = f"sqlite:///{tmp}/rb.sqlite3", None
        if args.pg_in_process:
            subprocess.run([sys.executable, "-c", RESET, args.pg_url], check=True)
            url, redis = args.pg_url, args.redis_url
        limits = {"session_rate": None, "table_rate": None, "anonymous_rate": None}
        app = create_app(settings(database_url=url, redis_url=redis, **limits))
        if args.uncached:
            try:
                roll_cache = importlib.import_module("rulebound.web.rollcache").RollCache
            except ModuleNotFoundError:
                raise SystemExit("--uncached: this rulebound has no web.rollcache") from None
            app.state.service.rolls = roll_cache(requests=0, cards=0)
        client = InProcess(app)
        batches = commit_counter(app)

        async def one(player: Player, turn: int) -> int:
            call = player.calls[turn % len(player.calls)]
            status, answer = await client.request("POST", *call, player.token)
            assert status == 201, answer
            nxt = player.follow(answer) if player.follow else None
            if nxt is None:
                return 1
            status, answer = await client.request("POST", *nxt, player.token)
            assert status == 201, answer
            return 2

        async def rolls(players: Sequence[Player], count: int) -> int:
            """``count`` turns in all, in ``at_once`` lanes, each lane its own players in
            turn (a player never rolls twice at once: its sheet or chain would be stale)."""

            async def lane(own: Sequence[Player], turns: int) -> int:
                done = 0
                for turn in range(turns):
                    done += await one(own[turn % len(own)], turn // len(own))
                return done

            lanes = [players[i::at_once] for i in range(min(at_once, len(players)))]
            turns = [count // len(lanes) + (i < count % len(lanes)) for i in range(len(lanes))]
            done = await asyncio.gather(*(lane(o, n) for o, n in zip(lanes, turns, strict=True)))
            return sum(done)

        async def measure(game: Game) -> dict[str, Any]:
            players = await seat_players(client, game, args.clients, args.forms)
            await verify(client, players)
            await rolls(players, 200)  # warm up: caches, compiled statements
            profiler = cProfile.Profile(time.process_time) if args.profile else None
            threads, commits = thread_cpu(), batches()
            cpu, wall = time.process_time(), time.perf_counter()
            if profiler:
                profiler.enable()
            done = await rolls(players, args.in_process)
            if profiler:
                profiler.disable()
                print(f"\n## {game.key}: {game.what}")
                stats = pstats.Stats(profiler)
                stats.sort_stats(os.environ.get("PROFILE_SORT", "cumulative"))
                stats.print_stats(int(os.environ.get("PROFILE_LINES", "25")))
                if os.environ.get("PROFILE_CALLERS"):
                    stats.print_callers(os.environ["PROFILE_CALLERS"])
                if os.environ.get("PROFILE_CALLEES"):
                    stats.print_callees(os.environ["PROFILE_CALLEES"])
            figures: dict[str, Any] = {
                "requests": done,
                "cpu_ms_per_request": (time.process_time() - cpu) / done * 1000,
                "wall_ms_per_request": (time.perf_counter() - wall) / done * 1000,
                "at_once": at_once,
            }
            spent = thread_cpu(threads)
            figures["thread_ms_per_request"] = {k: v / done * 1000 for k, v in spent.items()}
            committed = batches()
            if commits is not None and committed is not None:
                figures["requests_per_commit"] = done / max(1, committed - commits)
            return figures

        async def every() -> None:
            async with app.router.lifespan_context(app):
                for game in args.games:
                    found[game.key] = await measure(game)

        asyncio.run(every())
    return found


def thread_cpu(since: dict[str, float] | None = None) -> dict[str, float]:
    """This process's CPU seconds by kind of thread, from ``/proc`` (Linux): the event loop
    (the main thread), the store's writer threads, and the rest (the request threads);
    given ``since`` (an earlier answer), what each spent after it."""
    writers = {t.native_id for t in threading.enumerate() if t.name.startswith("rulebound-writer")}
    pid = os.getpid()
    spent = {"event loop": 0.0, "writer": 0.0, "request threads": 0.0}
    for task in os.listdir(f"/proc/{pid}/task"):
        tid = int(task)
        kind = "writer" if tid in writers else "request threads"
        if tid == pid:
            kind = "event loop"
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            spent[kind] += cpu_seconds(pid, tid)
    if since is None:
        return spent
    return {kind: spent[kind] - since.get(kind, 0.0) for kind in spent}


def commit_counter(app: Any) -> Callable[[], int | None]:
    """How many transactions the app's store has committed so far (None: a tree whose
    store has no engine where this looks for it)."""
    from sqlalchemy import event

    engine = getattr(getattr(getattr(app.state, "service", None), "store", None), "engine", None)
    if engine is None:
        return lambda: None
    count = [0]

    def committed(_conn: Any) -> None:
        count[0] += 1

    event.listen(engine, "commit", committed)
    return lambda: count[0]


def app_factory() -> Any:
    """``create_app`` of whichever rulebound the interpreter finds, where that tree keeps it."""
    for name in ("rulebound.web.app", "rulebound.app"):
        with contextlib.suppress(ModuleNotFoundError):
            return importlib.import_module(name).create_app
    raise SystemExit("no rulebound.web.app or rulebound.app with create_app")


RESET = (
    "import sys; from rulebound.store.testing import reset_postgres; reset_postgres(sys.argv[1])"
)


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def compare(results: dict[str, Any]) -> None:
    """Ratios (to both baselines, new to old) and the issue's goals, into ``results``."""
    base = {name: r["per_second"] for name, r in results["baselines"].items()}
    goals: list[Json] = []

    def goal(what: str, value: float, limit: float, at_least: bool) -> None:
        met = value >= limit if at_least else value <= limit
        goals.append(
            {"goal": what, "value": value, "limit": limit, "at_least": at_least, "met": met}
        )

    for game, by_tree in results["games"].items():
        for figures in by_tree.values():
            figures["ratios"] = {name: ratio(figures["per_second"], b) for name, b in base.items()}
        new, old = by_tree["new"], by_tree.get("old")
        goal(f"{game}: rolls/s (SQLite, new)", new["per_second"], 500, True)
        goal(f"{game}: p99 ms (SQLite, new)", new["p99_ms"], 50, False)
        if old:
            new["to_old"] = {
                "per_second": ratio(new["per_second"], old["per_second"]),
                "p99": ratio(new["p99_ms"], old["p99_ms"]),
            }
            goal(f"{game}: rolls/s new/old (SQLite)", new["to_old"]["per_second"], 0.9, True)
            goal(f"{game}: p99 new/old (SQLite)", new["to_old"]["p99"], 1.1, False)
    pg = results.get("postgresql_redis")
    if pg and "old" in pg["rolls"]:
        new_rate, old_rate = pg["rolls"]["new"]["per_second"], pg["rolls"]["old"]["per_second"]
        pg["to_old"] = ratio(new_rate, old_rate)
        goal("PostgreSQL + Redis rolls/s new/old", pg["to_old"], 0.9, True)
    for key in ("sqlite", "postgresql_redis"):
        feeds = results["feeds"].get(key, {})
        if "old" not in feeds:
            continue
        for new, old in zip(feeds["new"], feeds["old"], strict=True):
            new["p99_to_old"] = ratio(new["p99_ms"], old["p99_ms"])
            if new["viewers"] == 1000:
                goal(f"feed p99 new/old, 1,000 viewers ({key})", new["p99_to_old"], 1.1, False)
    results["goals"] = goals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="roll load per load")
    parser.add_argument(
        "--rounds", type=int, default=4, help="the roll loads in this many stretches, in turn"
    )
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="seconds of roll load first, not counted"
    )
    parser.add_argument("--settle", type=float, default=10.0, help="most to wait for quiet")
    parser.add_argument("--clients", type=int, default=16, help="players (connections)")
    parser.add_argument("--forms", type=int, default=8, help="different forms per player")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated")
    parser.add_argument("--new", type=Path, default=HERE, help="the tree measured")
    parser.add_argument("--old", type=Path, help="a tree of another commit, measured beside")
    parser.add_argument("--viewers", default="100,1000", help="feed sizes, comma-separated")
    parser.add_argument("--feed-rolls", type=int, default=30)
    parser.add_argument("--feed-gap", type=float, default=0.1)
    parser.add_argument("--idle-viewers", type=int, default=1000)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--pg-url", default=os.environ.get("RULEBOUND_TEST_PG_URL"))
    parser.add_argument("--redis-url", default=os.environ.get("RULEBOUND_TEST_REDIS_URL"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--in-process",
        type=int,
        default=0,
        metavar="REQUESTS",
        help="only measure CPU per request through the ASGI app in this process (no servers)",
    )
    parser.add_argument(
        "--at-once",
        type=int,
        default=1,
        help="with --in-process: players rolling at once, through the real thread pool",
    )
    parser.add_argument("--profile", action="store_true", help="with --in-process: cProfile")
    parser.add_argument(
        "--pg-in-process",
        action="store_true",
        help="with --in-process: on --pg-url and --redis-url (scripts/with-postgres, with-redis)",
    )
    parser.add_argument(
        "--uncached", action="store_true", help="with --in-process: no roll cache (each roll new)"
    )
    args = parser.parse_args(argv)
    unknown = [g for g in args.games.split(",") if g and g not in GAMES]
    if unknown:
        parser.error(f"--games: unknown {', '.join(unknown)}; known: {', '.join(GAMES)}")
    args.games = [GAMES[g] for g in args.games.split(",") if g]
    SETTLE["limit"] = args.settle
    if args.in_process:
        found = in_process(args)
        if args.json:
            print(as_json(found))
            return 0
        print(f"rulebound from {found.pop('rulebound')}")
        for game, f in found.items():
            print(
                f"{game}: {f['requests']} requests in process, {f['at_once']} at once:"
                f" {f['cpu_ms_per_request']:.3f} ms CPU ({f['wall_ms_per_request']:.3f} ms of"
                " time) per request"
            )
            split = ", ".join(f"{k} {v:.3f}" for k, v in f["thread_ms_per_request"].items())
            print(f"  ms CPU per request by thread: {split}")
            if "requests_per_commit" in f:
                print(f"  requests per commit: {f['requests_per_commit']:.1f}")
        return 0
    args.viewers = [int(v) for v in args.viewers.split(",") if v]
    results = measure(args)
    compare(results)
    print(as_json(results) if args.json else report(results))
    return 0


def as_json(found: Any) -> str:
    """Strict JSON: a figure that could not be had (no answers: NaN) is null."""

    def clean(value: Any) -> Any:
        if isinstance(value, float) and value != value:
            return None
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [clean(v) for v in value]
        return value

    return json.dumps(clean(found), indent=2, allow_nan=False)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket per viewer, both ends
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    trees = {"old": args.old, "new": args.new} if args.old else {"new": args.new}
    results: dict[str, Any] = {
        "load": os.getloadavg(),
        "cpus": os.cpu_count(),
        "rounds": args.rounds,
        "seconds": args.seconds,
        "clients": args.clients,
        "forms": args.forms,
        "trees": {
            name: {"path": str(tree), "imports": check_tree(tree)} for name, tree in trees.items()
        },
        "workloads": {game.key: game.what for game in args.games},
    }
    with contextlib.ExitStack() as up:
        folder = Path(up.enter_context(tempfile.TemporaryDirectory(prefix="rulebound-bench-")))
        loads: dict[str, Load] = {}
        body = {"form": {"skill": "Force"}, "privacy": "public"}
        for name, source in BASELINES.items():
            port = free_port()
            file = folder / f"{name.replace(' ', '-')}.sqlite3"
            command = [sys.executable, "-c", source, str(file), str(port)]
            server = Server(command, port, {}, folder / f"baseline-{port}.log")
            up.callback(server.stop)
            loads[name] = (server, [Player("baseline", None, (("/roll", body),))] * args.clients)
        sqlite: dict[str, Server] = {}
        for name, tree in trees.items():
            database = f"sqlite:///{folder / name}.sqlite3"
            sqlite[name] = rulebound_server(folder, tree, f"sqlite-{name}", database)
            up.callback(sqlite[name].stop)
        for game in args.games:
            for name, server in sqlite.items():
                players = run(game_players(server.port, [game], args.clients, args.forms))
                loads[f"{name} {game.key}"] = (server, players)
        pg: dict[str, Server] = {}
        if args.pg_url and args.redis_url:
            for name, tree in trees.items():
                database, drop = fresh_database(args.pg_url, f"rulebound_bench_{name}")
                up.callback(drop)
                redis = args.redis_url
                if name == "old":
                    own = private_redis(folder)
                    if own is not None:
                        up.callback(own[0].stop)
                        redis = own[1]
                    results["shared_redis"] = own is None
                extra = ["--workers", str(args.workers), "--redis", redis]
                pg[name] = rulebound_server(folder, tree, f"pg-{name}", database, extra)
                up.callback(pg[name].stop)
                players = run(game_players(pg[name].port, args.games, args.clients, args.forms))
                loads[f"{name} pg"] = (pg[name], players)
        # the feeds first: what tens of thousands of rolls leave PostgreSQL doing
        # (autovacuum, a checkpoint) comes later than a pause can wait for
        feeds = {"sqlite": measure_feeds(sqlite, args)}
        if args.idle_viewers:
            results["idle_cpu_percent"] = {}
            for name, server in sqlite.items():
                settle()
                results["idle_cpu_percent"][name] = idle_cpu(
                    server.port, server.pid, args.idle_viewers, args.idle_seconds
                )
        if pg:
            feeds["postgresql_redis"] = measure_feeds(pg, args)
        results["feeds"] = feeds
        rolls = interleaved(loads, args.seconds, args.rounds, args.warmup)
    results["baselines"] = {name: rolls[name] for name in BASELINES}
    results["games"] = {
        game.key: {name: rolls[f"{name} {game.key}"] for name in trees} for game in args.games
    }
    if pg:
        results["postgresql_redis"] = {
            "workers": args.workers,
            "mix": [game.key for game in args.games],
            "rolls": {name: rolls[f"{name} pg"] for name in trees},
        }
    return results


def report(results: dict[str, Any]) -> str:
    trees = results["trees"]
    lines = [
        f"load average before: {results['load'][0]:.2f} ({results['cpus']} cores);"
        f" {results['clients']} players, {results['forms']} forms each;"
        f" {results['rounds']} stretches of {results['seconds'] / results['rounds']:.1f} s a load",
        *(f"{name}: {tree['path']} (imports {tree['imports']})" for name, tree in trees.items()),
        "",
        "| baseline (bare Starlette + SQLite) | rolls/s | p50 ms | p99 ms | failures"
        " | server CPU ms/roll |",
        "|---|---|---|---|---|---|",
    ]

    def cells(r: dict[str, Any]) -> str:
        return (
            f"{r['per_second']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['failures']:.0f}"
            f" | {r['server_cpu_ms']:.2f}"
        )

    for name, r in results["baselines"].items():
        lines.append(f"| {name} | {cells(r)} |")
    for game, by_tree in results["games"].items():
        lines += [
            "",
            f"{game}: {results['workloads'][game]} (rulebound, 1 process, SQLite)",
            "",
            "| tree | rolls/s | p50 ms | p99 ms | failures | server CPU ms/roll"
            " | / thread pool | / inline | rate new/old | p99 new/old |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for name, r in by_tree.items():
            to_old = r.get("to_old")
            olds = f"{to_old['per_second']:.2f} | {to_old['p99']:.2f}" if to_old else " | "
            lines.append(
                f"| {name} | {cells(r)} | {r['ratios']['thread pool']:.2f}"
                f" | {r['ratios']['inline']:.2f} | {olds} |"
            )
    pg = results.get("postgresql_redis")
    if pg:
        lines += [
            "",
            f"PostgreSQL + Redis, {pg['workers']} processes: a mix of {', '.join(pg['mix'])}",
            "",
            "| tree | rolls/s | p50 ms | p99 ms | failures | server CPU ms/roll |",
            "|---|---|---|---|---|---|",
        ]
        for name, r in pg["rolls"].items():
            lines.append(f"| {name} | {cells(r)} |")
        if "to_old" in pg:
            lines.append(f"rolls/s new/old: {pg['to_old']:.2f}")
        if results.get("shared_redis"):
            lines.append("(no redis-server here: old and new shared one Redis)")
        for name, r in pg["rolls"].items():
            spent = ", ".join(
                f"{who} {ms:.2f}" for who, ms in sorted(r["cpu_ms"].items()) if ms >= 0.005
            )
            lines.append(f"{name}: CPU ms per roll: {spent}")
    lines += [
        "",
        "| feed | tree | viewers | events | p50 ms | p99 ms | p99 new/old |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, label in (("sqlite", "SQLite"), ("postgresql_redis", "PostgreSQL + Redis")):
        for name, found in results["feeds"].get(key, {}).items():
            for f in found:
                ratio_cell = f"{f['p99_to_old']:.2f}" if "p99_to_old" in f else ""
                lines.append(
                    f"| {label} | {name} | {f['viewers']} | {f['events']:.0f}/{f['expected']:.0f}"
                    f" | {f['p50_ms']:.1f} | {f['p99_ms']:.1f} | {ratio_cell} |"
                )
    for name, percent in results.get("idle_cpu_percent", {}).items():
        lines.append(f"\nidle viewers, {name}: {percent:.2f}% of a core (SQLite)")
    stretches = [("baseline " + n, r) for n, r in results["baselines"].items()]
    stretches += [(f"{t} {g}", r) for g, by in results["games"].items() for t, r in by.items()]
    stretches += [(f"{t} PostgreSQL", r) for t, r in (pg["rolls"] if pg else {}).items()]
    lines.append("\nrolls/s in each stretch, taken in turn:")
    for name, r in stretches:
        lines.append(f"  {name}: " + ", ".join(f"{rate:.0f}" for rate in r["stretches"]))
    lines.append("\ngoals:")
    for g in results["goals"]:
        sign = ">=" if g["at_least"] else "<="
        verdict = "met" if g["met"] else "MISSED"
        lines.append(f"  {verdict}: {g['goal']} {g['value']:.2f} ({sign} {g['limit']:g})")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
