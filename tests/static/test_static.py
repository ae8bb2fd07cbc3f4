"""Static tests in the numpy style, under the three configurations of the stubs.

- pyright (``tests/static/pyrightconfig.json``: strict, ``reportDeprecated = "error"``, only
  ``# pyright: ignore[rule]`` comments honoured and unused ones reported);
- mypy without the plugin (``tests/static/mypy.ini``: strict, ``deprecated`` enabled, unused
  ignores reported);
- mypy with the plugin: the stubs' plugin-only branch (``TYPEDTENSOR_MYPY_PLUGIN`` in
  ``always_true``, as the plugin sets it) replaces the overloads by the runtime signatures.

``reveal/`` files use ``assert_type``; ``fail/`` files carry the expected error's ignore comment
on each line, so an error that vanishes leaves an unused ignore, itself an error.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ._run import HERE, errors, mypy, pyright

pytestmark = pytest.mark.slow

FILES = [str(HERE / d) for d in ("reveal", "fail", "pass")]


def test_fail_files_expect_errors() -> None:
    """Every statement line of a fail file expects an error under both checkers."""
    for path in (HERE / "fail").glob("*.py"):
        lines = [ln for ln in path.read_text().splitlines() if re.match(r"^    \w.*\)", ln)]
        assert lines, path
        for line in lines:
            assert "# type: ignore[" in line and "# pyright: ignore[" in line, line


def test_pyright() -> None:
    report = pyright(["-p", str(HERE / "pyrightconfig.json")])
    assert errors(report) == []
    assert report["summary"]["filesAnalyzed"] >= 5  # type: ignore[index]


def test_mypy_without_plugin() -> None:
    result = mypy(["--config-file", str(HERE / "mypy.ini"), *FILES])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


SNIPPET = """
from typing import Literal as L
import typedtensor as tt
from typedtensor import Tensor

def f(x: Tensor[tt.int8, L[2], L[3], L[4]]) -> None:
    reveal_type(x.sum(0))
    reveal_type(x.mean((0, -1), keepdims=True))
    reveal_type(tt.max(x, 1))
    reveal_type(x.sum(3))
"""


def _revealed(stdout: str) -> list[str]:
    return re.findall(r'Revealed type is "([^"]*)"', stdout)


def test_mypy_plugin_branch_hides_the_overloads(tmp_path: Path) -> None:
    """Under ``always_true = TYPEDTENSOR_MYPY_PLUGIN`` mypy sees only the runtime signatures."""
    (tmp_path / "snippet.py").write_text(SNIPPET)
    # an explicit empty config: the repository's pyproject.toml enables the plugin
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    config = ["--config-file", str(tmp_path / "mypy.ini")]
    args = [*config, "--strict", "--enable-error-code", "deprecated", str(tmp_path / "snippet.py")]
    without = mypy(args)
    with_branch = mypy(["--always-true", "TYPEDTENSOR_MYPY_PLUGIN", *args])
    plain = "typedtensor._tensor.Tensor[Any, *tuple[Any, ...]]"
    assert _revealed(with_branch.stdout) == [plain] * 4, with_branch.stdout
    assert "deprecated" not in with_branch.stdout
    # the same snippet without the branch: exact types from the overloads, poison reported
    assert _revealed(without.stdout)[0] == (
        "typedtensor._tensor.Tensor[typedtensor._dtypes.int64, Literal[3], Literal[4]]"
    )
    assert "[deprecated]" in without.stdout


def test_mypy_with_plugin_gets_plugin_answers(tmp_path: Path) -> None:
    """With the real plugin the answers are the plugin's, the overloads unused."""
    (tmp_path / "snippet.py").write_text(SNIPPET)
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\nplugins = typedtensor_mypy\n")
    result = mypy(["--config-file", str(tmp_path / "mypy.ini"), str(tmp_path / "snippet.py")])
    revealed = _revealed(result.stdout)
    assert revealed[0].endswith("Literal[3], Literal[4]]"), result.stdout
    assert "[deprecated]" not in result.stdout


def test_shadowed_modules_still_type_check() -> None:
    """``mypy typedtensor`` reads the ``.pyi`` instead of a shadowed ``.py``; named explicitly,
    the implementation files are checked (CI should run this form too)."""
    stubs = (HERE.parent.parent / "typedtensor").glob("*.pyi")
    # _tensor_mypy.pyi is stub-only (mypy's view of the reduction methods, no runtime module)
    shadowed = [str(p.with_suffix(".py")) for p in stubs if p.with_suffix(".py").exists()]
    assert len(shadowed) == 12
    # reductions.py calls the methods that _tensor_methods installs on the class: mypy sees
    # them only through the stubs' Tensor, so it is checked on its own (as scripts/test.sh does)
    reductions = str(HERE.parent.parent / "typedtensor" / "reductions.py")
    assert reductions in shadowed
    for group in ([p for p in shadowed if p != reductions], [reductions]):
        result = mypy(["--strict", *group])
        assert result.returncode == 0, result.stdout + result.stderr
