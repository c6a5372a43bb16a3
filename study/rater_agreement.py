"""Inter-rater agreement for validation studies: Fleiss' kappa, Randolph's free-marginal kappa
and Krippendorff's alpha (nominal), written out from their definitions.

These are used to find items that concentrate disagreement, not as a quality score. When
nearly everyone agrees with gold, the chance agreement P_e is close to the observed agreement,
so Fleiss' kappa sits near 0 even with 95 % accurate raters (the prevalence paradox): kappa says
whether disagreement gathers on particular items, accuracy with gold says how good the items
are. For two-alternative choice the categories are "chose the gold sentence" and "chose the
other", an item-internal identity, never the screen side.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from study.agreement import as_dict, json_ready, observed_agreement


def _rows(table: Sequence[Sequence[int]]) -> list[list[int]]:
    rows = [list(row) for row in table]
    if any(c < 0 for row in rows for c in row):
        raise ValueError("category counts cannot be negative")
    if len({len(row) for row in rows}) > 1:
        raise ValueError("every row of the table needs the same number of categories")
    return rows


def _item_agreement(row: Sequence[int]) -> float:
    value = observed_agreement(row)
    assert value is not None  # callers keep only rows with two or more ratings
    return value


def fleiss_kappa(table: Sequence[Sequence[int]]) -> float:
    """Return Fleiss' kappa of an items x categories table of rating counts, every item rated
    by the same number n >= 2 of raters: (P - P_e) / (1 - P_e), with P the mean item
    agreement and P_e the sum of squared category shares. nan when P_e is 1 (one category
    used throughout) or the table is empty.

    Raises:
        ValueError: for unequal numbers of raters per item, fewer than two raters, or
            negative counts.
    """
    rows = _rows(table)
    if not rows:
        return math.nan
    sizes = {sum(row) for row in rows}
    if len(sizes) > 1:
        raise ValueError(
            f"Fleiss' kappa needs the same number of raters on every item, got {sorted(sizes)}; "
            "use Krippendorff's alpha for incomplete designs"
        )
    n = sizes.pop()
    if n < 2:
        raise ValueError("Fleiss' kappa needs at least two raters per item")
    observed = sum(_item_agreement(row) for row in rows) / len(rows)
    shares = [sum(row[c] for row in rows) / (len(rows) * n) for c in range(len(rows[0]))]
    expected = sum(p * p for p in shares)
    if expected >= 1.0:
        return math.nan
    return (observed - expected) / (1 - expected)


def randolph_kappa(table: Sequence[Sequence[int]], n_categories: int | None = None) -> float:
    """Return Randolph's free-marginal multirater kappa (P - 1/k) / (1 - 1/k), P the mean item
    agreement over items with at least two ratings and k the number of categories (the
    table's columns unless given). nan when no item has two ratings.

    Raises:
        ValueError: for fewer than two categories or negative counts.
    """
    rows = [row for row in _rows(table) if sum(row) >= 2]
    k = n_categories if n_categories is not None else (len(rows[0]) if rows else 2)
    if k < 2:
        raise ValueError(f"Randolph's kappa needs at least two categories, got {k}")
    if not rows:
        return math.nan
    observed = sum(_item_agreement(row) for row in rows) / len(rows)
    return (observed - 1 / k) / (1 - 1 / k)


def krippendorff_alpha_nominal(units: Sequence[Sequence[Hashable]]) -> float:
    """Return Krippendorff's alpha for nominal data, 1 - D_o / D_e, from the values each unit
    received (any number per unit: missing ratings are simply absent). Units with fewer than
    two values cannot be paired and are left out. nan when fewer than two pairable values
    remain or only one value is used (no expected disagreement).
    """
    coincidences: defaultdict[tuple[Hashable, Hashable], float] = defaultdict(float)
    for unit in units:
        m = len(unit)
        if m < 2:
            continue
        counts = Counter(unit)
        for c, n_c in counts.items():
            for k, n_k in counts.items():
                pairs = n_c * (n_k - 1) if c == k else n_c * n_k
                coincidences[(c, k)] += pairs / (m - 1)
    totals: defaultdict[Hashable, float] = defaultdict(float)
    for (c, _), o in coincidences.items():
        totals[c] += o
    n = sum(totals.values())
    if n < 2:
        return math.nan
    observed = sum(o for (c, k), o in coincidences.items() if c != k)
    expected = sum(totals[c] * totals[k] for c in totals for k in totals if c != k) / (n - 1)
    if expected == 0:
        return math.nan
    return 1 - observed / expected


@dataclass(frozen=True, slots=True)
class RaterAgreement:
    """Inter-rater agreement over the items with at least two responses, two categories
    (chose gold / chose the other). `fleiss_kappa` is None when items have different numbers of
    raters (`raters_per_item` None), the usual case with lists; Krippendorff's alpha handles
    that. `observed_agreement` is the mean item P_i. Values are nan where undefined."""

    n_items: int
    n_responses: int
    raters_per_item: int | None
    observed_agreement: float
    fleiss_kappa: float | None
    randolph_kappa: float
    krippendorff_alpha: float

    def to_dict(self) -> dict[str, object]:
        """Return the values as a JSON-ready dict (nan as None)."""
        return json_ready(as_dict(self))


def binary_rater_agreement(counts: Sequence[tuple[int, int]]) -> RaterAgreement | None:
    """Return the RaterAgreement of items given as (chose gold, responses) counts, over the items
    with at least two responses; None when there is no such item."""
    table = [[correct, n - correct] for correct, n in counts if n >= 2]
    if not table:
        return None
    sizes = {sum(row) for row in table}
    raters = next(iter(sizes)) if len(sizes) == 1 else None
    units = [[True] * row[0] + [False] * row[1] for row in table]
    return RaterAgreement(
        n_items=len(table),
        n_responses=sum(sum(row) for row in table),
        raters_per_item=raters,
        observed_agreement=sum(_item_agreement(row) for row in table) / len(table),
        fleiss_kappa=fleiss_kappa(table) if raters is not None else None,
        randolph_kappa=randolph_kappa(table, 2),
        krippendorff_alpha=krippendorff_alpha_nominal(units),
    )
