"""The Plugin subclass: a thin dispatcher over dict tables keyed by full name."""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Union

from mypy.nodes import TypeInfo
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    AttributeContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import FunctionLike, Type

from . import _names as names
from . import errorcodes  # noqa: F401  (registers the codes before mypy reads inline configs)
from ._guard import guarded
from ._rules import rules, rules_files

__all__ = ["TypedTensorPlugin", "VERSION"]

VERSION = "0.2.0"

#: reductions whose ``axis`` is a single int (a tuple is a ``typedtensor-axis`` error)
_SINGLE_AXIS = frozenset(name for name, spec in rules.REDUCTIONS.items() if spec.single_axis)

Hook = Callable[[Any], Type]
SignatureHook = Callable[[Any], FunctionLike]


class _Deferred:
    """A hook not built yet: ``module.factory(*args)``, imported on the first call mypy asks
    for it, so a program that never uses a feature never loads (or compiles) its module."""

    __slots__ = ("args", "factory", "module")

    def __init__(self, module: str, factory: str, *args: object) -> None:
        self.module, self.factory, self.args = module, factory, args

    def build(self) -> Hook:
        """Import the feature module and make the (guarded) hook."""
        mod = importlib.import_module(f"{__package__}.{self.module}")
        made = getattr(mod, self.factory)
        hook: Hook = made(*self.args) if self.args else made
        return guarded(hook)


Entry = Union[Hook, _Deferred]


def _method_table() -> dict[str, Entry]:
    """Tensor method name -> hook."""
    table: dict[str, Entry] = {}
    for op, spec in rules.REDUCTIONS.items():
        if spec.method:  # the nan* reductions and count_nonzero are functions only
            table[op] = _Deferred("_reduce_fast", "reduction_hook", op, True)
    for op in ("cumsum", "cumprod"):
        table[op] = _Deferred("_scans", "scan_hook", op, True)
    table["reduce_to"] = _Deferred("_reduce_to", "reduce_to_hook", None, True)
    table["sum_to"] = _Deferred("_reduce_to", "reduce_to_hook", "sum", True)
    table["assert_shape"] = _Deferred("_creation", "assert_shape_hook")
    for dunder, (kind, reflected) in names.BINARY_DUNDERS.items():
        # numpy scalar operands, the dtypes numpy rejects, then _elementwise's hook
        table[dunder] = _Deferred("_interop", "operator_hook", kind, reflected)
    for dunder, reflected in names.BITWISE_DUNDERS.items():
        table[dunder] = _Deferred("_interop", "bitwise_hook", dunder, reflected)
    for dunder, symbol in names.INPLACE_DUNDERS.items():  # x += y: x's type, or an error
        table[dunder] = _Deferred("_inplace", "inplace_hook", symbol)
    table["__invert__"] = _Deferred("_logic", "invert_hook")
    table["__matmul__"] = _Deferred("_linalg", "matmul_method_hook", False)
    table["__rmatmul__"] = _Deferred("_linalg", "matmul_method_hook", True)
    table["__getitem__"] = _Deferred("_indexing", "getitem_hook")
    table["__setitem__"] = _Deferred("_indexing", "setitem_hook")
    table["transpose"] = _Deferred("_manipulation", "transpose_hook", True)
    table["swapaxes"] = _Deferred("_manipulation", "swapaxes_hook", True)
    table["reshape"] = _Deferred("_manipulation", "reshape_hook", True)
    table["squeeze"] = _Deferred("_manipulation", "squeeze_hook", True)
    return table


def _attribute_table() -> dict[str, Entry]:
    """Tensor attribute (property) name -> hook."""
    table: dict[str, Entry] = {}
    table["ndim"] = _Deferred("_indexing", "ndim_hook")
    table["T"] = _Deferred("_manipulation", "transpose_attribute_hook")
    table["mT"] = _Deferred("_manipulation", "matrix_transpose_attribute_hook")
    table["shape"] = _Deferred("_dim_values", "shape_attribute_hook")
    return table


