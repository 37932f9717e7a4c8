"""Issue 8, size limits and fuzzing: whatever a roll dialog, a sheet form or a sheet action
is sent, each ruleset's table answers with a result or a clear 400 naming the field
(409 when the rules forbid it now), never a server error. The forms are generated from
the fields the adapter itself describes, with values of the right kind, out of range,
of the wrong kind, and past the caps."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..web.conftest import Dice, Party, games_for_tests, seat_party

FUZZ = settings(
    max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None
)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.lists(st.integers(-3, 50), max_size=30),
    st.just("x" * 5000),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@pytest.fixture
def app(db_url: str, dice: Dice) -> FastAPI:
    settings_ = Settings(
        database_url=db_url,
        source=dice.source,
        games=games_for_tests,
        session_rate=None,
        table_rate=None,
        anonymous_rate=None,
    )
    return create_app(settings_)


def _value(field: dict[str, Any]) -> st.SearchStrategy[Any]:
    choices = [c["value"] for c in field.get("choices", [])]
    kind = field["kind"]
    if kind == "select" and choices:
        right: st.SearchStrategy[Any] = st.sampled_from(choices)
    elif kind == "multiselect":
        right = st.lists(st.sampled_from(choices or ["x"]), max_size=4)
    elif kind == "int":
        right = st.integers(-100, 100)
    elif kind == "bool":
        right = st.booleans()
    elif kind == "dice":
        right = st.lists(st.integers(-2, 12), max_size=8)
    else:
        right = st.text(max_size=20)
    return right | JUNK


def _form(fields: list[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional={f["name"]: _value(f) for f in fields})


def _clear(answer: Any, ok: int, where: str) -> None:
    assert answer.status_code in (ok, 400, 409), f"{where}: {answer.status_code} {answer.text}"
    if answer.status_code == 400:
        body = answer.json()
        assert body["error"] == "invalid-input", body
        assert isinstance(body["field"], str), body
        assert body["field"], body
        assert body["expected"], body


@pytest.mark.parametrize("ruleset", ["empty-reach", "rainwall", "legacy", "ghostburn"])
def test_table_forms_answer_a_result_or_name_the_field(party: Party, ruleset: str) -> None:
    table = seat_party(party.client, ruleset)
    client, gm = table.client, table.gm
    cid = table.character(gm, "Ana")
    url = table.url(f"/characters/{cid}")
    detail = client.get(url, headers=gm).json()

    @FUZZ
    @given(form=_form(detail["dialog"]), privacy=st.sampled_from(["public", "blind"]))
    def roll(form: dict[str, Any], privacy: str) -> None:
        chances = client.post(url + "/chances", json={"form": form}, headers=gm)
        _clear(chances, 200, f"chances {form}")
        rolled = client.post(url + "/roll", json={"form": form, "privacy": privacy}, headers=gm)
        _clear(rolled, 201, f"roll {form}")

    @FUZZ
    @given(form=_form(detail["fields"]))
    def edit(form: dict[str, Any]) -> None:
        _clear(client.patch(url, json={"form": form}, headers=gm), 200, f"sheet {form}")

    edit()  # leaves the sheet with whatever values the last accepted edit set
    roll()
    for action in detail["actions"]:
        _fuzz_action(party, table, url, action)


def _fuzz_action(party: Party, table: Party, url: str, action: dict[str, Any]) -> None:
    @FUZZ
    @given(params=_form(action["fields"]))
    def act(params: dict[str, Any]) -> None:
        sent = table.client.post(
            f"{url}/actions/{action['key']}", json={"params": params}, headers=table.gm
        )
        _clear(sent, 201, f"action {action['key']} {params}")

    act()
