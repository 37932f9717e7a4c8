"""Ghostburn: 2d10 plus stacking bonuses against a Difficulty Level ladder, read on a chart."""

from rulebound.rulesets.ghostburn.ruleset import RULESET, GhostburnRuleset
from rulebound.rulesets.ghostburn.table import TABLE

__all__ = ["RULESET", "TABLE", "GhostburnRuleset"]
