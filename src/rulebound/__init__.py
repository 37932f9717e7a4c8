"""rulebound: exact rules, exact odds and a virtual table for tabletop skill checks."""

__version__ = "0.1.0"
