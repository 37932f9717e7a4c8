"""Rulesets: one package per game behind the common ``Ruleset`` protocol."""

from rulebound.rulesets.base import CheckResult, Ruleset, Variant
from rulebound.rulesets.registry import all_rulesets, all_tables, get_ruleset, get_table

__all__ = [
    "CheckResult",
    "Ruleset",
    "Variant",
    "all_rulesets",
    "all_tables",
    "get_ruleset",
    "get_table",
]
