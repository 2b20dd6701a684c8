"""Errors users see: each names the problem in one line."""

from __future__ import annotations


class MemoryLabError(Exception):
    """Base class: a problem with input or configuration, reported in one line."""


class TenantRequiredError(MemoryLabError):
    """A read or write did not name a tenant; memory fails closed."""


class InvalidMessageError(MemoryLabError):
    """A message cannot be ingested (empty, too long, invalid characters)."""


class DatasetError(MemoryLabError):
    """A dataset file is missing or malformed."""


def require_tenant(tenant: str | None) -> str:
    """Return the tenant, or fail closed when it is missing or blank.

    Raises:
        TenantRequiredError: when no tenant is given.
    """
    if not isinstance(tenant, str) or not tenant.strip():
        raise TenantRequiredError(
            "every memory read and write must name a tenant; none was given"
        )
    return tenant


class TriggerError(MemoryLabError):
    """A trigger raised, answered out of bounds or took too long, and was refused.

    The turn that was being decided stays stored; no compression is recorded
    until the trigger (or the recipe) is fixed.
    """
