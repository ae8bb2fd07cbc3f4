"""Load ``typedtensor._shape_rules`` without importing ``typedtensor`` (which imports numpy).

The rules module is stdlib-only. If ``typedtensor._shape_rules`` is already imported (a test run
that imported the library) that module is used; otherwise the file is located through
``importlib.util.find_spec("typedtensor")``, which finds the package without executing its
``__init__``, and executed under the private name ``typedtensor_mypy._loaded_shape_rules``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["load_rules", "rules"]

_PRIVATE_NAME = "typedtensor_mypy._loaded_shape_rules"


def load_rules() -> ModuleType:
    """Return the shape-rules module, loading it from its file if needed (never imports numpy)."""
    for name in ("typedtensor._shape_rules", _PRIVATE_NAME):
        module = sys.modules.get(name)
        if module is not None:
            return module
    spec = importlib.util.find_spec("typedtensor")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = os.path.join(location, "_shape_rules.py")
        if os.path.isfile(path):
            break
    else:
        raise ImportError(
            "typedtensor_mypy needs the typedtensor package (its _shape_rules.py) to be "
            "installed in the environment that runs mypy"
        )
    rules_spec = importlib.util.spec_from_file_location(_PRIVATE_NAME, path)
    assert rules_spec is not None and rules_spec.loader is not None
    module = importlib.util.module_from_spec(rules_spec)
    sys.modules[_PRIVATE_NAME] = module  # dataclasses look their module up while executing
    try:
        rules_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[_PRIVATE_NAME]
        raise
    return module


if TYPE_CHECKING:
    from typedtensor import _shape_rules as rules
else:
    rules = load_rules()
