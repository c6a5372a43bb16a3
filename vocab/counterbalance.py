"""Zorro-style counterbalancing: pick words whose summed frequencies match across corpora.

See `counterbalance.md` beside this module for the algorithm and how it differs from Zorro.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from vocab.errors import BalanceError

# Swap attempts without improvement before a search restarts from a new random subset.
_MIN_PATIENCE = 50
# Out-of-subset words tried per swap attempt; 32 keeps an attempt cheap (32 x corpora sums).
_SAMPLE = 32


@dataclass(frozen=True, slots=True)
class BalanceResult:
    """A chosen subset of words with its per-corpus frequency totals and bias.

    `bias` is relative: the largest |total_a - total_b| over corpus pairs, divided by the
    mean of those two totals. `absolute_bias` is the largest |total_a - total_b| itself.
    Frequencies of a word include those of its paired second form.
    """

    words: tuple[str, ...]
    totals: Mapping[str, float]
    bias: float
    absolute_bias: float
    tolerance: float
    met: bool
    seed: int
    n_candidates: int
    word_frequencies: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    paired: Mapping[str, str] = field(default_factory=dict)
    missing: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    iterations: int = 0
    restarts: int = 0
    exhaustive: bool = False

    def report(self) -> str:
        """Return a plain-text table of the words, their frequencies, totals and bias."""
        corpora = list(self.totals)
        with_pairs = any(word in self.paired for word in self.words)
        head = ["word", *(["paired form"] if with_pairs else []), *corpora]
        rows = [
            [
                word,
                *([self.paired.get(word, "")] if with_pairs else []),
                *(f"{self.word_frequencies[word][c]:.2f}" for c in corpora),
            ]
            for word in self.words
        ]
        rows.append(["TOTAL", *([""] if with_pairs else []), *(f"{self.totals[c]:.2f}" for c in corpora)])
        widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
        text_cols = 2 if with_pairs else 1

        def line(cells: Sequence[str]) -> str:
            return "  ".join(
                cell.ljust(w) if i < text_cols else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()

        rule = "-" * len(line(head))
        out = [
            f"Counterbalanced subset: {len(self.words)} of {self.n_candidates} candidate words "
            f"(seed {self.seed}; frequencies per million words)",
            line(head),
            rule,
            *(line(r) for r in rows[:-1]),
            rule,
            line(rows[-1]),
            "",
            f"relative bias {self.bias:.4f} (largest difference between two corpus totals / "
            f"their mean); tolerance {self.tolerance:g}: {'met' if self.met else 'NOT met'}",
            f"absolute bias {self.absolute_bias:.2f} per million",
            f"search: all {self.iterations} subsets checked"
            if self.exhaustive
            else f"search: {self.iterations} swap attempts, {self.restarts} restarts",
        ]
        if any(self.missing.values()):
            out.append("Words missing from a corpus count as frequency 0 there:")
            out.extend(f"  {c}: {', '.join(ws)}" for c, ws in self.missing.items() if ws)
        else:
            out.append("Every chosen word occurs in every corpus.")
        return "\n".join(out)


def relative_bias(totals: Sequence[float]) -> float:
    """Return the largest |a - b| / mean(a, b) over pairs of totals (0 when both are 0)."""
    worst = 0.0
    for a, b in combinations(totals, 2):
        if a + b > 0:
            worst = max(worst, abs(a - b) / ((a + b) / 2))
    return worst


def absolute_bias(totals: Sequence[float]) -> float:
    """Return the largest |a - b| over pairs of totals."""
    return max(totals) - min(totals) if totals else 0.0


def _fast_bias(sums: Sequence[float]) -> float:
    # For non-negative totals the worst pair is always (max, min): the ratio grows with the
    # larger and shrinks with the smaller total, so this equals relative_bias in O(corpora).
    hi, lo = max(sums), min(sums)
    return 0.0 if hi + lo <= 0 else (hi - lo) / ((hi + lo) / 2)


def _totals(vectors: Sequence[Sequence[float]], selection: Sequence[int], width: int) -> list[float]:
    """Return the exact per-corpus sums of the selected words' frequencies."""
    return [math.fsum(vectors[i][c] for i in selection) for c in range(width)]


