"""Render pyright's overloads of ``tt.pad repeat tile`` (``rearranging.pyi``) from
``rules.rearranging`` over dim names: the rank and the dims a call leaves alone are the rule's
(names kept); counts and widths are not literal in an overload, so the rules get a stand-in
(2) and every dim a count or a width reaches is put to ``Any`` afterwards (a stand-in times a
known 1, tile's padding, must not pass for a size). ``hstack``/``vstack``: tuples of two or
three members (each its own pattern), one dtype, guarded against an unknown rank or dtype in
any member; a list falls to the runtime signature (its element type is the members' union,
where an ``Any``-dtype member would leave no trace)."""

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


#: one dtype for every member (the table's invariant first slot), the result's
_SAME = "_ElementwiseDTypes[_S, Any, Any, Any, Any, Any, Any, Any, Any, Any]"
_JOINED = ("_J0", "_J1", "_J2")


def _stack_shape(name: str, rank: int, count: int) -> tuple[list[list[str]], list[str]]:
    """The members' dims (a name per member for the joined dim, shared names elsewhere) and the
    result's by the rule (a sum of names: ``Any``; a count of rows: the count)."""
    axis = 1 if name == "hstack" and rank >= 2 else 0
    joined = rank > 0 and not (name == "vstack" and rank == 1)  # else the members are rows
    shapes = []
    for i in range(count):
        dims = list(_dims(rank))
        if joined:
            dims[axis] = _JOINED[i]
        shapes.append(dims)
    rule = rearranging.hstack_shape if name == "hstack" else rearranging.vstack_shape
    return shapes, list(rule(shapes, **_items()))


def _stack_forms(name: str, fallback: str) -> list[str]:
    """``hstack``/``vstack`` of a tuple of two or three members (ranks 0..3), one dtype: the
    rank and the dims the join leaves alone exact, the joined size ``Any`` (overloads cannot
    add literals) but the count where it is the size. Not a list: its element type is the union
    of the members', which an ``Any``-dtype member joins without a trace (the unknown type)."""
    any_rank, any_dtype = packed("Any", gradual_params()), _t("_UnknownDType", [UNKNOWN])
    unknown = _t("Any", [UNKNOWN])
    lines = []
    for guard in (any_rank, any_dtype):  # an unknown rank or dtype anywhere: the unknown type
        for count in (2, 3):
            for at in range(count):
                members = ["object"] * count
                members[at] = guard
                lines.append(f"def {name}(tensors: tuple[{', '.join(members)}]) -> {unknown}")
    for count in (2, 3):
        for rank in (2, 1, 3, 0):
            shapes, result = _stack_shape(name, rank, count)
            members = ", ".join(packed(_SAME, s) for s in shapes)
            lines.append(f"def {name}(tensors: tuple[{members}]) -> {_t('_S', result)}")
    lines.append(f"def {name}({fallback}")
    return [x for line in lines for x in ("@overload", line + ": ...")]


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
        elif name in ("hstack", "vstack"):
            plain.append(decl)
            overloads += _stack_forms(name, fallback)
        else:
            rest.append(decl)
    return {
        "PLAIN": "\n".join(f"    {line}" for d in plain for line in d.splitlines()),
        "OVERLOADS": "\n".join(f"    {line}" for line in overloads),
        "REST": "\n\n".join(rest),
    }
