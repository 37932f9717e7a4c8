"""A built-in game is found without scanning the plug-ins' entry points (issue 16: a
one-game command should not scan every installed package for entry points); built-ins still win over
a plug-in of the same key, and an unknown key still lists every game."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from typing import Any

import pytest

from rulebound.core.errors import UnknownRuleset
from rulebound.rulesets import registry


@pytest.fixture
def no_metadata(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = importlib.metadata.entry_points

    def refuse(**kwargs: Any) -> Any:
        if kwargs.get("group") == registry.GROUP:
            raise AssertionError("a built-in lookup scanned the plug-ins' entry points")
        return real(**kwargs)  # pydantic looks up its own plug-ins

    registry._targets.cache_clear()
    registry.get_game.cache_clear()
    monkeypatch.setattr(importlib.metadata, "entry_points", refuse)
    yield
    registry._targets.cache_clear()
    registry.get_game.cache_clear()


@pytest.mark.usefixtures("no_metadata")
@pytest.mark.parametrize("key", sorted(registry.BUILT_IN))
def test_a_built_in_game_needs_no_metadata(key: str) -> None:
    assert registry.is_game(key)
    assert registry.get_game(key).key == key


def test_an_unknown_key_still_consults_the_plug_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    registry._targets.cache_clear()
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_: [])
    try:
        assert not registry.is_game("no-such-game")
        with pytest.raises(UnknownRuleset) as caught:
            registry.get_game("no-such-game")
        assert all(key in caught.value.expected for key in registry.BUILT_IN)
    finally:
        registry._targets.cache_clear()
