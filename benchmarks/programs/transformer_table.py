"""A whole program for the pyright benchmark (``benchmarks/bench_pyright_program.py``): a
transformer block (attention + MLP + layer norm) and a table script, written as a user would,
with ``assert_type`` where the generated stubs promise exact types. The benchmark repeats it
with renamed functions; ``tests/static`` does not check it (``@``/``mT`` answers come from the
shape-operation stubs)."""

from typing import Literal as L

from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import Tensor

X = Tensor[tt.float32, L[4], L[16], L[32]]
Scores = Tensor[tt.float32, L[4], L[16], L[16]]
W = Tensor[tt.float32, L[32], L[32]]
Vec = Tensor[tt.float32, L[32]]


def softmax(s: Scores) -> Scores:
    e = tt.exp(s - s.max(axis=-1, keepdims=True))
    assert_type(e, Scores)
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm(x: X, gain: Vec, bias: Vec) -> X:
    mu = x.mean(axis=-1, keepdims=True)
    centered = x - mu
    var = (centered**2).mean(axis=-1, keepdims=True)
    out = centered / tt.sqrt(var + 1e-5) * gain + bias
    assert_type(out, X)
    return out


def attention(x: X, wq: W, wk: W, wv: W) -> X:
    q, k, v = x @ wq, x @ wk, x @ wv
    scores = q @ k.mT / 5.65
    return softmax(scores) @ v


def mlp(
    x: X,
    w1: Tensor[tt.float32, L[32], L[64]],
    b1: Tensor[tt.float32, L[64]],
    w2: Tensor[tt.float32, L[64], L[32]],
    b2: Vec,
) -> X:
    hidden = tt.maximum(x @ w1 + b1, 0.0)
    return hidden @ w2 + b2


def block(x: X, wq: W, wk: W, wv: W, gain: Vec, bias: Vec) -> X:
    h = x + attention(layer_norm(x, gain, bias), wq, wk, wv)
    w1 = tt.random((32, 64), tt.float32, seed=1) * 0.02
    w2 = tt.random((64, 32), tt.float32, seed=2) * 0.02
    b1, b2 = tt.zeros((64,), tt.float32), tt.zeros(32, tt.float32)
    assert_type(w1, Tensor[tt.float32, L[32], L[64]])
    assert_type(b1, Tensor[tt.float32, L[64]])
    return h + mlp(layer_norm(h, gain, bias), w1, b1, w2, b2)


def table(readings: Tensor[tt.float64, L[100], L[6]], ids: Tensor[tt.int32, L[100]]) -> None:
    valid = ~tt.isnan(readings)
    clean = tt.where(valid, readings, 0.0)
    assert_type(clean, Tensor[tt.float64, L[100], L[6]])
    counts = valid.astype(tt.int64).sum(axis=0)
    means = clean.sum(axis=0) / tt.maximum(counts.astype(tt.float64), 1.0)
    assert_type(means, Tensor[tt.float64, L[6]])
    z = (clean - means) / (clean.std(axis=0) + 1e-9)
    outliers = (z > 3.0) | (z < -3.0)
    assert_type(outliers, Tensor[tt.bool_, L[100], L[6]])
    flagged = outliers.any(axis=-1)
    scaled = readings * 1000.0 - 273.15
    even = ids * 2
    assert_type(even, Tensor[tt.int32, L[100]])
    share = flagged.astype(tt.float32).mean()
    assert_type(share, Tensor[tt.float32])
    assert_type(scaled, Tensor[tt.float64, L[100], L[6]])
    grid = tt.arange(6, tt.float64) * tt.ones((100, 6)) + 0.5
    assert_type(grid, Tensor[tt.float64, L[100], L[6]])
