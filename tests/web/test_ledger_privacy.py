"""Privacy of the story of the dice: a player's ledger is the same, byte for byte, whether
or not the others made hidden rolls (blind, game master only, self) in between; those who
may see them count them."""

from __future__ import annotations

from typing import Any

from ..client import AppClient
from .conftest import Dice, Party, seat_party


def _character(party: Party, who: dict[str, str], name: str) -> int:
    cid = party.character(who, name)
    edit = {"form": {"skills.Force": "D8"}}
    patched = party.client.patch(party.url(f"/characters/{cid}"), json=edit, headers=who)
    assert patched.status_code == 200, patched.text
    return cid


def _roll(party: Party, dice: Dice, seed: int, who: dict[str, str], cid: int, privacy: str) -> Any:
    dice.seeds.append(seed)
    body = {"form": {"skill": "Force"}, "privacy": privacy}
    made = party.client.post(party.url(f"/characters/{cid}/roll"), json=body, headers=who)
    assert made.status_code == 201, made.text
    return made.json()


def _night(client: AppClient, dice: Dice, *, hidden: bool) -> Party:
    party = seat_party(client)
    pia, oz = _character(party, party.player, "Ana"), _character(party, party.other, "Bo")
    plays = [
        ("player", 11, "public"),
        ("other", 50, "blind"),
        ("player", 12, "public"),
        ("other", 51, "self"),
        ("other", 13, "public"),
        ("other", 52, "gm"),
        ("scene", 0, ""),
        ("player", 14, "public"),
        ("other", 53, "blind"),
        ("player", 15, "public"),
    ]
    for who, seed, privacy in plays:
        if who == "scene":
            closed = client.post(party.url("/scene/close"), headers=party.gm)
            assert closed.status_code == 201, closed.text
        elif privacy == "public" or hidden:
            mine = who == "player"
            _roll(
                party,
                dice,
                seed,
                party.player if mine else party.other,
                pia if mine else oz,
                privacy,
            )
    rolled = _roll(party, dice, 16, party.player, pia, "public")
    card = rolled["card"]
    chosen = [n for n, die in enumerate(card["dice"]) if die["selectable"]]
    if any(a["key"] == "push" for a in card["actions"]) and chosen:
        dice.seeds.append(17)
        body = {"params": {"reroll": chosen[:1]}}
        pushed = client.post(
            party.url(f"/entries/{rolled['id']}/actions/push"), json=body, headers=party.player
        )
        assert pushed.status_code == 201, pushed.text
    return party


def test_a_players_ledger_never_tells_of_the_others_hidden_rolls(
    client: AppClient, dice: Dice
) -> None:
    with_hidden = _night(client, dice, hidden=True)
    without = _night(client, dice, hidden=False)
    for path in ("/api/tables/{id}/ledger", "/t/{id}/story/fragment"):
        seen = [
            client.get(path.format(id=party.table_id), headers=party.player).content
            for party in (with_hidden, without)
        ]
        assert seen[0] == seen[1], path
    mine = client.get(with_hidden.url("/ledger"), headers=with_hidden.player).json()
    assert mine["whole"]["checks"] >= 6
    assert mine["notes"] == []
    gm = client.get(with_hidden.url("/ledger"), headers=with_hidden.gm).json()
    # the game master sees the blind and game-master-only rolls (a "self" roll is Oz's alone)
    assert gm["whole"]["checks"] == mine["whole"]["checks"] + 3
    oz = client.get(with_hidden.url("/ledger"), headers=with_hidden.other).json()
    assert oz["notes"] == ["2 blind rolls of yours: only the game master sees the outcome"]
