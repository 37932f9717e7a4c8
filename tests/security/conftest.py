"""The security tests reuse the web table's fixtures: an app on SQLite and (with
RULEBOUND_TEST_PG_URL) PostgreSQL, a party seated through the API, chosen dice."""

from __future__ import annotations

from ..web.conftest import (  # noqa: F401  (fixtures, registered by import)
    app,
    client,
    dice,
    party,
)
