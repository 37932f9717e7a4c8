"""The ruleset registry: built-ins plus entry-point plug-ins, looked up by key."""

import sys
import types
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

from rulebound.core.errors import InvalidInput, UnknownRuleset
from rulebound.rulesets import registry
from rulebound.rulesets.base import Ruleset, Variant

MODULE = "rb_core_test_fake_rulesets"


class FakeRuleset:
    def __init__(self, key: str, title: str = "") -> None:
        self._key = key
        self._title = title or key.title()

    @property
    def key(self) -> str:
        return self._key

    @property
    def title(self) -> str:
        return self._title

    @property
    def variants(self) -> tuple[Variant, ...]:
        return ()

    def parse_request(self, payload: Mapping[str, object]) -> Any:
        return payload

    def roll(self, request: Any, source: Any) -> Any:
        raise NotImplementedError

    def chances(self, request: Any) -> Mapping[str, Fraction]:
        return {"success": Fraction(1, 2)}


class EntryPoint:
    def __init__(self, value: str) -> None:
        self.value = value


@pytest.fixture
def fake_world(monkeypatch):
    """Built-ins and plug-ins that live in a throwaway module, with a fresh cache."""
    module = types.ModuleType(MODULE)
    module.ALPHA = FakeRuleset("alpha", "Built-in Alpha")
    module.BETA = FakeRuleset("beta")
    module.ALPHA_CLONE = FakeRuleset("alpha", "Plug-in Alpha")
    module.GAMMA = FakeRuleset("gamma")
    module.NOT_A_RULESET = object()
    monkeypatch.setitem(sys.modules, MODULE, module)
    plugins = [EntryPoint(f"{MODULE}:ALPHA_CLONE"), EntryPoint(f"{MODULE}:GAMMA")]
    groups: list[str] = []

    def fake_entry_points(*, group: str) -> list[EntryPoint]:
        groups.append(group)
        return plugins

    monkeypatch.setattr(registry, "BUILT_IN", (f"{MODULE}:ALPHA", f"{MODULE}:BETA"))
    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    registry.all_rulesets.cache_clear()
    yield types.SimpleNamespace(module=module, plugins=plugins, groups=groups)
    registry.all_rulesets.cache_clear()


def test_fake_ruleset_satisfies_the_protocol():
    assert isinstance(FakeRuleset("x"), Ruleset)
    assert not isinstance(object(), Ruleset)


def test_all_rulesets_gathers_built_ins_and_plugins(fake_world):
    found = registry.all_rulesets()
    assert set(found) == {"alpha", "beta", "gamma"}
    assert found["gamma"] is fake_world.module.GAMMA
    assert fake_world.groups == ["rulebound.rulesets"]


def test_built_in_wins_over_a_plugin_with_the_same_key(fake_world):
    assert registry.all_rulesets()["alpha"] is fake_world.module.ALPHA
    assert registry.get_ruleset("alpha").title == "Built-in Alpha"


def test_all_rulesets_is_cached(fake_world):
    first = registry.all_rulesets()
    fake_world.plugins.append(EntryPoint(f"{MODULE}:BETA"))
    assert registry.all_rulesets() is first
    assert fake_world.groups == ["rulebound.rulesets"]


def test_get_ruleset_finds_by_key(fake_world):
    assert registry.get_ruleset("beta") is fake_world.module.BETA
    assert registry.get_ruleset("gamma").key == "gamma"


@pytest.mark.parametrize("key", ["delta", "", "Alpha", "alpha "])
def test_unknown_key_lists_accepted_keys(fake_world, key):
    with pytest.raises(UnknownRuleset) as info:
        registry.get_ruleset(key)
    error = info.value
    assert isinstance(error, InvalidInput)
    assert error.field == "ruleset"
    assert error.value == key
    assert error.expected == "one of alpha, beta, gamma"
    assert str(error) == f"ruleset: got {key!r}; expected one of alpha, beta, gamma"
    assert error.__suppress_context__


def test_loading_something_that_is_not_a_ruleset_fails(fake_world):
    fake_world.plugins.append(EntryPoint(f"{MODULE}:NOT_A_RULESET"))
    with pytest.raises(TypeError, match="does not implement the Ruleset protocol"):
        registry.all_rulesets()


def test_load_resolves_module_and_attribute(fake_world):
    assert registry._load(f"{MODULE}:BETA") is fake_world.module.BETA
    with pytest.raises(AttributeError):
        registry._load(f"{MODULE}:MISSING")
