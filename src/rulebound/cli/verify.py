"""``rulebound verify LOG.json``: check a table's exported log, entry by entry.

Exit status 0 when the chain, the commitments and every die check out; 1 when
something does not (each problem names its entry); 2 when the file is not a log
export at all. ``-`` reads the export (or the ``--earlier`` copy) from standard input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from rulebound.cli.output import (
    JSON_HELP,
    STDIN,
    emit_json,
    emit_text,
    is_stdin,
    read_text,
    rule_errors,
)
from rulebound.core.errors import InvalidInput


@click.command("verify")
@click.argument("export", type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--allow-uncommitted",
    is_flag=True,
    help="Accept plays whose dice came from no committed seed (logs from before "
    "verifiable dice); they are counted, not checked.",
)
@click.option(
    "--earlier",
    type=click.Path(path_type=Path, allow_dash=True),
    help="An earlier copy of the same export: every entry it holds must be unchanged "
    "(a log rewritten after the fact is named at its first changed entry).",
)
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def command(export: Path, allow_uncommitted: bool, earlier: Path | None, as_json: bool) -> None:
    """Check an exported table log: the hash chain, the commitments and every die.

    EXPORT is the JSON export's file, or - to read it from standard input."""
    from rulebound.trust.verify import verify_export

    if is_stdin(export) and is_stdin(earlier):
        raise click.BadParameter("standard input gives one file: name the other", param_hint="-")
    with rule_errors():
        doc = _load(export)
        before = None if earlier is None else _load(earlier)
        report = verify_export(doc, allow_uncommitted=allow_uncommitted, earlier=before)
    if as_json:
        emit_json(report.as_json())
    else:
        shown = "standard input" if is_stdin(export) else export
        emit_text(f"{shown}: table {doc.get('table')!r} ({doc.get('ruleset')})")
        for line in report.summary():
            emit_text(f"  {line}")
        for problem in report.problems:
            emit_text(f"FAIL {problem}")
        verdict = "OK" if report.ok else f"FAILED: {len(report.problems)} problem(s)"
        emit_text(verdict)
    if not report.ok:
        raise SystemExit(1)


def _load(path: Path) -> dict[str, Any]:
    """An export from a file, or from standard input for ``-``."""
    from rulebound.trust.verify import load_export, parse_export

    if not is_stdin(path):
        return load_export(path)
    try:
        text = read_text(path)
    except UnicodeDecodeError as exc:
        raise InvalidInput("file", STDIN, f"a readable JSON log export ({exc})") from None
    return parse_export(text, "standard input")
