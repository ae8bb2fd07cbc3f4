"""@tt.shapecheck: runtime checks of Tensor annotations (jaxtyping + beartype underneath)."""

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any, TypeVar
from typing import Literal as L

import numpy as np
import pytest
from jaxtyping import Float
from typing_extensions import TypeVarTuple, Unpack

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")
DT = TypeVar("DT", bound=tt.DType)
FT = TypeVar("FT", bound=tt.Floating)
Rest = TypeVarTuple("Rest")


class Batch(tt.Dim): ...


class Time(tt.Dim): ...


def f32(*shape: int) -> Tensor[tt.float32, Unpack[tuple[Any, ...]]]:
    return tt.zeros(shape, dtype=tt.float32)


def f64(*shape: int) -> Tensor[tt.float64, Unpack[tuple[Any, ...]]]:
    return tt.zeros(shape, dtype=tt.float64)


@tt.shapecheck
def row_sums(x: Tensor[tt.float32, B, L[3]], w: Tensor[tt.float32, B, N]) -> Tensor[tt.float32, B]:
    return x.sum(axis=1)


@tt.shapecheck
def wrong_length(x: Tensor[tt.float32, B, L[3]]) -> Tensor[tt.float32, B]:
    return f32(x.shape[0] - 1)  # one row short


@tt.shapecheck
def by_marker(
    x: Tensor[tt.float32, Batch, Time], y: Tensor[tt.float32, Time]
) -> Tensor[tt.float32, Batch]:
    return (x * y).sum(axis=1)


@tt.shapecheck
def keep_dtype(x: Tensor[DT, B]) -> Tensor[DT, B]:
    return x.astype(tt.float32)


@tt.shapecheck
def any_rank(x: Tensor[FT, L[2], Unpack[tuple[Any, ...]]]) -> Tensor[FT, Unpack[tuple[Any, ...]]]:
    return x.sum(axis=0)


@tt.shapecheck
def same_tail(
    x: Tensor[tt.float32, Unpack[Rest]], y: Tensor[tt.float32, L[1], Unpack[Rest]]
) -> Tensor[tt.float32, Unpack[Rest]]:
    return x


@tt.shapecheck
def mixed(x: Tensor[tt.float32, B, L[3]], m: Float[np.ndarray, "B"]) -> Float[np.ndarray, "B"]:
    out: np.ndarray[Any, Any] = x.numpy().sum(axis=1) * m
    return out


@tt.shapecheck
def pair(x: Tensor[tt.float32, B, N]) -> tuple[Tensor[tt.float32, B], Tensor[tt.float32, N]]:
    return x.sum(axis=1), x.sum(axis=0)


@tt.shapecheck
def maybe(x: Tensor[tt.float32, B] | None, n: int = 3) -> Tensor[tt.float32, B] | None:
    return x


def check_error(
    err: pytest.ExceptionInfo[tt.ShapeCheckError], argument: str, expected: str, actual: str
) -> str:
    msg = str(err.value)
    assert err.value.argument == argument
    assert argument in msg
    assert f"expected {expected}" in msg
    assert f"got {actual}" in msg
    assert "bindings so far" in msg
    return msg


# ------------------------------------------------------------------------- passing
def test_passing_calls_return_the_function_result() -> None:
    out = row_sums(f32(4, 3), f32(4, 7))
    assert isinstance(out, Tensor) and out.shape == (4,)
    assert by_marker(f32(2, 5), f32(5)).shape == (2,)
    assert any_rank(f64(2, 3, 4)).shape == (3, 4)
    assert any_rank(f32(2)).shape == ()
    assert same_tail(f32(3, 4), f32(1, 3, 4)).shape == (3, 4)
    assert mixed(f32(4, 3), np.ones(4, dtype=np.float32)).shape == (4,)
    assert [t.shape for t in pair(f32(2, 3))] == [(2,), (3,)]
    some = maybe(f32(3))
    assert maybe(None) is None and some is not None and some.shape == (3,)
    assert row_sums.__name__ == "row_sums" and "B" in str(row_sums.__annotations__["x"])


def test_keyword_and_default_arguments() -> None:
    assert row_sums(w=f32(2, 1), x=f32(2, 3)).shape == (2,)


# --------------------------------------------------------------------- mismatches
def test_literal_dim_mismatch() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        row_sums(f32(4, 4), f32(4, 7))
    msg = check_error(err, "argument 'x'", "Tensor[float32, B, 3]", "Tensor[float32, 4, 4]")
    assert "does not equal 3" in msg


def test_symbolic_dim_bound_across_two_arguments() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        row_sums(f32(4, 3), f32(5, 7))
    check_error(err, "argument 'w'", "Tensor[float32, B, N]", "Tensor[float32, 5, 7]")
    assert err.value.bindings == {"B": 4}
    assert "B=4" in str(err.value)


