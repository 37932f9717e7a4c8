"""``rulebound dice EXPR``: a roll with its story and odds, ``--seed`` for the same faces,
``--odds`` for the exact distribution, ``--json`` for one object with ``"p/q"`` chances, and
bad input answered in plain words with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

from click.testing import CliRunner

from rulebound.cli.app import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    out = runner.invoke(app, ["dice", *args])
    return out.exit_code, out.stdout, out.stderr


def test_a_seeded_roll_is_the_same_every_time_and_shows_its_odds() -> None:
    code, first, _ = run("4d6kh3", "--seed", "7")
    assert code == 0
    assert first == run("4d6kh3", "--seed", "7")[1]
    lines = first.splitlines()
    assert lines[0].startswith("4d6kh3 (")
    assert " = " in lines[0]
    assert lines[1] == "4d6kh3: average 12.24, 3 to 18; P(total ≥ 13) = 79/162 (48.8%)"


def test_words_after_the_expression_need_no_quotes() -> None:
    code, said, _ = run("1d20+5", "adv", "Stealth", "--seed", "1")
    assert code == 0
    assert said.splitlines()[0].startswith("2d20kh1 (")
    assert "(Stealth)" in said


def test_odds_print_every_total_with_its_exact_chance() -> None:
    code, said, _ = run("--odds", "2d6")
    assert code == 0
    rows = [line.split() for line in said.splitlines()[2:]]
    assert [row[0] for row in rows] == [str(t) for t in range(2, 13)]
    assert rows[5][-1] == "1/6"


def test_json_maps_each_total_to_a_fraction() -> None:
    code, said, _ = run("--json", "--seed", "3", "1d20+5 >= 15")
    assert code == 0
    found = json.loads(said)
    assert found["expression"] == "1d20+5 >= 15"
    assert found["kind"] == "comparison"
    assert found["distribution"] == {"0": "9/20", "1": "11/20"}
    assert found["total"] in (0, 1)
    assert sum(Fraction(p) for p in found["distribution"].values()) == 1


def test_json_says_why_odds_were_not_computed() -> None:
    code, said, _ = run("--json", "--odds", "50d100kh25")
    assert code == 0
    found = json.loads(said)
    assert found["distribution"] is None
    assert "max_odds_work" in found["not_computed"]


def test_bad_input_is_plain_words_and_exit_2() -> None:
    code, _, err = run("4d6 kh3")
    assert code == 2
    assert err.startswith("error: EXPR:")
    assert "write 4d6kh3, without the space" in err
    code, _, err = run("1d6+" + "9" * 4400)
    assert code == 2
    assert "the cap on an expression's length" in err
    code, _, err = run("1d6+" + "9" * 400)
    assert code == 2
    assert "a whole number up to 1000000" in err
    assert "Traceback" not in err


def test_an_expression_may_start_with_a_minus_and_an_option_is_still_checked() -> None:
    """ "-1d6/4+1d6/3" was read as an option "-1"; a misspelt option is still refused."""
    code, said, err = run("--odds", "--json", "-1d6/4+1d6/3")
    assert (code, err) == (0, "")
    assert json.loads(said)["expression"] == "-1d6/4+1d6/3"
    code, said, _ = run("-1d4", "--seed", "2")
    assert code == 0
    assert said.startswith("-1d4 (")
    code, _, err = run("2d6", "--jsno")
    assert code == 2
    assert "No such option" in err
    assert "--jsno" in err
    # a keep or drop of the highest ("kh", "ph") after a minus is dice, not -h for help
    code, _, err = run("--seed", "-1d6", "1d6")  # a value of --seed, said as given
    assert code == 2
    assert "'-1d6'" in err
    for words in (["-4d6kh3"], ["--json", "-2d20ph1"], ["1d20", "-1d4kh1"]):
        code, said, err = run(*words, "--seed", "3")
        assert (code, err) == (0, ""), (words, said)
        assert "Usage" not in said


def test_the_command_is_listed_and_loads_no_game() -> None:
    assert "dice" in runner.invoke(app, ["--help"]).stdout
    code = (
        "import sys\n"
        "from rulebound.cli.app import app\n"
        "try:\n"
        "    app(['dice', '--seed', '1', '2d6'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "games = ('empty_reach', 'rainwall', 'legacy', 'ghostburn')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[2:3] and m.split('.')[2] in games))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
