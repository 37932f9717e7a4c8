"""Packages re-export their modules' names lazily (issue 16): importing one module of a
package loads that module and what it imports, not the whole package.

Each check runs in a fresh interpreter, so what earlier tests imported cannot hide a
module that is loaded too eagerly.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

PACKAGES = (
    "rulebound.core",
    "rulebound.rulesets.empty_reach",
    "rulebound.rulesets.rainwall",
)


def loaded_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return set(done.stdout.split())


def test_the_errors_module_loads_no_other_core_module() -> None:
    loaded = loaded_after("import rulebound.core.errors")
    core = {m for m in loaded if m.startswith("rulebound.core.")}
    assert core == {"rulebound.core.errors", "rulebound.core.lazy"}
    assert "hashlib" not in loaded  # canonical's digests are not paid for an error class


def test_the_empty_reach_odds_load_neither_pydantic_nor_the_front_end() -> None:
    loaded = loaded_after("import rulebound.rulesets.empty_reach.odds")
    assert "pydantic" not in loaded
    for module in ("check", "content", "character", "game", "sheets", "card", "flow"):
        assert f"rulebound.rulesets.empty_reach.{module}" not in loaded


def test_a_name_imported_from_a_package_loads_only_its_module() -> None:
    loaded = loaded_after("from rulebound.rulesets.rainwall import Degree")
    assert "rulebound.rulesets.rainwall.rules" in loaded
    assert "rulebound.rulesets.rainwall.roll" not in loaded
    assert "rulebound.rulesets.rainwall.odds" not in loaded


@pytest.mark.parametrize("package", PACKAGES)
def test_every_exported_name_is_its_modules_object(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        home = importlib.import_module(getattr(value, "__module__", None) or package)
        assert getattr(home, name, value) is value, (package, name)
        assert getattr(module, name) is value  # cached after the first look-up


@pytest.mark.parametrize("package", PACKAGES)
def test_an_unknown_name_is_an_attribute_error_naming_it(package: str) -> None:
    module = importlib.import_module(package)
    with pytest.raises(AttributeError, match=f"{package}.*no attribute 'Nonesuch'"):
        module.Nonesuch  # noqa: B018
    with pytest.raises(ImportError, match="Nonesuch"):
        exec(f"from {package} import Nonesuch", {})
