"""What a brain's model is doing now: a small read model for the app.

Replies and background memory work (summaries, condensing, extraction) reach
the model on separate lanes, each with its own circuit breaker, so a slow
summary on a small local model never sends replies to the fallback. A person
watching the app should see each lane's state: `ready`, `busy` (calls in
flight) or `failing over` (its breaker is open, so the fallback brain does that
lane's work until the cool-down ends).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

Role = Literal["reply", "background"]
RoleState = Literal["ready", "busy", "failing over"]

ROLE_LABELS: dict[Role, str] = {"reply": "Replies", "background": "Memory work"}


@dataclass(frozen=True)
class RoleStatus:
    """One lane to the model, as of the moment it was read.

    Attributes:
        role: `reply` (what the user waits for) or `background` (memory work).
        state: `ready`, `busy` or `failing over`.
        in_flight: Calls waiting on the endpoint now.
        retry_in_s: While failing over, seconds until the model is tried again.
        last_error: Why the last call that reached the endpoint failed; None once
            a call has succeeded since.
    """

    role: Role
    state: RoleState
    in_flight: int = 0
    retry_in_s: float = 0.0
    last_error: str | None = None


@dataclass(frozen=True)
class ModelStatus:
    """Every lane of a brain's model; `model` is None for a brain without one.

    Attributes:
        model: The model's id, or None (the rule-based brain calls no model).
        roles: One status per lane, replies first.
    """

    model: str | None
    roles: tuple[RoleStatus, ...] = ()

    @property
    def has_model(self) -> bool:
        """Whether there is a model whose lanes are worth showing."""
        return self.model is not None

    def role(self, role: Role) -> RoleStatus:
        """The lane for `role`.

        Raises:
            KeyError: for a brain without a model.
        """
        for item in self.roles:
            if item.role == role:
                return item
        raise KeyError(role)


NO_MODEL = ModelStatus(model=None)


@runtime_checkable
class ReportsStatus(Protocol):
    """A brain that can say what its model is doing."""

    def status(self) -> ModelStatus:
        """Each lane's state now; cheap and safe to call from any thread."""
        ...


def brain_status(brain: object) -> ModelStatus:
    """`brain.status()`, or `NO_MODEL` for a brain that reports none (a test fake)."""
    return brain.status() if isinstance(brain, ReportsStatus) else NO_MODEL
