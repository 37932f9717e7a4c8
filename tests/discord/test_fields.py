"""Every field of every game reachable from Discord: a game whose fields pass Discord's 25
options gets more subcommands (Legacy: ``legacy`` and ``legacy-opposed-check``), and a
field that takes another character's sheet picks one of the table's characters."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulebound.discord.commands import pack
from rulebound.rulesets.contract import Field
from rulebound.store import LogEntry, SqlStore
from rulebound.web.service import TableService

from ..client import AppClient
from ..trust.conftest import Table, open_table
from .conftest import Discord, gm_invite


def _fields(spec: list[tuple[bool, int]]) -> list[Field]:
    """Fields from (required, group number; 0 is none)."""
    return [
        Field(f"f{n}", f"F{n}", "int", required=req, group=f"g{group}" if group else "")
        for n, (req, group) in enumerate(spec)
    ]


@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 6)), max_size=80).filter(
        lambda spec: sum(req for req, _ in spec) <= 4
    ),
    st.integers(8, 23),
)
def test_pack_puts_every_field_in_a_part_that_fits(spec: list[tuple[bool, int]], room: int) -> None:
    fields = _fields(spec)
    parts = pack(fields, room)
    assert parts
    assert {f.name for _, part in parts for f in part} == {f.name for f in fields}
    required = [f for f in fields if f.required]
    for groups, part in parts:
        assert len(part) <= room
        assert len({f.name for f in part}) == len(part)
        assert list(part[: len(required)]) == required  # in every part, first
        assert groups or len(parts) == 1
    if len(fields) <= room:
        assert parts == [((), tuple(required + [f for f in fields if not f.required]))]


def test_pack_keeps_a_group_whole_when_it_fits() -> None:
    spec = [(True, 0)] + [(False, 0)] * 4 + [(False, 1)] * 9 + [(False, 2)] * 9 + [(False, 3)] * 3
    parts = pack(_fields(spec), 23)
    for group in ("g1", "g2", "g3"):
        members = {f.name for f in _fields(spec) if f.group == group}
        assert any(members <= {f.name for f in part} for _, part in parts), group


def _legacy(client: AppClient) -> tuple[Discord, Table, dict[str, int]]:
    """A Legacy channel: the player's Ana and the game master's Bo (athletic), middling
    numbers."""
    discord = Discord(client)
    table = open_table(client, "legacy")
    discord.command("gm", "rulebound", "link", invite=gm_invite(table))
    discord.command("player", "rulebound", "join")
    discord.command("player", "rulebound", "character", name="Ana")
    table.post("gm", "/characters", {"name": "Bo"})
    service: TableService = client.app.state.service
    rules = service.game("legacy").table
    view = rules.sheet_view(rules.new_sheet("x"))
    form = {
        f.name: (f.minimum + f.maximum) // 2
        for f in view.fields
        if f.kind == "int" and f.minimum is not None and f.maximum is not None
    }
    ids = {}
    for row in client.get(table.url("/characters"), headers=table.seats["gm"]).json():
        url = table.url(f"/characters/{row['id']}")
        edit = form | ({"affinities": ["athletics"]} if row["name"] == "Bo" else {})
        edited = client.patch(url, json={"form": edit}, headers=table.seats["gm"])
        assert edited.status_code == 200, edited.text
        ids[row["name"]] = int(row["id"])
    return discord, table, ids


def _last(client: AppClient, table: Table) -> LogEntry:
    store: SqlStore = client.app.state.store
    return store.log(table.id)[-1]


def test_an_opposed_legacy_check_picks_the_other_character(client: AppClient) -> None:
    discord, table, ids = _legacy(client)
    offered = discord.complete(
        "player", "roll", "legacy-opposed-check", "opposed-character", **{"opposed-character": ""}
    )
    choices = {c["name"]: c["value"] for c in offered["data"]["choices"]}
    assert choices == {"Ana": str(ids["Ana"]), "Bo": str(ids["Bo"])}
    rolled = discord.command(
        "player",
        "roll",
        "legacy-opposed-check",
        characteristic="REN",
        **{"opposed-character": "bo", "opposed-characteristic": "REN"},
    )
    assert rolled["data"].get("embeds"), rolled
    entry = _last(client, table)
    assert entry.kind == "roll"
    assert "opposed" in entry.record
    bad = discord.command(
        "player",
        "roll",
        "legacy-opposed-check",
        characteristic="REN",
        **{"opposed-character": "Zed"},
    )
    text = bad["data"]["content"]
    assert "opposed.character" in text
    assert "'Zed'" in text
    assert "ana, bo" in text


def test_the_legacy_subcommand_has_the_extended_check_and_its_odds_from_here(
    client: AppClient,
) -> None:
    """The extended check's fields were past the old 23 options; its follow-up's message
    shows the odds from where the check stands."""
    discord, table, _ = _legacy(client)
    given: dict[str, Any] = {
        "characteristic": "REN",
        "success_threshold": 60,
        "failure_threshold": 60,
        "max_rolls": 5,
        "rolls": 1,
    }
    rolled = discord.command("player", "roll", "legacy", **given)
    entry = _last(client, table)
    assert entry.record["extended"], entry.record
    ids = [c["custom_id"] for r in rolled["data"]["components"] for c in r["components"]]
    button = next(i for i in ids if i.endswith(":extended-roll"))
    asked = discord.press("player", button)
    assert asked["type"] == 9
    inputs = [c for row in asked["data"]["components"] for c in row["components"]]
    values = {i["custom_id"]: "" for i in inputs} | {"rolls": "1", "until_done": "false"}
    answer = discord.submit("player", asked, values)
    assert answer["type"] == 7, answer
    fields = {f["name"]: f["value"] for f in answer["data"]["embeds"][0]["fields"]}
    assert "P(" in fields["Exact chance"]
    assert "P(" in fields["Exact chance from here"]
    assert _last(client, table).kind == "follow-up"


def test_a_helper_picked_from_the_table_assists_the_roll(client: AppClient) -> None:
    discord, _table, _ = _legacy(client)
    helped = discord.command(
        "player",
        "odds",
        "legacy",
        characteristic="REN",
        affinity="athletics",
        helper="Bo",
        **{"assist-mode": "advantage"},
    )
    plain = discord.command("player", "odds", "legacy", characteristic="REN", affinity="athletics")
    assert helped["data"].get("embeds"), helped
    assert plain["data"]["embeds"]
    assert helped["data"]["embeds"][0]["description"] != plain["data"]["embeds"][0]["description"]
