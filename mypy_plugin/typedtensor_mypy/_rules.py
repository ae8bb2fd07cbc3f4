"""Load the rules package ``typedtensor._rules`` without importing ``typedtensor`` (which imports
numpy).

The rules package is stdlib-only and imports its own modules relatively. If
``typedtensor._rules`` is already imported (a test run that imported the library) that package
is used; otherwise its folder is located through ``importlib.util.find_spec("typedtensor")``,
which finds the package without executing its ``__init__``, and the package is executed under
the private name ``typedtensor_mypy._loaded_rules`` (its modules as submodules of that name).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["load_rules", "rules", "rules_files"]

_PRIVATE_NAME = "typedtensor_mypy._loaded_rules"


def _rules_dir() -> str:
    spec = importlib.util.find_spec("typedtensor")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = os.path.join(location, "_rules")
        if os.path.isfile(os.path.join(path, "__init__.py")):
            return path
    raise ImportError(
        "typedtensor_mypy needs the typedtensor package (its _rules/ folder) to be "
        "installed in the environment that runs mypy: pip install 'shapetyped[mypy]'"
    )


def load_rules() -> ModuleType:
    """Return the rules package, loading it from its files if needed (never imports numpy)."""
    for name in ("typedtensor._rules", _PRIVATE_NAME):
        module = sys.modules.get(name)
        if module is not None:
            return module
    folder = _rules_dir()
    rules_spec = importlib.util.spec_from_file_location(
        _PRIVATE_NAME, os.path.join(folder, "__init__.py"), submodule_search_locations=[folder]
    )
    assert rules_spec is not None and rules_spec.loader is not None
    module = importlib.util.module_from_spec(rules_spec)
    sys.modules[_PRIVATE_NAME] = module  # relative imports and dataclasses look it up
    try:
        rules_spec.loader.exec_module(module)
    except BaseException:
        for name in [n for n in sys.modules if n.startswith(_PRIVATE_NAME)]:
            del sys.modules[name]
        raise
    return module


def rules_files() -> list[Path]:
    """The rules package's source files (for the plugin's cache fingerprint)."""
    return sorted(Path(str(rules.__file__)).parent.glob("*.py"))


if TYPE_CHECKING:
    from typedtensor import _rules as rules
else:
    rules = load_rules()
