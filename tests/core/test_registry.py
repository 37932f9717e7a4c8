"""The game registry: built-ins plus entry-point plug-ins, looked up by key, imported lazily."""

import importlib.metadata
import subprocess
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from rulebound.core.errors import InvalidInput, UnknownRuleset
from rulebound.rulesets import registry
from rulebound.rulesets.contract import Game

MODULE = "rb_core_test_fake_games"


class FakeGame(Game[Any, Any]):
    def __init__(self, key: str, title: str = "") -> None:
        self.key = key
        self.title = title or key.title()

    def load(self, data: Any) -> Any:
        return data

    def dump(self, request: Any) -> dict[str, Any]:
        return dict(request)

    def roll(self, request: Any, source: Any) -> Any:
        raise NotImplementedError

    def card(self, result: Any) -> Any:
        raise NotImplementedError


class EntryPoint:
    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value


@dataclass
class FakeWorld:
    module: types.ModuleType
    plugins: list[EntryPoint]
    groups: list[str]


@pytest.fixture
def fake_world(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeWorld]:
    """Built-ins and plug-ins that live in a throwaway module, with fresh caches."""
    module = types.ModuleType(MODULE)
    vars(module).update(
        ALPHA=FakeGame("alpha", "Built-in Alpha"),
        BETA=FakeGame("beta"),
        ALPHA_CLONE=FakeGame("alpha", "Plug-in Alpha"),
        GAMMA=FakeGame("gamma"),
        NOT_A_GAME=object(),
        MISNAMED=FakeGame("epsilon"),
    )
    monkeypatch.setitem(sys.modules, MODULE, module)
    plugins = [EntryPoint("alpha", f"{MODULE}:ALPHA_CLONE"), EntryPoint("gamma", f"{MODULE}:GAMMA")]
    groups: list[str] = []

    def fake_entry_points(*, group: str) -> list[EntryPoint]:
        groups.append(group)
        return plugins

    built_in = {"alpha": ("Built-in Alpha", f"{MODULE}:ALPHA"), "beta": ("Beta", f"{MODULE}:BETA")}
    monkeypatch.setattr(registry, "BUILT_IN", built_in)
    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)
    registry._targets.cache_clear()
    registry.get_game.cache_clear()
    yield FakeWorld(module=module, plugins=plugins, groups=groups)
    registry._targets.cache_clear()
    registry.get_game.cache_clear()


def test_fake_game_satisfies_the_contract() -> None:
    assert isinstance(FakeGame("x"), Game)
    assert not isinstance(object(), Game)


def test_keys_gather_built_ins_and_plugins_without_importing_them(fake_world: FakeWorld) -> None:
    assert registry.game_keys() == ["alpha", "beta", "gamma"]
    assert registry.game_title("alpha") == "Built-in Alpha"
    assert fake_world.groups == ["rulebound.rulesets"]
    assert registry.get_game("gamma") is fake_world.module.GAMMA


def test_built_in_wins_over_a_plugin_with_the_same_key(fake_world: FakeWorld) -> None:
    assert registry.get_game("alpha") is fake_world.module.ALPHA
    assert registry.all_games()["alpha"].title == "Built-in Alpha"


def test_the_plugin_list_is_read_once(fake_world: FakeWorld) -> None:
    first = registry.game_keys()
    fake_world.plugins.append(EntryPoint("beta2", f"{MODULE}:BETA"))
    assert registry.game_keys() == first
    assert fake_world.groups == ["rulebound.rulesets"]


@pytest.mark.parametrize("key", ["delta", "", "Alpha", "alpha "])
def test_unknown_key_lists_accepted_keys(fake_world: FakeWorld, key: str) -> None:
    with pytest.raises(UnknownRuleset) as info:
        registry.get_game(key)
    error = info.value
    assert isinstance(error, InvalidInput)
    assert error.field == "ruleset"
    assert error.value == key
    assert error.expected == "one of alpha, beta, gamma"
    assert str(error) == f"ruleset: got {key!r}; expected one of alpha, beta, gamma"


def test_loading_something_that_is_not_a_game_fails(fake_world: FakeWorld) -> None:
    fake_world.plugins.append(EntryPoint("delta", f"{MODULE}:NOT_A_GAME"))
    registry._targets.cache_clear()
    with pytest.raises(TypeError, match="does not implement the rulebound Game contract"):
        registry.get_game("delta")


def test_a_plugin_registered_under_another_key_fails(fake_world: FakeWorld) -> None:
    fake_world.plugins.append(EntryPoint("zeta", f"{MODULE}:MISNAMED"))
    registry._targets.cache_clear()
    with pytest.raises(TypeError, match="registered as 'zeta' but its key is 'epsilon'"):
        registry.get_game("zeta")


def test_looking_up_one_game_imports_no_other() -> None:
    code = (
        "import sys\n"
        "from rulebound.rulesets.registry import get_game, game_keys\n"
        "game_keys(); get_game('rainwall')\n"
        "loaded = {m for m in sys.modules if m.startswith('rulebound.rulesets.')}\n"
        "others = [m for m in loaded if m.split('.')[2] in ('empty_reach','legacy','ghostburn')]\n"
        "print(others)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
