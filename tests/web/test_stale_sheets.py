"""A play is never computed from a sheet older than the last change committed: another
process's change (whose notice this process has not heard) refuses the play in the writer,
and the service computes it again from the fresh sheet."""

from __future__ import annotations

from rulebound.store import NewEntry, SheetChange, SqlStore

from .conftest import Party

ROLL = {"form": {"skill": "Force"}, "privacy": "public"}


def test_a_roll_after_an_unheard_change_rolls_the_changed_sheet(party: Party, db_url: str) -> None:
    cid = party.character(party.player)
    first = party.client.post(party.url(f"/characters/{cid}/roll"), json=ROLL, headers=party.player)
    assert first.status_code == 201  # the roller's view of the sheet is cached now
    assert "D12" not in first.json()["card"]["title"]
    elsewhere = SqlStore(db_url, migrate=False)  # another process: no notice reaches this one
    try:
        row = elsewhere.character(party.table_id, cid)
        raised = dict(row.sheet, skills={**row.sheet["skills"], "Force": "D12"})
        elsewhere.append(
            NewEntry(party.table_id, "sheet", "public", None, "raised", cid),
            [SheetChange.of(row, raised)],
        )
    finally:
        elsewhere.close()
    rolled = party.client.post(
        party.url(f"/characters/{cid}/roll"), json=ROLL, headers=party.player
    )
    assert rolled.status_code == 201, rolled.text
    assert "D12" in rolled.json()["card"]["title"], rolled.json()["card"]["title"]
