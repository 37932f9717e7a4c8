"""The ledger (``rulebound.ledger``) in words: the CLI's text, Discord's ``/luck``, the page's
sentences. Each figure is rounded for reading; the JSON keeps it exact."""

from __future__ import annotations

from fractions import Fraction

from rulebound.core import display
from rulebound.core.wording import counted
from rulebound.ledger.checks import Choice
from rulebound.ledger.figures import Bought, Line, Run
from rulebound.ledger.story import Ledger


def percent(p: Fraction) -> str:
    """A chance as a whole percent: 0% and 100% only when it is exactly that."""
    return display.percent(p, digits=0)


def amount(value: Fraction) -> str:
    return f"{float(value):.1f}"


def headline(line: Line) -> str:
    """ "40 checks: 25 successes against 21.3 expected, luckier than 87% of possible nights"."""
    if not line.checks:
        return "no checks yet"
    return (
        f"{counted(line.checks, 'check')}: {counted(line.actual, 'success', 'successes')} against "
        f"{amount(line.expected)} expected, luckier than {percent(line.luckier_than)} "
        "of possible nights"
    )


def run_words(run: Run, one: str, many: str) -> str:
    if not run.longest:
        return f"no {many}"
    chance = percent(run.chance)
    return f"{counted(run.longest, one, many)} in a row (a run that long or longer: {chance})"


def bought_words(bought: Bought) -> str:
    """ "Push the roll x4: +1.3 expected successes, cost 4 damage; 2 succeeded"."""
    words = f"{bought.label} x{bought.taken}"
    if not bought.measured:
        return words + ": the game does not give its odds"
    raised = float(bought.raised)
    words += f": {raised:+.1f} expected success{'es' * (abs(raised) != 1)}"
    if bought.paid:
        words += ", cost " + ", ".join(f"{n} {what}" for what, n in bought.paid)
    words += f"; {bought.successes} succeeded"
    if bought.measured < bought.taken:
        words += f" ({bought.taken - bought.measured} without odds)"
    return words


def decision_words(choice: Choice) -> str:
    """ "Push the roll (Ana): 38% -> 61%, cost 1 damage; succeeded"."""
    words = f"{choice.label} ({choice.character})" if choice.character else choice.label
    d = choice.decision
    if d is None:
        return words + ": the game does not give its odds"
    words += f": {percent(d.before)} -> {percent(d.after)}"
    if d.paid:
        words += ", cost " + ", ".join(f"{n} {what}" for what, n in d.paid)
    said = {True: "succeeded", False: "failed", None: "undecided"}[d.succeeded]
    return f"{words}; {said}"


def line_lines(line: Line, indent: str = "  ", *, each: bool = False) -> list[str]:
    """A line of the ledger in full: the headline, runs, criticals and decisions (``each``:
    every decision on a line of its own, after their totals)."""
    out = [f"{line.name}: {headline(line)}"]
    if not line.checks and not line.bought:
        return out
    out.append(
        f"{indent}longest runs: {run_words(line.successes, 'success', 'successes')}; "
        f"{run_words(line.failures, 'failure', 'failures')}"
    )
    criticals = line.criticals
    if criticals:
        out.append(
            f"{indent}criticals: "
            + ", ".join(f"{t.label} {t.actual} (expected {amount(t.expected)})" for t in criticals)
        )
    out += [f"{indent}{bought_words(b)}" for b in line.bought]
    if each:
        out += [f"{indent}  {decision_words(c)}" for c in line.decisions]
    return out


def ledger_lines(ledger: Ledger) -> list[str]:
    """The whole ledger as the CLI prints it."""
    out = [f"The story of the dice: {ledger.table} ({ledger.ruleset})", ""]
    out += line_lines(ledger.whole)
    if ledger.members:
        out += ["", "Members:"]
        for _, member in ledger.members:
            out += ["  " + text for text in line_lines(member, each=True)]
    if ledger.characters:
        out += ["", "Characters:"]
        out += [f"  {c.name}: {headline(c)}" for c in ledger.characters]
    if ledger.sessions:
        out += ["", "Sessions (a session ends where the game master closes a scene):"]
        out += [f"  {s.name}: {headline(s)}" for _, s in ledger.sessions]
    out += ["", "Calibration (checks grouped by their chance):"]
    for bucket in ledger.whole.calibration:
        if bucket.checks:
            rate = Fraction(bucket.successes, bucket.checks)
            out.append(
                f"  {bucket.low}-{bucket.high}%: {counted(bucket.checks, 'check')}, "
                f"{bucket.successes} succeeded ({percent(rate)}; "
                f"expected {amount(bucket.expected)})"
            )
    figures = ledger.whole.figures
    if figures:
        out += ["", f"{ledger.ruleset}'s own figures, summed over the checks:"]
        out += [
            f"  {f.label}: {amount(f.total)} over {counted(f.checks, 'check')}" for f in figures
        ]
    if ledger.notes:
        out += ["", "Not counted:"]
        out += [f"  {note}" for note in ledger.notes]
    return out
