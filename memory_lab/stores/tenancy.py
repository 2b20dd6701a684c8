"""Checks every store makes before a write: a named tenant that owns the records."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from memory_lab.errors import MemoryLabError, require_tenant


class TenantMismatchError(MemoryLabError, ValueError):
    """A record names a different tenant than the call that writes it."""


class _Owned(Protocol):
    tenant: str


def require_owned(tenant: str | None, records: Iterable[_Owned]) -> str:
    """Return the tenant once it is named and owns every record.

    A write whose records carry another tenant is refused as a whole rather than
    silently re-labelled: a mislabelled record is a leak waiting to happen.

    Raises:
        TenantRequiredError: when no tenant is given.
        TenantMismatchError: when a record belongs to another tenant.
    """
    owner = require_tenant(tenant)
    for record in records:
        if record.tenant != owner:
            raise TenantMismatchError(
                f"record of tenant {record.tenant!r} cannot be written for {owner!r}"
            )
    return owner
