"""The command line: the only part of rulebound that prints."""

__all__: list[str] = []
