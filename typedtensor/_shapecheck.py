"""``@tt.shapecheck``: runtime checks of ``Tensor[DType, *Dims]`` annotations at call time.

The decorator translates each ``Tensor[...]`` annotation into jaxtyping's form
(``Tensor[tt.float32, L[3], B, *tuple[Any, ...]]`` -> ``Float32[<array>, "3 B ..."]``) and runs
the call under ``jaxtyping.jaxtyped(typechecker=beartype)``, so jaxtyping binds the symbolic
dims across all arguments and the return value of one call. Tensors are not arrays: each
``Tensor`` argument is shown to the checker as a small probe carrying the wrapped array's
``shape`` and ``dtype``; the function itself receives the original arguments.

jaxtyping and beartype are imported on the first checked call, never by ``import typedtensor``.
``TYPEDTENSOR_SHAPECHECK=0`` (read when a function is decorated) turns the checks off: the
decorator then returns the function unchanged.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import os
import threading
import typing
from collections.abc import Callable
from typing import Any, TypeVar, cast, get_args

import numpy as np
import typing_extensions

from ._errors import ShapeError
from ._shapecheck_annotations import (
    _bindings,
    _has_dtype_var,
    _jaxtyping,
    _mentions_arrays,
    _probe_tree,
    _show_ann,
    _show_value,
    _tensor_leaves,
    _translate,
    _why,
)
from ._tensor import Tensor

__all__ = ["ENV_VAR", "ShapeCheckError", "shapecheck"]

#: The environment variable that turns the checks off (``0``, ``false``, ``off``, ``no``).
ENV_VAR = "TYPEDTENSOR_SHAPECHECK"
_OFF = frozenset({"0", "false", "off", "no"})
_ON = frozenset({"", "1", "true", "on", "yes"})

_F = TypeVar("_F", bound=Callable[..., Any])


class ShapeCheckError(ShapeError, TypeError):
    """An argument or return value does not match its ``Tensor[...]`` annotation.

    A ``ShapeError`` (``ValueError``) and a ``TypeError``. Attributes: ``function``,
    ``argument`` (``"x"``, ``"x[1]"`` or ``"return value"``), ``expected``, ``actual`` (compact
    renderings such as ``Tensor[float32, B, 3]``) and ``bindings`` (``{"B": 3}``).
    """

    def __init__(
        self,
        message: str,
        *,
        function: str = "",
        argument: str = "",
        expected: str = "",
        actual: str = "",
        bindings: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.function = function
        self.argument = argument
        self.expected = expected
        self.actual = actual
        self.bindings = dict(bindings or {})


def _enabled() -> bool:
    raw = os.environ.get(ENV_VAR, "")
    value = raw.strip().lower()
    if value in _OFF:
        return False
    if value in _ON:
        return True
    raise ValueError(
        f"{ENV_VAR}={raw!r} is not understood; use {ENV_VAR}=0 to turn the runtime shape "
        f"checks off or {ENV_VAR}=1 (the default) to keep them on"
    )


def shapecheck(fn: _F) -> _F:
    """Check at call time that arguments and return value match their ``Tensor`` annotations.

    Literal dims must match exactly, symbolic dims (TypeVars, ``tt.Dim`` markers) bind to one
    size per call across all arguments and the return value, dtypes must be equal; a TypeVar
    dtype binds to one dtype per call. jaxtyping-annotated arrays may be mixed in. Only
    annotations that mention tensors or jaxtyping arrays are checked.

    Example (``B = TypeVar("B")``)::

        @tt.shapecheck
        def center(x: Tensor[tt.float32, B, L[3]]) -> Tensor[tt.float32, B, L[3]]:
            return x - x.mean(axis=0, keepdims=True)

        center(tt.zeros((8, 3), dtype=tt.float32))  # ok; an (8, 4) input raises
                                                    # ShapeCheckError naming x, B=8

    ``TYPEDTENSOR_SHAPECHECK=0`` (read here, at decoration time) returns ``fn`` unchanged.
    """
    if not _enabled():
        return fn
    if isinstance(fn, (staticmethod, classmethod)):
        raise TypeError(
            "apply @tt.shapecheck below @staticmethod/@classmethod, directly on the function"
        )
    if not callable(fn) or inspect.isclass(fn):
        raise TypeError(f"@tt.shapecheck decorates functions, got {fn!r}")
    checker = _Checker(fn)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return checker.call(args, kwargs)

    wrapper.__typedtensor_shapecheck__ = checker  # type: ignore[attr-defined]
    return cast(_F, wrapper)


# ------------------------------------------------------------------------- the call
_NOT_RUN = object()  # a call whose function has not run yet
_UNCACHEABLE = object()  # a value whose check is not decided by its shape, dtype and type
_UNCHECKED = "unchecked"  # an argument without a tensor annotation
_MAX_SIGNATURES = 1024  # per function; the set is cleared when full


class _Call:
    """One checked call: the original arguments and how far the function got."""

    __slots__ = ("args", "kwargs", "out", "precomputed", "state")

    def __init__(self, args: tuple[Any, ...], kwargs: dict[str, Any], out: Any = _NOT_RUN) -> None:
        self.args = args
        self.kwargs = kwargs
        self.state = 0  # 0: checking arguments, 1: running, 2: checking the return value
        self.precomputed = out is not _NOT_RUN  # the function already ran: check its result
        self.out: Any = None if out is _NOT_RUN else out


_CURRENT: contextvars.ContextVar[_Call] = contextvars.ContextVar("typedtensor_shapecheck_call")


def _signature(value: object) -> object:
    """What the checks read of a value: a Tensor's or ndarray's shape and dtype (and tuples of
    them, and None); ``_UNCACHEABLE`` for anything else."""
    if isinstance(value, Tensor):
        data = value._data  # a dask array for a dask-backed Tensor: not computed
        return (data.shape, data.dtype)
    kind = type(value)
    if kind is np.ndarray:
        return (kind, value.shape, value.dtype)  # type: ignore[attr-defined]
    if value is None:
        return None
    if kind is tuple:
        items = tuple(_signature(v) for v in value)  # type: ignore[attr-defined]
        return _UNCACHEABLE if any(i is _UNCACHEABLE for i in items) else ("tuple", items)
    return _UNCACHEABLE


def _remember(seen: set[Any], key: object, cacheable: bool) -> None:
    if cacheable:
        if len(seen) >= _MAX_SIGNATURES:
            seen.clear()
        seen.add(key)


class _Checker:
    """Builds the jaxtyping-checked shadow of ``fn`` on the first call, then runs calls."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.name = getattr(fn, "__qualname__", getattr(fn, "__name__", repr(fn)))
        self.lock = threading.Lock()
        self.ready = False

    # ---------------------------------------------------------------- set-up (once)
    def _build(self) -> None:
        with self.lock:
            if self.ready:
                return
            fn = self.fn
            try:
                hints = typing.get_type_hints(fn, include_extras=True)
            except Exception as err:
                raise TypeError(
                    f"@tt.shapecheck could not resolve the annotations of {self.name}: "
                    f"{type(err).__name__}: {err}. Names used in annotations must be defined "
                    "at module level"
                ) from None
            self.sig = inspect.signature(fn)
            self.params: dict[str, object] = {}
            new_params = []
            for p in self.sig.parameters.values():
                ann = hints.get(p.name)
                if ann is not None and _mentions_arrays(ann):
                    self.params[p.name] = ann
                    where = f"{self.name}, parameter {p.name!r}"
                    p = p.replace(annotation=_translate(ann, where))
                else:
                    p = p.replace(annotation=inspect.Parameter.empty)
                new_params.append(p.replace(default=inspect.Parameter.empty))
            ret = hints.get("return")
            plain = not (inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn))
            self.ret: object = ret if plain and ret is not None and _mentions_arrays(ret) else None
            ret_jt = (
                inspect.Signature.empty
                if self.ret is None
                else _translate(self.ret, f"{self.name}, return value")
            )
            self.dtype_vars = any(
                _has_dtype_var(a) for a in [*self.params.values(), self.ret] if a is not None
            )
            shadow_sig = inspect.Signature(new_params, return_annotation=ret_jt)

            convert_ret = self.ret is not None

            def shadow(*_args: Any, **_kwargs: Any) -> Any:
                call = _CURRENT.get()
                if call.precomputed:
                    out = call.out
                else:
                    call.state = 1
                    out = fn(*call.args, **call.kwargs)
                call.state = 2
                call.out = out
                return _probe_tree(out) if convert_ret else out

            shadow.__signature__ = shadow_sig  # type: ignore[attr-defined]
            shadow.__name__ = getattr(fn, "__name__", "function")
            shadow.__qualname__ = self.name
            shadow.__module__ = getattr(fn, "__module__", __name__)

            jt = _jaxtyping()
            from beartype import beartype

            self.checked = jt.jaxtyped(shadow, typechecker=beartype)
            self._index_positions()
            self.ready = True

    def _index_positions(self) -> None:
        """Which positional arguments are checked (for the cache of passed signatures)."""
        positional = [
            p
            for p in self.sig.parameters.values()
            if p.kind
            in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        ]
        self.checked_positions = [p.name in self.params for p in positional]
        rest = [
            p for p in self.sig.parameters.values() if p.kind is inspect.Parameter.VAR_POSITIONAL
        ]
        #: are surplus positional arguments checked? None: there may be none (a TypeError)
        self.checked_rest = (rest[0].name in self.params) if rest else None
        #: is a keyword argument of this name checked? (None: not a parameter's name)
        self.checked_keywords: dict[str, bool] = {
            p.name: p.name in self.params
            for p in self.sig.parameters.values()
            if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        }
        var_kw = [
            p for p in self.sig.parameters.values() if p.kind is inspect.Parameter.VAR_KEYWORD
        ]
        #: are keyword arguments caught by ``**kwargs`` checked? None: there is no ``**kwargs``
        self.checked_var_keywords = (var_kw[0].name in self.params) if var_kw else None
        #: argument signatures whose check passed, and (arguments, result) signatures
        self.passed_arguments: set[tuple[object, ...]] = set()
        self.passed_calls: set[tuple[object, object]] = set()

    # ---------------------------------------------------------------------- a call
    def call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Run one call, checked. A call whose arguments (by position and by keyword) have
        the shapes, dtypes and types of a call that passed skips the argument check (its
        outcome is decided by those alone: dims bind within one call), and a result whose
        signature passed after such arguments skips the return check: a few microseconds
        instead of jaxtyping's and beartype's ~20. Any other call, and every failure, takes
        the full check."""
        if not self.ready:
            self._build()
        if not self.params and self.ret is None:
            return self.fn(*args, **kwargs)
        key = self._arguments_signature(args, kwargs)
        if key is not None and key in self.passed_arguments:
            out = self.fn(*args, **kwargs)
            if self.ret is None:
                return out
            result = _signature(out)
            if result is _UNCACHEABLE or (key, result) not in self.passed_calls:
                self._check(args, kwargs, out)
                _remember(self.passed_calls, (key, result), result is not _UNCACHEABLE)
            return out
        out = self._check(args, kwargs, _NOT_RUN)
        if key is not None:
            _remember(self.passed_arguments, key, True)
            result = _signature(out)
            _remember(self.passed_calls, (key, result), result is not _UNCACHEABLE)
        return out

    def _arguments_signature(
        self, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[object, ...] | None:
        """What the argument check of a call reads, or None (not cacheable)."""
        checked = self.checked_positions
        key: list[object] = []
        for i, value in enumerate(args):
            if i < len(checked):
                if not checked[i]:
                    key.append(_UNCHECKED)
                    continue
            elif not self.checked_rest:  # unchecked *args, or too many arguments
                if self.checked_rest is None:
                    return None
                key.append(_UNCHECKED)
                continue
            sig = _signature(value)
            if sig is _UNCACHEABLE:
                return None
            key.append(sig)
        for name, value in kwargs.items():  # by name, in the order given
            is_checked = self.checked_keywords.get(name, self.checked_var_keywords)
            if is_checked is None:
                return None  # no such parameter: the full path raises the TypeError
            sig = _signature(value) if is_checked else _UNCHECKED
            if sig is _UNCACHEABLE:
                return None
            key.append((name, sig))
        return tuple(key)

    def _check(self, args: tuple[Any, ...], kwargs: dict[str, Any], out: Any) -> Any:
        """The full check under jaxtyping, running the function unless ``out`` is its result."""
        bound = self.sig.bind(*args, **kwargs)
        bound.apply_defaults()
        dtypes: dict[str, str] = {}
        if self.dtype_vars:
            for name, ann in self.params.items():
                for where, value in self._values(name, bound.arguments[name]):
                    self._bind_dtypes(ann, value, where, dtypes)
        probed = bound.arguments
        for name in self.params:
            probed[name] = _probe_tree(probed[name])
        call = _Call(args, kwargs, out)
        token = _CURRENT.set(call)
        try:
            self.checked(*bound.args, **bound.kwargs)
        except _jaxtyping().TypeCheckError as err:
            if call.state == 1:
                raise  # raised inside the function body (e.g. by a nested checked call)
            self._explain(bound.arguments, call, str(err))
        finally:
            _CURRENT.reset(token)
        if self.dtype_vars and self.ret is not None:
            self._bind_dtypes(self.ret, call.out, "return value", dtypes)
        return call.out

    def _values(self, name: str, value: Any) -> list[tuple[str, Any]]:
        """(path, value) pairs of one parameter: each item of ``*args`` and ``**kwargs``."""
        kind = self.sig.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            return [(f"argument {name!r}[{i}]", v) for i, v in enumerate(value)]
        if kind is inspect.Parameter.VAR_KEYWORD:
            return [(f"argument {name!r}[{k!r}]", v) for k, v in value.items()]
        return [(f"argument {name!r}", value)]

    # --------------------------------------------------------- dtype TypeVar binding
    def _bind_dtypes(self, ann: object, value: object, path: str, seen: dict[str, str]) -> None:
        """A TypeVar dtype binds to one dtype per call (jaxtyping binds dims, not dtypes)."""
        for leaf, val, where in _tensor_leaves(ann, value, path):
            dt = get_args(leaf)[0] if get_args(leaf) else None
            if not isinstance(dt, (TypeVar, typing_extensions.TypeVar)):
                continue
            got = val.dtype.__name__
            want = seen.setdefault(dt.__name__, got)
            if want != got:
                self._fail(
                    where,
                    _show_ann(leaf),
                    _show_value(val),
                    f"dtype {dt.__name__} was bound to {want} by an earlier argument, "
                    f"but this tensor is {got}",
                    dict(seen),
                )

    # ----------------------------------------------------------------- diagnosis
    def _explain(self, arguments: dict[str, Any], call: _Call, fallback: str) -> None:
        """Re-run the checks one argument at a time to say which one failed and why."""
        jt = _jaxtyping()
        with jt.jaxtyped("context"):
            for name, ann in self.params.items():
                for where, value in self._values(name, arguments[name]):
                    failure = _why(ann, value, where)
                    if failure is not None:
                        self._fail(*failure, _bindings())
            if call.state == 2 and self.ret is not None:
                failure = _why(self.ret, _probe_tree(call.out), "return value")
                if failure is not None:
                    self._fail(*failure, _bindings())
        stage = "return value" if call.state == 2 else "arguments"
        raise ShapeCheckError(
            f"{self.name}(): the {stage} do not match the annotations:\n{fallback}",
            function=self.name,
            argument=stage,
        ) from None

    def _fail(
        self, where: str, expected: str, actual: str, reason: str, bindings: dict[str, object]
    ) -> typing.NoReturn:
        shown = ", ".join(f"{k}={v}" for k, v in bindings.items()) or "(none)"
        raise ShapeCheckError(
            f"{self.name}() {where}: expected {expected}, got {actual}\n"
            f"  why: {reason}\n"
            f"  bindings so far: {shown}\n"
            f"  (set {ENV_VAR}=0 to turn runtime shape checks off)",
            function=self.name,
            argument=where,
            expected=expected,
            actual=actual,
            bindings=bindings,
        ) from None
