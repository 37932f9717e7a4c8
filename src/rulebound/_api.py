"""The library's front door: a game by key, taking plain values (``import rulebound``).

``rulebound.game("rainwall")`` is a ``Ruleset``: the game behind the one contract
(``Ruleset.game``), with each step a library user takes in one call: a request from
plain values (read by the game's own fields, as the CLI and the web table read theirs),
its exact chances, a roll from a seed or a random source, a follow-up, the card and the
designer table. docs/library.md shows each with its output.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import RandomSource, SeededSource, SystemSource
from rulebound.rulesets.contract import Chances, Field, Game, Req, Res, Variant

if TYPE_CHECKING:
    from rulebound.rulesets.grid import OddsGrid
    from rulebound.rulesets.views import Card

Values = Mapping[str, Any]


def games() -> dict[str, str]:
    """Every installed game's key and title: the built-ins, then plug-ins (none imported)."""
    from rulebound.rulesets.registry import game_keys, game_title

    return {key: game_title(key) for key in game_keys()}


def game(key: str, *, content: str | Path | None = None) -> Ruleset[Any, Any]:
    """The game ``key`` (``games()`` lists them), with a homebrew ``content`` file merged over
    its own content when one is given. An unknown key raises ``UnknownRuleset``."""
    from rulebound.rulesets.registry import get_game

    found = get_game(key)
    return Ruleset(found if content is None else found.with_content(Path(content)))


class Ruleset(Generic[Req, Res]):
    """One game, taking plain values: field names as keywords (a nested field's dotted name
    through a mapping: ``**{"opposed.score": 25}``), ``variants`` as ``{key: choice}``.
    ``chances`` and ``roll`` take a request (``request``) in place of the values.

    Values are read as the CLI and the web table read them (``"D8"``, ``8`` or ``"8"``; a
    choice in any case), checked against each field's bounds and choices, and every bad
    one is reported at once (``InvalidInput``, naming the field); so is a name that is no
    field of the game. Left out, a field takes its default; the game's variants too.
    """

    __slots__ = ("game",)

    def __init__(self, game: Game[Req, Res]) -> None:
        self.game = game
        """The game behind the contract (``rulebound.rulesets.contract.Game``)."""

    def __repr__(self) -> str:
        return f"<Ruleset {self.game.key!r}: {self.game.title}>"

    @property
    def key(self) -> str:
        return self.game.key

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def fields(self) -> tuple[Field, ...]:
        """What a request takes (``request``, ``roll``), each with its kind, choices, bounds."""
        return self.game.fields

    @property
    def odds_fields(self) -> tuple[Field, ...]:
        """What only an odds question takes, besides ``fields`` (a push policy, say)."""
        return self.game.odds_fields

    @property
    def variants(self) -> tuple[Variant, ...]:
        return self.game.variants

    def request(
        self, values: Values | None = None, /, *, variants: Values | None = None, **more: Any
    ) -> Req:
        """The game's request for these values (``fields``) under these variants."""
        from rulebound.rulesets import forms

        return self.game.request(
            forms.read(self.game.fields, self._given(self.game.fields, values, more)),
            self._variants(variants),
        )

    def chances(
        self,
        request: Req | None = None,
        /,
        *,
        variants: Values | None = None,
        **values: Any,
    ) -> Chances:
        """The exact chances of a request, or of plain values (``fields`` and
        ``odds_fields``): each outcome and figure an exact ``Fraction``."""
        if request is not None:
            self._alone(values, variants)
            return self.game.chances(request)
        from rulebound.rulesets import forms

        fields = (*self.game.fields, *self.game.odds_fields)
        typed = forms.read(fields, self._given(fields, None, values))
        return self.game.odds(typed, self._variants(variants))

    def roll(
        self,
        request: Req | None = None,
        /,
        *,
        seed: int | None = None,
        source: RandomSource | None = None,
        variants: Values | None = None,
        **values: Any,
    ) -> Res:
        """Roll a request, or plain values: the same faces for the same ``seed``; without a
        seed or a ``source``, faces from the operating system's entropy."""
        if request is None:
            request = self.request(values, variants=variants)
        else:
            self._alone(values, variants)
        return self.game.roll(request, _source(seed, source))

    def follow(
        self,
        result: Res,
        action: str,
        params: Values | None = None,
        /,
        *,
        seed: int | None = None,
        source: RandomSource | None = None,
    ) -> Res:
        """A follow-up the result offers (its card's ``actions``: a push, a luck spend), as a
        new result; ``result`` is left as it was."""
        from rulebound.rulesets.plays import follow_play

        followed, _record = follow_play(
            self.game, result, action, dict(params or {}), _source(seed, source)
        )
        return followed

    def card(self, result: Res) -> Card:
        """A result in the game's own words: the dice, the steps, the outcome, the follow-ups."""
        return self.game.card(result)

    def text(self, result: Res) -> str:
        """The card as the terminal shows it."""
        from rulebound.render.card_text import card_text

        return card_text(self.game.card(result))

    def grid(self, *, variants: Values | None = None, **values: Any) -> OddsGrid:
        """The designer table: success chances over the game's two main axes, the other
        knobs fixed by ``values`` (none required)."""
        from rulebound.rulesets import forms

        fields = (*self.game.fields, *self.game.odds_fields)
        typed = forms.read(fields, self._given(fields, None, values), required=False)
        return self.game.grid(typed, self._variants(variants))

    def _variants(self, given: Values | None) -> dict[str, str]:
        from rulebound.rulesets.variants import resolve

        return resolve(self.game.variants, given)

    def _given(
        self, fields: tuple[Field, ...], values: Values | None, more: Values
    ) -> dict[str, Any]:
        """The values given by mapping and by keyword, each naming one of ``fields``."""
        given = {**(values or {}), **more}
        names = [f.name for f in fields]
        for name in given:
            if name not in names:
                raise InvalidInput(
                    name,
                    given[name],
                    f"a field of {self.game.title}: one of " + ", ".join(names),
                    tip="a request's fields are Ruleset.fields; an odds question also takes "
                    "odds_fields (chances, grid)",
                )
        return given

    def _alone(self, values: Values, variants: Values | None) -> None:
        """A request carries its own values and variants: refuse more beside it."""
        if values or variants:
            extra = ", ".join([*values, *(["variants"] if variants else [])])
            raise InvalidInput(
                extra, "given with a request", "a request alone, or plain values alone"
            )


def _source(seed: int | None, source: RandomSource | None) -> RandomSource:
    if source is not None:
        if seed is not None:
            raise InvalidInput("seed", seed, "a seed or a source, not both")
        return source
    return SystemSource() if seed is None else SeededSource(seed)
