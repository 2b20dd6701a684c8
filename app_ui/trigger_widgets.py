"""Widget specs for trigger parameters, read from each trigger's parameter model.

The sidebar draws one widget per field of every chosen trigger's `TriggerParams`
model, so a trigger registered later (a plug-in, a notebook cell) gets controls
with no edit to the app. This module only reads the models; it never imports
Streamlit, so what each field turns into is tested without running the app.
"""

from __future__ import annotations

import enum
import math
import types
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic.fields import FieldInfo

from memory_lab.triggers import Trigger, TriggerParams

Kind = Literal["int", "float", "choice", "bool", "text", "fixed"]
"""How a field is edited; "fixed" fields have no widget and keep their default."""


@dataclass(frozen=True)
class WidgetSpec:
    """One parameter's widget: everything the sidebar passes to Streamlit."""

    name: str
    """The recipe parameter it sets, trigger prefix included: ``a_max_messages``."""
    kind: Kind
    label: str
    help: str
    default: Any
    """The widget's starting value; never None (see `off`)."""
    optional: bool = False
    """The field takes None (``int | None``): an "off" box sits beside the widget."""
    off: bool = False
    """Whether the "off" box starts ticked (the field's default is None)."""
    min_value: int | float | None = None
    max_value: int | float | None = None
    step: int | float | None = None
    format: str | None = None
    options: tuple[Any, ...] = ()

    @property
    def key(self) -> str:
        """Streamlit key of the widget, stable across reruns: ``p_a_max_messages``."""
        return f"p_{self.name}"

    @property
    def off_key(self) -> str:
        """Streamlit key of the "off" box; its own namespace, so it never collides."""
        return f"off_{self.name}"


def trigger_label(trigger: Trigger) -> str:
    """The trigger's name with its one-line summary, as the recipe picker shows it."""
    summary = trigger.summary.strip()
    if not summary:
        return trigger.name
    # Shipped summaries start with their own name ("A: at a message count, ...").
    if summary.upper().startswith(f"{trigger.name}:"):
        return summary
    return f"{trigger.name}: {summary}"


def recipe_spec(names: Iterable[str]) -> str:
    """The recipe spec a set of triggers makes, sorted as `memory_lab.recipes` does."""
    return "+".join(sorted({n.upper() for n in names}))


def trigger_specs(trigger: Trigger) -> tuple[WidgetSpec, ...]:
    """Widget specs for a registered trigger, named as a combined recipe names them."""
    return widget_specs(trigger.params, trigger.prefix)


def widget_specs(
    params: type[TriggerParams], prefix: str = ""
) -> tuple[WidgetSpec, ...]:
    """One spec per field of `params`, in declaration order.

    Args:
        params: A trigger's parameter model.
        prefix: Put before each field name (``a_``), so the names are the ones
            `memory_lab.config.Recipe.with_params` takes for a combined recipe.
    """
    return tuple(
        _spec(prefix + name, name, field) for name, field in params.model_fields.items()
    )


def _spec(name: str, field_name: str, field: FieldInfo) -> WidgetSpec:
    inner, optional = _unwrap_optional(field.annotation)
    default = field.get_default(call_default_factory=True)
    text = (field.description or "").strip()
    common = {
        "name": name,
        "label": field.title or field_name.replace("_", " "),
        # The parameter's name is what a recipe spec or `--systems` takes.
        "help": f"{text} Recipe parameter `{name}`.".strip(),
        "optional": optional,
        "off": optional and default is None,
    }
    bounds = _bounds(field)
    if inner is bool:
        return WidgetSpec(kind="bool", default=bool(default), **common)
    if inner is int:
        low = _first(bounds["ge"], _shift(bounds["gt"], 1))
        high = _first(bounds["le"], _shift(bounds["lt"], -1))
        step = int(bounds["multiple_of"] or 1)
        start = default if default is not None else _fill(low, high, 0)
        return WidgetSpec(
            kind="int",
            default=int(start),
            min_value=None if low is None else int(low),
            max_value=None if high is None else int(high),
            step=step,
            **common,
        )
    if inner is float:
        start = default if default is not None else None
        step = float(bounds["multiple_of"] or _float_step(start))
        # number_input bounds are inclusive; an exclusive one moves in by a step.
        low = _first(bounds["ge"], _shift(bounds["gt"], step))
        high = _first(bounds["le"], _shift(bounds["lt"], -step))
        if start is None:
            start = _fill(low, high, 0.0)
        low = None if low is None else min(float(low), float(start))
        high = None if high is None else max(float(high), float(start))
        decimals = max(0, -math.floor(math.log10(step)))
        return WidgetSpec(
            kind="float",
            default=float(start),
            min_value=low,
            max_value=high,
            step=step,
            format=f"%.{decimals}f",
            **common,
        )
    choices = _choices(inner)
    if choices:
        start = default if default is not None else choices[0]
        return WidgetSpec(kind="choice", default=start, options=choices, **common)
    if inner is str:
        return WidgetSpec(
            kind="text", default="" if default is None else default, **common
        )
    return WidgetSpec(kind="fixed", default=default, **common)


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True); anything else -> (itself, False)."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1 and len(args) < len(get_args(annotation)):
            return args[0], True
    return annotation, False


def _choices(annotation: Any) -> tuple[Any, ...]:
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return tuple(annotation)
    return ()


def _bounds(field: FieldInfo) -> dict[str, Any]:
    """ge, gt, le, lt and multiple_of from the field's constraints (None if unset)."""
    found: dict[str, Any] = dict.fromkeys(("ge", "gt", "le", "lt", "multiple_of"))
    for item in field.metadata:
        for attr in found:
            value = getattr(item, attr, None)
            if value is not None:
                found[attr] = value
    return found


def _float_step(default: float | None) -> float:
    """A step of one tenth of the default's leading digit (0.4 -> 0.01)."""
    if not default:
        return 0.01
    return 10.0 ** (math.floor(math.log10(abs(default))) - 1)


def _shift(value: Any, by: float) -> Any:
    return None if value is None else value + by


def _first(*values: Any) -> Any:
    return next((v for v in values if v is not None), None)


def _fill(low: Any, high: Any, zero: Any) -> Any:
    """A starting value inside the bounds for a field whose default is None."""
    if low is not None:
        return low
    if high is not None and high < zero:
        return high
    return zero
