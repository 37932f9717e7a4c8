"""The ledger's charts as one PNG or SVG (``rulebound ledger --plot``), drawn with matplotlib
(the optional ``[plot]`` extra) on the Agg canvas, as ``render.plot`` draws heatmaps:
calibration, expected against actual over the sessions, and each member's place."""

from __future__ import annotations

from pathlib import Path

from rulebound.ledger.story import Ledger
from rulebound.render.plot import _matplotlib, plot_format


def write_ledger_plot(ledger: Ledger, path: Path) -> None:
    fmt = plot_format(path)
    figure_class, canvas_class, _, _ = _matplotlib()
    figure = figure_class(figsize=(11, 3.8), dpi=100, layout="constrained")
    canvas_class(figure)
    calibration, curve, places = figure.subplots(1, 3)
    buckets = [b for b in ledger.whole.calibration if b.checks]
    mids = [(b.low + b.high) / 2 for b in buckets]
    calibration.plot([0, 100], [0, 100], color="#999999", linewidth=1, label="as the odds said")
    calibration.scatter(
        mids,
        [100 * b.successes / b.checks for b in buckets],
        s=[20 + 4 * b.checks for b in buckets],
        label="how often they succeeded",
    )
    for mid, b in zip(mids, buckets, strict=True):
        calibration.annotate(str(b.checks), (mid, 100 * b.successes / b.checks), fontsize=7)
    calibration.set(xlim=(0, 100), ylim=(0, 100), xlabel="chance the check had (%)")
    calibration.set(ylabel="succeeded (%)", title="Calibration (checks per point)")
    calibration.legend(fontsize=7, loc="upper left")
    done = 0
    for number, session in ledger.sessions:
        xs = list(range(done + 1, done + 1 + len(session.curve)))
        curve.plot(xs, [e for e, _ in session.curve], color="#888888", linewidth=1)
        curve.plot(xs, [a for _, a in session.curve], linewidth=1.5, label=f"session {number}")
        done = xs[-1] if xs else done
    curve.set(xlabel="checks, in order", ylabel="successes", title="Actual (colour) vs expected")
    names = [member.name for _, member in ledger.members]
    shares = [100 * float(member.luckier_than) for _, member in ledger.members]
    places.barh(names, shares)
    places.axvline(50, color="#999999", linewidth=1)
    places.set(xlim=(0, 100), xlabel="luckier than this % of possible nights")
    places.set(title="Each member's place in their distribution")
    figure.savefig(path, format=fmt)
