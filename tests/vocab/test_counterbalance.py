"""Counterbalancing: seeded choice of words with balanced frequency totals across corpora."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from vocab.counterbalance import absolute_bias, counterbalance, relative_bias
from vocab.errors import BalanceError

REPO_ROOT = Path(__file__).resolve().parents[2]


def _corpora(n: int = 300, seed: int = 7) -> tuple[list[str], dict[str, dict[str, float]]]:
    """Three corpora whose frequencies differ per word but are alike overall."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(n)]
    a = {w: rng.lognormvariate(2, 1.5) for w in words}
    b = {w: a[w] * rng.lognormvariate(0, 0.8) for w in words}
    c = {w: a[w] * rng.lognormvariate(0, 0.8) for w in words}
    return words, {"childes": a, "wiki": b, "news": c}


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ([100.0, 50.0], 50 / 75),
        ([50.0, 100.0], 50 / 75),
        ([100.0, 100.0], 0.0),
        ([0.0, 0.0], 0.0),
        ([10.0, 0.0], 2.0),
        ([100.0, 90.0, 50.0], 50 / 75),
        ([100.0, 90.0, 95.0], 10 / 95),
    ],
)
def test_relative_bias_is_largest_pair_difference_over_pair_mean(
    totals: list[float], expected: float
) -> None:
    """|a - b| / ((a + b) / 2), maximised over pairs of corpora."""
    assert relative_bias(totals) == pytest.approx(expected)


def test_absolute_bias_is_largest_difference() -> None:
    """The absolute bias is max - min of the totals."""
    assert absolute_bias([100.0, 90.0, 50.0]) == 50.0


def test_counterbalance_meets_tolerance_and_reports_exact_totals() -> None:
    """A reachable tolerance is met; totals and biases match the chosen words."""
    words, freqs = _corpora()
    result = counterbalance(words, freqs, 20, seed=4, tolerance=0.02)
    assert result.met and result.bias <= 0.02
    assert len(result.words) == len(set(result.words)) == 20
    assert set(result.words) <= set(words)
    for corpus, table in freqs.items():
        assert result.totals[corpus] == pytest.approx(math.fsum(table[w] for w in result.words))
    assert result.bias == pytest.approx(relative_bias(list(result.totals.values())))
    assert result.absolute_bias == pytest.approx(absolute_bias(list(result.totals.values())))
    assert not result.exhaustive
    assert list(result.words) == sorted(result.words, key=words.index)


def test_counterbalance_is_deterministic_per_seed() -> None:
    """The same seed gives the same words; another seed (almost surely) others."""
    words, freqs = _corpora()
    first = counterbalance(words, freqs, 20, seed=4, tolerance=0.05)
    again = counterbalance(words, freqs, 20, seed=4, tolerance=0.05)
    other = counterbalance(words, freqs, 20, seed=5, tolerance=0.05)
    assert first == again
    assert first.words != other.words


def test_counterbalance_does_not_depend_on_hash_seed() -> None:
    """String hashing differs between processes; the chosen words must not."""
    code = (
        "from tests.vocab.test_counterbalance import _corpora\n"
        "from vocab.counterbalance import counterbalance\n"
        "w, f = _corpora()\n"
        "print(counterbalance(w, f, 15, seed=3, tolerance=0.05).words)\n"
    )
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=True
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_counterbalance_small_problem_checks_every_subset() -> None:
    """With few subsets all are checked, and one within tolerance is drawn by seed."""
    freqs = {
        "a": {"x": 10.0, "y": 20.0, "z": 30.0, "v": 41.0},
        "b": {"x": 20.0, "y": 10.0, "z": 30.0, "v": 40.0},
    }
    result = counterbalance(list(freqs["a"]), freqs, 2, seed=0, tolerance=0.02)
    assert result.exhaustive and result.iterations == 6
    assert set(result.words) in ({"x", "y"}, {"z", "v"})
    picks = {counterbalance(list(freqs["a"]), freqs, 2, seed=s, tolerance=0.02).words for s in range(20)}
    assert picks == {("x", "y"), ("z", "v")}


def test_counterbalance_counts_paired_forms() -> None:
    """A word's second form adds its frequencies to the word's."""
    freqs = {
        "a": {"dog": 10.0, "dogs": 5.0, "cat": 8.0, "cats": 1.0},
        "b": {"dog": 9.0, "dogs": 6.0, "cat": 4.0, "cats": 2.0},
    }
    result = counterbalance(
        ["dog", "cat"], freqs, 2, seed=1, tolerance=1.0, paired={"dog": "dogs", "cat": "cats"}
    )
    assert result.totals == {"a": 24.0, "b": 21.0}
    assert result.word_frequencies["dog"] == {"a": 15.0, "b": 15.0}
    assert result.paired == {"dog": "dogs", "cat": "cats"}
    assert "paired form" in result.report()


