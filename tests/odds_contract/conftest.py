"""Shared helpers for the ``rulebound odds ... --json`` contract tests.

``odds_json(*args)`` runs the real ``rulebound`` app (every ruleset registered)
and returns the parsed object; ``exact_pairs(data)`` checks the contract that
every probability is an exact fraction string beside an equal float, and
returns the exact values by key.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from rulebound.cli.app import app

OddsJson = Callable[..., dict[str, Any]]
ExactPairs = Callable[[Mapping[str, Any]], dict[str, Any]]

runner = CliRunner()


def _odds_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def _exact(text: object, twin: object, where: str) -> Fraction:
    assert isinstance(text, str), f"{where}: {text!r} is not a fraction string"
    numerator, slash, denominator = text.partition("/")
    assert slash, f"{where}: {text!r} has no '/'"
    assert numerator.lstrip("-").isdigit(), where
    assert denominator.isdigit(), where
    value = Fraction(text)
    assert isinstance(twin, float), f"{where}_float: {twin!r} is not a float"
    assert twin == float(value), f"{where}: {twin} != float({text})"
    return value


def _exact_pairs(data: Mapping[str, Any]) -> dict[str, Any]:
    """Every ``k``/``k_float`` pair, as Fractions (or dicts of Fractions); checks each twin."""
    found: dict[str, Any] = {}
    for key, twin in data.items():
        if not key.endswith("_float"):
            continue
        name = key.removesuffix("_float")
        assert name in data, f"{key} has no exact twin {name}"
        value = data[name]
        if isinstance(value, Mapping):
            assert isinstance(twin, Mapping), key
            assert set(value) == set(twin), f"{name}: keys differ from {key}"
            found[name] = {k: _exact(v, twin[k], f"{name}[{k}]") for k, v in value.items()}
        else:
            found[name] = _exact(value, twin, name)
    for key in data:
        if key.startswith("p_") and not key.endswith("_float"):
            assert f"{key}_float" in data, f"{key} has no float twin"
            assert 0 <= found[key] <= 1, key
    return found


@pytest.fixture(scope="session")
def odds_json() -> OddsJson:
    return _odds_json


@pytest.fixture(scope="session")
def exact_pairs() -> ExactPairs:
    return _exact_pairs
