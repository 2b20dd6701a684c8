"""The SQLite stores in one import; each lives in its own module beside this one.

All three may share one database file, e.g. `<data_dir>/memory.sqlite3`.
"""

from memory_lab.stores.sqlite_events import SqliteEventLog
from memory_lab.stores.sqlite_facts import SqliteFactStore
from memory_lab.stores.sqlite_transcript import SqliteTranscriptStore

__all__ = ["SqliteEventLog", "SqliteFactStore", "SqliteTranscriptStore"]
