"""The protocol every ruleset package implements.

Code outside a ruleset's package (the CLI's generic parts, the web table, the
store) talks to games only through this protocol, so it never needs to know
which game it is handling.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, TypeVar, runtime_checkable

from rulebound.core.random_source import RandomSource
from rulebound.core.trace import Provenance


@runtime_checkable
class CheckResult(Protocol):
    """What every ruleset's result offers to generic consumers."""

    @property
    def succeeded(self) -> bool: ...

    @property
    def headline(self) -> str:
        """The outcome in the ruleset's own words ("2 successes", "Barely Succeeding")."""
        ...

    @property
    def provenance(self) -> Provenance: ...


@dataclass(frozen=True, slots=True)
class Variant:
    """A named rules option: the alternative reading of an ambiguous rule."""

    key: str
    choices: tuple[str, ...]
    default: str
    summary: str


RequestT = TypeVar("RequestT")
ResultT = TypeVar("ResultT", bound=CheckResult, covariant=True)


@runtime_checkable
class Ruleset(Protocol[RequestT, ResultT]):
    @property
    def key(self) -> str:
        """The stable identifier used in URLs, files and the CLI ("empty-reach")."""
        ...

    @property
    def title(self) -> str: ...

    @property
    def variants(self) -> tuple[Variant, ...]: ...

    def parse_request(self, payload: Mapping[str, object]) -> RequestT:
        """Validate a check request from JSON-like data; raise InvalidInput naming the field."""
        ...

    def roll(self, request: RequestT, source: RandomSource) -> ResultT: ...

    def chances(self, request: RequestT) -> Mapping[str, Fraction]:
        """Exact probability of each named outcome, before rolling."""
        ...