def test_symbolic_dim_bound_between_argument_and_return() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        wrong_length(f32(4, 3))
    msg = check_error(err, "return value", "Tensor[float32, B]", "Tensor[float32, 3]")
    assert "B=4" in msg


def test_dtype_mismatch() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        row_sums(f32(4, 3), f64(4, 7))  # type: ignore[arg-type]
    msg = check_error(err, "argument 'w'", "Tensor[float32, B, N]", "Tensor[float64, 4, 7]")
    assert "dtype float64" in msg


def test_marker_dims_bind_like_typevars() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        by_marker(f32(2, 5), f32(6))
    check_error(err, "argument 'y'", "Tensor[float32, Time]", "Tensor[float32, 6]")
    assert err.value.bindings == {"Batch": 2, "Time": 5}


def test_typevar_dtype_binds_one_dtype_per_call() -> None:
    assert keep_dtype(f32(3)).dtype is tt.float32
    with pytest.raises(tt.ShapeCheckError) as err:
        keep_dtype(f64(3))
    msg = check_error(err, "return value", "Tensor[DT, B]", "Tensor[float32, 3]")
    assert "DT was bound to float64" in msg


def test_bounded_dtype_typevar_rejects_other_families() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        any_rank(tt.zeros((2, 3), dtype=tt.int32))  # type: ignore[type-var]
    check_error(err, "argument 'x'", "Tensor[FT, 2, ...]", "Tensor[int32, 2, 3]")


def test_unknown_rank_still_checks_the_known_prefix() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        any_rank(f32(3, 3))
    check_error(err, "argument 'x'", "Tensor[FT, 2, ...]", "Tensor[float32, 3, 3]")
    with pytest.raises(tt.ShapeCheckError):
        any_rank(f32())  # rank 0 has no leading dim of size 2


def test_rank_mismatch() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        row_sums(f32(4, 3, 1), f32(4, 7))
    assert "3 dimensions" in check_error(
        err, "argument 'x'", "Tensor[float32, B, 3]", "Tensor[float32, 4, 3, 1]"
    )


def test_variadic_typevartuple_binds_across_arguments() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        same_tail(f32(3, 4), f32(1, 3, 5))
    check_error(err, "argument 'y'", "Tensor[float32, 1, *Rest]", "Tensor[float32, 1, 3, 5]")


def test_mixed_jaxtyping_ndarray_shares_bindings() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        mixed(f32(4, 3), np.ones(5, dtype=np.float32))
    check_error(err, "argument 'm'", "Float[ndarray, 'B']", "ndarray[float32, 5]")
    assert err.value.bindings == {"B": 4}


def test_tuple_return_items_are_checked_by_position() -> None:
    @tt.shapecheck
    def swapped(x: Tensor[tt.float32, B, N]) -> tuple[Tensor[tt.float32, B], Tensor[tt.float32, N]]:
        return x.sum(axis=0), x.sum(axis=1)

    assert [t.shape for t in swapped(f32(3, 3))] == [(3,), (3,)]
    with pytest.raises(tt.ShapeCheckError) as err:
        swapped(f32(2, 5))
    check_error(err, "return value[0]", "Tensor[float32, B]", "Tensor[float32, 5]")


def test_non_tensor_argument_is_rejected_with_its_name() -> None:
    with pytest.raises(tt.ShapeCheckError) as err:
        row_sums(np.zeros((4, 3), dtype=np.float32), f32(4, 7))  # type: ignore[arg-type]
    msg = check_error(err, "argument 'x'", "Tensor[float32, B, 3]", "ndarray[float32, 4, 3]")
    assert "not a typedtensor Tensor" in msg
    with pytest.raises(tt.ShapeCheckError):
        maybe(3)  # type: ignore[arg-type]


def test_errors_inside_the_body_are_not_rewritten() -> None:
    @tt.shapecheck
    def outer(x: Tensor[tt.float32, B]) -> Tensor[tt.float32, B]:
        row_sums(f32(2, 2), f32(2, 2))  # fails inside: reported for row_sums, not outer
        return x

    with pytest.raises(tt.ShapeCheckError) as err:
        outer(f32(3))
    assert err.value.function == "row_sums"


def test_bad_annotation_is_a_clear_error() -> None:
    @tt.shapecheck
    def bad(x: Tensor[tt.float32, L[2, 3]]) -> None: ...

    with pytest.raises(TypeError, match="Literal\\[n\\] with one non-negative int"):
        bad(f32(2))


def test_decorating_a_non_function_is_rejected() -> None:
    with pytest.raises(TypeError, match="decorates functions"):
        tt.shapecheck(3)  # type: ignore[type-var]


