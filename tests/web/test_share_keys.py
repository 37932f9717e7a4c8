"""The live feed's grouping (``views.share_keys``) gives every viewer exactly the key
``views.share_key`` gives them alone: it only skips working out the same key twice."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulebound.store import CharacterRow, LogEntry, Member, TableRow
from rulebound.web.auth import Viewer
from rulebound.web.views import Context, share_key, share_keys

from ..hunt import examples

NOW = datetime(2026, 12, 3, tzinfo=UTC)
TABLE = TableRow(1, "T", "empty-reach", {}, "g", "p", "o", NOW)
IDS = st.integers(1, 3)

members = st.builds(
    lambda id_, role, grant_all, revoked: Member(id_, 1, role, f"m{id_}", revoked, grant_all, NOW),
    IDS,
    st.sampled_from(["gm", "player", "observer"]),
    st.booleans(),
    st.booleans(),
)
entries = st.builds(
    lambda kind, privacy, actor, character, card, commitment, to: LogEntry(
        7,
        1,
        3,
        kind,
        privacy,
        actor,
        character,
        None,
        {},
        card,
        "s",
        NOW,
        commitment=commitment,
        to_id=to if privacy == "whisper" else None,
    ),
    st.sampled_from(["roll", "note", "reveal", "void", "push", "talk", "free-roll", "turn"]),
    st.sampled_from(["public", "gm", "blind", "self", "whisper"]),
    st.none() | IDS,
    st.none() | st.integers(1, 2),
    st.sampled_from([None, {}, {"actions": []}, {"actions": [{"kind": "push"}]}]),
    st.sampled_from([None, "c" * 64]),
    IDS,
)
characters = st.dictionaries(
    st.integers(1, 2),
    st.none() | IDS,
).map(
    lambda owners: {
        cid: CharacterRow(cid, 1, owner, f"c{cid}", {}, 1, NOW) for cid, owner in owners.items()
    }
)


ACTS = {"actions": [{"kind": "push"}]}
OWNED = {1: CharacterRow(1, 1, 2, "c1", {}, 1, NOW)}


def _player(id_: int, grant_all: bool = False) -> Member:
    return Member(id_, 1, "player", f"p{id_}", False, grant_all, NOW)


@settings(max_examples=examples(400))
@given(
    entry=entries,
    found=characters,
    followed=st.sets(st.just(7)),
    seated=st.lists(members, min_size=1, max_size=12),
)
@example(  # a whisper's addressee knows of it; another player of the same standing does not
    entry=LogEntry(7, 1, 3, "talk", "whisper", 1, None, None, {"to": 2}, None, "s", NOW, to_id=2),
    found={},
    followed=set(),
    seated=[_player(3), _player(2)],
)
@example(  # the character's owner may act on it; another player may not
    entry=LogEntry(7, 1, 3, "roll", "public", None, 1, None, {}, ACTS, "s", NOW),
    found=OWNED,
    followed=set(),
    seated=[_player(2), _player(3)],
)
@example(  # a player granted every character may act on it; one not granted may not
    entry=LogEntry(7, 1, 3, "roll", "public", None, 1, None, {}, ACTS, "s", NOW),
    found=OWNED,
    followed=set(),
    seated=[_player(1, grant_all=True), _player(3)],
)
def test_grouped_keys_are_each_viewers_own(
    entry: LogEntry,
    found: dict[int, CharacterRow],
    followed: set[int],
    seated: list[Member],
) -> None:
    viewers = [
        Viewer(TABLE, member, f"csrf{n}", via_cookie=False) for n, member in enumerate(seated)
    ]
    ctx = Context(viewers[0], {}, found, followed)
    alone = [share_key(entry, Context(v, {}, found, followed)) for v in viewers]
    assert share_keys(entry, ctx, viewers) == alone
