"""JSON views: any result (its canonical form plus its digest) and any game's chances."""

from __future__ import annotations

from typing import Any

from rulebound.core.canonical import digest, probability_fields, to_jsonable
from rulebound.rulesets.contract import Chances


def result_json(result: Any) -> dict[str, Any]:
    body = to_jsonable(result)
    if not isinstance(body, dict):
        raise TypeError("a result must convert to a JSON object")
    return {**body, "digest": digest(result)}


def chances_json(ruleset: str, request: Any, chances: Chances) -> dict[str, Any]:
    """The odds JSON contract: each chance as an exact fraction string with a float twin."""
    out: dict[str, Any] = {"ruleset": ruleset, "request": request}
    out |= probability_fields("p_success", chances.success)
    out |= probability_fields(
        chances.outcome_name, {o.key: o.probability for o in chances.outcomes}
    )
    for extra in chances.extras:
        out |= probability_fields(extra.key, extra.value)
    for breakdown in chances.breakdowns:
        out |= probability_fields(breakdown.key, dict(breakdown.values))
    return out
