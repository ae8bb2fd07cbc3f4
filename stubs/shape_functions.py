"""Render the ``tt.`` functions of the shape operations for pyright: ``linalg.pyi``
(``matmul``), ``scans.pyi`` (``cumsum cumprod cumulative_sum cumulative_prod nancumsum
nancumprod``) and ``manipulation.pyi`` (``transpose permute_dims swapaxes matrix_transpose
squeeze expand_dims``). A function cannot dispatch on its argument's rank through a descriptor, so
each gets one flat overload list on the ``_DimsOf`` rank patterns of ``shape_ops`` (the same
rules over the same dim names), after a gradual guard and before the runtime signature; mypy
reads the runtime signatures (the templates' ``if MYPY:`` branch)."""

from __future__ import annotations

import itertools

from typedtensor import _rules as rules

from ._render_dtypes import dtype_form
from ._render_forms import MAX_RANK, _dims, gradual_params
from ._render_linalg_ext import render_linalg_ext
from ._render_params import _doc, render_params, runtime_params
from .shape_ops import (
    _ANY,
    UNKNOWN,
    _either,
    _no_size,
    _t,
    matmul_overloads,
    packed,
)


def render_linalg() -> dict[str, str]:
    """Template fields of ``linalg.pyi``: ``tt.matmul`` with ``@``'s overloads (pyright; mypy
    reads the runtime signature, as for the methods)."""
    lines = matmul_overloads("matmul", "a", "b", ("object", "object"))
    return {
        "MATMUL": "\n".join(f"    {line}" for line in lines),
        "LINALG_EXT": render_linalg_ext(),
    }


def _scan_function(name: str) -> list[str]:
    """Flat overloads of ``tt.<name>`` (a scan): the guard, then per rank (2, 3, 1, 4, 0)
    ``axis=None`` (where the rules allow it) and each literal axis, with the rule's dtype or
    a named class, then the runtime signature (``render_scan_functions``)."""
    from typedtensor import scans

    fn = getattr(scans, name)
    cumulative = name.startswith("cumulative_")
    dform = dtype_form(rules.REDUCTIONS[rules.SCANS[name]].dtype_rule)
    params, ret = runtime_params(fn)
    out = []
    guard = packed(dform.receiver, gradual_params())
    kw = "*, " if cumulative else ""
    tail = ", include_initial: Literal[False] = False" if cumulative else ""
    out.append(
        f"def {name}(x: {guard}, {kw}axis: int | None = None, dtype: None = None{tail}, "
        f"{'' if cumulative else '*, '}out: None = None) -> {_t(dform.result, [UNKNOWN])}: ..."
    )
    for r in [2, 3, 1, 4, 0]:
        dims = _dims(r)
        axes: list[tuple[str, object]] = [("None = None", None)]
        axes += [(_either(d, r) if r else "Literal[0, -1]", d) for d in range(max(r, 1))]
        for dtype, dparam in ((dform.result, "dtype: None = None"), ("_X", "dtype: type[_X]")):
            for ann, axis in axes:
                try:
                    shape = rules.scan_shape(
                        dims,
                        axis,
                        size_of=_no_size,
                        make=lambda n: _ANY if n is None else f"Literal[{n}]",
                        axis_required=cumulative,
                    )
                except rules.RuleError:
                    continue
                if cumulative:
                    sig = f"x: {packed(dform.receiver, dims)}, *, axis: {ann}, {dparam}{tail}"
                elif dtype == "_X":
                    sig = f"x: {packed(dform.receiver, dims)}, axis: {ann}, *, {dparam}"
                else:
                    sig = f"x: {packed(dform.receiver, dims)}, axis: {ann}, {dparam}, *"
                out.append(f"def {name}({sig}, out: None = None) -> {_t(dtype, shape)}: ...")
    out.append(f"def {name}({render_params(params)}) -> {ret}: ...")
    return [x for line in out for x in ("@overload", line)]


def render_scan_functions() -> dict[str, str]:
    """Template fields of ``scans.pyi``: the runtime signatures (mypy) and the overloads
    (pyright) of ``cumsum cumprod cumulative_sum cumulative_prod nancumsum nancumprod``."""
    from typedtensor import scans

    plain, overloads = [], []
    for name in scans.__all__:
        params, ret = runtime_params(getattr(scans, name))
        doc = _doc(getattr(scans, name))
        plain.append(f'    def {name}({render_params(params)}) -> {ret}:\n        """{doc}"""')
        overloads += [f"    {line}" for line in _scan_function(name)]
    return {"PLAIN": "\n".join(plain), "OVERLOADS": "\n".join(overloads)}


