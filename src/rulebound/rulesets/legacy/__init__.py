"""Legacy Machines and Magic: d20 roll-under checks, characters, fate and combat bookkeeping."""

from rulebound.rulesets.legacy.ruleset import RULESET, LegacyRuleset
from rulebound.rulesets.legacy.table import TABLE

__all__ = ["RULESET", "TABLE", "LegacyRuleset"]
