"""Killer and Lucky from a sheet, through the game contract: a sheet action rolls the named
table's die twice (or once more against a result already rolled) and a follow-up keeps one;
the web's character page and the CLI's ``--action`` offer it from the contract alone.

Rulings E27 and E34: Killer is for an injury the character inflicts, Lucky for one they
suffer; on the same injury Killer's pick comes first and Lucky re-rolls against it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulebound.cli.app import app
from rulebound.core.errors import InvalidInput, RuleboundError, RuleViolation
from rulebound.core.random_source import Draw, ReplaySource, SeededSource
from rulebound.rulesets.empty_reach.game import GAME
from rulebound.rulesets.plays import TableRules

TABLE = TableRules(GAME)
ACTION = "roll-twice"


def sheet(*specialties: str) -> dict[str, Any]:
    form = {"specialties": ", ".join(specialties)}
    return TABLE.apply_sheet_form(TABLE.new_sheet("Iva"), form)


def d6(*faces: int) -> ReplaySource:
    return ReplaySource([Draw(6, f) for f in faces])


def test_the_action_is_offered_only_with_killer_or_lucky() -> None:
    assert ACTION not in [a.key for a in TABLE.sheet_actions(sheet("Tough"), {})]
    (view,) = [a for a in TABLE.sheet_actions(sheet("Killer", "Lucky"), {}) if a.key == ACTION]
    fields = {f.name: f for f in view.fields}
    assert [c.value for c in fields["specialty"].choices] == ["Killer", "Lucky"]
    labels = [c.label for c in fields["specialty"].choices]
    assert "inflict" in labels[0]
    assert "suffer" in labels[1]
    assert {"sides", "first"} <= set(fields)


def test_killer_rolls_twice_and_the_player_keeps_one() -> None:
    killer = sheet("Killer")
    play = TABLE.sheet_act(killer, ACTION, {"specialty": "Killer", "sides": "6"}, {}, d6(2, 5))
    assert play.record["draws"] == [[6, 2], [6, 5]]
    assert play.sheet is None  # nothing on the sheet changes
    assert [d.face for d in play.card.dice] == [2, 5]
    assert "critical injury dealt" in play.card.title
    assert [a.key for a in play.card.actions] == ["choose"]
    assert TABLE.card([play.record]) == play.card  # rebuilt from the record
    kept = TABLE.act(killer, [play.record], "choose", {"keep": "2"}, {}, SeededSource(0))
    assert kept.record == {"kind": "choose", "keep": 2, "draws": []}
    assert "keeps 5" in kept.card.outcome
    assert kept.card.actions == ()
    assert TABLE.card([play.record, kept.record]) == kept.card
    with pytest.raises(RuleViolation):
        TABLE.act(killer, [play.record, kept.record], "choose", {"keep": "1"}, {}, d6())


def test_lucky_rerolls_against_a_killers_pick() -> None:
    """Ruling E34: the attacker's Killer pick is the result Lucky re-rolls against."""
    lucky = sheet("Lucky")
    params = {"specialty": "Lucky", "sides": "6", "first": "5"}
    play = TABLE.sheet_act(lucky, ACTION, params, {}, d6(1))
    assert play.record["draws"] == [[6, 1]]  # one re-roll, the 5 was rolled already
    assert [d.face for d in play.card.dice] == [5, 1]
    assert "critical injury suffered" in play.card.title
    kept = TABLE.act(lucky, [play.record], "choose", {"keep": "2"}, {}, SeededSource(0))
    assert "keeps 1" in kept.card.outcome
    with pytest.raises(InvalidInput) as error:
        TABLE.sheet_act(lucky, ACTION, params | {"first": "7"}, {}, d6(1))
    assert error.value.field == "first"


def test_a_specialty_the_sheet_lacks_is_refused() -> None:
    with pytest.raises(InvalidInput) as error:
        TABLE.sheet_act(sheet("Killer"), ACTION, {"specialty": "Lucky", "sides": "6"}, {}, d6(1, 2))
    assert error.value.field == "specialty"


