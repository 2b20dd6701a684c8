"""Filters on item values, as LangGraph's stores read them.

A filter maps a field (a dotted path into the value) to a value it must equal,
or to `{operator: operand}` with the comparison operators below. Values that
cannot be ordered against each other never pass an ordering comparison.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")
"""Comparison operators a filter may use, as LangGraph's stores take them."""


def matches(value: Mapping[str, Any], filter: Mapping[str, Any]) -> bool:
    """Whether a value passes every condition of a LangGraph-style filter.

    A condition is a value the field must equal (nested objects and lists
    compare element by element; true is not 1) or an object of operators
    (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`). A field name with dots that
    the value does not hold as such is read as a path ("user.city"). A missing
    field reads as null. Order comparisons compare numbers (or numeric text) by
    value and text with text; anything else does not pass.

    Raises:
        ValueError: for an operator not in `OPERATORS`.
    """
    return all(_passes(_field(value, name), want) for name, want in filter.items())


def _field(value: Mapping[str, Any], name: str) -> Any:
    if name in value:
        return value[name]
    node: Any = value
    for part in name.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _passes(found: Any, want: Any) -> bool:
    if isinstance(want, Mapping):
        if any(isinstance(k, str) and k.startswith("$") for k in want):
            return all(_compare(found, op, operand) for op, operand in want.items())
        return isinstance(found, Mapping) and all(
            _passes(found.get(k), v) for k, v in want.items()
        )
    if isinstance(want, list | tuple):
        return (
            isinstance(found, list | tuple)
            and len(found) == len(want)
            and all(_passes(f, w) for f, w in zip(found, want, strict=True))
        )
    return _equal(found, want)


def _equal(a: Any, b: Any) -> bool:
    # JSON's true is not 1, though Python's True == 1.
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    return bool(a == b)


def _compare(found: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return _passes(found, operand)
    if op == "$ne":
        return not _passes(found, operand)
    if op not in OPERATORS:
        raise ValueError(
            f"filter: unknown operator {op!r} (known: {', '.join(OPERATORS)})"
        )
    pair = _ordered(found, operand)
    if pair is None:
        return False
    a, b = pair
    if op == "$gt":
        return bool(a > b)
    if op == "$gte":
        return bool(a >= b)
    if op == "$lt":
        return bool(a < b)
    return bool(a <= b)


def _ordered(a: Any, b: Any) -> tuple[Any, Any] | None:
    if isinstance(a, str) and isinstance(b, str):
        try:
            return float(a), float(b)
        except ValueError:
            return a, b
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return None
    try:
        return float(a), float(b)
    except (TypeError, ValueError, OverflowError):
        return None


# --- the ranked cache ----------------------------------------------------------------
