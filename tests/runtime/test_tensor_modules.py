"""The Tensor class's modules (docs/architecture.md, "Modules"): ``_tensor.py`` imports no
module that imports it back, and ``_tensor_methods.install`` sets the method families on the
class without overriding what it defines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import typedtensor as tt
from typedtensor import _tensor_methods
from typedtensor._tensor_reductions import ReductionMethods

PACKAGE = Path(tt.__file__).parent


def _own_imports(module: str) -> set[str]:
    """The typedtensor modules that ``module`` names in any import statement (at any depth,
    ``TYPE_CHECKING`` blocks included), as dotted names."""
    path = PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")
    package = module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
            base = f"{base}.{node.module}" if node.module else base
            found.update({base, *(f"{base}.{a.name}" for a in node.names)})
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m.startswith("typedtensor.")}


def _imports_tensor(module: str) -> bool:
    path = PACKAGE.joinpath(*module.split(".")[1:])
    if path.is_dir() or not path.with_suffix(".py").exists():
        return False  # a package's face or a name imported from a module
    return "typedtensor._tensor" in _own_imports(module)


def test_tensor_imports_no_module_that_imports_it() -> None:
    imported = _own_imports("typedtensor._tensor") | _own_imports("typedtensor._tensor_api")
    assert "typedtensor._tensor_reductions" not in imported
    assert "typedtensor.manipulation" not in imported
    back = sorted(m for m in imported if _imports_tensor(m))
    assert back == []
    # the check itself sees the method modules' imports of _tensor
    assert _imports_tensor("typedtensor.manipulation")
    assert _imports_tensor("typedtensor._tensor_methods")


def test_methods_are_installed_on_the_class() -> None:
    assert tt.Tensor.sum is ReductionMethods.sum
    assert tt.Tensor.argmax is ReductionMethods.argmax
    assert isinstance(vars(tt.Tensor)["T"], property)
    assert tt.Tensor.__getitem__.__qualname__ == "Tensor.__getitem__"
    x = tt.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.T.shape == (3, 2)
    assert x.mT.shape == (3, 2)
    assert x[1].numpy().tolist() == [4.0, 5.0, 6.0]
    assert (x @ x.T).shape == (2, 2)


def test_install_refuses_a_name_the_class_defines() -> None:
    class Target:
        def shape(self) -> int:
            return 1

    class Family:
        def mean(self) -> int:
            return 2

        def shape(self) -> int:
            return 3

    with pytest.raises(TypeError, match="Target already defines shape"):
        _tensor_methods.install(Target, Family)
    assert not hasattr(Target, "mean")  # nothing set when one name clashes
    _tensor_methods.install(Target, extra=Family.mean)
    assert Target().extra() == 2  # type: ignore[attr-defined]
