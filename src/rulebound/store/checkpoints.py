"""SQLite's WAL checkpoints in a thread of their own.

In WAL mode each commit appends the pages it changed to the log file, and by default
the commit that takes the log past 1,000 pages also copies the log back into the
database and syncs both files: that commit's writes would pay for every other's. The
store's own connections checkpoint only past ``BACKSTOP`` pages;
a daemon thread, woken by a commit, runs a passive checkpoint at most every
``EVERY`` seconds on a connection of its own. The driver lets go of the interpreter
lock while SQLite copies and syncs, so the writer goes on meanwhile. Durability
is unchanged (WAL, ``synchronous=NORMAL``): a checkpoint only moves committed pages
into the database file. Should the thread fall behind or stop, the connections'
backstop checkpoints as before, so the log never grows without bound.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

BACKSTOP = 10_000
"""Pages (4 KiB each) past which a committing connection checkpoints itself."""
EVERY = 0.05
"""Seconds between the thread's checkpoints while writes go on."""

log = logging.getLogger(__name__)


class Checkpoints:
    """The checkpoint thread of one SQLite file, started by the first commit."""

    def __init__(self, database: str) -> None:
        self.database = database
        self._dirty = threading.Event()
        self._closed = False
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self.done = 0
        """Checkpoints run (the tests read it)."""

    def written(self) -> None:
        """A commit made the log longer: checkpoint soon."""
        if self._dirty.is_set():
            return
        if self._thread is None:
            with self._start:
                if self._thread is None and not self._closed:
                    self._thread = threading.Thread(
                        target=self._run, name="rulebound-checkpoints", daemon=True
                    )
                    self._thread.start()
        self._dirty.set()

    def close(self) -> None:
        """Stop the thread after a last checkpoint (it holds its own connection)."""
        with self._start:
            self._closed = True
            thread = self._thread
        self._dirty.set()
        if thread is not None:
            thread.join(5)

    def _run(self) -> None:
        connection = sqlite3.connect(self.database, check_same_thread=False, timeout=5)
        try:
            while True:
                self._dirty.wait()
                self._dirty.clear()
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.done += 1
                except sqlite3.Error as exc:  # a busy file or a full disk: the backstop holds
                    log.warning("background checkpoint of %s failed: %s", self.database, exc)
                if self._closed:
                    return
                time.sleep(EVERY)  # commits meanwhile set _dirty: one checkpoint for all
        finally:
            connection.close()
