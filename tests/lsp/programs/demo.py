from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")


def mlp(x: Tensor[tt.float32, B, L[16]]) -> Tensor[tt.float32, B, L[10]]:
    w1 = tt.random((16, 64), tt.float32, seed=1)
    hidden = tt.maximum(x @ w1, 0.0)
    w2 = tt.random((64, 10), tt.float32, seed=2)
    logits = hidden @ w2
    probs = tt.exp(logits - logits.logsumexp(axis=-1, keepdims=True))
    return probs


def main() -> None:
    x = tt.random((8, 16), tt.float32, seed=0)
    y = mlp(x)
    batch = tt.stack([y, y, y])
    best = batch.argmax(axis=2)
    wrong = batch.sum(axis=3)
    flat = batch.reshape((3, 79))
    print(best.shape, wrong.shape, flat.shape)
