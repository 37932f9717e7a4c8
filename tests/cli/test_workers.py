"""``serve --workers``' sockets (``cli/workers``): the supervisor's claim on the port takes no
connection, and each worker, receiving it, listens on the port beside the others."""

from __future__ import annotations

import pickle
import socket
from multiprocessing.reduction import ForkingPickler

import pytest

from rulebound.cli.workers import PortClaim


def _connects(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return False
    return True


def test_the_claim_holds_the_port_and_takes_no_connection() -> None:
    claim = PortClaim.bound("127.0.0.1", 0)
    try:
        port = claim.getsockname()[1]
        assert not _connects(port)  # bound, not listening: the kernel sends it nothing
        plain = socket.socket()
        try:
            with pytest.raises(OSError, match="in use"):  # not without SO_REUSEPORT
                plain.bind(("127.0.0.1", port))
        finally:
            plain.close()
    finally:
        claim.close()


def test_a_worker_receiving_the_claim_listens_on_its_port_beside_the_others() -> None:
    claim = PortClaim.bound("127.0.0.1", 0)
    port = claim.getsockname()[1]
    sent = bytes(ForkingPickler.dumps(claim))  # as uvicorn's supervisor sends it to a worker
    workers = [pickle.loads(sent) for _ in range(2)]
    try:
        for sock in workers:
            assert type(sock) is socket.socket
            assert sock.getsockname() == ("127.0.0.1", port)
        assert _connects(port)
        accepted = set()
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(32)]
        for sock in workers:
            sock.setblocking(False)
            while True:
                try:
                    conn, _ = sock.accept()
                except BlockingIOError:
                    break
                conn.close()
                accepted.add(sock.fileno())
        for client in clients:
            client.close()
        assert len(accepted) == 2  # the kernel gave each listening socket some of them
    finally:
        for sock in workers:
            sock.close()
        claim.close()


def test_a_port_already_taken_is_refused() -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        with pytest.raises(OSError, match="in use"):
            PortClaim.bound("127.0.0.1", taken.getsockname()[1])
    finally:
        taken.close()
