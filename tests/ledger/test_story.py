"""The ledger of an export: what it counts (and leaves out), per member, character and
session, the decisions' worth, criticals, and its JSON."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulebound.ledger import ledger, ledger_json
from rulebound.ledger.poisson import standing
from rulebound.render.ledger_text import ledger_lines, percent
from rulebound.rulesets.ghostburn.game import Ghostburn
from rulebound.rulesets.plays import params_of

from .plays import Log, followed, raw_request, rolled


def _rolls(key: str, log: Log, seeds: range, **who: Any) -> list[tuple[Any, int]]:
    game, request = raw_request(key)
    made = []
    for seed in seeds:
        result, record = rolled(game, request, seed)
        made.append((result, log.add("roll", record=record, card=game.card(result), **who)))
    return made


def test_each_check_counts_its_exact_chance_and_how_it_went() -> None:
    log = Log("legacy")
    made = _rolls("legacy", log, range(12), actor=2, character=7)
    found = ledger(log.doc())
    game, request = raw_request("legacy")
    chance = game.chances(request).success
    hits = sum(1 for result, _ in made if result.result.outcome.passed)
    ((key, pia),) = found.members
    assert key == 2
    assert pia.name == "Pia"
    assert pia.checks == 12
    assert pia.expected == 12 * chance
    assert pia.actual == hits
    assert pia.luckier_than == standing([chance] * 12, hits).luckier_than
    assert found.whole.checks == 12
    assert [c.name for c in found.characters] == ["Ana"]
    crits = {t.key: t for t in pia.criticals}
    assert set(crits) == {"critical success", "critical failure"}
    assert crits["critical success"].expected == 12 * game.chances(request).outcome(
        "critical success"
    )


def test_hidden_voided_and_undecided_plays_are_left_out_and_said_so() -> None:
    log = Log("legacy")
    ((_result, first),) = _rolls("legacy", log, range(1), actor=2, character=7)
    _rolls("legacy", log, range(1, 3), actor=3, character=8)
    log.add("roll", 3, shown="withheld")  # someone else's hidden roll: no trace at all
    log.add("roll", 2, shown="sealed", character=7)  # the member's own blind roll
    log.add("void", 1, {"kind": "void", "voids": [first], "draws": []})
    found = ledger(log.doc())
    assert [line.name for _, line in found.members] == ["Oz"]
    assert found.whole.checks == 2
    assert found.notes == (
        "1 roll voided by the game master: left out",
        "1 blind roll of yours: only the game master sees the outcome",
    )


def test_sessions_end_where_a_scene_is_closed() -> None:
    log = Log("ghostburn")
    _rolls("ghostburn", log, range(3), actor=2)
    log.add("scene", 1, None)
    _rolls("ghostburn", log, range(3, 5), actor=2)
    found = ledger(log.doc())
    assert [(n, s.checks) for n, s in found.sessions] == [(1, 3), (2, 2)]
    second = found.sessions[1][1]
    assert abs(second.curve[-1][0] - float(second.expected)) < 1e-9


def test_a_push_is_a_decision_and_a_check_of_its_own() -> None:
    game, request = raw_request("empty-reach")
    log = Log("empty-reach")
    for seed in range(40):
        result, record = rolled(game, request, seed)
        if result.default_reroll() and not result.succeeded:
            break
    entry = log.add("roll", 2, record, game.card(result), character=7)
    after, push = followed(game, result, "push", {"reroll": list(result.default_reroll())})
    log.add("follow-up", 2, push, game.card(after), parent=entry, character=7)
    found = ledger(log.doc())
    decision = game.decision(result, "push", params_of(push), after)
    assert decision is not None
    whole = found.whole
    assert whole.checks == 2
    assert whole.expected == game.chances(request).success + decision.after
    (bought,) = whole.bought
    assert (bought.action, bought.label, bought.taken) == ("push", "Push the roll", 1)
    assert bought.raised == decision.after - decision.before
    assert dict(bought.paid) == dict(decision.paid)
    (each,) = ledger_json(found)["members"][0]["each_decision"]
    assert (each["action"], each["character"]) == ("push", "Ana")
    assert Fraction(each["before"]) == decision.before == 0  # a failed roll, its dice down
    assert Fraction(each["after"]) == decision.after
    assert each["paid"] == dict(decision.paid)
    assert each["succeeded"] is after.succeeded
    said = "succeeded" if after.succeeded else "failed"
    shown = f"Push the roll (Ana): 0% -> {percent(decision.after)}"
    (line,) = [text.strip() for text in ledger_lines(found) if shown in text]
    cost = "".join(f", cost {n} {what}" for what, n in decision.paid)
    assert line == f"{shown}{cost}; {said}"


def test_a_luck_point_is_a_decision_but_not_a_check() -> None:
    game, request = raw_request("ghostburn")
    log = Log("ghostburn")
    result, record = rolled(game, request, 4)
    entry = log.add("roll", 2, record, game.card(result))
    after, spend = followed(game, result, "spend-luck", {})
    log.add("follow-up", 2, spend, game.card(after), parent=entry)
    whole = ledger(log.doc()).whole
    assert whole.checks == 1
    (bought,) = whole.bought
    assert bought.paid == (("Luck Point", 1),)
    assert bought.raised == int(after.succeeded) - int(result.succeeded)


def test_a_game_that_does_not_say_leaves_the_chance_unknown() -> None:
    class Silent(Ghostburn):
        def decision(self, result: Any, action: str, params: Any, after: Any) -> None:
            return None

    game, request = raw_request("ghostburn")
    log = Log("ghostburn")
    result, record = rolled(game, request, 4)
    entry = log.add("roll", 2, record, game.card(result))
    after, spend = followed(game, result, "spend-luck", {})
    log.add("follow-up", 2, spend, game.card(after), parent=entry)
    whole = ledger(log.doc(), Silent()).whole
    (bought,) = whole.bought
    assert (bought.taken, bought.measured) == (1, 0)


def test_a_free_roll_counts_only_with_a_success_condition() -> None:
    log = Log("rainwall")
    for text, total in (("1d20+5 >= 16", 1), ("2d6+3", 9)):
        record = {"kind": "free-roll", "expression": text, "draws": []}
        card = {"title": text, "outcome": "", "succeeded": bool(total) if ">" in text else None}
        log.entries.append(
            {
                "id": 500 + len(log.entries),
                "seq": len(log.entries) + 1,
                "kind": "free-roll",
                "actor": "Pia",
                "character": "",
                "body": {"kind": "free-roll", "actor_id": 2, "record": record, "card": card},
            }
        )
    found = ledger(log.doc())
    assert found.whole.checks == 1
    assert found.whole.expected == Fraction(1, 2)
    assert found.notes == ("1 free roll without a success condition (not a comparison)",)


def test_the_json_has_each_members_figures_exactly() -> None:
    log = Log("rainwall")
    _rolls("rainwall", log, range(5), actor=2, character=7)
    _rolls("rainwall", log, range(5, 8), actor=3, character=8)
    found = ledger(log.doc())
    out = ledger_json(found)
    assert [m["name"] for m in out["members"]] == ["Pia", "Oz"]
    for member, (_, line) in zip(out["members"], found.members, strict=True):
        assert member["checks"] == line.checks
        assert member["actual_successes"] == line.actual
        assert Fraction(member["expected_successes"]) == line.expected
        assert Fraction(member["luckier_than"]) == line.luckier_than
        assert "/" in member["luckier_than"]
    assert out["sessions"][0]["curve"][-1][1] == found.whole.actual
    degrees = {o["key"]: o for o in out["whole"]["outcomes"]}
    assert degrees["critical"]["critical"]
    assert degrees["disaster"]["critical"]
    assert not degrees["basic"]["critical"]
