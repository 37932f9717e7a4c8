"""Ghostburn: 2d10 plus stacking bonuses against a Difficulty Level ladder, read on a chart."""

from rulebound.rulesets.ghostburn.ruleset import RULESET, GhostburnRuleset

__all__ = ["RULESET", "GhostburnRuleset"]
