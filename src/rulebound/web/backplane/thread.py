"""The listener thread both backplanes share: it holds a subscription open, opens it
again after a failure, backing off, and says in the log once when it is lost and once
when it is back."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import suppress

RETRY_FIRST = 0.5
"""Seconds before the first try to listen again after a failure; each failed try doubles it."""
RETRY_CAP = 5.0
"""The longest wait between two tries."""
log = logging.getLogger("rulebound.web.backplane")


class ListenerThread:
    """One daemon thread that holds a subscription open and opens it again after an error.

    ``errors`` are the failures of the connection (its server gone or restarting, or a
    subscription refused): the thread waits ``RETRY_FIRST`` seconds, doubling at each
    failed try up to ``RETRY_CAP``, and listens again. It says so in the log once as the
    link is lost and once as it is back, not at every try (a host reads one line per
    outage, naming what is down and what falls back meanwhile).

    The subclass's ``_listen`` calls ``_link()`` once its subscription is confirmed: from
    then until a failure, ``linked`` is True (``listening`` is that flag as an event). At
    each such confirmation, the first included, every hook in ``relinked`` runs (in this
    thread) before ``linked`` turns True: notices sent while the link was down are lost
    for good, and a hook drops what may have gone stale meanwhile.
    """

    what = "the backplane"
    """What the log names as unreachable or back (``Redis``, ``PostgreSQL``)."""
    paused = "notices between processes paused; feeds fall back to their poll of the log"
    """What stops while the link is down, and what stands in for it: for the log."""

    def __init__(
        self,
        name: str,
        errors: tuple[type[Exception], ...],
        where: str = "",
        logger: logging.Logger = log,
    ) -> None:
        self._errors = errors
        self._where = where
        self._log = logger
        self._stop = threading.Event()
        self.listening = threading.Event()
        self.relinked: list[Callable[[], None]] = []
        """Called (in the listener's thread) each time the subscription is confirmed."""
        self._down = False
        """An outage was logged and its end was not yet."""
        self._delay = RETRY_FIRST
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    @property
    def linked(self) -> bool:
        """True while the subscription is held and confirmed: no notice may have been
        missed since the last (re)subscription (``relinked``). Thread-safe."""
        return self.listening.is_set()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            if self.linked:  # else it is failing: its wait ends at its timeout
                with suppress(*self._errors):
                    self._wake()
            self._thread.join(timeout=5)

    def _wake(self) -> None:
        """End the listener's current wait for a notice, so that it sees ``_stop`` now
        rather than at the wait's timeout."""

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except self._errors as exc:
                self._lost(exc)
                self._stop.wait(self._delay)
                self._delay = min(self._delay * 2, RETRY_CAP)

    def _lost(self, exc: BaseException) -> None:
        """The link failed: logged if it is the first failure since it was last up."""
        self.listening.clear()
        if self._down:
            return
        self._down = True
        at = f" at {self._where}" if self._where else ""
        self._log.warning(
            "%s unreachable%s: %s: %s (%s); trying again, backing off from %s to %s s",
            self.what,
            at,
            type(exc).__name__,
            str(exc).replace("\n", " "),
            self.paused,
            RETRY_FIRST,
            RETRY_CAP,
        )

    def _link(self) -> None:
        """The subscription is confirmed: the ``relinked`` hooks run, then it is linked
        (logged if an outage was)."""
        self._delay = RETRY_FIRST
        self.listening.clear()  # made again behind the listener's back: not linked meanwhile
        for hook in list(self.relinked):
            try:
                hook()
            except Exception:  # a hook's failure must not end the listener
                self._log.exception("a relinked hook failed")
        self.listening.set()
        if self._down:
            self._down = False
            at = f" at {self._where}" if self._where else ""
            self._log.warning("%s back%s: notices between processes resumed", self.what, at)

    def _listen(self) -> None:
        raise NotImplementedError
