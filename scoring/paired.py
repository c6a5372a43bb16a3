"""Two configurations on the same pairs: whether their accuracies differ beyond chance.

Each pair has an outcome under each configuration (1 right, 0.5 a tie, 0 wrong). Accuracies
on the same pairs are paired, so they are compared pair by pair:

- the exact McNemar test: of the pairs the two decide differently, how many each decides
  better. Under the null hypothesis of equal accuracy either is as likely to be the better one
  on a discordant pair, so the count is Binomial(discordant, 1/2) (McNemar 1947; the exact form
  is the sign test of the paired outcomes, which also places a tie between right and wrong);
- a paired bootstrap interval of the accuracy difference (second minus first): pairs are
  resampled with both outcomes, so the interval reflects how much the two agree;
- Holm's correction across paradigms (`with_holm`), since a comparison table tests one
  hypothesis per paradigm.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.stats import binomial_test, bootstrap_ci, holm


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """The second configuration against the first on `n` pairs both scored.

    `difference` is accuracy(second) - accuracy(first); `first_better` and `second_better`
    count the discordant pairs each decides better; `p_value` is the exact McNemar test's
    (two-sided); `ci_low`/`ci_high` bound the difference by a paired bootstrap (None without
    resamples); `p_holm` is filled by `with_holm` for a row among several paradigms.
    """

    n: int
    first_accuracy: float
    second_accuracy: float
    first_better: int
    second_better: int
    p_value: float
    ci_low: float | None
    ci_high: float | None
    p_holm: float | None = None

    @property
    def difference(self) -> float:
        return self.second_accuracy - self.first_accuracy

    @property
    def discordant(self) -> int:
        return self.first_better + self.second_better

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready dict."""
        return {
            "n": self.n,
            "first_accuracy": self.first_accuracy,
            "second_accuracy": self.second_accuracy,
            "difference": self.difference,
            "first_better": self.first_better,
            "second_better": self.second_better,
            "p_value": self.p_value,
            "p_holm": self.p_holm,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
        }


def paired_comparison(
    first: Sequence[float], second: Sequence[float], *, bootstrap: int = 1000, seed: int = 0
) -> PairedComparison:
    """Return the paired comparison of two configurations' outcomes on the same pairs, in the
    same order (`bootstrap` resamples for the interval; 0 for none).

    Raises:
        ValueError: for lists of different lengths, no pairs, or an outcome other than 0, 0.5, 1.
    """
    if len(first) != len(second):
        raise ValueError(
            f"{len(first)} outcomes of the first configuration against {len(second)} of the second"
        )
    if not first:
        raise ValueError("no pairs both configurations scored")
    for outcome in (*first, *second):
        if outcome not in (0.0, 0.5, 1.0):
            raise ValueError(f"an outcome is 0, 0.5 or 1, not {outcome}")
    first_better = sum(1 for a, b in zip(first, second, strict=True) if a > b)
    second_better = sum(1 for a, b in zip(first, second, strict=True) if b > a)
    discordant = first_better + second_better
    interval: tuple[float | None, float | None] = (None, None)
    if bootstrap > 0:
        differences = [b - a for a, b in zip(first, second, strict=True)]
        interval = bootstrap_ci(differences, n_resamples=bootstrap, seed=seed)
    return PairedComparison(
        n=len(first),
        first_accuracy=math.fsum(first) / len(first),
        second_accuracy=math.fsum(second) / len(second),
        first_better=first_better,
        second_better=second_better,
        p_value=binomial_test(second_better, discordant, 0.5),
        ci_low=interval[0],
        ci_high=interval[1],
    )


def with_holm(comparisons: Sequence[PairedComparison | None]) -> list[PairedComparison | None]:
    """Return the comparisons with `p_holm`, Holm's adjustment over those present (a paradigm
    neither configuration scored stays None and is no hypothesis)."""
    present = [c for c in comparisons if c is not None]
    adjusted = iter(holm([c.p_value for c in present]))
    return [None if c is None else replace(c, p_holm=next(adjusted)) for c in comparisons]
