"""Render ``fft.pyi``: pyright's overloads of ``tt.fft.*`` (mypy reads the runtime's signatures:
the plugin types the calls exactly from ``rules.fft``).

The result dtype is read from the dtype classes' own tables: the slot whose result over every
dtype equals ``rules.fft.fft_dtype``'s (found here, so a rule that no slot matches fails
generation): complex results in ``_ElementwiseDTypes``' ``+ complex`` slot (float32 ->
complex64, ints -> complex128), real results in ``_ReductionDTypes``' real slot (complex64 ->
float32). Shapes: the rank is kept; the transformed dim is exact where an overload can name
it (``fft``/``ifft`` with the default length along ``axis=-1`` or ``0``, ``fftn``/``ifftn`` with
the defaults), ``Any`` where it is computed (``rfft``'s ``n // 2 + 1`` of a literal: overloads
cannot do arithmetic). Poison overloads (``@deprecated``) for what numpy rejects that a pattern
can name: complex input of ``rfft rfftn ihfft``, rank 0, an empty transformed dim (and a dim
of 1 for ``irfft``/``hfft``'s default length). ``fftfreq(n)`` keeps a literal ``n``."""

from __future__ import annotations

from collections.abc import Sequence

from typedtensor import _rules as rules
from typedtensor._rules import fft as rules_fft

from ._elementwise import ANY_TENSOR, GUARDS, MAX_RANK, _ov, receiver, slots, tensor
from ._elementwise_modules import _as_overloads, _indent, runtime_declarations
from ._render_dtypes import varying_rules
from ._render_forms import gradual_params
from .shape_ops import packed

ONE_AXIS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_AXES = ("fftn", "ifftn", "rfftn", "irfftn")
_NORM = 'norm: Norm = "backward"'
_DEPRECATED = '@overload\n@deprecated("{message}")\ndef {name}({params}) -> Any: ...\n'


def _fn_of(name: str) -> tuple[str | None, ...]:
    """``fft_dtype(name, d)`` over every dtype (``None`` where numpy rejects the input)."""
    out = []
    for d in rules.DTYPE_NAMES:
        try:
            out.append(rules_fft.fft_dtype(name, d))
        except TypeError:
            out.append(None)
    return tuple(out)


def _agrees(table: Sequence[str | None], wanted: Sequence[str | None]) -> bool:
    return all(w is None or t == w for t, w in zip(table, wanted, strict=True))


def dtype_pattern(name: str) -> str:
    """The receiver dtype pattern whose ``_O`` is ``name``'s result dtype."""
    wanted = _fn_of(name)
    table = slots()
    for i, (_, fn) in enumerate(table):
        if _agrees(fn, wanted):
            args = ["Any"] * (1 + len(table))
            args[1 + i] = "_O"
            return f"_ElementwiseDTypes[{', '.join(args)}]"
    varying = varying_rules()
    for rule in varying:
        fn = tuple(rules.result_dtype(rule, d) for d in rules.DTYPE_NAMES)
        if _agrees(fn, wanted):
            return f"_ReductionDTypes[{', '.join('_O' if r is rule else 'Any' for r in varying)}]"
    raise LookupError(f"no dtype table slot gives fft.{name}'s dtypes {wanted}")


def _guards(name: str, params: str, dtype: str) -> list[str]:
    """An ``Any`` dtype (never a poison), the dtypes numpy rejects, an unknown rank (the dtype
    kept), rank 0."""
    out = [_ov("", name, f"x: {GUARDS[0]}, {params}", ANY_TENSOR)]
    if name in rules_fft.REAL_INPUT:
        message = (
            f"fft.{name} takes real input, got a complex dtype; use fft.{name[1:]} for complex"
        )
        out.append(
            _DEPRECATED.format(
                message=message,
                name=name,
                params=f"x: {tensor('ComplexFloating', ['Unpack[tuple[Any, ...]]'])}, {params}",
            )
        )
    if name == "irfftn":  # float16: float16 over one axis, float32 over more (numpy)
        out.append(
            _ov(
                "",
                name,
                f"x: {tensor('float16', ['Unpack[tuple[Any, ...]]'])}, {params}",
                ANY_TENSOR,
            )
        )
    unknown_rank = tensor("_O", ["Unpack[tuple[Any, ...]]"])
    out.append(_ov("", name, f"x: {packed(dtype, gradual_params())}, {params}", unknown_rank))
    if name in ONE_AXIS or name in ("rfftn", "irfftn"):
        message = f"fft.{name} needs a tensor of rank >= 1 (an axis to transform); numpy raises"
        out.append(
            _DEPRECATED.format(
                message=message, name=name, params=f"x: {receiver('Any', [])}, {params}"
            )
        )
    return out


def _out_dim(name: str, dim: str) -> str:
    """The transformed dim at the default length: kept by the complex-to-complex transforms."""
    return dim if name in ("fft", "ifft", "fftn", "ifftn") else "Any"


def _any_ranks(name: str, dtype: str, params: str) -> list[str]:
    """The rank kept, every dim unknown (a length or an axis the overloads cannot follow)."""
    out = []
    for rank in range(1, MAX_RANK + 1):
        dims = [f"_D{i}" for i in range(rank)]
        out.append(
            _ov("", name, f"x: {receiver(dtype, dims)}, {params}", tensor("_O", ["Any"] * rank))
        )
    return out


def _poison(name: str, dims: Sequence[str], params: str, why: str) -> str:
    message = f"fft.{name} of {why}; numpy raises"
    return _DEPRECATED.format(
        message=message, name=name, params=f"x: {receiver('Any', dims)}, {params}"
    )


