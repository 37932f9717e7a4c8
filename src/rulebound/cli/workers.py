"""``serve --workers N``: N server processes, each accepting on a listening socket of its own.

uvicorn's supervisor binds one socket and every worker accepts on it. Each worker's event
loop, woken by a connection, accepts every connection then waiting, so a burst of keep-alive
connections (a table's players arriving together, a load test) can all land on one worker
while the others idle: measured, 16 clients all on one of two workers in some runs, half the
rate of a balanced run. Here each worker listens on a socket of its own, bound to the same
port with ``SO_REUSEPORT``, and the kernel shares the connections out among the listening
sockets by their addresses.

uvicorn's supervisor still starts, watches and restarts the workers. What it hands each new
worker is a ``PortClaim``: a socket bound to the port but not listening (so the kernel sends
it no connection) that holds the port for the supervisor's lifetime, and that a worker,
receiving it, replaces by its own listening socket on the same address.
"""

from __future__ import annotations

import socket
from typing import Any

BACKLOG = 2048
"""uvicorn's default backlog."""


def _bound(sock: socket.socket, host: str, port: int) -> None:
    """``sock`` bound to (host, port) beside the other workers' (``SO_REUSEPORT``), or closed
    and the error raised."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise


def listening(family: int, host: str, port: int) -> socket.socket:
    """A socket listening on (host, port) beside the other workers'."""
    sock = socket.socket(family, socket.SOCK_STREAM)
    _bound(sock, host, port)
    try:
        sock.listen(BACKLOG)
    except BaseException:
        sock.close()
        raise
    return sock


class PortClaim(socket.socket):
    """The port, bound with ``SO_REUSEPORT`` and not listening; sent to a worker process, it
    arrives as that worker's own listening socket there (``listening``)."""

    @classmethod
    def bound(cls, host: str, port: int) -> PortClaim:
        """Bound to (host, port); an ``OSError`` where something else holds the port."""
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        claim = cls(family, socket.SOCK_STREAM)
        _bound(claim, host, port)
        return claim

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, tuple[int, str, int]]:
        host, port = self.getsockname()[:2]
        return listening, (int(self.family), str(host), int(port))


def run_workers(config: Any, claim: PortClaim) -> None:
    """Run ``config.workers`` processes of ``config``'s app on ``claim``'s port under
    uvicorn's supervisor, until it stops; then let the port go."""
    from uvicorn.supervisors import Multiprocess

    try:
        Multiprocess(config, sockets=[claim]).run()
    finally:
        claim.close()
