"""Real Chromium against a real server, reusing the web table's browser fixtures, plus a
second tiny server on another port that plays the attacker's page."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ...web.browser.conftest import (  # noqa: F401  (fixtures, registered by import)
    browser_type_launch_args,
    contexts,
    db_url,
    server,
    table,
)
from ...web.conftest import dice  # noqa: F401


class Attacker:
    """Serves whatever page a test sets, at http://HOST:PORT/ (another origin than the table)."""

    def __init__(self) -> None:
        self.page = "<!doctype html><title>nothing</title>"
        attacker = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = attacker.page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: object) -> None:
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, host: str) -> str:
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


@pytest.fixture
def attacker() -> Iterator[Attacker]:
    served = Attacker()
    yield served
    served.close()
