"""Guided character creation: the adapter's steps, with the state signed between them.

The state travels with the form (so a step can be reloaded or resumed), but it
is signed with a server secret and bound to the table and member: a player
cannot edit rolled values or skip a restriction by posting a forged state.

Each signed state also carries a fresh nonce, spent when its step is taken (in the
same transaction as the character, on the last step), so a step cannot be posted
twice to fish for other dice. With the table's committed dice (the default), a
step's dice come from a server secret and that nonce, and the first step's from the
member and how many characters they own: reloading the start shows the same rolls.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

from rulebound.core.canonical import canonical_json, to_jsonable
from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, SystemSource
from rulebound.core.verifiable import VerifiableSource
from rulebound.rulesets.contract import Choice, CreationStep, Field
from rulebound.store import CharacterRow
from rulebound.web.auth import Forbidden, Viewer
from rulebound.web.caps import check_caps
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
    expected = _mac(secret, viewer, body).encode()
    if not body or not hmac.compare_digest(mac.encode("utf-8", "replace"), expected):
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


@dataclass(frozen=True, slots=True)
class Pending:
    """The step last shown, rebuilt from its signed blob: its state, its form, its nonce."""

    step: CreationStep
    blob: str | None
    nonce: str | None = None
    """Spent when this step is taken (None: the start, which has none)."""


_GUIDED: dict[str, bool] = {}


def has_guided_creation(service: TableService, ruleset: str) -> bool:
    """Whether the ruleset offers guided creation (asked once; the probe's dice are thrown away)."""
    if ruleset not in _GUIDED:
        rules = service.game(ruleset).table
        _GUIDED[ruleset] = rules.creation({}, {}, SystemSource()) is not None
    return _GUIDED[ruleset]


def _field(data: dict[str, Any]) -> Field:
    default = data.get("default")
    return Field(
        name=str(data["name"]),
        label=str(data.get("label", "")),
        kind=data["kind"],
        choices=tuple(Choice(str(c["value"]), str(c["label"])) for c in data.get("choices", ())),
        default=tuple(default) if isinstance(default, list) else default,
        minimum=data.get("minimum"),
        maximum=data.get("maximum"),
        help=str(data.get("help", "")),
        group=str(data.get("group", "")),
    )


def pending(service: TableService, viewer: Viewer, blob: str | None) -> Pending:
    """Check the blob's signature and rebuild the step it was made for (none: the start)."""
    payload = unsign(service.store.secret("creation"), viewer, blob)
    view = payload.get("view") or {}
    step = CreationStep(
        title=str(view.get("title", "")),
        fields=tuple(_field(f) for f in view.get("fields", ())),
        state=dict(payload.get("state") or {}),
        notes=tuple(str(n) for n in view.get("notes", ())),
    )
    nonce = payload.get("nonce")
    if blob and not isinstance(nonce, str):
        raise InvalidInput("state", "(from before single-use steps)", "a step to start again")
    return Pending(step, blob, nonce if isinstance(nonce, str) else None)


def _source(service: TableService, viewer: Viewer, last: Pending) -> RandomSource:
    """The step's dice: fixed by its nonce (or, for the start, by who starts and how many
    characters they own), so the same step never rolls twice differently."""
    if not service.committed:
        return service.source(viewer.table.id)
    owned = sum(row.owner_id == viewer.member.id for row in service.characters(viewer))
    start = f"start-{viewer.table.id}-{viewer.member.id}-{owned}"
    return VerifiableSource(service.store.secret("creation-dice").hex(), last.nonce or start, 0)


def advance(
    service: TableService, viewer: Viewer, last: Pending, form: dict[str, Any]
) -> StepResult:
    """Post one step's form; on the last step the character is created for the viewer."""
    if viewer.member.role == "observer":
        raise Forbidden("observers watch the table; they cannot act")
    rules = service.game(viewer.table.ruleset).table
    check_caps(form)
    step = rules.creation(last.step.state, form, _source(service, viewer, last))
    if step is None:
        raise RuleViolation(
            "creation", "this ruleset has no guided creation; create a sheet instead"
        )
    view = {"title": step.title, "fields": to_jsonable(step.fields), "notes": list(step.notes)}
    payload = {"state": dict(step.state), "view": view, "nonce": secrets.token_hex(16)}
    signed = sign(service.store.secret("creation"), viewer, payload)
    made = None
    if step.sheet is not None:
        made = service.new_character(viewer, None, step.sheet, nonce=last.nonce)
    elif last.nonce is not None:
        service.store.use_nonce(viewer.table.id, last.nonce)
    return StepResult(step, signed, made)
