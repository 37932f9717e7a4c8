"""Small HTML tables for notebooks: what ``_repr_html_`` of the odds objects returns.

Jupyter shows an object by its ``_repr_html_`` when it has one (as icepool's dice do), so
``Chances``, a ``Distribution`` and a designer table (``OddsGrid``) render as tables of
exact fractions and percentages. Every text is escaped; nothing here needs Jupyter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from html import escape

Cell = str | Fraction | int | None
"""A cell: text as it is, a ``Fraction`` as a chance, an int as a number, None as a dash."""

MISSING = "-"


def percent(chance: Fraction | None, digits: int = 1) -> str:
    """A percentage that never rounds a possible result to 0% or a risky one to 100%."""
    if chance is None:
        return MISSING
    text = f"{float(chance):.{digits}%}"
    step = f"{10.0**-digits:.{digits}f}".rstrip("0").rstrip(".") if digits else "1"
    if chance > 0 and float(text[:-1]) == 0:
        return f"<{step}%"
    if chance < 1 and float(text[:-1]) == 100:
        return f">{100 - float(step):g}%"
    return text


def fraction_html(chance: Fraction) -> str:
    """A chance as its percentage, the exact fraction beside it."""
    exact = str(chance.numerator) if chance.denominator == 1 else f"{chance}"
    return f"{escape(percent(chance))} <small>({escape(exact)})</small>"


def _cell(value: Cell, exact: bool) -> str:
    if value is None:
        return MISSING
    if isinstance(value, Fraction):
        if exact:
            return fraction_html(value)
        return f'<span title="{escape(str(value))}">{escape(percent(value))}</span>'
    return escape(str(value))


def html_table(
    header: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    caption: str = "",
    *,
    row_headers: bool = True,
    exact: bool = True,
) -> str:
    """One ``<table>``: the header, then each row (its first cell a row header). A chance
    shows its exact fraction beside it, or (``exact`` False: a wide table) on hover."""
    parts = ['<table class="rulebound">']
    if caption:
        parts.append(f"<caption>{escape(caption)}</caption>")
    parts.append("<thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in header) + "</tr></thead>")
    parts.append("<tbody>")
    for row in rows:
        cells = [_cell(value, exact) for value in row]
        first = f"<th>{cells[0]}</th>" if row_headers and cells else ""
        rest = cells[1:] if row_headers else cells
        parts.append("<tr>" + first + "".join(f"<td>{c}</td>" for c in rest) + "</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def expectation(value: Fraction) -> str:
    """An expected value to four figures, exact beside it when it is not whole."""
    shown = f"{float(value):.4g}"
    return shown if value.denominator == 1 else f"{shown} ({value})"
