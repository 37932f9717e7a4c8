"""Package names imported from their modules on first use (PEP 562).

A package ``__init__`` that re-exports its modules' names would otherwise import every
module whenever any one of them is imported (``rulebound.core.errors`` loading the
random sources and hashing). With ``__getattr__ = lazy_exports(__name__, {...})``,
``from package import Name`` works as before and loads only the module that holds it,
and ``dir(package)`` lists the names before they are loaded (a notebook's completion).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from typing import Any

LAZY: dict[str, frozenset[str]] = {}
"""Each package's names that ``lazy_exports`` loads on first use, by package name (the test
that holds every package's ``__all__`` to its public names reads it)."""


def lazy_exports(package: str, homes: Mapping[str, Iterable[str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``homes`` maps each submodule to its names."""
    home = {name: module for module, names in homes.items() for name in names}
    LAZY[package] = frozenset(home)
    module = sys.modules.get(package)

    def __getattr__(name: str) -> Any:
        where = home.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{where}"), name)
        setattr(sys.modules[package], name, value)
        return value

    if module is not None and "__dir__" not in vars(module):

        def __dir__() -> list[str]:
            return sorted({*vars(module), *home})

        module.__dir__ = __dir__  # type: ignore[method-assign]

    return __getattr__
