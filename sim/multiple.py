"""Many tests at once: the p-values of a comparison's rows adjusted so that its stars mean
what they say.

* :func:`holm` - Holm's step-down adjustment: the chance of *any* false alarm among the
  rows stays below the level (family-wise error rate);
* :func:`benjamini_hochberg` - the Benjamini-Hochberg adjustment: among the rows marked,
  the expected share of false alarms stays below the level (false discovery rate).

Each returns the adjusted p-values in the order given; a row is significant at level
``alpha`` when its adjusted p-value is below ``alpha``. Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

METHODS = ("holm", "bh", "none")


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm (1979): the k-th smallest of m p-values times (m - k + 1), made non-decreasing
    in that order and capped at 1."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (pvalues[i], i))
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini and Hochberg (1995): the k-th smallest of m p-values times m / k, made
    non-increasing from the largest down and capped at 1."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (pvalues[i], i))
    out = [1.0] * m
    running = 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, m * pvalues[i] / (rank + 1))
        out[i] = min(1.0, running)
    return out


def adjust(pvalues: Sequence[float], method: str) -> list[float]:
    """The p-values adjusted by ``method`` (``holm``, ``bh`` or ``none``)."""
    if method == "holm":
        return holm(pvalues)
    if method == "bh":
        return benjamini_hochberg(pvalues)
    if method == "none":
        return list(pvalues)
    raise ValueError(f"unknown correction {method!r}; one of {', '.join(METHODS)}")