def _lookup(freqs: Mapping[str, float], word: str) -> float | None:
    value = freqs.get(word)
    return value if value is not None else freqs.get(word.lower())


def counterbalance(
    candidates: Sequence[str],
    frequencies: Mapping[str, Mapping[str, float]],
    size: int,
    *,
    seed: int,
    tolerance: float,
    paired: Mapping[str, str] | None = None,
    max_iterations: int = 20_000,
    require_met: bool = True,
) -> BalanceResult:
    """Return `size` candidate words whose frequency totals are balanced across the corpora.

    Args:
        candidates: words to choose from (duplicates are ignored).
        frequencies: corpus name -> word -> frequency (per million); two or more corpora.
            A word missing from a corpus counts as 0 there (looked up as is, then lowercased).
        size: how many words to choose.
        seed: seed of the search; the same inputs and seed give the same words.
        tolerance: the largest acceptable relative bias (see `BalanceResult`).
        paired: word -> its second form (e.g. a plural), whose frequencies are added to it.
        max_iterations: swap attempts over all restarts before the search gives up.
        require_met: if False, return the best subset found (`met` False) instead of raising.

    Raises:
        BalanceError: for fewer than two corpora, fewer candidates than `size`, a negative
            frequency or tolerance, or if no subset within `tolerance` was found (its `best`
            holds the closest subset and the message its bias).
    """
    corpora = list(frequencies)
    if len(corpora) < 2:
        raise BalanceError(f"counterbalancing needs two or more corpora, got {len(corpora)}")
    words = list(dict.fromkeys(candidates))
    if size < 1:
        raise BalanceError(f"the subset size must be at least 1, got {size}")
    if len(words) < size:
        raise BalanceError(
            f"only {len(words)} candidate words for a subset of {size}; "
            "add candidates or choose a smaller size"
        )
    if tolerance < 0 or math.isnan(tolerance):
        raise BalanceError(f"the tolerance must be 0 or more, got {tolerance}")
    pairs = dict(paired or {})
    vectors, missing_by_word = _word_vectors(words, corpora, frequencies, pairs)

    rng = random.Random(seed)
    n, k = len(words), size
    if math.comb(n, k) <= max_iterations:
        return _exhaustive(
            words,
            corpora,
            vectors,
            missing_by_word,
            pairs,
            k,
            rng,
            tolerance=tolerance,
            seed=seed,
            require_met=require_met,
        )
    patience = max(_MIN_PATIENCE, 2 * k)
    best_sel: list[int] = []
    best_bias = math.inf
    iterations = restarts = 0
    while True:
        selection = rng.sample(range(n), k)
        chosen = set(selection)
        outside = [i for i in range(n) if i not in chosen]
        sums = _totals(vectors, selection, len(corpora))
        bias = _fast_bias(sums)
        stale = 0
        while bias > tolerance and outside and stale < patience and iterations < max_iterations:
            iterations += 1
            slot = rng.randrange(k)
            leaving = vectors[selection[slot]]
            best_swap, swap_bias, swap_sums = -1, bias, sums
            for spot in rng.sample(range(len(outside)), min(_SAMPLE, len(outside))):
                entering = vectors[outside[spot]]
                trial = [s - a + b for s, a, b in zip(sums, leaving, entering, strict=True)]
                trial_bias = _fast_bias(trial)
                if trial_bias < swap_bias:
                    best_swap, swap_bias, swap_sums = spot, trial_bias, trial
            if best_swap < 0:
                stale += 1
                continue
            selection[slot], outside[best_swap] = outside[best_swap], selection[slot]
            sums, bias, stale = swap_sums, swap_bias, 0
        # Incremental sums drift; judge the finished subset on freshly summed totals.
        bias = _fast_bias(_totals(vectors, selection, len(corpora)))
        if bias < best_bias:
            best_sel, best_bias = sorted(selection), bias
        if best_bias <= tolerance or iterations >= max_iterations or not outside:
            break
        restarts += 1

    result = _result(
        words,
        best_sel,
        corpora,
        vectors,
        missing_by_word,
        pairs,
        tolerance=tolerance,
        seed=seed,
        iterations=iterations,
        restarts=restarts,
    )
    if not result.met and require_met:
        raise BalanceError(
            f"no subset of {k} words within tolerance {tolerance:g} was found "
            f"({iterations} swap attempts, {restarts + 1} random starts); the best found has "
            f"relative bias {result.bias:.4f}. Raise the tolerance or max_iterations, add "
            "candidates, or choose a smaller size",
            best=result,
        )
    return result


