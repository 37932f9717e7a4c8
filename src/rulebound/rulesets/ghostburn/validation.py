"""Turn a pydantic error into the project's ``InvalidInput``, naming the first bad field.

Kept in this package because no core helper does it yet; a shared version in
``rulesets/content.py`` would serve every ruleset.
"""

from __future__ import annotations

from pydantic import ValidationError

from rulebound.core.errors import InvalidInput


def invalid_input(error: ValidationError, where: str) -> InvalidInput:
    first = error.errors()[0]
    field = ".".join([where, *(str(part) for part in first["loc"])])
    more = error.error_count() - 1
    tip = f"{more} more problem(s) in the same {where}" if more else None
    return InvalidInput(field, first.get("input"), first["msg"].lower(), tip=tip)
