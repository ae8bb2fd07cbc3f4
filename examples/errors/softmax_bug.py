"""softmax.py with a bug: logsumexp without keepdims does not broadcast back.

``logits.logsumexp(axis=-1)`` has shape (4,); subtracting it from (4, 10) lines the 4 up with
the 10 classes.
"""

from __future__ import annotations

import typedtensor as tt

logits = tt.random((4, 10), tt.float64, seed=3)
log_probs = logits - logits.logsumexp(axis=-1)  # expect: typedtensor-shape "cannot broadcast dim 10 with dim 4 at position -1"
