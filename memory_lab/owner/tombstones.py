"""Tombstones: the lasting record that a purge happened, and its progress.

The record and its table live with the other SQL stores
(`stores.sql_purges`); owner code and users' scripts import them from here.
"""

from __future__ import annotations

from memory_lab.stores.sql_purges import DONE, RUNNING, PurgeLog, Tombstone

__all__ = ["DONE", "RUNNING", "PurgeLog", "Tombstone"]
