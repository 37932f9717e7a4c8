"""The story of the dice: each member's luck against the exact odds of the checks they made,
computed from a log export (``story.ledger``); the exact distributions under it are in
``poisson`` and ``runs``."""

from rulebound.ledger.story import FORMAT, Ledger, ledger, ledger_json

__all__ = ["FORMAT", "Ledger", "ledger", "ledger_json"]
