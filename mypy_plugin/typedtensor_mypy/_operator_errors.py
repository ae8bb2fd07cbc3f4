"""One error per operator bug: report a shape error of ``a - b`` or ``a @ b`` past mypy's
trial of the operator.

mypy type-checks ``a - b`` by trying ``a.__sub__(b)`` and then ``b.__rsub__(a)``, each with
its errors held back (``checkexpr.check_op_reversible``); when both report errors it types the
expression ``Any`` (from an error), and ``--strict`` then adds a second error for the same bug
(``Returning Any from function declared to return ...  [no-any-return]``). A shape error is
not a sign that the other method would fit: reported past the trial's own error watcher (the
innermost one; every outer watcher still sees it), the forward call succeeds with the
unknown-shape Tensor of its dtype, and the reflected method is not tried.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mypy.nodes import ComparisonExpr, OpExpr

from ._args import CallContext

__all__ = ["past_operator_trial"]


@contextmanager
def past_operator_trial(ctx: CallContext) -> Iterator[None]:
    """Within it, ``ctx.api.fail``/``note`` skip the error watcher mypy puts around one trial
    of an operator method (only for ``a <op> b`` expressions, and only a watcher that holds
    the errors back to decide between the two methods); elsewhere it changes nothing."""
    if not isinstance(ctx.context, (OpExpr, ComparisonExpr)):
        yield
        return
    errors = getattr(getattr(ctx.api, "msg", None), "errors", None)
    watchers = getattr(errors, "_watchers", None)
    top = watchers[-1] if isinstance(watchers, list) and watchers else None
    trial = top is not None and getattr(top, "_filter", None) is True
    if not (trial and getattr(top, "_filtered", None) is not None):
        yield
        return
    assert isinstance(watchers, list)
    watchers.pop()
    try:
        yield
    finally:
        watchers.append(top)
