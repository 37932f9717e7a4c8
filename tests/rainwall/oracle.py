"""The independent scorer the Rainwall odds tests check the engine against."""

from __future__ import annotations


def spend_greedily(faces: tuple[int, ...], skill: int, bonus: int) -> int:
    """The successes, then the cheapest failures fixed first with the bonus points."""
    total = sum(face <= skill for face in faces)
    for price in sorted(face - skill for face in faces if face > skill):
        if price > bonus:
            break
        bonus -= price
        total += 1
    return total
