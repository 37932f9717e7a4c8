"""``key_of`` remembers short texts (issue 16: content names and choices are matched on
every request); the key must be the one the rule gives, cached or not."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from rulebound.core import keys
from rulebound.core.keys import key_of


def reference_key(text: str) -> str:
    return re.sub(r"[\s_\-]+", "-", text.strip().casefold()).strip("-")


@given(st.text(alphabet=st.sampled_from("aZ _-\t.ßİ1"), max_size=80))
def test_the_key_is_the_rules_cached_or_not(text: str) -> None:
    assert key_of(text) == reference_key(text)
    assert key_of(text) == reference_key(text)  # the remembered answer


def test_the_examples_from_the_rule() -> None:
    assert key_of("Deep Dark") == key_of("deep_dark") == key_of(" deep-dark ") == "deep-dark"


def test_long_texts_are_not_remembered_and_the_cache_is_bounded() -> None:
    before = keys._cached_key.cache_info().currsize
    long = "word " * 40
    assert key_of(long) == reference_key(long)
    assert keys._cached_key.cache_info().currsize == before
    assert keys._cached_key.cache_info().maxsize == 4096
