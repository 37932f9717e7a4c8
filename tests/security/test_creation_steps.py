"""Issue 14, item 13: a guided creation step's dice are single-use, so nobody can fish.

Pass criteria: posting the same signed step a second time is refused (409) and rolls
nothing, on the API and the page; a step refused for its form (a rule, a bad value) can
be posted again; the last step spends its state with the new character, in one
transaction; with the table's own dice, reloading the first step shows the same roll.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..client import AppClient
from ..web.conftest import Dice, Party, games_for_tests, seat_party


def _step(party: Party, state: str | None, form: dict[str, Any], code: int = 200) -> Any:
    answer = party.client.post(
        party.url("/creation"), json={"state": state, "form": form}, headers=party.player
    )
    assert answer.status_code == code, answer.text
    return answer.json()


def test_a_step_posted_twice_is_refused(client: AppClient, dice: Dice) -> None:
    party = seat_party(client, "guided-test")
    dice.seeds[:] = [1, 2, 3, 4]
    start = _step(party, None, {})
    kin = _step(party, start["state"], {})
    again = _step(party, start["state"], {}, 409)
    assert "already taken" in again["detail"]
    assert "state" not in again
    _step(party, kin["state"], {"kin": "giant"}, 409)  # a rule refuses it: not spent
    name = _step(party, kin["state"], {"kin": "human"})
    done = _step(party, name["state"], {"name": "Hild"})
    assert done["character"]["name"] == "Hild"
    _step(party, name["state"], {"name": "Hild"}, 409)
    listed = party.client.get(party.url("/characters"), headers=party.player).json()
    assert [c["name"] for c in listed] == ["Hild"]


@pytest.fixture
def committed(db_url: str) -> Iterator[AppClient]:
    """The server's own dice (no injected source), with the test game's guided creation."""
    settings = Settings(database_url=db_url, games=games_for_tests, session_rate=None)
    with AppClient(create_app(settings)) as opened:
        yield opened


def test_reloading_the_first_step_shows_the_same_roll(committed: AppClient) -> None:
    party = seat_party(committed, "guided-test")
    states = {_step(party, None, {})["state"] for _ in range(5)}
    assert len(states) == 5  # each start carries a nonce of its own
    firsts = [_first_might(party) for _ in range(6)]
    assert len(set(firsts)) == 1, firsts


def _first_might(party: Party) -> int:
    state = _step(party, None, {})["state"]
    kin = _step(party, state, {})
    return int(kin["notes"][0].removeprefix("Might "))