# ----------------------------------------------------------------------- off switch
def test_env_var_off_returns_the_function_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    def g(x: Tensor[tt.float32, L[3]]) -> Tensor[tt.float32, L[3]]:
        return x

    monkeypatch.setenv("TYPEDTENSOR_SHAPECHECK", "0")
    assert tt.shapecheck(g) is g
    monkeypatch.setenv("TYPEDTENSOR_SHAPECHECK", "1")
    checked = tt.shapecheck(g)
    assert checked is not g
    with pytest.raises(tt.ShapeCheckError):
        checked(f32(4))
    monkeypatch.setenv("TYPEDTENSOR_SHAPECHECK", "perhaps")
    with pytest.raises(ValueError, match="TYPEDTENSOR_SHAPECHECK"):
        tt.shapecheck(g)


def test_import_typedtensor_imports_neither_numba_nor_jaxtyping() -> None:
    code = (
        "import sys, typedtensor as tt\n"
        "@tt.shapecheck\n"
        "def f(x: tt.Tensor) -> tt.Tensor: return x\n"
        "heavy = [m for m in ('numba', 'jaxtyping', 'beartype', 'mypy') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "f(tt.zeros((2,)))\n"
        "assert 'jaxtyping' in sys.modules and 'beartype' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


MODULE = """\
from __future__ import annotations

from typing import Literal as L, TypeVar

import typedtensor as tt
from typedtensor import Tensor

N = TypeVar("N")


class Layer:
    @tt.shapecheck
    def __call__(self, x: Tensor[tt.float32, N, L[2]]) -> Tensor[tt.float32, N]:
        return x.sum(axis=1)


@tt.shapecheck
def local_name(x: Tensor[tt.float32, Later]) -> None: ...


class Later(tt.Dim): ...
"""


def test_string_annotations_and_methods(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ux_future_mod.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("ux_future_mod")
    layer = mod.Layer()
    assert layer(f32(5, 2)).shape == (5,)
    with pytest.raises(tt.ShapeCheckError) as err:
        layer(f32(5, 3))
    check_error(err, "argument 'x'", "Tensor[float32, N, 2]", "Tensor[float32, 5, 3]")
    mod.local_name(f32(4))  # names are resolved at the first call, not at decoration


def test_var_positional_and_keyword_only_parameters() -> None:
    @tt.shapecheck
    def total(*xs: Tensor[tt.float32, N], scale: Tensor[tt.float32, N]) -> Tensor[tt.float32, N]:
        return scale

    assert total(f32(3), f32(3), scale=f32(3)).shape == (3,)
    with pytest.raises(tt.ShapeCheckError) as err:
        total(f32(3), f32(4), scale=f32(3))
    check_error(err, "argument 'xs'[1]", "Tensor[float32, N]", "Tensor[float32, 4]")
    with pytest.raises(tt.ShapeCheckError) as err:
        total(f32(3), scale=f32(2))
    check_error(err, "argument 'scale'", "Tensor[float32, N]", "Tensor[float32, 2]")


def test_var_keyword_items_are_named_by_key() -> None:
    @tt.shapecheck
    def named(**parts: Tensor[tt.float32, N]) -> None:
        return None

    named(a=f32(2), b=f32(2))
    with pytest.raises(tt.ShapeCheckError) as err:
        named(a=f32(2), b=f32(3))
    check_error(err, "argument 'parts'['b']", "Tensor[float32, N]", "Tensor[float32, 3]")


@pytest.mark.parametrize("name", sorted(tt._dtypes.BY_NAME))
def test_every_dtype_class_is_checked_exactly(name: str) -> None:
    """Each concrete dtype class (float16 and complex included) translates to jaxtyping's
    dtype of the same name: its own tensors pass, a tensor of another dtype is rejected."""
    cls = tt._dtypes.BY_NAME[name]
    other = tt.float64 if cls is not tt.float64 else tt.float32

    @tt.shapecheck
    def ident(x: Tensor[cls, L[2]]) -> Tensor[Any, L[2]]:  # type: ignore[valid-type]
        return x

    assert ident(tt.zeros((2,), dtype=cls)).dtype is cls
    with pytest.raises(tt.ShapeCheckError, match=f"got Tensor\\[{other.__name__}, 2\\]"):
        ident(tt.zeros((2,), dtype=other))


def test_complex_family_bound_accepts_both_complex_dtypes() -> None:
    @tt.shapecheck
    def conj_shape(x: Tensor[tt.ComplexFloating, B]) -> Tensor[tt.ComplexFloating, B]:
        return x

    for cls in (tt.complex64, tt.complex128):
        assert conj_shape(tt.zeros((3,), dtype=cls)).shape == (3,)
    with pytest.raises(tt.ShapeCheckError, match="argument 'x'"):
        conj_shape(tt.zeros((3,), dtype=tt.float32))
