"""Render pyright's overloads of ``tt.pad repeat tile`` (``rearranging.pyi``) from
``rules.rearranging`` over dim names: the rank and the dims a call leaves alone are the rule's
(names kept); counts and widths are not literal in an overload, so the rules get a stand-in
(2) and every dim a count or a width reaches is put to ``Any`` afterwards (a stand-in times a
known 1, tile's padding, must not pass for a size). ``hstack``/``vstack`` keep their runtime
signatures for pyright too: a list of tensors is one union element type, which matched a
pattern only for equal shapes and took an ``Any``-dtype member's dtype from the others."""

from __future__ import annotations

from typedtensor._rules import rearranging

from ._render_forms import _dims, gradual_params
from ._render_linalg_ext import _items
from ._render_params import _doc, render_params, runtime_params
from .shape_ops import UNKNOWN, _either, _t, packed

_RANKS = [2, 3, 1, 4, 0]
_STAND_IN = 2


def _overload_list(name: str, forms: list[str], fallback: str) -> list[str]:
    guard = f"def {name}(x: {packed('_S', gradual_params())}, *args: Any, **kwargs: Any)"
    lines = [f"{guard} -> {_t('_S', [UNKNOWN])}: ..."]
    lines += [f"def {name}({form}: ..." for form in forms]
    lines.append(f"def {name}({fallback}: ...")
    return [x for line in lines for x in ("@overload", line)]


def _unknown_at(shape: tuple[str, ...], positions: range | list[int]) -> list[str]:
    out = list(shape)
    for i in positions:
        out[i] = "Any"
    return out


def _forms() -> dict[str, list[str]]:
    items = _items()
    forms: dict[str, list[str]] = {"pad": [], "repeat": [], "tile": []}
    for r in _RANKS:
        dims, x = _dims(r), f"x: {packed('_S', _dims(r))}"
        padded = rearranging.pad_shape(dims, _STAND_IN, **items)
        forms["pad"].append(
            f'{x}, pad_width: Any, mode: Literal["constant"] = "constant", *, '
            f"constant_values: float = 0) -> {_t('_S', _unknown_at(padded, range(r)))}"
        )
        counts = "int | Sequence[int] | Tensor[Any, Any]"
        for axis in range(max(r, 1)):
            shape = rearranging.repeat_shape(dims, _STAND_IN, axis, **items)
            ann = _either(axis, r) if r else "Literal[0, -1]"
            result = _t("_S", _unknown_at(shape, [axis]))
            forms["repeat"].append(f"{x}, repeats: {counts}, axis: {ann}) -> {result}")
        flat = _t("_S", ["Any"])
        forms["repeat"].append(f"{x}, repeats: {counts}, axis: None = None) -> {flat}")
        tiled = rearranging.tile_shape(dims, _STAND_IN, **items)
        forms["tile"].append(f"{x}, reps: int) -> {_t('_S', _unknown_at(tiled, [-1]))}")
        for n in range(1, 5):
            reps = f"tuple[{', '.join(['int'] * n)}]"
            shape = rearranging.tile_shape(dims, (_STAND_IN,) * n, **items)
            result = _t("_S", _unknown_at(shape, range(len(shape) - n, len(shape))))
            forms["tile"].append(f"{x}, reps: {reps}) -> {result}")
    return forms


def render_rearranging() -> dict[str, str]:
    """Template fields of ``rearranging.pyi``: runtime signatures (mypy), overloads (pyright),
    and the functions both read alike."""
    from typedtensor import rearranging as module

    forms = _forms()
    plain, overloads, rest = [], [], []
    for name in sorted(module.__all__):
        fn = getattr(module, name)
        params, ret = runtime_params(fn)
        decl = f'def {name}({render_params(params)}) -> {ret}:\n    """{_doc(fn)}"""'
        fallback = f"{render_params(params)}) -> {ret}"
        if name in forms:
            plain.append(decl)
            overloads += _overload_list(name, forms[name], fallback)
        else:
            rest.append(decl)
    return {
        "PLAIN": "\n".join(f"    {line}" for d in plain for line in d.splitlines()),
        "OVERLOADS": "\n".join(f"    {line}" for line in overloads),
        "REST": "\n\n".join(rest),
    }
