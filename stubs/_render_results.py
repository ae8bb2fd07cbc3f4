"""Render ``_results.pyi``: the standard's named results (``EighResult``, ``SVDResult``...) of
``typedtensor/_results.py`` as NamedTuples generic over their fields' types, field for field
(names, order and docstrings read from the runtime classes), so that ``tt.linalg.eigh(x)``
can be typed ``EighResult[Tensor[float32, L[3]], Tensor[float32, L[3], L[3]]]`` and its
``.eigenvalues`` has the type of its item 0. Each field's TypeVar defaults to ``AnyTensor``
(a bare ``EighResult`` in an annotation is one of Tensors of unknown shape)."""

from __future__ import annotations

import inspect

from typedtensor import _results


def _typevar(i: int) -> str:
    return f'_T{i} = TypeVar("_T{i}", covariant=True, default=AnyTensor)'


def render_results() -> dict[str, str]:
    """The template's fields: the TypeVars, the classes and ``__all__``."""
    classes = [getattr(_results, name) for name in _results.__all__]
    most = max(len(cls._fields) for cls in classes)
    blocks = []
    for cls in classes:
        params = ", ".join(f"_T{i}" for i in range(len(cls._fields)))
        fields = "\n".join(f"    {field}: _T{i}" for i, field in enumerate(cls._fields))
        blocks.append(
            f"class {cls.__name__}(NamedTuple, Generic[{params}]):\n"
            f'    """{inspect.getdoc(cls)}"""\n\n{fields}'
        )
    return {
        "ALL": ", ".join(f'"{name}"' for name in _results.__all__),
        "TYPEVARS": "\n".join(_typevar(i) for i in range(most)),
        "CLASSES": "\n\n\n".join(blocks),
    }
