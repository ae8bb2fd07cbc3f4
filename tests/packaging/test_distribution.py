"""The release as a user gets it: build the sdist and, from it, the wheel; install the wheel
into a fresh virtual environment; check a program outside the repository with mypy and the
plugin, with pyright, with the ``typedtensor`` command, and run it.

The fresh environment gets the wheel with ``pip install --no-index --no-deps`` (no network);
its dependencies (numpy, numba, mypy, pyright, ...) come from this test run's environment
through a ``.pth`` line naming its site-packages. A path line in a ``.pth`` file adds the
directory only, not the ``.pth`` files inside it, so the editable checkout installed there is
not importable: ``typedtensor`` and ``typedtensor_mypy`` resolve to the wheel's copies (the
test asserts it).
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import tarfile
import textwrap
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import typedtensor

REPO = Path(__file__).resolve().parent.parent.parent
DIST_NAME = "shapetyped"
VERSION = typedtensor.__version__

# What the sdist must carry besides the packages: a user checks a release with these.
SDIST_MUST_CARRY = [
    "pyproject.toml",
    "README.md",
    "CHANGELOG.md",
    "LICENSE",
    "mkdocs.yml",
    "docs/index.md",
    "scripts/test.sh",
    "scripts/demo.sh",
    "stubs/generate.py",
    "benchmarks/bench_sizes.py",
    "examples/softmax.py",
    "tests/conftest.py",
    "tests/packaging/test_distribution.py",
    "mypy_plugin/typedtensor_mypy/__init__.py",
    "typedtensor/py.typed",
]
# The tracked folders the sdist carries whole (every tracked file in them).
SDIST_FOLDERS = ["typedtensor", "mypy_plugin", "stubs", "tests", "examples", "docs", "benchmarks"]

PROGRAM = """\
from typing import Literal as L

from typing_extensions import reveal_type

import typedtensor as tt
from typedtensor import Tensor


def row_totals(x: Tensor[tt.float32, L[8], L[10]]) -> Tensor[tt.float32, L[8]]:
    totals = x.sum(axis=-1)
    reveal_type(totals)
    return totals


