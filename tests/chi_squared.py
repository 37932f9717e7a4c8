"""A chi-squared test of dice faces against a fair die, for the fairness tests."""

from __future__ import annotations


def chi_squared_p(observed: list[int]) -> float:
    """The p-value of ``observed`` (each face's count) against equal counts. scipy.stats is
    imported here, not at the top of the tests: it takes about a second, and every test
    process imports every test module to collect it."""
    from scipy.stats import chisquare

    return float(chisquare(observed).pvalue)
