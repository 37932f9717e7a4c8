"""Rulesets: one package per game behind the one game contract (``contract.Game``).

Nothing is imported here, so that loading one game never loads the others.
"""

__all__: list[str] = []
