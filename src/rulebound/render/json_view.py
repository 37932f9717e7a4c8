"""The JSON view of any result: its canonical form plus the digest that identifies it."""

from __future__ import annotations

from typing import Any

from rulebound.core.canonical import digest, to_jsonable


def result_json(result: Any) -> dict[str, Any]:
    body = to_jsonable(result)
    if not isinstance(body, dict):
        raise TypeError("a result must convert to a JSON object")
    return {**body, "digest": digest(result)}
