"""Ghostburn: 2d10 plus stacking bonuses against a Difficulty Level ladder, read on a chart.

The game behind the one contract is ``rulebound.rulesets.ghostburn.game.GAME``; nothing is
imported here, so that loading the package loads no more than asked for.
"""
