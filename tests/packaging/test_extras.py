"""The base package needs pydantic and click only; each extra brings what its commands
import. Checked here by hiding the libraries of the extras not installed from a fresh
interpreter (``scripts/check-install`` does it for real, from the wheel, in CI)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from rulebound.cli.extras import EXTRAS

ROOT = Path(__file__).parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXPORT = ROOT / "tests" / "trust" / "data" / "format1-observer.json"
HIDE = """
import sys
from importlib.abc import MetaPathFinder

class Hidden(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Hidden())
"""


def run(hidden: set[str], code: str) -> str:
    """``code`` in a fresh interpreter where the ``hidden`` libraries cannot be imported."""
    script = f"HIDDEN = {sorted(hidden)!r}\n{HIDE}\n{code}"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_base_needs_pydantic_and_click_only() -> None:
    assert sorted(_name(r) for r in PROJECT["dependencies"]) == ["click", "pydantic"]


def test_each_extra_brings_the_libraries_it_is_named_for() -> None:
    extras = PROJECT["optional-dependencies"]
    assert {"web", "postgres", "redis", "discord", "plot", "all", "dev"} <= set(extras)
    assert extras["all"] == ["rulebound[web,postgres,redis,discord,plot]"]
    assert "rulebound[all]" in extras["dev"]
    assert "rulebound[web]" in extras["discord"]
    provided = packages_distributions()
    for module, extra in EXTRAS.items():
        if module in provided:  # hiredis, python_multipart: names some versions lack
            names = {_name(r) for r in extras[extra]}
            assert {d.lower() for d in provided[module]} & names, (module, extra)


def test_the_cli_and_the_library_run_on_the_base_alone() -> None:
    code = f"""
import contextlib, io, rulebound
from rulebound.cli.app import app
for args in (
    ["odds", "rainwall", "--dice", "7", "--skill", "5", "--dr", "4", "--bonus", "3"],
    ["roll", "empty-reach", "--attribute", "D8", "--skill", "D10", "--seed", "1"],
    ["odds", "legacy", "--score", "30", "--table"],
    ["roll", "ghostburn", "--dl", "Hard", "--ability-score", "3", "--seed", "1"],
    ["dice", "4d6kh3", "--seed", "1"],
    ["verify", {str(EXPORT)!r}],
):
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            app(args)
        except SystemExit as done:
            assert done.code == 0, (args, done.code)
print(rulebound.game("rainwall").chances(dice=7, skill=5, dr=4, bonus=3).success)
"""
    assert run(set(EXTRAS), code) == "172177/200000\n"


@pytest.mark.parametrize(
    ("hidden", "extra"),
    [(set(EXTRAS) - {"psycopg", "redis", "nacl"}, "web"), ({"nacl"}, "discord")],
)
def test_serve_without_its_extra_names_it(hidden: set[str], extra: str) -> None:
    """Without [web], ``serve`` stops at uvicorn; with a Discord key but no [discord], at
    the signature check's PyNaCl."""
    code = f"""
from click.testing import CliRunner
from rulebound.cli.app import app
env = {{"RULEBOUND_DISCORD_PUBLIC_KEY": "00" * 32}} if {extra!r} == "discord" else {{}}
answer = CliRunner().invoke(app, ["serve", "--database", "sqlite://", "--port", "1"], env=env)
print(answer.exit_code, answer.output.strip())
"""
    shown = run(hidden, code)
    assert shown.startswith(f"1 error: rulebound serve needs the {extra} extra")
    assert shown.endswith(f"pip install 'rulebound[{extra}]'\n")


def test_the_web_table_on_sqlite_needs_no_postgres_redis_or_discord(tmp_path: Path) -> None:
    code = f"""
from fastapi.testclient import TestClient
from rulebound.app import create_app
from rulebound.web.settings import Settings
app = create_app(Settings(database_url="sqlite:///{tmp_path}/table.sqlite3"))
with TestClient(app) as client:
    print(client.get("/api/rulesets").status_code, client.get("/").status_code)
"""
    assert run({"psycopg", "redis", "hiredis", "nacl", "matplotlib"}, code) == "200 200\n"