def test_counterbalance_missing_words_count_as_zero_and_are_reported() -> None:
    """A word absent from a corpus counts 0 there; the report says so."""
    freqs = {"a": {"dog": 10.0, "cat": 5.0}, "b": {"dog": 9.0}}
    result = counterbalance(["dog", "cat"], freqs, 2, seed=0, tolerance=1.0)
    assert result.totals == {"a": 15.0, "b": 9.0}
    assert result.missing == {"a": (), "b": ("cat",)}
    report = result.report()
    assert "count as frequency 0" in report and "b: cat" in report


def test_counterbalance_lowercase_lookup() -> None:
    """A capitalised candidate is found under its lowercase entry."""
    freqs = {"a": {"paris": 3.0}, "b": {"paris": 3.0}}
    result = counterbalance(["Paris"], freqs, 1, seed=0, tolerance=0.0)
    assert result.totals == {"a": 3.0, "b": 3.0} and result.missing == {"a": (), "b": ()}


def test_counterbalance_report_is_a_table() -> None:
    """The report lists each word with per-corpus frequencies, totals and the bias."""
    words, freqs = _corpora(n=40)
    result = counterbalance(words, freqs, 5, seed=2, tolerance=0.2)
    report = result.report()
    assert "childes" in report and "wiki" in report and "news" in report
    assert all(word in report for word in result.words)
    assert "TOTAL" in report and f"relative bias {result.bias:.4f}" in report
    assert "tolerance 0.2: met" in report


def test_counterbalance_raises_when_tolerance_unreachable() -> None:
    """If no subset is balanced enough, the error gives the best bias and keeps that subset."""
    words, freqs = _corpora(n=200)
    freqs["wiki"] = {w: v * 10 for w, v in freqs["wiki"].items()}  # always ~10x larger
    with pytest.raises(BalanceError, match="the best found has relative bias") as info:
        counterbalance(words, freqs, 10, seed=1, tolerance=0.05, max_iterations=500)
    best = info.value.best
    assert best is not None and not best.met and best.bias > 0.05
    assert f"{best.bias:.4f}" in str(info.value)


def test_counterbalance_raises_when_small_problem_has_no_balanced_subset() -> None:
    """With every subset checked, the error says so."""
    freqs = {"a": {"x": 1.0, "y": 2.0, "z": 3.0}, "b": {}}
    with pytest.raises(BalanceError, match="all 3 subsets were checked") as info:
        counterbalance(["x", "y", "z"], freqs, 2, seed=0, tolerance=0.5)
    assert info.value.best is not None and info.value.best.bias == pytest.approx(2.0)


def test_counterbalance_best_effort_returns_unmet_result() -> None:
    """require_met=False returns the closest subset flagged met=False."""
    freqs = {"a": {"x": 1.0, "y": 2.0}, "b": {"x": 3.0, "y": 3.0}}
    result = counterbalance(["x", "y"], freqs, 1, seed=0, tolerance=0.1, require_met=False)
    assert not result.met and result.words == ("y",)
    assert "NOT met" in result.report()


@pytest.mark.parametrize(
    ("candidates", "freqs", "size", "tolerance", "needle"),
    [
        (["x", "y"], {"a": {}, "b": {}}, 3, 0.1, "only 2 candidate words for a subset of 3"),
        (["x", "x", "y"], {"a": {}, "b": {}}, 3, 0.1, "only 2 candidate words"),
        (["x"], {"a": {"x": 1.0}}, 1, 0.1, "two or more corpora, got 1"),
        (["x"], {"a": {}, "b": {}}, 0, 0.1, "at least 1"),
        (["x"], {"a": {}, "b": {}}, 1, -0.1, "tolerance must be 0 or more"),
        (["x"], {"a": {"x": -1.0}, "b": {}}, 1, 0.1, "must be 0 or more"),
    ],
)
def test_counterbalance_rejects_impossible_requests(
    candidates: list[str],
    freqs: dict[str, dict[str, float]],
    size: int,
    tolerance: float,
    needle: str,
) -> None:
    """Requests that cannot work raise a BalanceError saying why, without a best subset."""
    with pytest.raises(BalanceError, match=needle) as info:
        counterbalance(candidates, freqs, size, seed=0, tolerance=tolerance)
    assert info.value.best is None
