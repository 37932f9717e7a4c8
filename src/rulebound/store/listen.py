"""PostgreSQL LISTEN/NOTIFY: the backplane that wakes feeds across server processes.

``SqlStore.append`` sends ``pg_notify('rulebound_log', 'TABLE:SEQ:ORIGIN:PARTS')``
inside the write transaction, so PostgreSQL delivers it on commit, to every process (a
change that logs nothing sends ``TABLE:-:ORIGIN:PARTS``; PARTS names what of the table
changed, for the caches). A ``PgListener`` thread per process hears those and calls
back with (table, seq or "-", origin, parts): the fallback backplane where there is no
Redis (``web/backplane.py``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import psycopg
from sqlalchemy.engine import make_url

from rulebound.store.sql import NOTIFY_CHANNEL

RETRY_SECONDS = 1.0
log = logging.getLogger("rulebound.store")


def conninfo(url: str) -> str:
    """The libpq URI for a SQLAlchemy ``postgresql+psycopg://`` URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class ListenerThread:
    """One daemon thread that holds a subscription open and opens it again after an error.

    ``errors`` are the failures of the connection (its server gone or restarting, or a
    subscription refused): the thread logs a warning, waits ``RETRY_SECONDS`` and listens
    again; ``listening`` is set while it listens.
    """

    def __init__(self, name: str, errors: tuple[type[Exception], ...]) -> None:
        self._errors = errors
        self._stop = threading.Event()
        self.listening = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except self._errors as exc:
                self.listening.clear()
                log.warning(
                    "%s: %s; listening again in %s s", self._thread.name, exc, RETRY_SECONDS
                )
                self._stop.wait(RETRY_SECONDS)

    def _listen(self) -> None:
        raise NotImplementedError


class PgListener(ListenerThread):
    def __init__(self, url: str, callback: Callable[[int, str, str, str], None]) -> None:
        super().__init__("rulebound-pg-listen", (psycopg.Error,))
        self._conninfo = conninfo(url)
        self._callback = callback

    def _listen(self) -> None:
        with psycopg.connect(self._conninfo, autocommit=True) as conn:
            conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            self.listening.set()
            while not self._stop.is_set():
                for note in conn.notifies(timeout=0.2):
                    table, seq, origin, parts = [*note.payload.split(":"), "", "", ""][:4]
                    if table.isdecimal() and (seq.isdecimal() or seq == "-"):
                        self._callback(int(table), seq, origin, parts)