def _function_table() -> dict[str, Entry]:
    """Function full name -> hook."""
    table: dict[str, Entry] = {}
    for op in rules.REDUCTIONS:
        table[f"{names.REDUCTIONS_MODULE}.{op}"] = _Deferred(
            "_reduce_fast", "reduction_hook", op, False
        )
    for fn in rules.QUANTILE_FUNCTIONS:  # issue #35: q's leading dim, numpy's dtype
        table[f"{names.PKG}.quantiles.{fn}"] = _Deferred("_quantiles", "quantile_hook", fn)
    for op in rules.SCANS:
        table[f"{names.SCANS_MODULE}.{op}"] = _Deferred("_scans", "scan_hook", op, False)
    table[f"{names.REDUCTIONS_MODULE}.reduce_to"] = _Deferred(
        "_reduce_to", "reduce_to_hook", None, False
    )
    table[f"{names.REDUCTIONS_MODULE}.sum_to"] = _Deferred(
        "_reduce_to", "reduce_to_hook", "sum", False
    )
    # each constructor's hook behind the check of its dtype= (a dtype family is an error)
    for fn in names.SHAPE_CONSTRUCTORS:
        table[f"{names.CREATION_MODULE}.{fn}"] = _Deferred(
            "_interop", "constructor_dtype_hook", "_creation", "shape_constructor_hook", fn
        )
    for fn, (module, factory) in {
        "arange": ("_creation", "arange_hook"),
        "tensor": ("_creation", "tensor_hook"),
        "asarray": ("_interop", "default_hook"),
    }.items():
        table[f"{names.CREATION_MODULE}.{fn}"] = _Deferred(
            "_interop", "constructor_dtype_hook", module, factory
        )
    for fn in ("maximum", "minimum"):
        table[f"{names.ELEMENTWISE_MODULE}.{fn}"] = _Deferred(
            "_elementwise", "binary_function_hook", "maximum"
        )
    for fn in ("exp", "log", "sqrt"):
        table[f"{names.ELEMENTWISE_MODULE}.{fn}"] = _Deferred("_elementwise", "unary_float_hook")
    table[f"{names.ELEMENTWISE_MODULE}.where"] = _Deferred("_logic", "where_hook")
    # issue #33: the standard's elementwise functions and numpy's names for them
    module = f"{names.PKG}.elementwise_math"
    for fn in rules.UNARY_FUNCTIONS:
        table[f"{module}.{fn}"] = _Deferred("_elementwise_math", "unary_hook", fn)
    for fn in rules.BINARY_FUNCTIONS:
        table[f"{module}.{fn}"] = _Deferred("_elementwise_math", "binary_hook", fn)
    for alias, fn in _NUMPY_ALIASES.items():
        factory = "unary_hook" if fn in rules.UNARY_FUNCTIONS else "binary_hook"
        table[f"{module}.{alias}"] = _Deferred("_elementwise_math", factory, fn)
    table[f"{module}.round"] = _Deferred("_elementwise_math", "round_hook")
    for fn in ("real", "imag"):  # complex -> its real dtype (complex64 -> float32)
        table[f"{module}.{fn}"] = _Deferred("_elementwise_math", "unary_hook", fn)
    for fn in (f"{names.ELEMENTWISE_MODULE}.abs", "builtins.abs"):  # abs(x): not __abs__'s hook
        table[fn] = _Deferred("_elementwise_math", "unary_hook", "abs")
    for fn, result in {
        "inv": "same",
        "det": "same",
        "cholesky": "same",
        "eigh": "eigh",
        "slogdet": "slogdet",
    }.items():
        for module in ("_linalg_ext", "linalg"):  # the function and its stub alias
            table[f"{names.PKG}.{module}.{fn}"] = _Deferred(
                "_linalg_ext", "linalg_dtype_hook", fn, result
            )
    for fn in ("svd", "qr", "solve", "eig", "dot"):  # shapes of rules.linalg_ext
        for module in ("_linalg_ext", "linalg"):
            table[f"{names.PKG}.{module}.{fn}"] = _Deferred("_linalg_shapes", f"{fn}_hook")
    for fn in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn"):
        table[f"{names.PKG}.fft.{fn}"] = _Deferred("_fft", "transform_hook", fn)
    for fn in ("fftfreq", "rfftfreq"):
        table[f"{names.PKG}.fft.{fn}"] = _Deferred("_fft", "freq_hook", fn)
    for fn in ("hstack", "vstack", "pad", "repeat", "tile"):  # shapes of rules.rearranging
        table[f"{names.PKG}.rearranging.{fn}"] = _Deferred("_rearranging", f"{fn}_hook")
    for fn in ("cov", "corrcoef"):
        table[f"{names.PKG}.matrices.{fn}"] = _Deferred(
            "_linalg_ext", "linalg_dtype_hook", fn, "stat"
        )
    table[f"{names.LINALG_MODULE}.matmul"] = _Deferred("_linalg", "matmul_function_hook")
    table[f"{names.LINALG_MODULE}.einsum"] = _Deferred("_linalg", "einsum_hook")
    manipulation: dict[str, tuple[str, tuple[object, ...]]] = {
        "transpose": ("transpose_hook", (False,)),
        "permute_dims": ("transpose_hook", (False,)),
        "swapaxes": ("swapaxes_hook", (False,)),
        "moveaxis": ("moveaxis_hook", ()),
        "reshape": ("reshape_hook", (False,)),
        "expand_dims": ("expand_dims_hook", ()),
        "squeeze": ("squeeze_hook", (False,)),
        "concatenate": ("join_hook", ("concat",)),
        "concat": ("join_hook", ("concat",)),
        "stack": ("join_hook", ("stack",)),
        "split": ("split_hook", ()),
        "broadcast_to": ("broadcast_to_hook", ()),
    }
    for fn, (factory, args) in manipulation.items():
        table[f"{names.MANIPULATION_MODULE}.{fn}"] = _Deferred("_manipulation", factory, *args)
    return table


