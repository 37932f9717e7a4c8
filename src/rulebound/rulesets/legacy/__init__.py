"""Legacy Machines and Magic: d20 roll-under checks, characters, fate and combat bookkeeping.

The game behind the contract is ``rulebound.rulesets.legacy.game.GAME``; nothing is
imported here, so listing the games never loads this one.
"""
