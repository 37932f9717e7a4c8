"""``rulebound verify LOG.json``: check a table's exported log, entry by entry.

Exit status 0 when the chain, the commitments and every die check out; 1 when
something does not (each problem names its entry); 2 when the file is not a log
export at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulebound.cli.common import JSON_HELP, emit_json, emit_text, rule_errors


def verify(
    export: Annotated[
        Path, typer.Argument(help="A log exported from the table as JSON (Export: JSON).")
    ],
    allow_uncommitted: Annotated[
        bool,
        typer.Option(
            "--allow-uncommitted",
            help="Accept plays whose dice came from no committed seed (logs from before "
            "verifiable dice); they are counted, not checked.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Check an exported table log: the hash chain, the commitments and every die."""
    from rulebound.trust.verify import load_export, verify_export

    with rule_errors():
        doc = load_export(export)
        report = verify_export(doc, allow_uncommitted=allow_uncommitted)
    if as_json:
        emit_json(report.as_json())
    else:
        emit_text(f"{export}: table {doc.get('table')!r} ({doc.get('ruleset')})")
        for line in report.summary():
            emit_text(f"  {line}")
        for problem in report.problems:
            emit_text(f"FAIL {problem}")
        verdict = "OK" if report.ok else f"FAILED: {len(report.problems)} problem(s)"
        emit_text(verdict)
    if not report.ok:
        raise typer.Exit(1)


def register(root: typer.Typer) -> None:
    root.command("verify")(verify)
