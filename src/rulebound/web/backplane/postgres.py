"""PostgreSQL LISTEN/NOTIFY: the backplane where there is no Redis.

The store sends ``pg_notify('rulebound_log', 'TABLE:SEQ:ORIGIN:PARTS')`` inside each write
transaction, so PostgreSQL delivers it on commit, to every process (a change that logs
nothing sends ``TABLE:-:ORIGIN:PARTS``; PARTS names what of the table changed, for the
caches). A ``PgListener`` thread per process hears those and calls back with (table, seq
or "-", origin, parts).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from sqlalchemy.engine import make_url

from rulebound.store.sql import NOTIFY_CHANNEL
from rulebound.web.backplane.thread import ListenerThread


def conninfo(url: str) -> str:
    """The libpq URI for a SQLAlchemy ``postgresql+psycopg://`` URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PgListener(ListenerThread):
    what = "PostgreSQL"
    wait_seconds = 0.2
    """How long one wait for notices lasts before the thread looks at ``_stop`` again."""

    def __init__(self, url: str, callback: Callable[[int, str, str, str], None]) -> None:
        import psycopg  # the postgres extra: a table on SQLite runs without it

        parsed = make_url(url)
        where = f"{parsed.host or 'localhost'}:{parsed.port or 5432}/{parsed.database or ''}"
        super().__init__("rulebound-pg-listen", (psycopg.Error,), where)
        self._conninfo = conninfo(url)
        self._callback = callback
        self._waking = f"{NOTIFY_CHANNEL}_wake_{os.getpid()}_{id(self)}"
        """A channel of this listener's own: a notice on it ends the wait (``_wake``)."""

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            conn.execute(f"LISTEN {self._waking}")
            self._link()
            while not self._stop.is_set():
                for note in conn.notifies(timeout=self.wait_seconds):
                    if note.channel == self._waking:
                        break  # to look at _stop
                    table, seq, origin, parts = [*note.payload.split(":"), "", "", ""][:4]
                    if table.isdecimal() and (seq.isdecimal() or seq == "-"):
                        self._callback(int(table), seq, origin, parts)

    def _wake(self) -> None:
        import psycopg

        with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5) as conn:
            conn.execute("SELECT pg_notify(%s, '')", [self._waking])
