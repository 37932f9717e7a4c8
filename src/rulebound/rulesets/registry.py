"""Find rulesets by key: the built-in packages plus any installed plug-ins.

Third-party rulesets register through the ``rulebound.rulesets`` entry-point
group; each entry point names an object implementing ``Ruleset``.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from rulebound.core.errors import UnknownRuleset
from rulebound.rulesets.base import Ruleset
from rulebound.rulesets.table import TableRules

BUILT_IN: tuple[str, ...] = (
    "rulebound.rulesets.empty_reach:RULESET",
    "rulebound.rulesets.rainwall:RULESET",
    "rulebound.rulesets.legacy:RULESET",
    "rulebound.rulesets.ghostburn:RULESET",
)

AnyRuleset = Ruleset[Any, Any]


def _load(target: str) -> AnyRuleset:
    module_name, _, attribute = target.partition(":")
    ruleset = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{target} does not implement the Ruleset protocol")
    return ruleset


@cache
def all_rulesets() -> dict[str, AnyRuleset]:
    found: dict[str, AnyRuleset] = {}
    targets = list(BUILT_IN) + [ep.value for ep in entry_points(group="rulebound.rulesets")]
    for target in targets:
        ruleset = _load(target)
        found.setdefault(ruleset.key, ruleset)
    return found


def get_ruleset(key: str) -> AnyRuleset:
    rulesets = all_rulesets()
    try:
        return rulesets[key]
    except KeyError:
        raise UnknownRuleset("ruleset", key, "one of " + ", ".join(sorted(rulesets))) from None


@cache
def all_tables() -> dict[str, TableRules]:
    """Table adapters: each ruleset's package may export ``TABLE`` beside ``RULESET``."""
    found: dict[str, TableRules] = {}
    for key, ruleset in all_rulesets().items():
        module = importlib.import_module(type(ruleset).__module__.rpartition(".")[0])
        table = getattr(module, "TABLE", None)
        if isinstance(table, TableRules):
            found[key] = table
    return found


def get_table(key: str) -> TableRules:
    tables = all_tables()
    try:
        return tables[key]
    except KeyError:
        raise UnknownRuleset(
            "ruleset", key, "a ruleset the table supports: " + ", ".join(sorted(tables))
        ) from None
