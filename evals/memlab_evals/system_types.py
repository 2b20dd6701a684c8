"""What every system under test returns: the context it injects and its build cost.

Its own module so that the systems and the baselines can share the types without
importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class Context(NamedTuple):
    """What a system would inject for one question."""

    text: str
    tokens: int
    items: list[str]


@dataclass(frozen=True)
class BuildCost:
    """What building the memory cost, for the log's cost columns."""

    brain: str = ""
    calls: int = 0
    tokens: int = 0
    compressions: int = 0
    usage: dict[str, int] = field(default_factory=dict)
