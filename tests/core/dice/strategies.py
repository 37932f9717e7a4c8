"""Hypothesis strategies that follow the grammar of docs/notation.md, as text.

``expressions(small=True)`` keeps every roll small enough for brute force over its draws (a
few dice of a few faces, no ``rr``); ``small=False`` reaches every form the parser takes.
"""

from __future__ import annotations

from hypothesis import strategies as st

SELECTOR_KINDS = ("", "h", "l", "<", ">")
COMPARATORS = ("==", "!=", ">=", "<=", ">", "<")


@st.composite
def selector(draw: st.DrawFn, faces_only: bool = False) -> str:
    kinds = ("", "<", ">") if faces_only else SELECTOR_KINDS
    return draw(st.sampled_from(kinds)) + str(draw(st.integers(0, 7)))


@st.composite
def dice(draw: st.DrawFn, small: bool) -> str:
    count = draw(st.integers(0, 2 if small else 12))
    sides = draw(
        st.sampled_from(["1", "2", "3", "4", "F"] if small else ["2", "6", "20", "%", "F"])
    )
    written = ("" if count == 1 and draw(st.booleans()) else str(count)) + "d" + sides
    names = ["k", "p", "ro", "mi", "ma", "e", "ra"] + ([] if small else ["rr"])
    explosions = 0
    for _ in range(draw(st.integers(0, 2))):
        op = draw(st.sampled_from(names))
        if op == "e":
            if explosions:
                continue
            explosions += 1
        if op in ("mi", "ma"):
            written += op + str(draw(st.integers(0, 7)))
        else:
            written += op + draw(selector(faces_only=op in ("e", "rr")))
    if draw(st.integers(0, 4)) == 0:
        written += draw(st.sampled_from(COMPARATORS)) + str(draw(st.integers(0, 6)))
    return written


@st.composite
def atom(draw: st.DrawFn, small: bool, depth: int) -> str:
    choice = draw(st.integers(0, 4 if depth < (1 if small else 2) else 1))
    if choice == 0:
        return str(draw(st.integers(0, 12)))
    if choice == 1:
        found = draw(dice(small))
    elif choice == 2:
        found = "(" + draw(number(small, depth + 1)) + ")"
    else:
        items = draw(st.lists(number(small, depth + 1), min_size=0, max_size=2 if small else 3))
        comma = "," if len(items) == 1 else ""
        found = "(" + ", ".join(items) + comma + ")"
        if draw(st.booleans()):
            found += draw(st.sampled_from(["k", "p"])) + draw(selector())
    if draw(st.integers(0, 5)) == 0:
        found += " [" + draw(st.sampled_from(["fire", "cold", "a b"])) + "]"
    return found


@st.composite
def number(draw: st.DrawFn, small: bool, depth: int = 0) -> str:
    terms = [draw(signed(small, depth)) for _ in range(draw(st.integers(1, 2 if small else 3)))]
    ops = ["+", "-", "*"] + ([] if small else ["/", "//", "%"])
    text = terms[0]
    for term in terms[1:]:
        text += draw(st.sampled_from([" ", ""])) + draw(st.sampled_from(ops)) + " " + term
    if depth == 0 and draw(st.integers(0, 5)) == 0:
        text += " " + draw(st.sampled_from(COMPARATORS)) + " " + draw(signed(small, depth))
    return text


@st.composite
def signed(draw: st.DrawFn, small: bool, depth: int) -> str:
    return draw(st.sampled_from(["", "", "", "-", "+"])) + draw(atom(small, depth))


@st.composite
def expressions(draw: st.DrawFn, small: bool = False) -> str:
    text = draw(number(small))
    if not small and draw(st.integers(0, 6)) == 0:
        text = f"{draw(st.integers(1, 4))}#{text}"
    if draw(st.integers(0, 6)) == 0:
        text += " " + draw(st.sampled_from(["Stealth", "fire damage", "for the door"]))
    return text