x = tt.ones((8, 10), tt.float32)
print(row_totals(x).shape)
x.sum(axis=2)
"""
REVEAL_LINE = 11  # reveal_type(totals)
ERROR_LINE = 17  # x.sum(axis=2): out of range for a rank-2 tensor


@dataclass
class Release:
    sdist: Path
    wheel: Path
    python: Path  # the fresh environment's interpreter
    scripts: Path  # its bin/ folder
    program: Path  # a program in a folder outside the repository


def _run(args: list[str | Path], cwd: Path, ok: tuple[int, ...] = (0,)) -> str:
    proc = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, check=False
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode in ok, f"{args} exited {proc.returncode}:\n{output}"
    return output


def _git_tracked() -> set[str] | None:
    proc = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:  # an unpacked sdist: no git checkout to compare with
        return None
    return {line for line in proc.stdout.splitlines() if (REPO / line).exists()}


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    tmp = tmp_path_factory.mktemp("release")
    dist = tmp / "dist"
    # no --sdist/--wheel: build makes the sdist, then the wheel from the unpacked sdist
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, REPO], cwd=tmp)
    (sdist,) = dist.glob(f"{DIST_NAME}-{VERSION}.tar.gz")
    (wheel,) = dist.glob(f"{DIST_NAME}-{VERSION}-py3-none-any.whl")
    env = tmp / "venv"
    _run([sys.executable, "-m", "venv", env], cwd=tmp)
    python = env / "bin" / "python"
    _run([python, "-m", "pip", "install", "-q", "--no-index", "--no-deps", wheel], cwd=tmp)
    fresh_site = Path(
        _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp)
        .strip()
        .splitlines()[-1]
    )
    (fresh_site / "_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    user = tmp / "user_project"
    user.mkdir()
    program = user / "program.py"
    program.write_text(PROGRAM)
    return Release(sdist, wheel, python, env / "bin", program)


def test_sdist_carries_the_sources_and_nothing_stray(release: Release) -> None:
    prefix = f"{DIST_NAME}-{VERSION}/"
    with tarfile.open(release.sdist) as archive:
        names = {m.name.removeprefix(prefix) for m in archive.getmembers() if m.isfile()}
    missing = [path for path in SDIST_MUST_CARRY if path not in names]
    assert not missing, missing
    stray = sorted(
        n
        for n in names
        if n.startswith(".") or "/." in n or "__pycache__" in n or n.endswith((".pyc", ".so"))
    )
    assert not stray, stray
    tracked = _git_tracked()
    if tracked is None:
        pytest.skip("not a git checkout: nothing to compare the listing with")
    untracked = sorted(names - tracked - {"PKG-INFO"})
    assert not untracked, f"files in the sdist that git does not track: {untracked}"
    left_out = sorted(
        path for path in tracked if path.split("/")[0] in SDIST_FOLDERS and path not in names
    )
    assert not left_out, f"tracked files the sdist leaves out: {left_out}"


def test_wheel_metadata(release: Release) -> None:
    with zipfile.ZipFile(release.wheel) as wheel:
        metadata = wheel.read(f"{DIST_NAME}-{VERSION}.dist-info/METADATA").decode()
        entry_points = wheel.read(f"{DIST_NAME}-{VERSION}.dist-info/entry_points.txt").decode()
        names = set(wheel.namelist())
    assert f"Name: {DIST_NAME}\n" in metadata and f"Version: {VERSION}\n" in metadata
    assert "Classifier: Typing :: Typed\n" in metadata
    assert "Requires-Dist: mypy<2.5,>=2.3.1; extra == 'mypy'\n" in metadata
    dask_extra = [line.split(";")[0] for line in metadata.splitlines() if "extra == 'dask'" in line]
    assert len(dask_extra) == 3 and not [r for r in dask_extra if "==" in r], dask_extra  # ranges
    assert "Project-URL: Documentation, " in metadata
    assert "typedtensor = typedtensor._cli:main" in entry_points
    assert {"typedtensor/py.typed", "typedtensor_mypy/py.typed", "typedtensor/_tensor.pyi"} <= names
    assert not [n for n in names if n.startswith(("tests/", "stubs/", "benchmarks/"))]


def test_installed_wheel_is_what_python_imports(release: Release) -> None:
    out = _run(
        [
            release.python,
            "-c",
            "import importlib.metadata as m, json, typedtensor, typedtensor_mypy; print(json.dumps("
            "[typedtensor.__file__, typedtensor_mypy.__file__, typedtensor.__version__,"
            f" typedtensor_mypy.__version__, m.version({DIST_NAME!r})]))",
        ],
        cwd=release.program.parent,
    )
    files_and_versions = json.loads(out.strip().splitlines()[-1])
    fresh = str(release.python.parent.parent)
    assert files_and_versions[0].startswith(fresh) and files_and_versions[1].startswith(fresh)
    assert files_and_versions[2:] == [VERSION, VERSION, VERSION]


def test_mypy_with_the_plugin_on_a_user_program(release: Release) -> None:
    user = release.program.parent
    (user / "mypy.ini").write_text("[mypy]\nplugins = typedtensor_mypy\n")
    out = _run(
        [release.python, "-m", "mypy", "--no-error-summary", "--no-incremental", "program.py"],
        cwd=user,
        ok=(1,),
    )
    lines = out.strip().splitlines()
    assert (
        f'program.py:{REVEAL_LINE}: note: Revealed type is "typedtensor._tensor.Tensor['
        'typedtensor._dtypes.float32, Literal[8]]"' in lines
    ), out
    errors = [line for line in lines if ": error: " in line]
    assert len(errors) == 1 and errors[0].startswith(f"program.py:{ERROR_LINE}: error: "), out
    assert errors[0].endswith("[typedtensor-axis]") and "rank-2" in errors[0], out


def test_pyright_on_a_user_program(release: Release) -> None:
    user = release.program.parent
    (user / "pyrightconfig.json").write_text(json.dumps({"reportDeprecated": "error"}))
    out = _run(
        [
            release.python,
            "-m",
            "pyright",
            "--outputjson",
            "--pythonpath",
            release.python,
            "program.py",
        ],
        cwd=user,
        ok=(1,),
    )
    report = json.loads(out[out.index("{") :])
    found = {
        (d["range"]["start"]["line"] + 1, d["severity"], d["message"])
        for d in report["generalDiagnostics"]
    }
    assert (REVEAL_LINE, "information", 'Type of "totals" is "Tensor[float32, Literal[8]]"') in (
        found
    ), found
    errors = [(line, message) for line, severity, message in found if severity == "error"]
    assert len(errors) == 1 and errors[0][0] == ERROR_LINE, found
    assert "rank-2" in errors[0][1], found


def test_console_script_and_the_program_run(release: Release) -> None:
    user = release.program.parent
    out = _run([release.scripts / "typedtensor", "shapes", "program.py"], cwd=user, ok=(1,))
    assert "#   totals: Tensor[float32, 8]" in out, out
    assert "[typedtensor-axis]" in out, out
    script = textwrap.dedent(
        """
        import runpy
        try:
            runpy.run_path("program.py")
        except Exception as err:
            print(type(err).__name__)
        """
    )
    out = _run([release.python, "-c", script], cwd=user)
    lines = out.strip().splitlines()  # stdout, then reveal_type's stderr line
    assert lines[:2] == ["(8,)", "AxisError"] and "Runtime type is 'Tensor'" in lines, out


def test_dask_backed_tensor_from_the_installed_wheel(release: Release) -> None:
    script = textwrap.dedent(
        """
        import dask.array as da
        import typedtensor as tt

        frames = tt.asarray(da.ones((4, 6), chunks=(2, 6), dtype="float32"))
        totals = frames.sum(axis=0)
        print(type(totals.compute().numpy()).__name__, totals.compute().shape)
        print(float(totals.compute().numpy()[0]))
        """
    )
    out = _run([release.python, "-c", script], cwd=release.program.parent)
    assert out.strip().splitlines()[-2:] == ["ndarray (6,)", "4.0"], out