#: comparisons of numpy scalars, whose stubs answer ``np.bool`` for a Tensor operand
_ORDERING = frozenset({"__lt__", "__le__", "__gt__", "__ge__"})
#: numpy's names of the standard's elementwise functions (``typedtensor.elementwise_math``)
_NUMPY_ALIASES = {
    "arccos": "acos",
    "arccosh": "acosh",
    "arcsin": "asin",
    "arcsinh": "asinh",
    "arctan": "atan",
    "arctan2": "atan2",
    "arctanh": "atanh",
    "conjugate": "conj",
    "invert": "bitwise_invert",
    "left_shift": "bitwise_left_shift",
    "power": "pow",
    "right_shift": "bitwise_right_shift",
    "true_divide": "divide",
}


def _fingerprint() -> str:
    """A hash of the shape rules and of this plugin's own sources: editing either (not only
    upgrading the package) invalidates mypy's cache."""
    digest = hashlib.sha256()
    files = [*rules_files(), *sorted(Path(__file__).parent.glob("*.py"))]
    for path in files:
        try:
            digest.update(path.read_bytes())
        except OSError:  # pragma: no cover - sources always ship with the packages
            digest.update(path.name.encode())
    return digest.hexdigest()[:16]


def _enable_always_true_name(options: Options) -> None:
    """Make ``if TYPEDTENSOR_MYPY_PLUGIN:`` blocks (in stubs) always taken under the plugin.

    The list is replaced, not appended to: ``Options.snapshot()`` copies the dict shallowly,
    so an in-place append would also change dmypy's snapshot of the command-line options and
    make every later ``dmypy run`` restart with "configuration changed". Per-module options
    are cloned from these later (lazily); any already cloned get the name too.
    """
    name = names.ALWAYS_TRUE_NAME
    targets = [options]
    cached = getattr(options, "_per_module_cache", None)
    if isinstance(cached, dict):
        targets += [o for o in cached.values() if isinstance(o, Options)]
    for target in targets:
        if name not in target.always_true:
            target.always_true = [*target.always_true, name]


#: modules whose functions never declare typedtensor's expression dims (no hook: mypy asks for
#: one at every call)
_NO_DIM_MODULES = ("builtins.", "typing.", "typing_extensions.", "numpy.", "collections.")

#: Python scalar classes whose ``==``/``!=`` with a Tensor is the Tensor's elementwise comparison
_SCALAR_CLASSES = ("builtins.int", "builtins.float", "builtins.complex", "builtins.bool")


