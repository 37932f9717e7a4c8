"""``python -m rulebound.cli``: the same as the ``rulebound`` command."""

from rulebound.cli.app import main

main()
