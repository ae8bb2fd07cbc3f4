"""numpy twins of the numba kernels of sums, norms, moments and float32 logsumexp: the same
additions in the same order, so the same bits, for a program's first calls while the kernels
compile.

The order-sensitive kernels fix the order of every addition (``_numba/_lanes``): element ``i``
of a run goes to lane ``i % L``, each lane adds four blocks of ``L`` at a time
(``(a + b) + (c + d)``), a chunk's lanes spill into the total's lanes, and a pairwise tree
folds those; the vertical kernels add 4 rows at a time into per-column accumulators, in
blocks. Each step is elementwise arithmetic on whole blocks, which numpy runs in the same
IEEE precision, and each running total is a sequential sum, which ``np.cumsum`` computes in
the same order. numba compiles these kernels without fast-math and without contraction (no
fused multiply-add), so the twins here give their results bit for bit
(``tests/runtime/test_kernel_twins.py`` compares them). The logsumexp kernels' exp is such
arithmetic too (a rounded product and a rounded sum a step): ``logsumexp_twin`` gives its
float32 bits; float64 logsumexp has no twin yet.

A twin has its kernel's signature and fills the same partial-result arrays; ``TWINS`` maps the
serial kernel's name to it. Inside ``serving()`` the numba backend's stages
(``_numba._stages._launch``) call a kernel's twin in place of the kernel where it has one and
the twin takes the op (``NOT_TWINNED`` otherwise: the kernel runs). ``_routing`` serves the
plans of ``TWIN_OPS`` this way while a helper process compiles their kernels
(``_background_compile.serve_while_compiling``).
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from . import logsumexp_twin
from ._twin_orders import chunked, constants, fold, lane_add, running_total

__all__ = ["NOT_TWINNED", "TWINS", "TWIN_OPS", "served", "serves", "serving", "twin_of"]

Array = npt.NDArray[Any]
Run = Callable[[Array, dict[str, Any]], Array]

#: the reductions whose plans the twins serve on a program's first run
TWIN_OPS = frozenset(("sum", "mean", "var", "std", "norm", "logsumexp"))
#: the largest input (bytes) the twins serve: past it one twin call (a float32 logsumexp
#: ~6 ns an element, ``benchmarks/README.md``) outlasts the compile it stands in for (2-5 s
#: an op), so the kernels compile in the foreground
MAX_BYTES = 1 << 30
#: what a twin returns for an op it does not reproduce (the kernel runs instead)
NOT_TWINNED = object()
#: rows' elements a horizontal twin works on at a time (1-2 MB: its temporaries stay in
#: the caches)
BLOCK_ELEMENTS = 1 << 18
#: elements a vertical twin of sums works on at a time (its float64 temporaries: 16 MB)
PIECE_ELEMENTS = 1 << 21

_state = threading.local()


@contextlib.contextmanager
def serving() -> Iterator[None]:
    """Within this block (this thread only) the numba backend's stages run the kernels'
    twins where they have one."""
    _state.active = True
    try:
        yield
    finally:
        _state.active = False


def serves(op: str, input_dtype: np.dtype[Any], nbytes: int) -> bool:
    """Do the twins serve a plan of ``op`` over ``nbytes`` of ``input_dtype`` on a program's
    first run? (logsumexp: float32 on the CPU numba compiles for)"""
    if op not in TWIN_OPS or nbytes > MAX_BYTES:
        return False
    return op != "logsumexp" or logsumexp_twin.twinned(input_dtype.type(0))


def served(backend_run: Run) -> Run:
    """``backend_run`` (the numba backend's ``reduce`` of a plan) run inside ``serving()``."""

    def run(a: Array, params: dict[str, Any]) -> Array:
        with serving():
            return backend_run(a, params)

    return run


def twin_of(kernel: Any) -> Callable[..., Any] | None:
    """The twin to call in place of the serial ``kernel`` now: inside ``serving()`` and where
    it has one, else None."""
    if not getattr(_state, "active", False):
        return None
    twin = TWINS.get(getattr(kernel, "__name__", ""))
    return None if twin is None else functools.partial(_quietly, twin)


def _quietly(twin: Callable[..., object], *args: Any) -> object:
    """``twin(*args)`` without numpy's floating-point warnings: a kernel raises none (its
    overflows and NaNs show in its results), nor do the rows a twin computes and drops."""
    with np.errstate(all="ignore"):
        return twin(*args)


# ----------------------------------------------------------------------------- sums of rows
def _term(op: int, values: Array) -> Array | None:
    k = constants()
    if op == k["SUM"]:
        return values
    if op == k["SUMABS"]:
        return np.abs(values)
    if op == k["SUMSQ"]:
        return values * values
    return None


def _row_sums(x: Array, part: Array, op: int, zc: Any, zt: Any) -> object:
    """``sums._lane_sums_task`` over every task: ``part[r, s]`` the sum of ``term(x)`` over
    segment ``s`` of row ``r``."""
    k = constants()
    ns = part.shape[1]
    n = x.shape[1]
    zc_t, zt_t = np.asarray(zc).dtype, np.asarray(zt).dtype
    for s in range(ns):
        seg = x[:, (s * n) // ns : ((s + 1) * n) // ns]
        terms = _term(op, seg.astype(zc_t))
        if terms is None:
            return NOT_TWINNED
        m = seg.shape[1]
        if m <= 16:  # term by term into the total type
            part[:, s] = running_total(terms.astype(zt_t), -1)
            continue
        lanes = k["MIN_LANES"] if m < k["SHORT_RUN"] else k["MAX_LANES"]
        chunk_lanes = [lane_add(c, lanes) for c in chunked(terms, k["CH"])]
        spilled = np.concatenate(chunk_lanes, axis=-2).astype(zt_t)
        part[:, s] = fold(running_total(spilled, -2))
    return None


def _sum_h(x: Array, part: Array, zc: Any, zt: Any, rb: int) -> object:
    return _row_sums(x, part, constants()["SUM"], zc, zt)


def _sumsq_h(x: Array, part: Array, zc: Any, zt: Any, rb: int) -> object:
    return _row_sums(x, part, constants()["SUMSQ"], zc, zt)


def _acc_h(x: Array, part: Array, op: int, p: float, zc: Any, zt: Any, rb: int) -> object:
    return _row_sums(x, part, op, zc, zt)


# ----------------------------------------------------------------------------- sums of columns
def _four_rows_then_rest(rows: Array, term: Callable[[Array], Array]) -> Array:
    """``acc += (t(a) + t(b)) + (t(c) + t(d))`` 4 rows at a time, then ``acc += t(r)`` row by
    row, from zero, over axis 1 of ``rows`` ``(O, R, W)``."""
    r = rows.shape[1]
    quads = r // 4
    if quads:
        q = rows[:, : quads * 4].reshape(rows.shape[0], quads, 4, rows.shape[2])
        acc = running_total(
            (term(q[:, :, 0]) + term(q[:, :, 1])) + (term(q[:, :, 2]) + term(q[:, :, 3])), 1
        )
    else:
        acc = np.zeros((rows.shape[0], rows.shape[2]), rows.dtype)
    for i in range(quads * 4, r):
        acc = acc + term(rows[:, i])
    return acc


def _row_by_row(rows: Array, term: Callable[[Array], Array]) -> Array:
    """``acc += t(r)`` row by row from zero over axis 1 of ``rows`` ``(O, R, W)``."""
    return running_total(term(rows), 1)


def _column_block(block: Array, op: int, zc_t: np.dtype[Any], zt_t: np.dtype[Any], w: int) -> Any:
    """``sums._accumulate_column_block`` / ``_norm_column_block`` of a task ``w`` columns wide
    (its branches depend on it): the accumulate of ``block`` ``(O, rows, W)`` (some of the
    task's columns) over its rows, ``(O, W)``."""
    k = constants()
    r = block.shape[1]
    same: Callable[[Array], Array] = lambda v: v  # noqa: E731
    if op == k["SUM"]:
        if w >= 64 and r >= k["VB"]:  # blocks of VB rows in the chunk type
            vb, o, cols = k["VB"], block.shape[0], block.shape[2]
            full = r // vb
            whole = block[:, : full * vb].reshape(o * full, vb, cols).astype(zc_t)
            rows = _four_rows_then_rest if w > 4096 else _row_by_row
            totals = [rows(whole, same).reshape(o, full, cols)]
            if r > full * vb:
                totals.append(rows(block[:, full * vb :].astype(zc_t), same))
                totals[-1] = totals[-1][:, None, :]
            return running_total(np.concatenate(totals, axis=1).astype(zt_t), 1)
        return _four_rows_then_rest(block.astype(zt_t), same)
    if op == k["SUMABS"]:
        accumulate = _four_rows_then_rest if w > 4096 else _row_by_row
        return accumulate(block.astype(zt_t), np.abs)
    if op == k["SUMSQ"]:
        accumulate = _four_rows_then_rest if w > 4096 else _row_by_row
        return accumulate(block.astype(zt_t), lambda v: v * v)
    return NOT_TWINNED


def _column_tasks(x: Array, ns: int, wb: int) -> Iterator[tuple[int, int, int, int, int]]:
    """``sums._column_task_span`` of every task, the outer index aside: (segment, first row,
    end row, first column, end column)."""
    nr, ni = x.shape[1], x.shape[2]
    for s in range(ns):
        for j0 in range(0, ni, wb):
            yield s, (s * nr) // ns, ((s + 1) * nr) // ns, j0, min(ni, j0 + wb)


def _pieces(o: int, r: int, j0: int, j1: int) -> Iterator[tuple[slice, slice]]:
    """Columns ``[j0, j1)`` of ``o`` outer blocks of ``r`` rows in pieces of about
    ``PIECE_ELEMENTS`` (outer, columns): the columns and outer blocks are independent."""
    outer = max(1, min(o, PIECE_ELEMENTS // max(r * (j1 - j0), 1)))
    cols = max(1, min(j1 - j0, PIECE_ELEMENTS // max(r * outer, 1)))
    for o0 in range(0, o, outer):
        for c0 in range(j0, j1, cols):
            yield slice(o0, o0 + outer), slice(c0, min(c0 + cols, j1))


def _acc_v(x: Array, part: Array, op: int, p: float, zc: Any, wb: int) -> object:
    zc_t, zt_t = np.asarray(zc).dtype, part.dtype
    for s, r0, r1, j0, j1 in _column_tasks(x, part.shape[1], wb):
        for outer, cols in _pieces(x.shape[0], r1 - r0, j0, j1):
            acc = _column_block(x[outer, r0:r1, cols], op, zc_t, zt_t, j1 - j0)
            if acc is NOT_TWINNED:
                return NOT_TWINNED
            part[outer, s, cols] = acc
    return None


def _short_row_blocks(o: int, rb: int) -> Iterator[tuple[int, int]]:
    """The blocks of ``rb`` rows a short-row kernel transposes, grouped by width: (first row,
    end row) of the full blocks together, then of the last one."""
    full = (o // rb) * rb
    if full:
        yield 0, full
    if full < o:
        yield full, o


def _acc_n(x: Array, part: Array, op: int, p: float, zc: Any, rb: int, norm: Any) -> object:
    """``acc_n``: each block of ``rb`` short rows transposed, ``(1, R, rb)``, and reduced as one
    column block (its branches depend on the block's width)."""
    zc_t = np.asarray(zc).dtype
    for r0, r1 in _short_row_blocks(x.shape[0], rb):
        w = min(rb, r1 - r0)  # the width each block of the kernel sees
        blocks = x[r0:r1].reshape(-1, w, x.shape[1]).transpose(0, 2, 1)
        acc = _column_block(blocks, op, zc_t, part.dtype, w)
        if acc is NOT_TWINNED:
            return NOT_TWINNED
        part[r0:r1] = acc.reshape(-1)
    return None


# ----------------------------------------------------------------------------- moments
def _chunk_moments(chunks: Array, lanes: int) -> tuple[Array, Array]:
    """``variance._chunk_var`` of each chunk (last axis): mean and M2, two passes in float64
    lanes."""
    c = chunks.shape[-1]
    mean = fold(lane_add(chunks, lanes)) / c
    dev = chunks - mean[..., None]
    return mean, fold(lane_add(dev * dev, lanes))


#: chunks whose moments one step of ``_var_h`` computes: float64 temporaries of ~1 MB
_MOMENT_CHUNKS = 64


def _var_h(x: Array, pmean: Array, pm2: Array, rb: int) -> object:
    """``variance.var_h``: per row segment, chunk moments merged with Chan's rule."""
    k = constants()
    ns = pmean.shape[1]
    n = x.shape[1]
    for s in range(ns):
        seg = x[:, (s * n) // ns : ((s + 1) * n) // ns]
        if seg.shape[1] <= k["CH"]:
            pmean[:, s], pm2[:, s] = _chunk_moments(seg.astype(np.float64), k["LANES"])
            continue
        means, m2s, sizes = [], [], []
        for chunks in chunked(seg, k["CH"]):
            for c0 in range(0, chunks.shape[1], _MOMENT_CHUNKS):
                step = chunks[:, c0 : c0 + _MOMENT_CHUNKS].astype(np.float64)
                mean, m2 = _chunk_moments(step, k["LANES"])
                means.append(mean)
                m2s.append(m2)
                sizes += [step.shape[2]] * step.shape[1]
        pmean[:, s], pm2[:, s] = _chan_merged(
            np.concatenate(means, axis=1), np.concatenate(m2s, axis=1), sizes
        )
    return None


def _chan_merged(means: Array, m2s: Array, sizes: list[int]) -> tuple[Any, Any]:
    """The (mean, M2) of each row of chunks ``(R, k)`` of ``sizes`` elements, merged in order
    as ``variance.var_h`` does; one row in Python floats (the same IEEE double arithmetic
    as numpy's float64, a fraction of its per-call cost)."""
    row_means: Any = means[0].tolist() if means.shape[0] == 1 else means.T
    row_m2s: Any = m2s[0].tolist() if m2s.shape[0] == 1 else m2s.T
    cnt = 0.0
    mean: Any = 0.0
    m2: Any = 0.0
    for chunk_mean, chunk_m2, size in zip(row_means, row_m2s, sizes, strict=True):
        nt = cnt + size
        delta = chunk_mean - mean
        mean = mean + delta * (size / nt)
        m2 = m2 + (chunk_m2 + delta * delta * (cnt * size / nt))
        cnt = nt
    return mean, m2


def _column_moments(rows: Array, wide: bool) -> tuple[Array, Array]:
    """``variance._var_columns_task`` of ``rows`` ``(O, R, W)``: the mean and M2 of each
    column by blocks of ``VBS`` rows around the running mean, merged with Chan's rule;
    ``wide`` (more than 1024 columns): 4 rows per pass."""
    k = constants()
    r = rows.shape[1]
    mean = rows[:, 0].astype(np.float64)
    m2 = np.zeros_like(mean)
    cnt = 0.0
    for b0 in range(0, r, k["VBS"]):
        block = rows[:, b0 : b0 + k["VBS"]].astype(np.float64)
        size = block.shape[1]
        dev = block - mean[:, None, :]
        if wide:
            s1 = _four_rows_then_rest(dev, lambda v: v)
            s2 = _four_rows_then_rest(dev, lambda v: v * v)
        else:
            s1 = running_total(dev, 1)
            s2 = running_total(dev * dev, 1)
        nt = cnt + size
        f = cnt / nt
        dm = s1 / size
        q = s2 - s1 * dm
        mean = mean + dm * (size / nt)
        m2 = m2 + (q + dm * dm * (size * f))
        cnt = nt
    return mean, m2


def _var_v(x: Array, pmean: Array, pm2: Array, wb: int) -> object:
    for s, r0, r1, j0, j1 in _column_tasks(x, pmean.shape[1], wb):
        mean, m2 = _column_moments(x[:, r0:r1, j0:j1], j1 - j0 > 1024)
        pmean[:, s, j0:j1], pm2[:, s, j0:j1] = mean, m2
    return None


def _var_n(x: Array, pmean: Array, pm2: Array, rb: int) -> object:
    for r0, r1 in _short_row_blocks(x.shape[0], rb):
        w = min(rb, r1 - r0)
        blocks = x[r0:r1].reshape(-1, w, x.shape[1]).transpose(0, 2, 1)
        mean, m2 = _column_moments(blocks, w > 1024)
        pmean[r0:r1], pm2[r0:r1] = mean.reshape(-1), m2.reshape(-1)
    return None


def _rows_in_blocks(twin: Callable[..., object], outputs: int) -> Callable[..., object]:
    """``twin`` of a horizontal kernel ``(x, *outputs, *rest)`` run on blocks of
    about ``BLOCK_ELEMENTS`` of ``x``'s rows at a time (the rows are independent): its
    temporaries stay in the caches, and a few times a block's size."""

    def run(x: Array, *args: Any) -> object:
        rows = max(1, BLOCK_ELEMENTS // max(x.shape[1], 1))
        for r0 in range(0, x.shape[0], rows):
            block = slice(r0, r0 + rows)
            views = [out[block] for out in args[:outputs]]
            if twin(x[block], *views, *args[outputs:]) is NOT_TWINNED:
                return NOT_TWINNED
        return None

    return run


def _logsumexp(twin: Callable[..., None]) -> Callable[..., object]:
    """A ``logsumexp_twin`` twin where it reproduces its kernel (float32 on this CPU)."""

    def run(x: Array, pm: Array, ps: Array, z0: Any, size: int) -> object:
        if not logsumexp_twin.twinned(z0):
            return NOT_TWINNED
        twin(x, pm, ps, z0, size)
        return None

    return run


#: the serial kernel's name -> its twin (same arguments; returns ``NOT_TWINNED`` for an op
#: it does not reproduce, having written nothing the kernel would not overwrite)
TWINS: dict[str, Callable[..., object]] = {
    "sum_h": _rows_in_blocks(_sum_h, 1),
    "sumsq_h": _rows_in_blocks(_sumsq_h, 1),
    "acc_h": _rows_in_blocks(_acc_h, 1),
    "acc_v": _acc_v,
    "nrm_v": _acc_v,
    "acc_n": _acc_n,
    "var_h": _rows_in_blocks(_var_h, 2),
    "var_v": _var_v,
    "var_n": _var_n,
    "lse_h": _rows_in_blocks(_logsumexp(logsumexp_twin.lse_h), 2),
    "lse_v": _logsumexp(logsumexp_twin.lse_v),
    "lse_n": _logsumexp(logsumexp_twin.lse_n),
}