def _empty_dims(name: str) -> list[str]:
    """Default lengths numpy rejects: an empty transformed dim (``irfft``/``hfft``'s last: also
    a dim of 1, whose default length ``2 * (1 - 1)`` is 0); along ``axis=-1``/``0`` for the
    one-axis transforms, anywhere in the first four dims for ``fftn``/``ifftn``."""
    sizes = [0, 1] if name in rules_fft.REAL_RESULT else [0]
    if name in N_AXES:  # only fftn/ifftn keep literal dims (rfftn/irfftn: the last is Any)
        params = f"/, *, s: None = None, axes: None = None, {_NORM}"
        return [
            _poison(
                name,
                [*(f"_D{i}" for i in range(at)), "Literal[0]", "Unpack[_S]"],
                params,
                "an empty dim",
            )
            for at in range(MAX_RANK)
        ]
    out = []
    for size in sizes:
        for dims, axis in (
            (["Unpack[_S]", f"Literal[{size}]"], "Literal[-1] = -1"),
            ([f"Literal[{size}]", "Unpack[_S]"], "Literal[0]"),
        ):
            params = f"/, *, n: None = None, axis: {axis}, {_NORM}"
            out.append(
                _poison(name, dims, params, f"a dim of {size} (no default length: give n >= 1)")
            )
    return out


def one_axis_overloads(name: str) -> str:
    """``name(x, /, *, n, axis, norm)``: axis -1 or 0 (the default length: the dim kept or
    computed), any other literal length or axis: the rank kept."""
    dtype = dtype_pattern(name)
    rest = f"/, *, n: int | None = None, axis: int = -1, {_NORM}"
    out = [*_guards(name, rest, dtype), *_empty_dims(name)]
    last, first = ["Unpack[_S]", "_D"], ["_D", "Unpack[_S]"]
    for dims, axis in ((last, "Literal[-1] = -1"), (first, "Literal[0]")):
        x = f"x: {receiver(dtype, dims)}"
        out_dims = [_out_dim(name, "_D") if d == "_D" else d for d in dims]
        out.append(
            _ov(
                "",
                name,
                f"{x}, /, *, n: None = None, axis: {axis}, {_NORM}",
                tensor("_O", out_dims),
            )
        )
        any_dims = ["Any" if d == "_D" else d for d in dims]
        out.append(
            _ov("", name, f"{x}, /, *, n: int, axis: {axis}, {_NORM}", tensor("_O", any_dims))
        )
    return "".join(out + _any_ranks(name, dtype, rest))


def n_axes_overloads(name: str) -> str:
    """``name(x, /, *, s, axes, norm)``: the defaults (every axis: the shape kept by ``fftn``,
    the last dim computed by ``rfftn``), else the rank kept."""
    dtype = dtype_pattern(name)
    rest = f"/, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, {_NORM}"
    defaults = f"/, *, s: None = None, axes: None = None, {_NORM}"
    out = _guards(name, rest, dtype)
    if name in ("fftn", "ifftn"):
        out += _empty_dims(name)
        x = tensor(dtype, ["Unpack[_Sh]"])
        out.append(_ov("", name, f"x: {x}, {defaults}", tensor("_O", ["Unpack[_Sh]"])))
    else:
        x = receiver(dtype, ["Unpack[_S]", "_D"])
        out.append(_ov("", name, f"x: {x}, {defaults}", tensor("_O", ["Unpack[_S]", "Any"])))
    return "".join(out + _any_ranks(name, dtype, rest))


def freq_overloads(name: str) -> str:
    """``fftfreq(n)``: a literal ``n`` (1..128) kept; ``rfftfreq``'s ``n // 2 + 1`` unknown."""
    out = []
    tail = "/, *, d: float = 1.0, {dtype}, device: Any = None"
    for dtype, result in (("dtype: None = None", "float64"), ("dtype: type[_X]", "_X")):
        if name == "fftfreq":
            out.append(
                _ov(
                    "", name, f"n: _Points, {tail.format(dtype=dtype)}", tensor(result, ["_Points"])
                )
            )
        out.append(_ov("", name, f"n: int, {tail.format(dtype=dtype)}", tensor(result, ["Any"])))
    return "".join(out)


def _module_text(mine: dict[str, str], runtime: dict[str, str]) -> str:
    """mypy (with the plugin, which types the calls, or without: its matching of the
    ``_DimsOf`` patterns would fire poisons on dims it does not know) reads the runtime's
    declarations; pyright the generated overloads, then the runtime's."""
    ours = "".join(mine[n] + _as_overloads(runtime[n]) for n in runtime if n in mine)
    plain = "".join(runtime[n] for n in runtime if n in mine)
    rest = "".join(runtime[n] for n in runtime if n not in mine)
    return f"if MYPY:\n{_indent(plain)}else:\n{_indent(ours)}{rest}"


def render_fft() -> dict[str, str]:
    """The template fields of ``fft.pyi``."""
    from typedtensor import fft

    mine = {name: one_axis_overloads(name) for name in ONE_AXIS}
    mine.update({name: n_axes_overloads(name) for name in N_AXES})
    mine.update({name: freq_overloads(name) for name in ("fftfreq", "rfftfreq")})
    sizes = ", ".join(str(i) for i in range(1, 129))
    return {
        "POINTS": f'_Points = TypeVar("_Points", bound=Literal[{sizes}])',
        "FUNCTIONS": _module_text(mine, runtime_declarations(fft)),
    }