class TypedTensorPlugin(Plugin):
    """Exact result types for typedtensor reductions, constructors and elementwise ops."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        _enable_always_true_name(options)
        self._methods = _method_table()
        self._functions = _function_table()
        self._attributes = _attribute_table()
        self._numpy_methods: dict[str, Entry] = {
            m: _Deferred("_interop", "numpy_comparison_hook") for m in _ORDERING
        }
        self._scalar_equality: dict[str, Entry] = {
            m: _Deferred("_elementwise", "scalar_equality_hook") for m in ("__eq__", "__ne__")
        }
        # mypy asks for a hook at every call: answers that cannot change are kept by full
        # name, so the common question is one dict lookup
        self._method_answers: dict[str, Hook | None] = {}
        self._signature_answers: dict[str, SignatureHook | None] = {}
        self._fingerprint = _fingerprint()

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Cache key: the plugin version and a hash of the rules and plugin sources."""
        return {"typedtensor_mypy": VERSION, "sources": self._fingerprint}

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        """Tensor's reductions and operators, also reached through subclasses of Tensor."""
        answers = self._method_answers
        if fullname in answers:
            return answers[fullname]
        cls, _, method = fullname.rpartition(".")
        if cls.startswith("numpy.") and method in _ORDERING:  # np.float32(1) < x
            hook = answers[fullname] = self._resolve(self._numpy_methods, method)
            return hook
        if fullname in _INT_OPERATORS:  # x.shape[0] * 2: a dim expression
            hook = answers[fullname] = _int_operator_hook(fullname)
            return hook
        if cls in _SCALAR_CLASSES and method in self._scalar_equality:  # `2 == x`
            hook = answers[fullname] = self._resolve(self._scalar_equality, method)
            return hook
        if method not in self._methods or cls.startswith("builtins."):
            answers[fullname] = None  # no hook by that name / `1 + 2`: never a Tensor
            return None
        if cls != names.TENSOR:  # a subclass of Tensor? (not kept: classes can change)
            return self._resolve(self._methods, method) if self._inherits(cls, method) else None
        hook = answers[fullname] = self._resolve(self._methods, method)
        return hook

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], FunctionLike] | None:
        """Every Tensor method: ``AnyTensor`` parameters retyped so that a generic argument
        keeps its symbols; ``argmax``/``argmin`` with a tuple axis: one precise error. The
        program's own methods: their expression dims after substitution (``_generic_calls``)."""
        answers = self._signature_answers
        if fullname in answers:
            return answers[fullname]
        cls, _, method = fullname.rpartition(".")
        if cls.startswith(_NO_DIM_MODULES):
            answers[fullname] = None
            return None
        if cls != names.TENSOR:  # a subclass of Tensor? (not kept: classes can change)
            if self._inherits(cls, method):
                return _signature_hook(method in _SINGLE_AXIS)
            return _expression_signature_hook  # the program's own methods
        hook = answers[fullname] = _signature_hook(method in _SINGLE_AXIS)
        return hook

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        """Every typedtensor function, as for the methods; the program's own functions: their
        expression dims after the TypeVars are substituted (``_generic_calls``)."""
        if not fullname.startswith(names.PKG_PREFIX):
            if fullname.startswith(_NO_DIM_MODULES):
                return None  # the standard library and numpy declare no expression dims
            return _expression_signature_hook
        module, _, fn = fullname.rpartition(".")
        return _signature_hook(module == names.REDUCTIONS_MODULE and fn in _SINGLE_AXIS)

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        """Tensor's typed properties (``ndim``), also reached through subclasses."""
        cls, _, attr = fullname.rpartition(".")
        if attr not in self._attributes or cls != names.TENSOR:
            return None
        return self._resolve(self._attributes, attr)

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        """``typedtensor.reductions.*``, the constructors and ``maximum``/``minimum``."""
        if fullname not in self._functions:
            return None
        return self._resolve(self._functions, fullname)

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        """``tt.Add/Sub/Mul/FloorDiv[A, B]``: read into one canonical spelling."""
        if fullname not in names.DIM_EXPRESSIONS:
            return None
        from ._dimexprs import analyze_dim_expression

        return analyze_dim_expression(fullname)

    @staticmethod
    def _resolve(table: dict[str, Entry], key: str) -> Hook:
        """The hook in ``table[key]``, built (and stored back) on first use."""
        entry = table[key]
        if isinstance(entry, _Deferred):
            entry = table[key] = entry.build()
        return entry

    def _inherits(self, cls: str, method: str) -> bool:
        """Whether class ``cls`` gets ``method`` from Tensor (a subclass that keeps it)."""
        sym = self.lookup_fully_qualified(cls)
        node = sym.node if sym is not None else None
        if not isinstance(node, TypeInfo):
            return False
        owner = node.get_containing_type_info(method)
        return owner is not None and owner.fullname == names.TENSOR


#: ``int`` dunders whose operands may be dims (``x.shape[0] * 2``), as mypy names them for an
#: int receiver, a TypeVar bound to int and an expression value (``tt.Mul[L[2], B]``)
_INT_OPERATORS = frozenset(
    name
    for op in ("add", "sub", "mul", "floordiv")
    for dunder in (f"__{op}__", f"__r{op}__")
    for owner in (names.INT, *names.DIM_EXPRESSIONS)
    for name in (f"{owner}.{dunder}", f"{dunder} of int")
)


def _int_operator_hook(fullname: str) -> Hook:
    from ._dim_values import INT_OPERATORS, int_operator_hook

    return guarded(int_operator_hook(*INT_OPERATORS[fullname]))


def _signature_hook(single_axis: bool) -> SignatureHook:
    from ._signatures import signature_hook

    return signature_hook(single_axis)


def _expression_signature_hook(ctx: Any) -> FunctionLike:
    """``_generic_calls.expression_signature_hook``, imported on first use; mypy's own
    signature if it raises."""
    from ._generic_calls import expression_signature_hook

    try:
        sig: FunctionLike = expression_signature_hook(ctx)
        return sig
    except Exception:
        if os.environ.get("TYPEDTENSOR_MYPY_DEBUG"):
            raise
        default: FunctionLike = ctx.default_signature
        return default  # never crash mypy
