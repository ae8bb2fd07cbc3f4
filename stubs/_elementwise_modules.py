"""Render ``_creation.pyi`` (constructors with literal shapes) and ``elementwise.pyi`` (unary
functions, ``maximum``/``minimum``/``where``): generated overloads for pyright and mypy without
the plugin, the runtime's own declarations (read from its source) for mypy with the plugin and
after the generated ones. Dtypes and shapes come from ``_elementwise`` (the dtype table, the
rules)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from types import ModuleType

from ._elementwise import (
    ANY_TENSOR,
    GUARDS,
    MAX_RANK,
    SCALARS,
    _binary_fn,
    _ov,
    _same_operand,
    _unary_fn,
    any_dim_operand,
    spell,
    tensor,
)

#: dims a literal-shape constructor keeps exact: a ``TypeVar`` bound to ``Literal[0..N]``
#: (pyright keeps an argument's literal only for a literal-bounded TypeVar; every size in the
#: bound costs pyright time on each call: 128 sizes about 5 ms a call, 4,096 about 85 ms)
MAX_LITERAL_SIZE = 128


def runtime_declarations(module: ModuleType) -> dict[str, str]:
    """The runtime module's public functions as stub text, by name (its ``@overload``
    declarations where it has them, else the signature): what mypy with the plugin reads."""
    tree = ast.parse(inspect.getsource(module))
    public = set(getattr(module, "__all__", ()))

    def overload(node: ast.FunctionDef) -> bool:
        return any(isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list)

    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in public]
    overloaded = {n.name for n in defs if overload(n)}
    out: dict[str, str] = {}
    for node in defs:
        if node.name in overloaded and not overload(node):
            continue  # the implementation of an overloaded function
        node.body = [ast.Expr(ast.Constant(...))]
        text = ast.unparse(node).replace(":\n    ...", ": ...")
        out[node.name] = out.get(node.name, "") + text + "\n"
    return out


def _as_overloads(text: str) -> str:
    """Runtime declarations as overloads (to follow generated ones)."""
    if text.startswith("@overload"):
        return text
    return "@overload\n" + text


def _module_text(mine: dict[str, str], runtime: dict[str, str]) -> str:
    """A module body: the generated overloads then the runtime's (pyright and mypy without the
    plugin), the runtime's alone (mypy with the plugin), then the functions not rendered."""
    ours = "".join(mine[n] + _as_overloads(runtime[n]) for n in runtime if n in mine)
    plain = "".join(runtime[n] for n in runtime if n in mine)
    rest = "".join(runtime[n] for n in runtime if n not in mine)
    return (
        "if not TYPEDTENSOR_MYPY_PLUGIN:  # pyright and mypy without the plugin\n"
        + _indent(ours)
        + 'elif os.name == "typedtensor-mypy-plugin":  # mypy with the plugin (pyright: false)\n'
        + _indent(plain)
        + rest
    )


def _indent(text: str, prefix: str = "    ") -> str:
    return "".join(prefix + line if line.strip() else line for line in text.splitlines(True))


def _literal_typevars() -> str:
    sizes = ", ".join(str(i) for i in range(MAX_LITERAL_SIZE + 1))
    lines = [f"_Size: TypeAlias = Literal[{sizes}]"]
    lines += [f'_N{i} = TypeVar("_N{i}", bound=_Size)' for i in range(MAX_RANK)]
    return "\n".join(lines)


_CONSTRUCTORS = {  # name -> (parameters before dtype, after dtype), as the runtime spells them
    "zeros": ("", ", *, device: Any = None"),
    "ones": ("", ", *, device: Any = None"),
    "empty": ("", ", *, device: Any = None"),
    "full": (", fill_value: Any", ", *, device: Any = None"),
    "random": ("", ", seed: int | None = None"),
}


def _shape_params() -> Iterator[tuple[str, tuple[str, ...]]]:
    """(annotation of ``shape``, the dims it gives): literal tuples of ranks 0..4, a literal int."""
    for r in range(MAX_RANK + 1):
        dims = tuple(f"_N{i}" for i in range(r))
        yield (f"tuple[{', '.join(dims)}]" if r else "tuple[()]"), dims
    yield "_N0", ("_N0",)


