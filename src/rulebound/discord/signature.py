"""Ed25519 request signatures, checked on the raw bytes before any parsing.

Discord signs ``timestamp + body`` with the application's key; the public key (hex) is
in the developer portal. A request older (or newer) than ``MAX_AGE_SECONDS`` is refused
too, so a captured request cannot be replayed later.
"""

from __future__ import annotations

import re

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from rulebound.core.errors import InvalidInput

NUMBER = re.compile(r"[0-9]{1,20}")
MAX_AGE_SECONDS = 300
SIGNATURE_HEADER = "X-Signature-Ed25519"
TIMESTAMP_HEADER = "X-Signature-Timestamp"


def number(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes "¹", which ``int`` refuses)."""
    return NUMBER.fullmatch(text) is not None


class Verifier:
    def __init__(self, public_key_hex: str) -> None:
        try:
            self.key = VerifyKey(bytes.fromhex(public_key_hex))
        except (ValueError, TypeError):
            expected = "the application's public key: 64 hex digits"
            raise InvalidInput("discord public key", public_key_hex, expected) from None

    def valid(self, signature: str | None, timestamp: str | None, body: bytes, now: float) -> bool:
        """True only for a well-formed signature of ``timestamp + body`` made recently."""
        if not signature or not timestamp or not number(timestamp):
            return False
        if abs(now - int(timestamp)) > MAX_AGE_SECONDS:
            return False
        try:
            raw = bytes.fromhex(signature)
        except ValueError:
            return False
        if len(raw) != 64:
            return False
        try:
            self.key.verify(timestamp.encode() + body, raw)
        except BadSignatureError:
            return False
        return True
