"""Package names imported from their modules on first use (PEP 562).

A package ``__init__`` that re-exports its modules' names would otherwise import every
module whenever any one of them is imported (``rulebound.core.errors`` loading the
random sources and hashing). With ``__getattr__ = lazy_exports(__name__, {...})``,
``from package import Name`` works as before and loads only the module that holds it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, homes: Mapping[str, Iterable[str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``homes`` maps each submodule to its names."""
    home = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
