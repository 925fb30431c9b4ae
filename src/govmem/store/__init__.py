"""Storage engines: one interface, SQLite as the embedded default."""

from govmem.store.base import Store
from govmem.store.sqlite_engine import SQLiteStore

__all__ = ["SQLiteStore", "Store"]
