from __future__ import annotations

from collections.abc import Iterator

import pytest

from rulebound.store import SqlStore


@pytest.fixture
def store(db_url: str) -> Iterator[SqlStore]:
    opened = SqlStore(db_url)
    yield opened
    opened.close()
