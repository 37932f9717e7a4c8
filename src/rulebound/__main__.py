"""``python -m rulebound``: the command line, as the ``rulebound`` script runs it."""

from rulebound.cli.app import main

main()
