"""Each package's ``__all__`` is exactly its public names (httpx's test_exported_members).

A package's public names are those its ``__init__`` binds without a leading underscore (less
its subpackages and modules, and the plumbing of a lazy ``__init__``) and those it loads on
first use (``core.lazy``). Every name in ``__all__`` must resolve, and every package has one.
"""

from __future__ import annotations

import importlib
import pkgutil
import typing
from pathlib import Path
from types import ModuleType

import pytest

import rulebound
from rulebound.core.lazy import LAZY, lazy_exports

PLUMBING = {"TYPE_CHECKING": typing.TYPE_CHECKING, "lazy_exports": lazy_exports}
"""Names a lazy ``__init__`` imports for itself, not for its users."""


def packages() -> list[str]:
    found = [rulebound.__name__]
    for info in pkgutil.walk_packages(rulebound.__path__, "rulebound."):
        if info.ispkg:
            found.append(info.name)
    return sorted(found)


def public_names(package: ModuleType) -> set[str]:
    bound = {
        name
        for name, value in vars(package).items()
        if not name.startswith("_")
        and not isinstance(value, ModuleType)
        and type(value).__module__ != "__future__"  # `from __future__ import annotations`
        and not (name in PLUMBING and value is PLUMBING[name])
    }
    return bound | LAZY.get(package.__name__, frozenset())


def test_every_package_is_found() -> None:
    """Every folder of modules is a package with an ``__init__`` (a namespace package would
    have no ``__all__``, and ``walk_packages`` would not find it)."""
    root = Path(rulebound.__file__).parent
    folders = {p.parent for p in root.rglob("*.py") if "__pycache__" not in p.parts}
    assert (
        sorted(str(f.relative_to(root)) for f in folders if not (f / "__init__.py").exists()) == []
    )
    found = packages()
    assert len(found) == len(folders)
    assert {"rulebound", "rulebound.core", "rulebound.rulesets.legacy", "rulebound.web"} <= set(
        found
    )


@pytest.mark.parametrize("name", packages())
def test_all_is_exactly_the_public_names(name: str) -> None:
    package = importlib.import_module(name)
    exported = getattr(package, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    assert len(set(exported)) == len(exported), f"{name}.__all__ repeats a name"
    assert set(exported) - {"__version__"} == public_names(package)
    for member in exported:
        assert getattr(package, member) is not None


def test_the_top_level_lists_its_names_before_loading_them() -> None:
    assert set(rulebound.__all__) <= set(dir(rulebound))
