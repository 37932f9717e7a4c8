"""A Legacy table's default scale is one under which checks can fail (ruling 1).

Characteristics are 2d10 plus a racial 15-25, so a new character's scores sit around 30; a
d20 against the full score passes 95% of the time at every class up to Very Hard. The
default is a playable reading, each choice shows a typical new character's odds where it
is chosen, and ``as-written`` says that nearly every check passes under it.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app
from rulebound.rulesets.legacy.checks import CheckRequest
from rulebound.rulesets.legacy.content import PRIMARIES, catalogue
from rulebound.rulesets.legacy.game import GAME
from rulebound.rulesets.legacy.odds import p_success
from rulebound.rulesets.legacy.rules import (
    SCALE_VARIANT,
    SCALES,
    TYPICAL_CLASSES,
    TYPICAL_SCORE,
    difficulty_keys,
)
from rulebound.rulesets.variants import resolve
from rulebound.web.app import create_app
from rulebound.web.settings import Settings

from ..client import AppClient

runner = CliRunner()


def default_scale() -> str:
    return resolve(GAME.variants, {})["scale"]


def test_the_typical_score_is_a_new_characters_average() -> None:
    """2d10 (11 on average) plus the mean racial value, rounded down to the tens."""
    c = catalogue()
    bases = [race.base(code) for race in c.races.values() for code in PRIMARIES]
    mean = 11 + Fraction(sum(bases), len(bases))
    assert TYPICAL_SCORE <= mean < TYPICAL_SCORE + 5


def test_the_default_scale_lets_a_typical_check_fail() -> None:
    chosen = default_scale()
    assert chosen != "as-written"
    assert chosen == SCALE_VARIANT.default
    for score in range(25, 50, 5):  # as written: 95% at every class up to Very Hard
        hardest = p_success(CheckRequest(score=score, difficulty="very-hard", scale=chosen))
        assert hardest < Fraction(19, 20), score
    for score in range(TYPICAL_SCORE - 5, TYPICAL_SCORE + 10, 5):
        plain = p_success(CheckRequest(score=score, difficulty="challenging", scale=chosen))
        assert plain < Fraction(19, 20), score
    typical = p_success(CheckRequest(score=TYPICAL_SCORE, difficulty="challenging", scale=chosen))
    assert Fraction(1, 2) < typical < Fraction(9, 10)  # mostly passes, often fails


def test_under_the_default_harder_classes_are_harder_for_a_typical_character() -> None:
    chosen = default_scale()
    row = [
        p_success(CheckRequest(score=TYPICAL_SCORE, difficulty=d, scale=chosen))
        for d in difficulty_keys()
    ]
    assert row == sorted(row, reverse=True)
    assert len(set(row[2:-1])) == len(row[2:-1])  # Routine to Very Hard: each class matters


def _percent(p: Fraction) -> str:
    return f"{float(p):.0%}"


@pytest.mark.parametrize("choice", SCALE_VARIANT.choices)
def test_each_choice_shows_a_typical_characters_odds_from_the_engine(choice: str) -> None:
    hint = SCALE_VARIANT.hint(choice)
    assert f"score {TYPICAL_SCORE}" in hint
    names = {d.key: d.name for d in catalogue().tables.difficulty}
    for key in TYPICAL_CLASSES:
        p = p_success(CheckRequest(score=TYPICAL_SCORE, difficulty=key, scale=choice))
        assert f"{names[key]} {_percent(p)}" in hint, (key, hint)


def test_as_written_says_nearly_every_check_passes_where_it_is_chosen() -> None:
    assert "nearly every check passes" in SCALE_VARIANT.hint("as-written")
    assert "nearly every check passes" in SCALE_VARIANT.words("as-written")
    assert "nearly every check passes" in SCALES["as-written"].summary
    assert SCALE_VARIANT.asked  # chosen when a table is opened, not folded away


def test_the_cli_default_follows_and_as_written_stays_a_named_option() -> None:
    def odds(*extra: str) -> str:
        done = runner.invoke(app, ["odds", "legacy", "--score", str(TYPICAL_SCORE), *extra])
        assert done.exit_code == 0, done.output
        return str(json.loads(done.output)["p_success"])

    plain = p_success(CheckRequest(score=TYPICAL_SCORE, scale=default_scale()))
    assert odds("--json") == str(plain)
    assert odds("--json", "--scale", "as-written") == "19/20"
    shown = runner.invoke(app, ["roll", "legacy", "--help"], terminal_width=400)
    assert f"default {default_scale()}" in shown.output
    assert "nearly every check passes" in re.sub(r"\s+", " ", shown.output)


def test_the_designer_table_compares_every_scale_by_name() -> None:
    """``odds legacy --table``: every reading side by side, each panel named by its scale, so
    the default's playable odds sit beside the text's 95%."""
    grid = GAME.grid({}, resolve(GAME.variants, {}))
    assert {p.title.split(",")[0] for p in grid.panels} == set(SCALES)
    typical = grid.rows.index(str(TYPICAL_SCORE))
    challenging = grid.columns.index("Challenging")
    shown = {p.title: p.cells[typical][challenging] for p in grid.panels}
    assert shown[f"{default_scale()}, no rank"] == p_success(
        CheckRequest(score=TYPICAL_SCORE, scale=default_scale())
    )
    assert shown["as-written, no rank"] == Fraction(19, 20)


def test_opening_a_table_shows_each_scale_with_its_odds_unfolded(db_url: str) -> None:
    with AppClient(create_app(Settings(database_url=db_url))) as client:
        page = client.get("/").text
        block = page.split('value="legacy"', 1)[1].split('class="ruleset"', 1)[0]
        asked, _, folded = block.partition("<details")
        assert 'name="variant.legacy.scale"' in asked
        assert 'name="variant.legacy.scale"' not in folded
        for choice in SCALE_VARIANT.choices:
            assert SCALE_VARIANT.hint(choice).replace("'", "&#39;") in asked
        checked = re.search(r'value="([\w-]+)"[^>]*checked', asked.split("variant.legacy.scale")[1])
        assert checked is not None
        assert checked.group(1) == default_scale()
        made = client.post(
            "/tables",
            data={"name": "Run", "gm_name": "Gina", "ruleset": "legacy"},
            follow_redirects=False,
        )
        assert made.status_code == 303, made.text
        table = client.app.state.store.table(int(made.headers["location"].rsplit("/", 1)[1]))
        assert table.variants["scale"] == default_scale()