@given(st.integers(2, 100), st.data())
def test_a_record_replays_to_its_card_and_needs_its_own_draws(sides: int, data: Any) -> None:
    faces = [data.draw(st.integers(1, sides)) for _ in range(2)]
    source = ReplaySource([Draw(sides, f) for f in faces])
    params = {"specialty": "Killer", "sides": str(sides)}
    play = TABLE.sheet_act(sheet("Killer"), ACTION, params, {}, source)
    assert TABLE.card([play.record]) == play.card
    short = play.record | {"draws": play.record["draws"][:1]}
    with pytest.raises(RuleboundError):  # a draw short: it does not replay
        TABLE.card([short])


def test_the_cli_takes_the_action_and_its_follow_up(tmp_path: Path) -> None:
    path = tmp_path / "iva.json"
    path.write_text(json.dumps(sheet("Killer")), "utf-8")
    args = ["roll", "empty-reach", "-c", str(path), "--seed", "3"]
    done = CliRunner().invoke(
        app,
        [
            *args,
            "--action",
            "roll-twice:specialty=Killer;sides=6",
            "--follow",
            "choose:keep=1",
            "--json",
        ],
    )
    assert done.exit_code == 0, done.output
    body = json.loads(done.output)
    assert [r["kind"] for r in body["records"]] == ["roll-twice", "choose"]
    assert "keeps" in body["card"]["outcome"]
    shown = CliRunner().invoke(app, [*args, "--action", "roll-twice:specialty=Killer;sides=6"])
    assert shown.exit_code == 0, shown.output
    assert "choose" in shown.output
    refused = CliRunner().invoke(app, [*args, "--action", "roll-twice:specialty=Lucky;sides=6"])
    assert refused.exit_code == 2


def test_the_cli_action_refuses_a_rolls_options_and_needs_a_character(tmp_path: Path) -> None:
    path = tmp_path / "iva.json"
    path.write_text(json.dumps(sheet("Killer")), "utf-8")
    action = ["--action", "roll-twice:specialty=Killer;sides=6"]
    mixed = CliRunner().invoke(
        app, ["roll", "empty-reach", "-c", str(path), *action, "--skill-name", "Force"]
    )
    assert mixed.exit_code == 2
    assert "--skill-name" in mixed.output
    alone = CliRunner().invoke(app, ["roll", "empty-reach", *action])
    assert alone.exit_code == 2
    assert "--character" in alone.output


def test_the_web_table_offers_the_action_and_its_follow_up(db_url: str) -> None:
    """The web's generic sheet actions and follow-ups reach it, with no game-specific code."""
    from rulebound.web.app import create_app
    from rulebound.web.settings import Settings

    from ..client import AppClient

    app = create_app(Settings(database_url=db_url, source=lambda _table: SeededSource(5)))
    with AppClient(app) as client:
        made = client.post(
            "/api/tables", json={"name": "Run", "ruleset": "empty-reach", "gm_name": "Gina"}
        )
        assert made.status_code == 201, made.text
        table, gm = made.json()["table"]["id"], made.json()["session_token"]
        auth = {"Authorization": f"Bearer {gm}"}
        base = f"/api/tables/{table}"
        char = client.post(f"{base}/characters", json={"name": "Iva"}, headers=auth).json()["id"]
        form = {"form": {"specialties": "Killer"}}
        edited = client.patch(f"{base}/characters/{char}", json=form, headers=auth)
        assert edited.status_code == 200, edited.text
        detail = edited.json()
        assert ACTION in [a["key"] for a in detail["actions"]]
        params = {"params": {"specialty": "Killer", "sides": 6}}
        rolled = client.post(
            f"{base}/characters/{char}/actions/{ACTION}", json=params, headers=auth
        )
        assert rolled.status_code == 201, rolled.text
        entry = rolled.json()
        assert [a["key"] for a in entry["card"]["actions"]] == ["choose"]
        kept = client.post(
            f"{base}/entries/{entry['id']}/actions/choose",
            json={"params": {"keep": 2}},
            headers=auth,
        )
        assert kept.status_code == 201, kept.text
        assert "keeps" in kept.json()["card"]["outcome"]
