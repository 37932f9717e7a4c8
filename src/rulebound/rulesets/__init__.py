"""Rulesets: one package per game behind the common ``Ruleset`` protocol."""

from rulebound.rulesets.base import CheckResult, Ruleset, Variant
from rulebound.rulesets.registry import all_rulesets, get_ruleset

__all__ = ["CheckResult", "Ruleset", "Variant", "all_rulesets", "get_ruleset"]
