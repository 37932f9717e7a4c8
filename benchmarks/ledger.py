"""The story of the dice: the ledger of a 2,000-roll table, one table per game.

Run from the repository root:

    python benchmarks/ledger.py [--rolls 2000] [--runs 3] [--markdown]

For each of the four games the script plays a table through the game contract (four
members, each with a character and a repertoire of 18 checks, its skills at varied
difficulties; the follow-ups each game offers taken
when a roll fails: pushes, fate rerolls, Luck Points, moved bonus points; a scene closed every
hundred rolls), writes it as the log export a member downloads (``trust.export``'s whole
entries: the hashed body of each), then times ``ledger(export)`` in a fresh process (cold:
the modules imported, nothing computed; the median of ``--runs``). The goal is 1 s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from rulebound.core.random_source import SeededSource
from rulebound.rulesets import forms
from rulebound.rulesets.plays import TableRules, follow_play, roll_play
from rulebound.rulesets.registry import get_game
from rulebound.rulesets.views import card_json

GOAL = 1.0
SKILLS = 18
"""Distinct checks each character makes over the night (skills at varied difficulties)."""
MEMBERS = ("Gina", "Pia", "Oz", "Ida")
FOLLOW = {
    "empty-reach": "push",
    "legacy": "fate-reroll",
    "ghostburn": "spend-luck",
    "rainwall": "reallocate",
}


def _raw(key: str, rng: random.Random) -> dict[str, Any]:
    """A varied check of each game, from its raw fields."""
    if key == "empty-reach":
        dice = ("D6", "D8", "D10", "D12")
        return {"attribute_die": rng.choice(dice), "skill_die": rng.choice(dice)}
    if key == "legacy":  # rolled from the sheets instead (``_legacy``)
        return {"score": rng.randint(25, 45)}
    if key == "ghostburn":
        return {
            "dl": rng.choice(("Easy", "Moderate", "Hard")),
            "ability_score": rng.randint(0, 3),
            "skill_bonus": rng.randint(0, 3),
            "luck_points": 2,
            "luck_bonus": rng.randint(2, 5),
        }
    return {
        "dice": rng.randint(3, 6),
        "skill": rng.randint(3, 7),
        "dr": rng.randint(1, 3),
        "bonus": rng.randint(0, 2),
    }


def _legacy(rules: TableRules[Any, Any], sheet: dict[str, Any], rng: random.Random) -> Any:
    form = {"characteristic": rng.choice(("STR", "DEX", "CON", "INT", "CHA"))}
    return rules.request(sheet, form, rules.variants(None))


def export(key: str, rolls: int, seed: int = 1) -> dict[str, Any]:
    game = get_game(key)
    rules = TableRules(game)
    rng = random.Random(seed)
    variants = rules.variants(None)
    sheets = [rules.sheets.starter(f"Hero {n}") for n in range(len(MEMBERS))]
    repertoire = [  # each character's handful of checks, each at one of three difficulties
        [game.request(forms.read(game.fields, _raw(key, rng)), variants) for _ in range(SKILLS)]
        for _ in MEMBERS
    ]
    entries: list[dict[str, Any]] = []

    def add(body: dict[str, Any], member: int) -> int:
        entry_id = len(entries) + 1
        shown = {"actor": MEMBERS[member], "character": f"Hero {member}" if member else ""}
        entry = {"id": entry_id, "seq": entry_id, "kind": body["kind"], **shown, "body": body}
        entries.append(entry)
        return entry_id

    for n in range(rolls):
        member = n % len(MEMBERS)
        if key == "legacy":
            request = _legacy(rules, sheets[member], rng)
        else:
            request = rng.choice(repertoire[member])
        result, record = roll_play(game, request, SeededSource(rng.getrandbits(32)))
        body = {"kind": "roll", "actor_id": member, "character_id": member, "parent_id": None}
        parent = add(body | {"record": record, "card": card_json(game.card(result))}, member)
        offered = {a.key: a for a in game.follow_ups(result) if a.available}
        action = FOLLOW[key]
        if action in offered and not game.card(result).succeeded:
            params: dict[str, Any] = {}
            if key == "legacy":
                params = {"sheet": sheets[member]}
            elif key == "rainwall":
                params = {"allocation": [0] * len(result.dice)}
            new, follow = follow_play(
                game, result, action, params, SeededSource(rng.getrandbits(32))
            )
            body = body | {"kind": "follow-up", "parent_id": parent, "record": follow}
            add(body | {"card": card_json(game.card(new))}, member)
        if n % 100 == 99:
            add({"kind": "scene", "actor_id": 0, "record": None, "card": None}, 0)
    return {
        "format": "rulebound-log/2",
        "table": f"{key} x{rolls}",
        "table_id": 1,
        "ruleset": key,
        "entries": entries,
    }


TIMER = """
import json, sys, time
from rulebound.ledger import ledger, ledger_json
doc = json.load(open(sys.argv[1]))
wall, cpu = time.perf_counter(), time.process_time()
found = ledger(doc)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
json.dumps(ledger_json(found))
decisions = sum(b.taken for b in found.whole.bought)
print(json.dumps({"wall": wall, "cpu": cpu, "checks": found.whole.checks, "decisions": decisions}))
"""
"""The ledger timed in a fresh process: wall clock, and the process's own CPU time (what the
work costs when it has a core to itself; the wall clock counts waiting for one too)."""


def cold(path: Path) -> dict[str, Any]:
    command = [sys.executable, "-c", TIMER, str(path)]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    found: dict[str, Any] = json.loads(out.stdout)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rolls", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for key in FOLLOW:
            path = Path(folder) / f"{key}.json"
            path.write_text(json.dumps(export(key, args.rolls)), encoding="utf-8")
            runs = [cold(path) for _ in range(args.runs)]
            wall = statistics.median(r["wall"] for r in runs)
            cpu = statistics.median(r["cpu"] for r in runs)
            rows.append((key, runs[0]["checks"], runs[0]["decisions"], wall, cpu))
    if args.markdown:
        print("| game | rolls | checks | decisions | wall (median) | CPU (median) | goal 1 s |")
        print("|---|---:|---:|---:|---:|---:|---|")
    for key, checks, decisions, wall, cpu in rows:
        verdict = "met" if cpu <= GOAL else "missed"
        if args.markdown:
            print(
                f"| {key} | {args.rolls} | {checks} | {decisions} | {wall:.3f} s | {cpu:.3f} s"
                f" | {verdict} |"
            )
        else:
            print(
                f"{key:12} {args.rolls} rolls, {checks} checks, {decisions} decisions:"
                f" {wall:.3f} s wall, {cpu:.3f} s CPU ({verdict})"
            )


if __name__ == "__main__":
    main()