def render_constructors() -> dict[str, str]:
    """Overloads of the constructors with literal shapes (exact dims), by name."""
    out: dict[str, str] = {}
    for name, (before, after) in _CONSTRUCTORS.items():
        default = "Any" if name == "full" else "float64"  # full: numpy's dtype of the fill value
        for shape, dims in _shape_params():
            for dtype, result in (("dtype: None = None", default), ("dtype: type[DT]", "DT")):
                params = f"shape: {shape}{before}, {dtype}{after}"
                out[name] = out.get(name, "") + _ov("", name, params, tensor(result, dims))
    # arange(n): n values; the dtype keyword-only (the standard's) or second (the length form)
    length = "start: _N0, /, stop: None = None, step: Literal[1] = 1, *"
    out["arange"] = "".join(
        _ov("", "arange", f"{params}, device: Any = None", tensor(result, ["_N0"]))
        for params, result in (
            (f"{length}, dtype: None = None", "int64"),
            (f"{length}, dtype: type[DT]", "DT"),
            ("start: _N0, /, stop: type[DT], *", "DT"),
        )
    )
    return out


def render_unary_functions() -> dict[str, str]:
    """``exp log sqrt abs negative``: the receiver's dims, the dtype by the unary rule."""
    out: dict[str, str] = {}
    for names, fn in (
        (("exp", "log", "sqrt"), _unary_fn("float")),
        (("abs",), _unary_fn("real")),
        (("negative",), _unary_fn("sign")),
    ):
        s = spell(fn, same=False)
        for name in names:
            x, res = tensor(s.receiver, ["Unpack[_Sh]"]), tensor(s.result, ["Unpack[_Sh]"])
            out[name] = _ov("", name, f"x: {x}", res)
    return out


def render_binary_functions() -> dict[str, str]:
    """``maximum``/``minimum`` (numpy's promotion) and ``where`` (``x`` with ``y``): operands of
    one shape and dtype, or a Python bool/int/float for the second value; the unknown type
    otherwise."""
    out: dict[str, str] = {}
    sh = ["Unpack[_Sh]"]
    same = tensor(_same_operand(), sh)
    for name, lead in (
        ("maximum", ""),
        ("minimum", ""),
        ("where", "condition: Tensor[Any, Unpack[_Sh]], "),
    ):
        a, b = ("x", "y") if name == "where" else ("a", "b")
        guards = [f"{b}: {GUARDS[0]}", f"{b}: {GUARDS[1]}"]
        guards += [f"{b}: {any_dim_operand()}"]  # the first operand's dims would stand
        if name == "where":
            guards += [f"condition: {GUARDS[1]}, {a}: Operand, {b}: Operand"]
            guards += [f"condition: Operand, {a}: {GUARDS[1]}, {b}: Operand"]
            guards += [f"condition: Operand, {a}: {any_dim_operand()}, {b}: Operand"]
        text = []
        for guard in guards:
            cond = "condition: Operand, " if name == "where" else ""
            params = guard if guard.startswith("condition") else f"{cond}{a}: Operand, {guard}"
            text.append(_ov("", name, params, ANY_TENSOR))
        s = spell(_binary_fn("add", "same"), same=True)
        params = f"{lead}{a}: {tensor(s.receiver, sh)}, {b}: {same}"
        text.append(_ov("", name, params, tensor(s.result, sh)))
        for kind in SCALARS[:3]:  # the runtime takes no complex scalar here (TypeError)
            s = spell(_binary_fn("add", kind), same=False)
            params = f"{lead}{a}: {tensor(s.receiver, sh)}, {b}: {kind}"
            text.append(_ov("", name, params, tensor(s.result, sh)))
        out[name] = "".join(text)
    return out


def module_fields(*, plain_only: bool) -> dict[str, dict[str, str]]:
    """Template fields of ``_creation.pyi`` and ``elementwise.pyi`` (none with ``plain_only``:
    the type checkers then read the runtime modules)."""
    if plain_only:
        return {}
    from typedtensor import _creation, elementwise

    functions = {**render_unary_functions(), **render_binary_functions()}
    return {
        "_creation": {
            "TYPEVARS": _literal_typevars(),
            "FUNCTIONS": _module_text(render_constructors(), runtime_declarations(_creation)),
        },
        "elementwise": {
            "FUNCTIONS": _module_text(functions, runtime_declarations(elementwise)),
        },
    }
