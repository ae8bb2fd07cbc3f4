"""@tt.shapecheck's cache of passed signatures: a call whose arguments (and result) have the
shapes, dtypes and types of a call that passed skips jaxtyping; every other call, and every
failure, is checked in full with the same errors."""

from typing import Any, TypeVar
from typing import Literal as L

import numpy as np
import pytest
from jaxtyping import Float32
from typing_extensions import Unpack

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")


def f32(*shape: int) -> Tensor[tt.float32, Unpack[tuple[Any, ...]]]:
    return tt.zeros(shape, dtype=tt.float32)


def f64(*shape: int) -> Tensor[tt.float64, Unpack[tuple[Any, ...]]]:
    return tt.zeros(shape, dtype=tt.float64)


def test_a_seen_argument_signature_still_checks_a_new_result() -> None:
    rows: list[int] = []

    @tt.shapecheck
    def head(x: Tensor[tt.float32, B, L[3]], n: int) -> Tensor[tt.float32, B]:
        rows.append(n)
        return f32(n)

    assert head(f32(4, 3), 4).shape == (4,)
    assert head(f32(4, 3), 4).shape == (4,)  # both signatures seen: no jaxtyping
    checker = head.__typedtensor_shapecheck__  # type: ignore[attr-defined]
    assert len(checker.passed_arguments) == 1 and len(checker.passed_calls) == 1
    with pytest.raises(tt.ShapeCheckError) as err:
        head(f32(4, 3), 5)  # same arguments' signature, a result of another shape
    assert err.value.argument == "return value"
    assert err.value.bindings == {"B": 4}
    assert "expected Tensor[float32, B], got Tensor[float32, 5]" in str(err.value)
    assert rows == [4, 4, 5]  # the body ran once per call, also when the result failed


def test_a_failing_call_is_never_cached() -> None:
    @tt.shapecheck
    def pair(x: Tensor[tt.float32, B, L[3]], y: Tensor[tt.float32, B]) -> Tensor[tt.float32, B]:
        return y

    for _ in range(3):
        with pytest.raises(tt.ShapeCheckError) as err:
            pair(f32(4, 3), f32(5))
        assert err.value.argument == "argument 'y'"
        assert err.value.bindings == {"B": 4}
    assert pair(f32(4, 3), f32(4)).shape == (4,)
    with pytest.raises(tt.ShapeCheckError):
        pair(f32(4, 3), f64(4))  # type: ignore[arg-type]  # the dtype is in the signature
    with pytest.raises(tt.ShapeCheckError):
        pair(f32(4, 3), f32(4, 1))  # so is the rank


def test_keyword_arguments_enter_the_signature_by_name() -> None:
    @tt.shapecheck
    def pair(
        x: Tensor[tt.float32, B], *, y: Tensor[tt.float32, B], **more: Tensor[tt.float32, B]
    ) -> Tensor[tt.float32, B]:
        return x

    x3 = f32(3)
    checker = pair.__typedtensor_shapecheck__  # type: ignore[attr-defined]
    for _ in range(2):
        assert pair(x3, y=f32(3)) is x3
        assert pair(x=x3, y=f32(3), z=f32(3)) is x3
    assert len(checker.passed_arguments) == 2
    with pytest.raises(tt.ShapeCheckError) as err:
        pair(x3, y=f32(4))
    assert err.value.argument == "argument 'y'"
    with pytest.raises(tt.ShapeCheckError) as err:
        pair(x=x3, y=f32(3), z=f32(4))  # the same names: the **more item is still checked
    assert "'more'" in err.value.argument
    with pytest.raises(TypeError):
        pair(x3, f32(3))  # type: ignore[misc]  # y is keyword-only: never cached


def test_unannotated_values_do_not_enter_the_signature() -> None:
    @tt.shapecheck
    def scale(x: Tensor[tt.float32, B], k: Any = 1) -> Tensor[tt.float32, B]:
        return x if k else f32(1)

    x = f32(3)
    assert scale(x, 1) is x
    assert scale(x, 1) is x
    with pytest.raises(tt.ShapeCheckError):
        scale(x, 0)  # the unannotated k does not enter the signature; the result does
    assert scale(x, k=1) is x
    with pytest.raises(tt.ShapeCheckError):
        scale(x, k=0)


def test_jaxtyping_arrays_and_tuples_enter_the_signature() -> None:
    @tt.shapecheck
    def both(
        x: Tensor[tt.float32, B, N],
        a: Float32[np.ndarray, "B N"],  # noqa: F722
    ) -> tuple[Tensor[tt.float32, B], Tensor[tt.float32, N]]:
        return x.sum(axis=1), x.sum(axis=0)

    a = np.zeros((2, 3), np.float32)
    for _ in range(2):
        out = both(f32(2, 3), a)
        assert (out[0].shape, out[1].shape) == ((2,), (3,))
    with pytest.raises(tt.ShapeCheckError):
        both(f32(2, 3), np.zeros((2, 4), np.float32))
    with pytest.raises(tt.ShapeCheckError):
        both(f32(2, 3), a.astype(np.float64))


def test_var_positional_arguments() -> None:
    @tt.shapecheck
    def total(*xs: Tensor[tt.float32, B]) -> Tensor[tt.float32, B]:
        return xs[0]

    assert total(f32(2), f32(2)).shape == (2,)
    assert total(f32(2), f32(2)).shape == (2,)
    with pytest.raises(tt.ShapeCheckError):
        total(f32(2), f32(3))
