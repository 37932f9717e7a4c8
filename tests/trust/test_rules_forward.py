"""A roll's record names the version of its game's rules it was played under (Legacy's
``rules``, Ghostburn's ``ladder``), and a record without one replays under the first: so
``rulebound verify`` holds a log's rolls to rules that only go forward. A host that drops the
name from a roll made after one that names it is choosing the older reading unseen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..client import AppClient
from .conftest import open_table, verify
from .forge import reseal

FORMS = {
    "legacy": ({"characteristic": "DEX"}, "rules"),
    "ghostburn": ({"skill": "firearms", "dl": "14"}, "ladder"),
}


def _two_rolls(client: AppClient, ruleset: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A table's export after two rolls of one character, and those two rolls' entries."""
    table = open_table(client, ruleset)
    cid = int(table.post("player", "/characters", {"name": "Ana"})["id"])
    form, _ = FORMS[ruleset]
    for _ in range(2):
        table.post(
            "player", f"/characters/{cid}/roll", {"form": form, "dice": table.contribution()}
        )
    table.reveal()
    doc = table.export()
    rolls = [e for e in doc["entries"] if e.get("body", {}).get("kind") == "roll"]
    assert len(rolls) == 2
    return doc, rolls


@pytest.mark.parametrize("ruleset", FORMS)
def test_a_roll_naming_older_rules_than_one_before_it_is_named(
    client: AppClient, tmp_path: Path, ruleset: str
) -> None:
    doc, (_, second) = _two_rolls(client, ruleset)
    key = FORMS[ruleset][1]
    assert verify(doc, tmp_path).code == 0
    assert key in second["body"]["record"]
    del second["body"]["record"][key]  # "rolled under the first rules"
    second["record"] = second["body"]["record"]
    verdict = verify(reseal(doc), tmp_path)
    assert verdict.code == 1
    assert verdict.first == second["seq"]
    assert "older rules than a roll before it" in verdict.out


@pytest.mark.parametrize("ruleset", FORMS)
def test_rolls_from_before_the_rules_were_named_then_after_verify(
    client: AppClient, tmp_path: Path, ruleset: str
) -> None:
    """An old log continued today: its first rolls name none (the first rules), then today's."""
    doc, (first, _) = _two_rolls(client, ruleset)
    del first["body"]["record"][FORMS[ruleset][1]]
    first["record"] = first["body"]["record"]
    verdict = verify(reseal(doc), tmp_path)
    assert "older rules" not in verdict.out
