"""Persistence behind an interface: tables, members, characters and the table log.

``Store`` (``base.py``) is the interface; ``SqlStore`` (``sql.py``) implements it
on SQLAlchemy 2 for SQLite and PostgreSQL, migrating the database at start.
"""

from rulebound.store.base import (
    PRIVACY_MODES,
    ROLES,
    CharacterRow,
    Conflict,
    Contribution,
    Dice,
    LogEntry,
    Member,
    NewEntry,
    NotFound,
    Privacy,
    Role,
    Scope,
    Seed,
    SheetChange,
    Staged,
    Store,
    StoreError,
    TableRow,
)
from rulebound.store.sql import SqlStore

__all__ = [
    "PRIVACY_MODES",
    "ROLES",
    "CharacterRow",
    "Conflict",
    "Contribution",
    "Dice",
    "LogEntry",
    "Member",
    "NewEntry",
    "NotFound",
    "Privacy",
    "Role",
    "Scope",
    "Seed",
    "SheetChange",
    "SqlStore",
    "Staged",
    "Store",
    "StoreError",
    "TableRow",
]
