"""The SQLAlchemy 2 store: one code path for SQLite and PostgreSQL.

Every write goes through the writer (``store/writer``): one thread (SQLite) or a few
(PostgreSQL) take what waits and write it in one transaction, each table's lock taken
once (``SELECT ... FOR UPDATE`` on its row; on SQLite, ``BEGIN IMMEDIATE`` holds the
database's), so two writers, threads or processes, can never fork a table's chain. Every
method that changes something writes its log entry in the same transaction: one user
action is one commit, or nothing. A contribution is used once per table (a unique index).

The parts, by what they keep: ``tables`` (tables, invites, members), ``characters``,
``log`` (entries, committed seeds, server secrets), ``discord`` (channels, identities).
"""

from rulebound.store.sealing import parts_changed
from rulebound.store.sql.common import NOTIFY_CHANNEL
from rulebound.store.sql.store import SqlStore

__all__ = ["NOTIFY_CHANNEL", "SqlStore", "parts_changed"]
