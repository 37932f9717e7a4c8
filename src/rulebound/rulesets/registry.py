"""Find games by key: the built-in packages plus any installed plug-ins, imported lazily.

A plug-in registers an entry point in the ``rulebound.rulesets`` group, named by the
game's key, whose value names an object implementing ``contract.Game``
(``my_game.game:GAME``). Listing keys imports no game; ``get_game`` imports only
the one asked for, so ``rulebound roll rainwall`` never loads the other games.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from rulebound.core.errors import UnknownRuleset
from rulebound.rulesets.contract import Game

GROUP = "rulebound.rulesets"
BUILT_IN: dict[str, tuple[str, str]] = {
    "empty-reach": ("The Empty Reach", "rulebound.rulesets.empty_reach.game:GAME"),
    "rainwall": ("Rainwall", "rulebound.rulesets.rainwall.game:GAME"),
    "legacy": ("Legacy Machines and Magic", "rulebound.rulesets.legacy.game:GAME"),
    "ghostburn": ("Ghostburn", "rulebound.rulesets.ghostburn.game:GAME"),
}
"""key: (title, target); the title is here so that listing games imports none of them."""

AnyGame = Game[Any, Any]


@cache
def _targets() -> dict[str, str]:
    """Every game's key and the object to import for it: built-ins first, then plug-ins."""
    from importlib.metadata import entry_points

    found = {key: target for key, (_, target) in BUILT_IN.items()}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point.value)
    return found


def game_keys() -> list[str]:
    return list(_targets())


def is_game(key: str) -> bool:
    """Whether ``key`` names a game; a built-in key reads no installed package's metadata."""
    return key in BUILT_IN or key in _targets()


def _target(key: str) -> str | None:
    """Built-ins win over plug-ins (``_targets``), so they need no metadata scan."""
    return BUILT_IN[key][1] if key in BUILT_IN else _targets().get(key)


def game_title(key: str) -> str:
    """The title, without importing a built-in game."""
    if key in BUILT_IN:
        return BUILT_IN[key][0]
    return get_game(key).title


@cache
def get_game(key: str) -> AnyGame:
    target = _target(key)
    if target is None:
        raise UnknownRuleset("ruleset", key, "one of " + ", ".join(sorted(_targets())))
    module_name, _, attribute = target.partition(":")
    game = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(game, Game):
        raise TypeError(f"{target} does not implement the rulebound Game contract")
    if game.key != key:
        raise TypeError(f"{target} is registered as {key!r} but its key is {game.key!r}")
    return game


def all_games() -> dict[str, AnyGame]:
    """Every game, imported (the web table and ``verify`` of a whole export need them all)."""
    return {key: get_game(key) for key in game_keys()}
