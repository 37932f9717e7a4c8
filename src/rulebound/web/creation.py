"""Guided character creation: the adapter's steps, with the state signed between them.

The state travels with the form (so a step can be reloaded or resumed), but it
is signed with a server secret and bound to the table and member: a player
cannot edit rolled values or skip a restriction by posting a forged state.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from rulebound.core.canonical import canonical_json
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import SystemSource
from rulebound.rulesets.table import CreationStep, TableRules
from rulebound.store import CharacterRow
from rulebound.web.auth import Forbidden, Viewer
from rulebound.web.service import TableService


def _mac(secret: bytes, viewer: Viewer, body: str) -> str:
    message = f"creation:{viewer.table.id}:{viewer.member.id}:{body}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def sign(secret: bytes, viewer: Viewer, state: Any) -> str:
    body = base64.urlsafe_b64encode(canonical_json(state).encode()).decode()
    return f"{body}.{_mac(secret, viewer, body)}"


def unsign(secret: bytes, viewer: Viewer, blob: str | None) -> dict[str, Any]:
    if not blob:
        return {}
    body, _, mac = blob.rpartition(".")
    if not body or not hmac.compare_digest(mac, _mac(secret, viewer, body)):
        raise InvalidInput(
            "state", "(tampered or from another table)", "the state of the last step"
        )
    state = json.loads(base64.urlsafe_b64decode(body.encode()))
    if not isinstance(state, dict):
        raise InvalidInput("state", state, "an object")
    return state


@dataclass(frozen=True, slots=True)
class StepResult:
    step: CreationStep
    state: str
    character: CharacterRow | None


@cache
def _guided(rules: TableRules) -> bool:
    return rules.creation({}, {}, SystemSource()) is not None


def has_guided_creation(service: TableService, ruleset: str) -> bool:
    """Whether the ruleset offers guided creation (asked once; the probe's dice are thrown away)."""
    return _guided(service.game(ruleset).table)


def advance(
    service: TableService, viewer: Viewer, blob: str | None, form: dict[str, Any]
) -> StepResult:
    """Post one step's form; on the last step the character is created for the viewer."""
    if viewer.member.role == "observer":
        raise Forbidden("observers watch the table; they cannot act")
    secret = service.store.secret("creation")
    state = unsign(secret, viewer, blob)
    rules = service.game(viewer.table.ruleset).table
    step = rules.creation(state, form, service.source(viewer.table.id))
    if step is None:
        raise RuleViolation(
            "creation", "this ruleset has no guided creation; create a sheet instead"
        )
    signed = sign(secret, viewer, dict(step.state))
    made = None
    if step.sheet is not None:
        made = service.new_character(viewer, None, step.sheet)
    return StepResult(step, signed, made)
