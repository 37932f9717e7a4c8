"""Who is asking: a table member found by session cookie or bearer token, and what they may do.

An invite token appears in a URL once (``/join/TOKEN``); joining sets an
HttpOnly, SameSite=Lax cookie named per table, holding a session token whose
SHA-256 is all the store keeps. API clients send the same token as
``Authorization: Bearer TOKEN``.

Writes made with the cookie also need the synchronizer token (``csrf`` form
field or ``X-CSRF-Token`` header, an HMAC of the session). Bearer requests carry
no ambient credentials, so they skip that check. Every unsafe request must also
come from this origin when a browser sends one (``security.OriginGuard``).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from starlette.requests import Request

from rulebound.core.errors import RuleboundError
from rulebound.store import CharacterRow, LogEntry, Member, Scope, Store, TableRow

CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


class Forbidden(RuleboundError):
    def __init__(self, detail: str) -> None:
        self.detail = detail
        super().__init__(detail)


def cookie_name(table_id: int) -> str:
    return f"rb_table_{table_id}"


def session_token(request: Request, table_id: int) -> tuple[str | None, bool]:
    """The session token and whether it came from the cookie (False: a bearer header)."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip(), False
    return request.cookies.get(cookie_name(table_id)), True


def csrf_token(secret: bytes, table_id: int, session: str) -> str:
    message = f"csrf:{table_id}:{session}".encode()
    return hmac.digest(secret, message, "sha256").hex()


@dataclass(frozen=True, slots=True)
class Viewer:
    table: TableRow
    member: Member
    csrf: str
    via_cookie: bool

    @property
    def is_gm(self) -> bool:
        return self.member.role == "gm"

    @property
    def scope(self) -> Scope:
        return Scope(self.member.id, self.is_gm)

    def may_edit(self, character: CharacterRow) -> bool:
        if self.is_gm:
            return True
        return self.member.role == "player" and (
            self.member.grant_all or character.owner_id == self.member.id
        )

    def knows_of(self, entry: LogEntry) -> bool:
        """Mirrors the store's query filter (``store.sql.queries``)."""
        mine = entry.actor_id == self.member.id
        if entry.privacy == "public":
            return True
        if entry.privacy == "self":
            return mine
        if entry.privacy == "whisper" and entry.to_id == self.member.id:
            return True
        return mine or self.is_gm

    def sees_fully(self, entry: LogEntry) -> bool:
        """Blind entries reach their roller redacted; everything else they know of, whole."""
        return self.knows_of(entry) and (entry.privacy != "blind" or self.is_gm)


def find_viewer(store: Store, request: Request, table: TableRow) -> Viewer:
    token, via_cookie = session_token(request, table.id)
    member = store.member_by_session(table.id, token) if token else None
    if member is None or member.revoked:
        raise Forbidden("you are not seated at this table: open an invite link to join")
    assert token is not None
    # a bearer client carries no ambient credential, so it needs (and is shown) no token
    csrf = csrf_token(store.secret("csrf"), table.id, token) if via_cookie else ""
    return Viewer(table, member, csrf, via_cookie)


def check_role(viewer: Viewer) -> None:
    """Observers never write (what else a member may do, the service checks)."""
    if viewer.member.role == "observer":
        raise Forbidden("observers watch the table; they cannot act")


def check_csrf(request: Request, viewer: Viewer, sent_token: str | None = None) -> None:
    """A write made with the session cookie must echo the session's synchronizer token
    (``sent_token``, a form's, or else the ``X-CSRF-Token`` header)."""
    if not viewer.via_cookie or request.method in SAFE_METHODS:
        return
    sent_token = sent_token or request.headers.get(CSRF_HEADER)
    if not sent_token or not hmac.compare_digest(sent_token.encode(), viewer.csrf.encode()):
        raise Forbidden("missing or wrong CSRF token: reload the page and try again")
