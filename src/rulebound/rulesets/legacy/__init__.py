"""Legacy Machines and Magic: d20 roll-under checks, characters, fate and combat bookkeeping."""

from rulebound.rulesets.legacy.ruleset import RULESET, LegacyRuleset

__all__ = ["RULESET", "LegacyRuleset"]