def _function_list(name: str, forms: list[str], fallback: str) -> list[str]:
    """``@overload`` lines of a ``tt.`` function: the gradual guard, ``forms`` (parameter
    text -> result, receiver ``x`` first), the runtime signature last."""
    guard = f"def {name}(x: {packed('_S', gradual_params())}, *args: Any, **kwargs: Any)"
    lines = [f"{guard} -> {_t('_S', [UNKNOWN])}: ..."]
    lines += [f"def {name}({form}: ..." for form in forms]
    lines.append(f"def {name}({fallback}: ...")
    return [x for line in lines for x in ("@overload", line)]


_FN_RANKS = [2, 3, 1, 4, 0]


def _manipulation_forms() -> dict[str, list[str]]:
    """Overload forms (``x: <rank pattern>, <literals>) -> <result>``) of the manipulation
    functions the pyright view types, from the same rules as the methods."""
    forms: dict[str, list[str]] = {n: [] for n in ("transpose", "permute_dims", "swapaxes")}
    forms |= {"matrix_transpose": [], "squeeze": [], "expand_dims": []}
    for r in _FN_RANKS:
        x = f"x: {packed('_S', _dims(r))}"
        forms["transpose"].append(
            f"{x}, axes: None = None) -> {_t('_S', rules.permute_shape(_dims(r)))}"
        )
    for r in _FN_RANKS:
        dims, x = _dims(r), f"x: {packed('_S', _dims(r))}"
        for perm in itertools.permutations(range(r)):
            lits = [_either(p, r) for p in perm]
            tup = f"tuple[{', '.join(lits)}]" if lits else "tuple[()]"
            result = _t("_S", rules.permute_shape(dims, perm))
            forms["transpose"].append(f"{x}, axes: {tup}) -> {result}")
            forms["permute_dims"].append(f"{x}, axes: {tup}) -> {result}")
        for a, b in itertools.product(range(r), repeat=2):
            order = rules.swapaxes_order(r, a, b)
            result = _t("_S", [dims[i] for i in order])
            forms["swapaxes"].append(
                f"{x}, axis1: {_either(a, r)}, axis2: {_either(b, r)}) -> {result}"
            )
        if r >= 2:
            order = rules.matrix_transpose_order(r)
            forms["matrix_transpose"].append(f"{x}) -> {_t('_S', [dims[i] for i in order])}")
        if r == 0:
            forms["squeeze"].append(f"{x}, axis: None = None) -> {_t('_S', [])}")
        for d in range(r):
            pattern = [("Literal[1]" if i == d else n) for i, n in enumerate(dims)]
            squeezed = rules.squeeze_shape(pattern, d, size_of=_no_size)
            assert squeezed is not None
            axis = f"{_either(d, r)} | tuple[{_either(d, r)}]"
            forms["squeeze"].append(
                f"x: {packed('_S', pattern)}, axis: {axis}) -> {_t('_S', list(squeezed))}"
            )
        if r < MAX_RANK:
            for d in range(r + 1):
                shape = rules.expand_dims_shape(dims, d, "Literal[1]")
                axis = f"{_either(d, r + 1)} | tuple[{_either(d, r + 1)}]"
                forms["expand_dims"].append(f"{x}, axis: {axis}) -> {_t('_S', list(shape))}")
    return forms


def render_manipulation() -> dict[str, str]:
    """Template fields of ``manipulation.pyi``: the typed functions' runtime signatures (mypy)
    and overloads (pyright), and the other functions' runtime signatures (everyone)."""
    from typedtensor import manipulation

    forms = _manipulation_forms()
    plain, overloads, rest = [], [], []
    names = sorted(
        n
        for n, v in vars(manipulation).items()
        if callable(v)
        and getattr(v, "__module__", "") == manipulation.__name__
        and not n.startswith("_")
        and v.__name__ == n  # concat = concatenate: an alias, declared as one
    )
    for name in names:
        fn = getattr(manipulation, name)
        params, ret = runtime_params(fn)
        decl = f'def {name}({render_params(params)}) -> {ret}:\n    """{_doc(fn)}"""'
        if name in forms:
            plain.append(decl)
            fallback = f"{render_params(params)}) -> {ret}"
            overloads += _function_list(name, forms[name], fallback)
        else:
            rest.append(decl)
    return {
        "PLAIN": "\n".join(f"    {line}" for d in plain for line in d.splitlines()),
        "OVERLOADS": "\n".join(f"    {line}" for line in overloads),
        "REST": "\n".join(rest) + "\n\nconcat = concatenate",
    }
