"""The command line: the only part of rulebound that prints."""