def _exhaustive(
    words: Sequence[str],
    corpora: Sequence[str],
    vectors: Sequence[Sequence[float]],
    missing_by_word: Mapping[str, Mapping[str, Sequence[str]]],
    pairs: Mapping[str, str],
    k: int,
    rng: random.Random,
    *,
    tolerance: float,
    seed: int,
    require_met: bool,
) -> BalanceResult:
    """Check every subset (there are few) and draw one of those within tolerance at random.

    Drawing among all acceptable subsets, rather than taking the first, keeps the choice a
    random draw conditioned on balance, as in the sampled search.
    """
    acceptable: list[tuple[int, ...]] = []
    best: tuple[int, ...] = ()
    best_bias = math.inf
    checked = 0
    for subset in combinations(range(len(words)), k):
        checked += 1
        bias = _fast_bias(_totals(vectors, subset, len(corpora)))
        if bias <= tolerance:
            acceptable.append(subset)
        if bias < best_bias:
            best, best_bias = subset, bias
    chosen = rng.choice(acceptable) if acceptable else best
    result = _result(
        words,
        chosen,
        corpora,
        vectors,
        missing_by_word,
        pairs,
        tolerance=tolerance,
        seed=seed,
        iterations=checked,
        restarts=0,
        exhaustive=True,
    )
    if not result.met and require_met:
        raise BalanceError(
            f"no subset of {k} words is within tolerance {tolerance:g}: all {checked} subsets "
            f"were checked and the best has relative bias {result.bias:.4f}. Raise the "
            "tolerance, add candidates, or choose a different size",
            best=result,
        )
    return result


def _word_vectors(
    words: Sequence[str],
    corpora: Sequence[str],
    frequencies: Mapping[str, Mapping[str, float]],
    pairs: Mapping[str, str],
) -> tuple[list[list[float]], dict[str, dict[str, list[str]]]]:
    """Return per-word frequency vectors (word + paired form) and the forms each corpus lacks."""
    vectors: list[list[float]] = []
    missing: dict[str, dict[str, list[str]]] = {}
    for word in words:
        forms = [word] + ([pairs[word]] if word in pairs else [])
        vector: list[float] = []
        for corpus in corpora:
            total = 0.0
            for form in forms:
                value = _lookup(frequencies[corpus], form)
                if value is None:
                    missing.setdefault(word, {}).setdefault(corpus, []).append(form)
                    continue
                if value < 0 or math.isnan(value):
                    raise BalanceError(
                        f"corpus '{corpus}' gives '{form}' the frequency {value}; "
                        "frequencies must be 0 or more"
                    )
                total += value
            vector.append(total)
        vectors.append(vector)
    return vectors, missing


def _result(
    words: Sequence[str],
    selection: Sequence[int],
    corpora: Sequence[str],
    vectors: Sequence[Sequence[float]],
    missing_by_word: Mapping[str, Mapping[str, Sequence[str]]],
    pairs: Mapping[str, str],
    *,
    tolerance: float,
    seed: int,
    iterations: int,
    restarts: int,
    exhaustive: bool = False,
) -> BalanceResult:
    chosen = [words[i] for i in selection]
    totals = dict(zip(corpora, _totals(vectors, selection, len(corpora)), strict=True))
    bias = relative_bias(list(totals.values()))
    missing = {
        c: tuple(form for w in chosen for form in missing_by_word.get(w, {}).get(c, ())) for c in corpora
    }
    return BalanceResult(
        words=tuple(chosen),
        totals=totals,
        bias=bias,
        absolute_bias=absolute_bias(list(totals.values())),
        tolerance=tolerance,
        met=bias <= tolerance,
        seed=seed,
        n_candidates=len(words),
        word_frequencies={words[i]: {c: vectors[i][j] for j, c in enumerate(corpora)} for i in selection},
        paired={w: pairs[w] for w in chosen if w in pairs},
        missing=missing,
        iterations=iterations,
        restarts=restarts,
        exhaustive=exhaustive,
    )
