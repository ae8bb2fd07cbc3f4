"""Render the elementwise side of the stubs: the ``_ElementwiseDTypes`` table of ``_dtypes.pyi``
and the Tensor operators of ``_tensor.pyi`` (``_elementwise_modules.py`` renders
``_creation.pyi`` and ``elementwise.pyi`` from the same table).

Result dtypes come from the dtype rules (``promote``, ``promote_scalar``, ``binary_dtype``,
``unary_float_dtype``, ``real_dtype``) and result shapes from ``broadcast_shapes`` over dim
names. Every concrete dtype class derives from ``_ElementwiseDTypes[<itself>, <slot>...]``: the
first, invariant, argument lets ``Tensor[_ElementwiseDTypes[_S, ...]]`` patterns accept only
operands of the receiver's dtype (a covariant ``Tensor`` dtype would widen ``_S`` to a union),
each slot is the result dtype of one rule family for that dtype (``Any`` where numpy raises).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from typedtensor import _rules as rules

from ._render_dtypes import dtype_class_name

ANY_TENSOR = "Tensor[Any, Unpack[tuple[Any, ...]]]"
MAX_RANK = 4
ONE = "Literal[1]"
_BITWISE = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_BINARY = {
    "add": rules.BinaryRule.PROMOTE,
    "mul": rules.BinaryRule.PROMOTE,
    "sub": rules.BinaryRule.SUBTRACT,
    "truediv": rules.BinaryRule.DIVIDE,
    "pow": rules.BinaryRule.POWER,
}
_COMPARE = ("lt", "le", "gt", "ge", "eq", "ne")
_BITWISE_OPS = ("and", "or", "xor")
#: Python scalar kinds, in the order the overloads must test them (bool <: int <: float <: complex)
SCALARS = ("bool", "int", "float", "complex")

DTypeFn = tuple[str | None, ...]  # a result dtype (None: numpy raises) per rules.DTYPE_NAMES


# ------------------------------------------------------------------------------ dtype table
def _binary_fn(op: str, operand: str) -> DTypeFn:
    """Result dtype of ``x <op> operand`` per dtype of ``x``; ``operand`` is a scalar kind,
    ``"same"`` (a tensor of x's dtype) or ``"bool_tensor"``."""
    out: list[str | None] = []
    for d in rules.DTYPE_NAMES:
        if operand == "same":
            promoted = d
        elif operand == "bool_tensor":
            promoted = rules.promote(d, "bool")
        else:
            promoted = rules.promote_scalar(d, operand)
        if op in _BITWISE_OPS:
            ok = d in _BITWISE and operand not in ("float", "complex")
            out.append(promoted if ok and promoted in _BITWISE else None)
        else:
            out.append(rules.binary_dtype(_BINARY[op], promoted))
    return tuple(out)


def _unary_fn(name: str) -> DTypeFn:
    if name == "float":
        return tuple(rules.unary_float_dtype(d) for d in rules.DTYPE_NAMES)
    if name == "real":
        return tuple(rules.real_dtype(d) for d in rules.DTYPE_NAMES)
    # negative/positive: numpy has no bool loop (TypeError)
    return tuple(None if d == "bool" else d for d in rules.DTYPE_NAMES)


def _all_fns() -> list[tuple[str, DTypeFn]]:
    """(label, function) for every result-dtype function the stubs use."""
    fns = [(f"{op}_{k}", _binary_fn(op, k)) for op in _BINARY for k in (*SCALARS, "same")]
    fns += [(f"{op}_bool_tensor", _binary_fn(op, "bool_tensor")) for op in _BINARY]
    fns += [(f"{op}_{k}", _binary_fn(op, k)) for op in _BITWISE_OPS for k in ("bool", "int")]
    fns += [(f"{op}_same", _binary_fn(op, "same")) for op in _BITWISE_OPS]
    fns += [(f"unary_{n}", _unary_fn(n)) for n in ("float", "real", "sign")]
    return fns


def _is_identity(fn: DTypeFn) -> bool:
    return fn == rules.DTYPE_NAMES


def _constant(fn: DTypeFn) -> str | None:
    return fn[0] if len(set(fn)) == 1 and fn[0] is not None else None


def slots() -> list[tuple[str, DTypeFn]]:
    """The table's slots: one per distinct non-identity, non-constant result function, named
    after its first use (``_TRUEDIV_SAME_co``)."""
    out: dict[DTypeFn, str] = {}
    for label, fn in _all_fns():
        if not _is_identity(fn) and _constant(fn) is None and fn not in out:
            out[fn] = f"_{label.upper()}_co"
    return [(name, fn) for fn, name in out.items()]


def _cls(name: str | None) -> str:
    return "Any" if name is None else dtype_class_name(name)


def render_dtype_table() -> str:
    """The ``_ElementwiseDTypes`` class and its TypeVars (``_dtypes.pyi``)."""
    names = [n for n, _ in slots()]
    lines = ['_SELF = TypeVar("_SELF")']
    lines += [f'{n} = TypeVar("{n}", covariant=True)' for n in names]
    lines += [
        "",
        f"class _ElementwiseDTypes(DType, Generic[_SELF, {', '.join(names)}]):",
        '    """Type-level table: the dtype itself (invariant: operands of the same dtype) and',
        '    its result dtype for each elementwise rule family (``Any`` where numpy raises)."""',
    ]
    return "\n".join(lines)


def dtype_bases() -> dict[str, str]:
    """dtype class name -> its ``_ElementwiseDTypes[...]`` base."""
    table = slots()
    out = {}
    for i, d in enumerate(rules.DTYPE_NAMES):
        args = [dtype_class_name(d), *(_cls(fn[i]) for _, fn in table)]
        out[dtype_class_name(d)] = f"_ElementwiseDTypes[{', '.join(args)}]"
    return out


def add_dtype_bases(classes: str) -> str:
    """Append the ``_ElementwiseDTypes`` base to each rendered dtype class line."""
    for cls, base in dtype_bases().items():
        head = f"class {cls}("
        start = classes.index(head)
        end = classes.index("):\n", start)
        classes = classes[:end] + f", {base}" + classes[end:]
    return classes


@dataclass(frozen=True)
class DTypeSpelling:
    """How an overload spells the receiver's dtype and the result's for one function."""

    receiver: str
    result: str


def spell(fn: DTypeFn, same: bool) -> DTypeSpelling:
    """Receiver pattern and result for ``fn``; ``same``: bind ``_S`` (the receiver's dtype),
    for an operand that must have the same dtype."""
    table = slots()
    first = "_S" if same or _is_identity(fn) else "Any"
    args = [first] + ["Any"] * len(table)
    if _is_identity(fn):
        result = "_S"
    elif (c := _constant(fn)) is not None:
        result = dtype_class_name(c)
    else:
        args[1 + [f for _, f in table].index(fn)] = "_R"
        result = "_R"
    return DTypeSpelling(f"_ElementwiseDTypes[{', '.join(args)}]", result)


# ------------------------------------------------------------------------------ shapes
def tensor(dtype: str, dims: Sequence[str]) -> str:
    return f"Tensor[{', '.join([dtype, *dims])}]"


def receiver(dtype: str, dims: Sequence[str]) -> str:
    """A receiver pattern. Split dims go through ``_DimsOf``'s callable: a parameter list is
    matched exactly, where ``Tensor[DT, B, *Rest]`` against ``Tensor[.., *_Rest, _D0]`` had
    pyright fit ``*Rest`` into ``_D0`` (``Union[*Rest]``)."""
    if list(dims) == ["Unpack[_Sh]"]:
        return tensor(dtype, dims)
    return f"_DimsOf[{dtype}, Callable[[{', '.join(dims)}], None]]"


def _size(d: str) -> int | None:
    return 1 if d == ONE else None


def broadcast(a: Sequence[str], b: Sequence[str]) -> tuple[str, ...]:
    """``broadcast_shapes`` over dim names (``Literal[1]`` is a 1, a TypeVar a symbol)."""
    return rules.broadcast_shapes(a, b, size_of=_size, is_symbolic=lambda d: d != ONE)


@dataclass(frozen=True)
class ShapeForm:
    """One shape overload: the receiver's dims, the operand's dims and the result's."""

    me: tuple[str, ...]
    other: tuple[str, ...]
    result: tuple[str, ...]


def _form(me: Sequence[str], other: Sequence[str]) -> ShapeForm:
    return ShapeForm(tuple(me), tuple(other), tuple(broadcast(me, other)))


REST = "Unpack[_Rest]"


def shape_forms() -> list[ShapeForm]:
    """The broadcast forms with a receiver pattern, most common first (each costs pyright a
    receiver match on every call of its operator, so only these): a bias (the receiver's
    last dims), the keepdims results of one axis (-1, 0, 1, rank-polymorphic) and of all axes
    (ranks 2..4), then a receiver of rank 1 against a larger operand; a rank-0 receiver comes
    first. Equal shapes and a
    rank-0 operand need no receiver pattern (``Shape``, see ``render_binary_method``)."""
    d0, d1, d2, d3 = (f"_D{i}" for i in range(4))
    forms = [
        # a rank-0 receiver first: pyright otherwise matches it to the forms below that need
        # receiver dims, with ``Never`` for them (``b + (1, 1)``: ``(Never, Never)``)
        _form((), (REST,)),
        _form((REST, d0), (d0,)),
        _form((REST, d0), (REST, ONE)),
        _form((d0, REST), (ONE, REST)),
        _form((REST, d0, d1), (d0, d1)),
        _form((d0, d1, REST), (d0, ONE, REST)),
        _form((REST, d0, d1), (ONE, ONE)),
        _form((REST, d0, d1, d2), (ONE, ONE, ONE)),
        _form((REST, d0, d1, d2, d3), (ONE, ONE, ONE, ONE)),
        _form((d0,), (REST, d0)),
    ]
    return forms


# ------------------------------------------------------------------------------ overloads
#: an operand whose dtype is ``Any`` (only ``Any`` fits ``_UnknownDType``) or whose rank is
#: unknown (only a ``*tuple[Any, ...]`` part fits eight dims then ``*tuple[_UnknownDim, ...]``)
GUARDS = (
    "Tensor[_UnknownDType, Unpack[tuple[Any, ...]]]",
    "Tensor[Any, _E0, _E1, _E2, _E3, _E4, _E5, _E6, _E7, Unpack[tuple[_UnknownDim, ...]]]",
)


#: how many leading dims ``any_dim_operand`` looks at (the unknown-rank guard takes the rest)
ANY_DIM_POSITIONS = 8


def any_dim_operand(positions: Sequence[Sequence[int]] | None = None) -> str:
    """An operand with an ``Any`` dim (only ``Any`` fits ``_UnknownDim``): one ``Tensor`` per
    position from the left, any rank, or, with ``positions``, per (rank, position) pair.

    A function's overload whose TypeVars are solved from its first operand keeps that
    operand's ``Literal[1]`` against a later operand's ``Any`` (pyright cannot decide the
    typing spec's ambiguity step for a parameter with a TypeVar, and keeps the first match:
    ``maximum((1, 3), (Any, 3))`` would be ``(1, 3)``, the run time ``(5, 3)``); an overload
    that takes such an operand first gives the unknown type instead (docs/stubs.md)."""
    pairs = positions or [(-1, i) for i in range(ANY_DIM_POSITIONS)]
    out = []
    for rank, i in pairs:
        rest = ["Unpack[tuple[Any, ...]]"] if rank < 0 else ["Any"] * (rank - i - 1)
        out.append(tensor("Any", ["Any"] * i + ["_UnknownDim"] + rest))
    return " | ".join(out)


def render_operator_typevars() -> str:
    """The guard's TypeVars (module level of ``_tensor.pyi``)."""
    return "\n".join(f'_E{i} = TypeVar("_E{i}")' for i in range(8))


def _ov(indent: str, name: str, params: str, ret: str) -> str:
    return f"{indent}@overload\n{indent}def {name}({params}) -> {ret}: ...\n"


def _class_dtype_operand(fn: DTypeFn | None) -> tuple[str, str]:
    """(dtype pattern, result dtype) of an operand that must have the receiver's dtype ``DT``
    (the table's first argument is invariant), the result read from its own table: no receiver
    pattern needed."""
    args = ["DT"] + ["Any"] * len(slots())
    if fn is None or _is_identity(fn):
        return f"_ElementwiseDTypes[{', '.join(args)}]", "DT"
    if (c := _constant(fn)) is not None:
        return f"_ElementwiseDTypes[{', '.join(args)}]", dtype_class_name(c)
    args[1 + [f for _, f in slots()].index(fn)] = "_R"
    return f"_ElementwiseDTypes[{', '.join(args)}]", "_R"


def render_binary_method(op: str, reflected: bool, indent: str) -> str:
    """Overloads of ``__<op>__`` (or ``__r<op>__``): Python scalars, then (not reflected) the
    guards, an operand of the receiver's shape (and a ``bool_`` mask of it, then one of another
    dtype: the shape with an ``Any`` dtype), a rank-0 operand,
    the broadcast forms; last the catch-all (the unknown type). Comparisons answer ``bool_`` for
    any dtypes. A receiver pattern (``self: ...``) costs pyright on every call, so the forms
    that can read the receiver's dtype and dims from the class's ``DT`` and ``Shape`` do."""
    name = f"__r{op}__" if reflected else f"__{op}__"
    compare = op in _COMPARE
    sh = ["Unpack[Shape]"]
    # a numpy scalar is a rank-0 operand of its own dtype (NEP 50: not weak, ``np.float64(2)``
    # makes float32 float64), not the Python scalar it subclasses: the shape, dtype untabled
    generic_dtype = "bool_" if compare else "Any"
    out = [_ov(indent, name, "self, other: np.generic", tensor(generic_dtype, sh))]
    if compare:
        out.append(_ov(indent, name, "self, other: complex", "Tensor[bool_, Unpack[Shape]]"))
    # ``b - b``: the operand guards (moved up), an ``Any`` receiver's guard, the poison
    poisons = [] if compare else _bool_poisons(op, indent, name)
    early_guards = bool(poisons) and not reflected
    if early_guards:
        out += [_ov(indent, name, f"self, other: {_definitive(g)}", ANY_TENSOR) for g in GUARDS]
    out += poisons
    for kind in () if compare else SCALARS:
        fn = _binary_fn(op, kind)
        if all(r is None for r in fn):  # numpy rejects the scalar whatever the dtype
            out.append(_poison(indent, name, f"self, other: {kind}", _rejected(op, kind)))
            continue
        if _is_identity(fn):  # the receiver's dtype, even an abstract one
            out.append(_ov(indent, name, f"self, other: {kind}", tensor("DT", sh)))
            continue
        s = spell(fn, same=False)
        me, res = tensor(s.receiver, ["Unpack[_Sh]"]), tensor(s.result, ["Unpack[_Sh]"])
        out.append(_ov(indent, name, f"self: {me}, other: {kind}", res))
    if reflected:
        out.append(_ov(indent, name, "self, other: Operand", ANY_TENSOR))
        return "".join(out)
    for guard in () if early_guards else GUARDS[1:] if compare else GUARDS:
        out.append(_ov(indent, name, f"self, other: {_definitive(guard)}", ANY_TENSOR))
    same_dt, same_res = (
        ("Any", "bool_") if compare else _class_dtype_operand(_binary_fn(op, "same"))
    )
    if same_res == "_R":  # read from the receiver's table: an ``Any`` receiver dtype gives Any
        same = spell(_binary_fn(op, "same"), same=True)
        self_sh = tensor(same.receiver, ["Unpack[_Sh]"])
        same_params = f"self: {self_sh}, other: {tensor(_same_operand(), ['Unpack[_Sh]'])}"
        out.append(_ov(indent, name, same_params, tensor("_R", ["Unpack[_Sh]"])))
    else:
        out.append(_ov(indent, name, f"self, other: {tensor(same_dt, sh)}", tensor(same_res, sh)))
    if op in _BINARY:  # a bool_ mask of the receiver's shape
        fn = _binary_fn(op, "bool_tensor")
        if _is_identity(fn):
            out.append(_ov(indent, name, f"self, other: {tensor('bool_', sh)}", tensor("DT", sh)))
        else:
            s = spell(fn, same=False)
            params = (
                f"self: {tensor(s.receiver, ['Unpack[_Sh]'])}, other: Tensor[bool_, Unpack[_Sh]]"
            )
            out.append(_ov(indent, name, params, tensor(s.result, ["Unpack[_Sh]"])))
    if not compare:  # other dtypes, the receiver's dims: the shape (promotion is not tabled)
        out.append(_ov(indent, name, f"self, other: {tensor('Any', sh)}", tensor("Any", sh)))
    if same_res == "_R":
        rank0 = f"self: {self_sh}, other: {tensor(_same_operand(), [])}"
        out.append(_ov(indent, name, rank0, tensor("_R", ["Unpack[_Sh]"])))
    else:
        rank0 = f"self, other: {tensor(same_dt, [])}"
        out.append(_ov(indent, name, rank0, tensor(same_res, sh)))
    # an operand with an Any dim that no earlier overload took: a broadcast form below would
    # be pyright's first match and stand (its TypeVars undecidable), solving ``*_Rest`` from
    # both sides (``(1,) == (Any, 1)`` gave ``(1, Never)``); one plain overload per position
    for i in range(ANY_DIM_POSITIONS):
        out.append(_ov(indent, name, f"self, other: {any_dim_operand([(-1, i)])}", ANY_TENSOR))
    for form in shape_forms():
        if compare:
            me, other, res = receiver("Any", form.me), tensor("Any", form.other), "bool_"
        else:
            same = spell(_binary_fn(op, "same"), same=True)
            me = receiver(same.receiver, form.me)
            other, res = tensor(_same_operand(), form.other), same.result
        out.append(_ov(indent, name, f"self: {me}, other: {other}", tensor(res, form.result)))
    out.append(_ov(indent, name, "self, other: TensorBase", ANY_TENSOR))
    out.append(_ov(indent, name, "self, other: Operand", ANY_TENSOR))
    return "".join(out)


def _poison(indent: str, name: str, params: str, message: str, ret: str = ANY_TENSOR) -> str:
    """A ``@deprecated`` overload: an error where the user's pyright reports deprecations
    (``reportDeprecated``), for a call numpy rejects; ``ret`` the unknown type."""
    return (
        f"{indent}@overload\n{indent}@deprecated({message!r})\n"
        f"{indent}def {name}({params}) -> {ret}: ...\n"
    )


def _rejected(op: str, operand: str) -> str:
    sign = _SIGNS.get(op, op)
    if operand in ("float", "complex"):
        return (
            f"numpy's `{sign}` takes bool and integer operands only: a Python {operand} raises "
            "TypeError"
        )
    return f"numpy's `{sign}` does not take two bool operands (TypeError); use `^` or astype"


def _bool_poisons(op: str, indent: str, name: str) -> list[str]:
    """Where numpy rejects a bool_ receiver with a bool operand (a scalar, or a bool_ tensor
    of its shape) but not every dtype (``b - b``): an ``Any`` receiver's guards first (only
    ``Any`` fits ``_UD`` and ``_UnknownDType``; it would match the bool_ pattern), then the
    poison. After the operand guards (an ``Any`` dtype or an unknown rank never reaches the
    poison).

    The first guard answers an ``Any``-dtype receiver with a bool_ tensor (the unknown shape).
    Such a receiver makes every overload it fits a *possible* match, the poison included, and
    when their answers differ pyright reports all of them, the poison's deprecation too (a
    false error: ``Tensor[Any, L[1]] - Tensor[bool_, Any]``). Pyright stops at a possible match
    whose parameters it cannot compare with every materialization of the arguments (a type
    variable in them: ``_UD``, ``*_Sh``) and takes the first one: this guard, whose answer is
    sound for any operand shape. The second guard keeps the receiver's shape for a Python
    bool and for a tensor operand of another dtype."""
    rejected = [
        _binary_fn(op, k)[rules.DTYPE_NAMES.index("bool")] is None for k in ("bool", "same")
    ]
    if not all(rejected) or all(r is None for r in _binary_fn(op, "same")):
        return []
    guard = "self: Tensor[_UnknownDType, Unpack[_Sh]], other: bool | Tensor[Any, Unpack[_Sh]]"
    poison = "self: Tensor[bool_, Unpack[_Sh]], other: bool | Tensor[bool_, Unpack[_Sh]]"
    # an ``Any`` receiver with a bool_ tensor: the unknown shape (docstring)
    any_with_bool = "self: Tensor[_UD, Unpack[_Sh]], other: Tensor[bool_, Unpack[_Rest]]"
    return [
        _ov(indent, name, any_with_bool, ANY_TENSOR),
        _ov(indent, name, guard, "Tensor[Any, Unpack[_Sh]]"),
        # the guard's answer: an ``Any`` receiver that also fits here is not ambiguous
        _poison(indent, name, poison, _rejected(op, "bool"), "Tensor[Any, Unpack[_Sh]]"),
    ]


_SIGNS = {"sub": "-", "and": "&", "or": "|", "xor": "^", "add": "+", "mul": "*", "pow": "**"}


def _definitive(guard: str) -> str:
    """A guard's operand spelled as a union (with ``_UnknownDim``, which no operand is): pyright
    takes a match through a union parameter as definitive, so the guard's answer stands for the
    ``Any`` dims it catches instead of becoming ambiguous with the later overloads (plain
    ``Any`` for ``u + u`` on unknown ranks). See docs/stubs.md, "Never a wrong exact answer"."""
    return f"{guard} | _UnknownDim"


def _same_operand() -> str:
    """An operand's dtype pattern that accepts only the receiver's dtype (``_S`` bound by it;
    also used by ``shape_ops.py``'s ``@``)."""
    return f"_ElementwiseDTypes[_S, {', '.join(['Any'] * len(slots()))}]"


def render_unary_method(name: str, fn: DTypeFn, indent: str) -> str:
    """``__neg__``/``__pos__``/``__abs__``: the shape kept, the dtype by ``fn``."""
    s = spell(fn, same=False)
    if _is_identity(fn):
        return f"{indent}def {name}(self) -> Tensor[DT, Unpack[Shape]]: ...\n"
    return _ov(
        indent,
        name,
        f"self: {tensor(s.receiver, ['Unpack[_Sh]'])}",
        tensor(s.result, ["Unpack[_Sh]"]),
    ) + _ov(indent, name, "self", "Tensor[Any, Unpack[Shape]]")


BINARY_OPS = (*_BINARY, *_COMPARE, *_BITWISE_OPS)
REFLECTED = (*_BINARY, *_BITWISE_OPS)
UNARY_OPS = {"neg": "sign", "pos": "sign", "abs": "real"}


def render_operators(*, plain_only: bool) -> str:
    """The operator section of ``Tensor`` (``_tensor.pyi``): overloads for pyright and mypy
    without the plugin, the runtime's plain signatures for mypy with the plugin (whose hooks
    compute the answers) and for ``plain_only``."""
    plain = []
    for op in BINARY_OPS:
        for name in [f"__{op}__"] + ([f"__r{op}__"] if op in REFLECTED else []):
            ignore = "  # type: ignore[override]" if op in ("eq", "ne") else ""
            plain.append(f"def {name}(self, other: Operand) -> {ANY_TENSOR}: ...{ignore}")
    plain += [f"def __{op}__(self) -> Tensor[DT, Unpack[Shape]]: ..." for op in ("neg", "pos")]
    # complex: a real result (complex64 -> float32), spelled Any: an overload for complex64
    # would also take an Any dtype first and claim float32 for it
    plain += [
        "@overload",
        "def __abs__(self: Tensor[ComplexFloating, Unpack[_Sh]]) -> Tensor[Any, Unpack[_Sh]]: ...",
        "@overload",
        "def __abs__(self) -> Tensor[DT, Unpack[Shape]]: ...",
    ]
    plain_text = "".join(f"        {line}\n" for line in plain)
    if plain_only:
        return plain_text.replace("        ", "    ")
    ov = []
    for op in BINARY_OPS:
        ov.append(render_binary_method(op, False, "        "))
        if op in REFLECTED:
            ov.append(render_binary_method(op, True, "        "))
    for op, fn in UNARY_OPS.items():
        ov.append(render_unary_method(f"__{op}__", _unary_fn(fn), "        "))
    return (
        "    if not TYPEDTENSOR_MYPY_PLUGIN:  # pyright and mypy without the plugin\n"
        + "".join(ov)
        + '    elif os.name == "typedtensor-mypy-plugin":  # mypy with the plugin; pyright: false\n'
        + plain_text
    )


def dtype_fields(fields: dict[str, str]) -> dict[str, str]:
    """``_dtypes.pyi``'s template fields with the elementwise table added."""
    return {
        **fields,
        "DTYPE_CLASSES": add_dtype_bases(fields["DTYPE_CLASSES"]),
        "ELEMENTWISE_DTYPES": render_dtype_table(),
    }
