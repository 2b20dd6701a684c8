"""The base of every frozen configuration model.

Its own module so the configuration split across modules (`config`,
`fact_config`, `llm_settings`, `triggers.recipe`) shares one base without any of
them importing another.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """Base for immutable, strict configuration models."""

    model_config = ConfigDict(frozen=True, extra="forbid")
