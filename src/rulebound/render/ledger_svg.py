"""The ledger's charts as inline SVG, made on the server (the page runs no chart library).

Colours come from classes (``static/story.css``) over the table's own colour variables, so
one chart reads in the light and the dark scheme; every chart scales to its box (a
``viewBox`` and no fixed width), and says in a ``<title>`` and ``<desc>`` what it shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape

from rulebound.ledger.figures import Bucket, Line
from rulebound.render.ledger_text import percent

WIDTH, HEIGHT = 320, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 10, 30


def _svg(label: str, description: str, body: list[str], height: int = HEIGHT) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label="{escape(label)}" preserveAspectRatio="xMidYMid meet">'
        f"<title>{escape(label)}</title><desc>{escape(description)}</desc>"
        + "".join(body)
        + "</svg>"
    )


def _x(share: float) -> float:
    return round(LEFT + share * (WIDTH - LEFT - RIGHT), 1)


def _y(share: float, height: int = HEIGHT) -> float:
    return round(height - BOTTOM - share * (height - TOP - BOTTOM), 1)


def _axes(height: int = HEIGHT, x_label: str = "", y_label: str = "") -> list[str]:
    out = [
        f'<line class="axis" x1="{LEFT}" y1="{_y(0, height)}" x2="{WIDTH - RIGHT}" '
        f'y2="{_y(0, height)}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{_y(0, height)}" x2="{LEFT}" y2="{TOP}"/>',
    ]
    if x_label:
        out.append(
            f'<text class="label" x="{(LEFT + WIDTH - RIGHT) / 2}" y="{height - 4}" '
            f'text-anchor="middle">{escape(x_label)}</text>'
        )
    if y_label:
        out.append(
            f'<text class="label" x="10" y="{(TOP + height - BOTTOM) / 2}" text-anchor="middle" '
            f'transform="rotate(-90 10 {(TOP + height - BOTTOM) / 2})">{escape(y_label)}</text>'
        )
    return out


def calibration_svg(buckets: Sequence[Bucket]) -> str:
    """Each tenth of chance: how often its checks succeeded (a bar) against how often the
    odds said (a tick), with the number of checks above."""
    body = _axes(x_label="the chance a check had", y_label="succeeded")
    for tick in (0, 50, 100):
        body.append(
            f'<text class="tick" x="{_x(tick / 100)}" y="{_y(0) + 12}" '
            f'text-anchor="middle">{tick}%</text>'
            f'<text class="tick" x="{LEFT - 3}" y="{_y(tick / 100) + 3}" '
            f'text-anchor="end">{tick}%</text>'
        )
    body.append(f'<line class="diagonal" x1="{_x(0)}" y1="{_y(0)}" x2="{_x(1)}" y2="{_y(1)}"/>')
    step = 1 / len(buckets) if buckets else 1
    described = []
    for index, bucket in enumerate(buckets):
        if not bucket.checks:
            continue
        rate = bucket.successes / bucket.checks
        said = float(bucket.expected) / bucket.checks
        left, right = _x(index * step + step * 0.15), _x((index + 1) * step - step * 0.15)
        body.append(
            f'<rect class="bar" x="{left}" y="{_y(rate)}" width="{round(right - left, 1)}" '
            f'height="{round(_y(0) - _y(rate), 1)}"/>'
            f'<line class="expected" x1="{left - 2}" y1="{_y(said)}" x2="{right + 2}" '
            f'y2="{_y(said)}"/>'
            f'<text class="count" x="{(left + right) / 2}" y="{min(_y(rate), _y(said)) - 3}" '
            f'text-anchor="middle">{bucket.checks}</text>'
        )
        described.append(
            f"{bucket.low}-{bucket.high}%: {bucket.successes} of {bucket.checks} succeeded"
            f" ({percent(Fraction(bucket.successes, bucket.checks))}), expected"
            f" {percent(bucket.expected / bucket.checks)}"
        )
    return _svg(
        "Calibration: how often checks succeeded against the chance they had",
        "; ".join(described) or "no checks yet",
        body,
    )


def curve_svg(session: Line) -> str:
    """Successes so far (the solid line) against the successes expected so far (dashed),
    check by check through a session."""
    points = session.curve
    top = max([1, *(a for _, a in points), *(e for e, _ in points)])
    count = max(len(points), 1)
    body = _axes(x_label="checks, in order", y_label="successes")
    body.append(
        f'<text class="tick" x="{LEFT - 3}" y="{_y(1) + 3}" text-anchor="end">{top:.0f}</text>'
        f'<text class="tick" x="{_x(1)}" y="{_y(0) + 12}" text-anchor="end">{len(points)}</text>'
    )

    def path(values: list[float]) -> str:
        steps = [f"{_x(0)},{_y(0)}"]
        steps += [f"{_x((i + 1) / count)},{_y(v / top)}" for i, v in enumerate(values)]
        return " ".join(steps)

    body.append(f'<polyline class="expected-line" points="{path([e for e, _ in points])}"/>')
    body.append(f'<polyline class="actual-line" points="{path([float(a) for _, a in points])}"/>')
    last = points[-1] if points else (0.0, 0)
    return _svg(
        f"{session.name}: successes so far against the successes expected",
        f"after {len(points)} checks: {last[1]} successes, {last[0]:.1f} expected",
        body,
    )


def places_svg(members: Sequence[Line]) -> str:
    """Each member's place in the distribution of their own checks: 0% the unluckiest night
    those checks could give, 100% the luckiest, the middle mark an even night."""
    row = 30
    height = TOP + row * max(len(members), 1) + BOTTOM
    body = [
        f'<line class="diagonal" x1="{_x(0.5)}" y1="{TOP}" x2="{_x(0.5)}" y2="{height - BOTTOM}"/>'
    ]
    for tick in (0, 50, 100):
        body.append(
            f'<text class="tick" x="{_x(tick / 100)}" y="{height - BOTTOM + 12}" '
            f'text-anchor="middle">{tick}%</text>'
        )
    body.append(
        f'<text class="label" x="{(LEFT + WIDTH - RIGHT) / 2}" y="{height - 4}" '
        'text-anchor="middle">luckier than this share of possible nights</text>'
    )
    described = []
    for index, member in enumerate(members):
        y = TOP + index * row
        share = float(member.luckier_than)
        body.append(
            f'<rect class="track" x="{_x(0)}" y="{y + 14}" width="{_x(1) - _x(0)}" height="8" '
            'rx="4"/>'
            f'<circle class="marker" cx="{_x(share)}" cy="{y + 18}" r="6"/>'
            f'<text class="name" x="{_x(0)}" y="{y + 10}">{escape(member.name)} · '
            f"{percent(member.luckier_than)}</text>"
        )
        described.append(f"{member.name}: luckier than {percent(member.luckier_than)}")
    return _svg(
        "Each member's place among every night their checks could have given",
        "; ".join(described) or "no checks yet",
        body,
        height,
    )
