"""A recipe: a named combination of registered triggers and their parameters.

Kept in the triggers package, below `memory_lab.config`, because a recipe is
checked against the trigger registry when it is made; `config` re-exports it.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator, model_validator

from memory_lab.frozen import Frozen
from memory_lab.triggers.registry import get_trigger


class TriggerUse(Frozen):
    """One trigger of a recipe: its registered name and its full parameters."""

    name: str = Field(description="A name in `memory_lab.triggers` (A, B, C, D...).")
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="Every parameter, defaults filled in, as the trigger's model "
        "dumps them (so the run log shows what ran, not only what was changed).",
    )


class Recipe(Frozen):
    """A named combination of triggers; any one firing compresses (any-of).

    Triggers are looked up in `memory_lab.triggers` when the recipe is made, so a
    recipe naming an unknown trigger or a bad parameter fails at once.
    """

    name: str
    triggers: tuple[TriggerUse, ...]
    episode_max_messages: int = Field(
        default=12, ge=1, description="Long spans are split into episodes this size."
    )
    decision_seconds: float = Field(
        default=30.0,
        gt=0,
        description="How long the recipe's triggers may take to decide, together, "
        "before the one still deciding is refused.",
    )

    @model_validator(mode="after")
    def _known_triggers(self) -> Recipe:
        if not self.triggers:
            raise ValueError(f"recipe {self.name!r} has no trigger")
        names = [t.name for t in self.triggers]
        if len(set(names)) != len(names):
            raise ValueError(f"recipe {self.name!r} names a trigger twice")
        return self

    @field_validator("triggers", mode="after")
    @classmethod
    def _full_params(cls, uses: tuple[TriggerUse, ...]) -> tuple[TriggerUse, ...]:
        """Each trigger registered and its parameters valid, defaults filled in."""
        full = []
        for use in uses:
            trigger = get_trigger(use.name)
            if trigger is None:
                raise ValueError(f"unknown trigger {use.name!r}")
            params = trigger.params.model_validate(use.params)
            full.append(
                TriggerUse(name=trigger.name, params=params.model_dump(mode="json"))
            )
        return tuple(full)

    def params_of(self, name: str) -> Any:
        """The typed parameters of one of the recipe's triggers; None if absent."""
        for use in self.triggers:
            if use.name == name.upper():
                trigger = get_trigger(use.name)
                return trigger.params.model_validate(use.params) if trigger else None
        return None

    def with_params(self, **params: object) -> Recipe:
        """A copy with parameters overridden.

        A trigger's parameter is named with its trigger's prefix (``a_max_messages``)
        or, when only one of the recipe's triggers has it, alone (``threshold``);
        recipe-level fields (``episode_max_messages``) by their names.

        Raises:
            ValueError: naming a parameter no trigger of the recipe takes.
        """
        data = self.model_dump()
        uses = {u["name"]: u for u in data["triggers"]}
        fields: dict[str, set[str]] = {}
        for name in uses:
            trigger = get_trigger(name)
            assert trigger is not None  # checked when the recipe was made
            fields[name] = set(trigger.params.model_fields)
        for key, value in params.items():
            if key in data and key not in ("name", "triggers"):
                data[key] = value
                continue
            target = None
            for name in uses:
                prefix = name.lower() + "_"
                if key.startswith(prefix) and key[len(prefix) :] in fields[name]:
                    target = (name, key[len(prefix) :])
            if target is None:
                owners = [name for name in uses if key in fields[name]]
                if len(owners) == 1:
                    target = (owners[0], key)
                elif len(owners) > 1:
                    raise ValueError(
                        f"parameter {key!r} is taken by triggers {', '.join(owners)} "
                        f"of recipe {self.name!r}: prefix it, e.g. "
                        f"{owners[0].lower()}_{key}"
                    )
            if target is None:
                known = sorted(
                    f"{name.lower()}_{field}" for name in uses for field in fields[name]
                )
                raise ValueError(
                    f"unknown recipe parameter {key!r} for {self.name!r}; "
                    f"known: {', '.join(known + ['episode_max_messages'])}"
                )
            name, field = target
            uses[name]["params"][field] = value
        return Recipe.model_validate(data)
