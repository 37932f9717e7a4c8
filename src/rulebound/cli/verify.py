"""``rulebound verify LOG.json``: check a table's exported log, entry by entry.

Exit status 0 when the chain, the commitments and every die check out; 1 when
something does not (each problem names its entry); 2 when the file is not a log
export at all.
"""

from __future__ import annotations

from pathlib import Path

import click

from rulebound.cli.output import JSON_HELP, emit_json, emit_text, rule_errors


@click.command("verify")
@click.argument("export", type=click.Path(path_type=Path))
@click.option(
    "--allow-uncommitted",
    is_flag=True,
    help="Accept plays whose dice came from no committed seed (logs from before "
    "verifiable dice); they are counted, not checked.",
)
@click.option(
    "--earlier",
    type=click.Path(path_type=Path),
    help="An earlier copy of the same export: every entry it holds must be unchanged "
    "(a log rewritten after the fact is named at its first changed entry).",
)
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def command(export: Path, allow_uncommitted: bool, earlier: Path | None, as_json: bool) -> None:
    """Check an exported table log: the hash chain, the commitments and every die."""
    from rulebound.trust.verify import load_export, verify_export

    with rule_errors():
        doc = load_export(export)
        before = None if earlier is None else load_export(earlier)
        report = verify_export(doc, allow_uncommitted=allow_uncommitted, earlier=before)
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
        raise SystemExit(1)
