"""Persistence behind an interface: tables, members, characters and the table log.

``Store`` (``base.py``) is the interface; ``SqlStore`` (``sql.py``) implements it
on SQLAlchemy 2 for SQLite and PostgreSQL, migrating the database at start.
"""

from rulebound.store.base import *  # noqa: F403  (the interface and its types)
from rulebound.store.base import __all__ as _interface
from rulebound.store.sql import SqlStore

__all__ = [*_interface, "SqlStore"]
