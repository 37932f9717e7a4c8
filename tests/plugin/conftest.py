"""The example plug-in (examples/coin_toss) registered the way pip would register it.

A ``*.dist-info`` folder with the package's own ``entry_points.txt`` goes on the path,
so rulebound finds the game through the real entry-point machinery, in this process
and in a subprocess, without installing anything.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebound.rulesets import registry

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "coin_toss"


def _dist_info(folder: Path) -> Path:
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = folder / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(parents=True)
    metadata = f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    (info / "METADATA").write_text(metadata, encoding="utf-8")
    lines = ["[rulebound.rulesets]"]
    lines += [f"{k} = {v}" for k, v in project["entry-points"]["rulebound.rulesets"].items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.fixture
def plugin_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The plug-in registered in this process; the environment that registers it in another."""
    site = _dist_info(tmp_path / "site")
    paths = [str(site), str(EXAMPLE / "src")]
    for path in reversed(paths):
        monkeypatch.syspath_prepend(path)
    registry._targets.cache_clear()
    registry.get_game.cache_clear()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")])
    yield env
    registry._targets.cache_clear()
    registry.get_game.cache_clear()
    sys.modules.pop("coin_toss", None)
