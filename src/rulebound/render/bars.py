"""A small text bar chart for odds in the terminal."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

WIDTH = 30


def bar_chart(rows: Iterable[tuple[str, Fraction]], width: int = WIDTH) -> str:
    """One line per outcome: label, a bar scaled to 100%, the percentage and the exact fraction."""
    items = list(rows)
    label_width = max((len(label) for label, _ in items), default=0)
    lines = []
    for label, p in items:
        filled = round(p * width)
        bar = "█" * filled + "·" * (width - filled)
        lines.append(
            f"{label:<{label_width}}  {bar} {float(p):7.2%}  {p.numerator}/{p.denominator}"
        )
    return "\n".join(lines)
