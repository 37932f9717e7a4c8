"""Issue 8 and issue 14 ("a Hypothesis fuzz of every form field of every game finds no
500"): for every game the registry lists, whatever its table-creation variants, roll
dialog, chances, sheet form, sheet actions, follow-up actions on a card, table actions and
guided-creation steps are sent, the table answers with a result or a clear 400 naming the
field (409 when the rules forbid it now), never a server error. The forms are generated
from the fields the game itself describes (nothing here lists a game's fields), with values
of the right kind, out of range, of the wrong kind, and past the caps."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from httpx2 import Response
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebound.rulesets.registry import game_keys
from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..client import AppClient
from ..hunt import examples
from ..web.conftest import Dice, Party, games_for_tests, seat_party

FUZZ = settings(
    max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck), database=None
)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([10**4000, -(2**63), "\u202e", "\u200b", "NaN"]),
    st.sampled_from(["", " ", "\x85", "\t\n"]),  # boxes left blank: read as not given
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


def _clear(answer: Response, ok: int, where: str) -> None:
    assert answer.status_code in (ok, 400, 409), f"{where}: {answer.status_code} {answer.text}"
    if answer.status_code == 400:
        body = answer.json()
        assert body["error"] == "invalid-input", body
        assert isinstance(body["field"], str), body
        assert body["field"], body
        assert body["expected"], body


GAMES = game_keys()
"""Every game the registry lists (entry-point plug-ins included)."""


def _variants(client: AppClient, ruleset: str) -> list[dict[str, Any]]:
    listed = {g["key"]: g for g in client.get("/api/rulesets").json()}
    variants: list[dict[str, Any]] = listed[ruleset]["variants"]
    return variants


@pytest.mark.parametrize("ruleset", GAMES)
def test_table_forms_answer_a_result_or_name_the_field(party: Party, ruleset: str) -> None:
    client = party.client
    variants = _variants(client, ruleset)
    choices = {v["key"]: st.sampled_from(v["choices"]) | JUNK for v in variants}

    @FUZZ
    @given(chosen=st.fixed_dictionaries({}, optional=choices))
    def open_table(chosen: dict[str, Any]) -> None:
        body = {"name": "Night run", "ruleset": ruleset, "gm_name": "Gina", "variants": chosen}
        answer = client.post("/api/tables", json=body)
        if answer.status_code == 422:  # not a string: the schema refuses it, naming it
            assert all(e["loc"][:2] == ["body", "variants"] for e in answer.json()["detail"])
            return
        _clear(answer, 201, f"variants {chosen}")

    open_table()
    table = seat_party(client, ruleset)
    gm = table.gm
    cid = table.character(gm, "Ana")
    url = table.url(f"/characters/{cid}")
    detail = client.get(url, headers=gm).json()
    cards: list[dict[str, Any]] = []

    @FUZZ
    @given(form=_form(detail["dialog"]), privacy=st.sampled_from(["public", "blind"]))
    def roll(form: dict[str, Any], privacy: str) -> None:
        chances = client.post(url + "/chances", json={"form": form}, headers=gm)
        _clear(chances, 200, f"chances {form}")
        rolled = client.post(url + "/roll", json={"form": form, "privacy": privacy}, headers=gm)
        _clear(rolled, 201, f"roll {form}")
        if rolled.status_code == 201 and (rolled.json()["card"] or {}).get("actions"):
            cards.append(rolled.json())

    @FUZZ
    @given(form=_form(detail["fields"]))
    def edit(form: dict[str, Any]) -> None:
        _clear(client.patch(url, json={"form": form}, headers=gm), 200, f"sheet {form}")

    edit()  # leaves the sheet with whatever values the last accepted edit set
    roll()
    for action in detail["actions"]:
        _fuzz_action(table, f"{url}/actions/{action['key']}", action)
    for action in client.get(table.url("/actions"), headers=gm).json():
        _fuzz_action(table, table.url(f"/actions/{action['key']}"), action)
    offered = {a["key"]: (card, a) for card in cards for a in card["card"]["actions"]}
    for key, (card, action) in sorted(offered.items()):
        _fuzz_action(table, table.url(f"/entries/{card['id']}/actions/{key}"), action)
    _fuzz_creation(table)


def _fuzz_action(table: Party, url: str, action: dict[str, Any]) -> None:
    @FUZZ
    @given(params=_form(action["fields"]))
    def act(params: dict[str, Any]) -> None:
        sent = table.client.post(url, json={"params": params}, headers=table.gm)
        _clear(sent, 201, f"action {url} {params}")

    act()


def _fuzz_creation(table: Party) -> None:
    """Every step of guided creation the game has (a game without it answers 409): each
    example gets a fresh signed state for its step (a state is single-use), reached by
    sending the forms that took the steps before; the first form a step accepts (its
    fields' defaults, or a generated one) leads to the next step."""
    first = table.client.post(table.url("/creation"), json={"form": {}}, headers=table.gm)
    _clear(first, 200, "creation")
    if first.status_code != 200:
        return
    taken: list[dict[str, Any]] = []
    step: dict[str, Any] | None = first.json()
    for _ in range(12):
        if step is None or step.get("character") is not None or not step["fields"]:
            return
        step = _fuzz_step(table, taken, step)


def _fresh(table: Party, taken: list[dict[str, Any]]) -> str:
    """A new state for the step after those ``taken``."""
    url = table.url("/creation")
    state = table.client.post(url, json={"form": {}}, headers=table.gm).json()["state"]
    for form in taken:
        sent = table.client.post(url, json={"state": state, "form": form}, headers=table.gm)
        if sent.status_code != 200:
            break
        state = sent.json()["state"]
    return str(state)


def _plain(fields: list[dict[str, Any]]) -> dict[str, Any]:
    """Each field's default, or a plain value of its kind."""
    form: dict[str, Any] = {}
    for f in fields:
        if f.get("default") is not None:
            form[f["name"]] = f["default"]
        elif f.get("choices"):
            form[f["name"]] = f["choices"][0]["value"]
        elif f["kind"] == "int":
            form[f["name"]] = f.get("minimum") or 0
        elif f["kind"] == "text":
            form[f["name"]] = "Ana"
    return form


def _moved_on(step: dict[str, Any], answer: dict[str, Any]) -> bool:
    """A 200 that shows the same step again (with its notes) has not taken it."""
    shown = (answer["title"], [f["name"] for f in answer["fields"]])
    return answer["character"] is not None or shown != (
        step["title"],
        [f["name"] for f in step["fields"]],
    )


def _fuzz_step(
    table: Party, taken: list[dict[str, Any]], step: dict[str, Any]
) -> dict[str, Any] | None:
    """Fuzz one step; the step after it, once a form took this one (None: none did)."""
    url, fields = table.url("/creation"), step["fields"]
    took: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def send(form: dict[str, Any], state: str, stale: bool = False) -> None:
        sent_state = state[:-1] + "A" if stale else state
        sent = table.client.post(url, json={"state": sent_state, "form": form}, headers=table.gm)
        _clear(sent, 200, f"creation step {step['title']} {form}")
        if sent.status_code == 200 and not stale and _moved_on(step, sent.json()):
            took.append((form, sent.json()))

    send(_plain(fields), _fresh(table, taken))

    @FUZZ
    @given(form=_form(fields), stale=st.booleans())
    def fuzz(form: dict[str, Any], stale: bool) -> None:
        send(form, _fresh(table, taken), stale)

    fuzz()
    if not took:
        return None
    taken.append(took[0][0])
    return took[0][1]
