"""A verifiable random source: commit to a secret seed, derive every face from it.

Before play the server publishes ``commitment = SHA-256(seed)``. Each face is
``HMAC-SHA256(seed, "client_seed:nonce:cursor")`` read as a 256-bit integer and
reduced by rejection sampling, so there is no modulo bias. Once the seed is
revealed anyone can check the commitment and recompute every face. The source
describes itself without the seed, so a result never leaks it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import Draw

SEED_BYTES = 32
_SPACE = 1 << 256
MAX_CLIENT_SEED = 128
MAX_SIDES = 1 << 32
CONTRIBUTION_PATTERN = "[0-9a-f]{32,64}"
"""A roller's contribution to a play's dice: 16 to 32 random bytes as lowercase hex."""
DIGEST_PATTERN = "[0-9a-f]{64}"
"""A SHA-256 digest as lowercase hex: a seed's commitment, an entry's hash."""
"""Far past any die a game rolls; a die near 2**256 sides would reject (nearly) every value."""


def new_server_seed() -> str:
    """A fresh secret seed, hex encoded."""
    return secrets.token_hex(SEED_BYTES)


def commitment_for(server_seed: str) -> str:
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


def _seed_bytes(server_seed: str) -> bytes:
    try:
        raw = bytes.fromhex(server_seed)
    except ValueError:
        raise InvalidInput("server_seed", server_seed, f"{SEED_BYTES * 2} hex digits") from None
    if len(raw) != SEED_BYTES:
        raise InvalidInput("server_seed", server_seed, f"{SEED_BYTES * 2} hex digits")
    return raw


def _check_client_seed(client_seed: str) -> None:
    if len(client_seed) > MAX_CLIENT_SEED or ":" in client_seed:
        raise InvalidInput(
            "client_seed", client_seed, f"at most {MAX_CLIENT_SEED} characters, without ':'"
        )


def derive_face(
    server_seed: str, client_seed: str, nonce: int, cursor: int, sides: int
) -> int | None:
    """The face for one cursor position, or None when rejection sampling discards it."""
    message = f"{client_seed}:{nonce}:{cursor}".encode()
    value = int.from_bytes(hmac.digest(_seed_bytes(server_seed), message, "sha256"))
    return reduce_uniform(value, sides, _SPACE)


def reduce_uniform(value: int, sides: int, space: int) -> int | None:
    """Map a uniform value in [0, space) to a face, rejecting the biased tail."""
    limit = space - (space % sides)
    return value % sides + 1 if value < limit else None


class VerifiableSource:
    """Faces derived from a committed seed; one instance per roll (one nonce)."""

    def __init__(self, server_seed: str, client_seed: str, nonce: int) -> None:
        _seed_bytes(server_seed)
        _check_client_seed(client_seed)
        if nonce < 0:
            raise InvalidInput("nonce", nonce, "a non-negative integer")
        self._seed = server_seed
        self.client_seed = client_seed
        self.nonce = nonce
        self.cursor = 0
        self.commitment = commitment_for(server_seed)

    def draw(self, sides: int) -> int:
        if not isinstance(sides, int) or isinstance(sides, bool) or not 1 <= sides <= MAX_SIDES:
            raise InvalidInput("sides", str(sides)[:20], f"a whole number from 1 to {MAX_SIDES}")
        while True:
            face = derive_face(self._seed, self.client_seed, self.nonce, self.cursor, sides)
            self.cursor += 1
            if face is not None:
                return face

    def describe(self) -> dict[str, object]:
        return {
            "kind": "verifiable",
            "commitment": self.commitment,
            "client_seed": self.client_seed,
            "nonce": self.nonce,
        }


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The first draw that the revealed seed does not reproduce."""

    index: int
    expected: int
    recorded: int


def verify_draws(
    server_seed: str, client_seed: str, nonce: int, draws: Iterable[Draw]
) -> Mismatch | None:
    """Recompute recorded draws from the revealed seed; None when every face matches."""
    source = VerifiableSource(server_seed, client_seed, nonce)
    for index, draw in enumerate(draws):
        expected = source.draw(draw.sides)
        if expected != draw.face:
            return Mismatch(index, expected, draw.face)
    return None
