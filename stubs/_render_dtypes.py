"""Render the dtype side of the stubs: the concrete dtype classes of ``_dtypes.pyi`` (each
derives from ``_ReductionDTypes[<result of each varying rule>]``) and how an overload spells
a receiver's and a result's dtype for one ``DTypeRule`` (from ``result_dtype``)."""

from __future__ import annotations

from dataclasses import dataclass

from typedtensor import _rules as rules


def dtype_class_name(name: str) -> str:
    """``'bool' -> 'bool_'``; other dtype names are the class names."""
    return "bool_" if name == "bool" else name


# ------------------------------------------------------------------------------ dtype rules
def varying_rules() -> list[rules.DTypeRule]:
    """Rules whose result depends on the input dtype other than as the identity (SUM, FLOAT)."""
    out = []
    for rule in rules.DTypeRule:
        results = {d: rules.result_dtype(rule, d) for d in rules.DTYPE_NAMES}
        if all(r == d for d, r in results.items()) or len(set(results.values())) == 1:
            continue
        out.append(rule)
    return out


@dataclass(frozen=True)
class DTypeForm:
    """How an overload spells the receiver dtype and the result dtype for one rule."""

    receiver: str
    result: str

    def descriptor_receivers(self) -> list[tuple[str, str]]:
        """(receiver, result) pairs of a method descriptor's ``__get__`` overloads: the rule's
        own, then, for a ``_ReductionDTypes`` pattern, an ``Any`` receiver with an ``Any``
        result (the same for every method descriptor the generator renders)."""
        pairs = [(self.receiver, self.result)]
        if self.receiver.startswith("_ReductionDTypes"):
            pairs.append(("Any", "Any"))
        return pairs


def dtype_form(rule: rules.DTypeRule) -> DTypeForm:
    """Receiver/result dtype spelling for ``rule``, derived from ``result_dtype``."""
    results = {d: rules.result_dtype(rule, d) for d in rules.DTYPE_NAMES}
    if all(r == d for d, r in results.items()):
        return DTypeForm("_S", "_S")
    constants = set(results.values())
    if len(constants) == 1:
        return DTypeForm("Any", dtype_class_name(constants.pop()))
    varying = varying_rules()
    args = ["_R" if r is rule else "Any" for r in varying]
    return DTypeForm(f"_ReductionDTypes[{', '.join(args)}]", "_R")


def rule_typevar(rule: rules.DTypeRule) -> str:
    """Name of the ``_ReductionDTypes`` type parameter for ``rule``."""
    return f"_{rule.name}_co"


def render_dtype_classes() -> dict[str, str]:
    """Template fields of ``_dtypes.pyi``: the rule TypeVars and the concrete dtype classes."""
    from typedtensor._dtypes import BY_NAME

    varying = varying_rules()
    typevars = "\n".join(
        f'{rule_typevar(r)} = TypeVar("{rule_typevar(r)}", covariant=True)' for r in varying
    )
    classes = []
    for name in rules.DTYPE_NAMES:
        cls = BY_NAME[name]
        parent = cls.__mro__[1]
        # a direct DType subclass derives from DType through _ReductionDTypes (a valid MRO)
        base = "" if parent.__name__ == "DType" else f"{parent.__name__}, "
        results = ", ".join(dtype_class_name(rules.result_dtype(r, name)) for r in varying)
        doc = (cls.__doc__ or "").strip().splitlines()[0]
        classes.append(
            f'class {cls.__name__}({base}_ReductionDTypes[{results}]):\n    """{doc}"""\n'
        )
    return {
        "RULE_TYPEVARS": typevars,
        "RULE_PARAMS": ", ".join(rule_typevar(r) for r in varying),
        "DTYPE_CLASSES": "\n".join(classes),
    }
