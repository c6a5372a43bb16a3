"""BLiSS metrics: LP, HAP, HAP_tau and SO per item and per slice, the tie rule, suppressed
slices, slice-vs-rest tests with Holm's correction, and the cluster bootstrap."""

from __future__ import annotations

import json

import pytest

from scoring.stats import binomial_test, fisher_slice_vs_rest, holm
from scoring.triplet_metrics import (
    DEFAULT_TAU,
    METRICS,
    UNKNOWN,
    TripletScores,
    triplet_outcomes,
    triplet_report,
)


def _t(corr: float, lrn: float, art: float, **meta: str) -> TripletScores:
    return TripletScores("i", corr, lrn, art, **meta)


@pytest.mark.parametrize(
    ("corr", "lrn", "art", "expected"),
    [
        # The paper's ideal order corrected < learner < artificial, margin above tau.
        (3.0, 4.0, 4.5, {"LP": 0.0, "HAP": 1.0, "HAP_tau": 1.0, "SO": 1.0}),
        # Learner preferred over corrected (LP), and over artificial by less than tau.
        (4.0, 3.0, 3.05, {"LP": 1.0, "HAP": 1.0, "HAP_tau": 0.0, "SO": 0.0}),
        # Artificial preferred to the learner sentence.
        (3.0, 4.0, 3.5, {"LP": 0.0, "HAP": 0.0, "HAP_tau": 0.0, "SO": 0.0}),
        # Learner and artificial tied: HAP half, SO not in order.
        (3.0, 4.0, 4.0 + 1e-8, {"LP": 0.0, "HAP": 0.5, "HAP_tau": 0.0, "SO": 0.0}),
        # Corrected and learner tied: LP half; SO fails on the tied first comparison.
        (4.0, 4.0, 5.0, {"LP": 0.5, "HAP": 1.0, "HAP_tau": 1.0, "SO": 0.0}),
    ],
)
def test_triplet_outcomes_follow_the_paper_definitions(
    corr: float, lrn: float, art: float, expected: dict[str, float]
) -> None:
    """Each metric's per-item credit is the paper's inequality on bits per token."""
    got = {m: credit for m, (credit, _tie) in triplet_outcomes(_t(corr, lrn, art)).items()}
    assert got == expected


def test_triplet_outcomes_report_ties_per_metric() -> None:
    ties = {m: tie for m, (_c, tie) in triplet_outcomes(_t(4.0, 4.0, 5.0)).items()}
    assert ties == {"LP": True, "HAP": False, "HAP_tau": False, "SO": True}


def test_hap_tau_threshold_is_strict_and_configurable() -> None:
    item = _t(3.0, 4.0, 4.25)
    assert pytest.approx(0.10) == DEFAULT_TAU
    assert triplet_outcomes(item)["HAP_tau"][0] == 1.0
    assert triplet_outcomes(item, tau=0.25)["HAP_tau"][0] == 0.0
    assert triplet_outcomes(item, tau=0.3)["HAP_tau"][0] == 0.0


def _population() -> list[TripletScores]:
    """60 Spanish items with HAP right 50 times, 60 Arabic items with HAP right 20 times,
    5 Czech items (a slice below the minimum), three items per learner."""
    items: list[TripletScores] = []
    for l1, n, right in (("Spanish", 60, 50), ("Arabic", 60, 20), ("Czech", 5, 5)):
        for i in range(n):
            art = 5.0 if i < right else 3.5
            items.append(
                TripletScores(
                    item_id=f"{l1}{i}",
                    corrected=3.0,
                    learner=4.0,
                    artificial=art,
                    l1=l1,
                    cefr="B1" if i % 2 else "",
                    error_type="M:DET",
                    learner_id=f"{l1}-{i // 3}",
                )
            )
    return items


def test_triplet_report_overall_values_and_binomial_tests() -> None:
    items = _population()
    report = triplet_report(items, bootstrap=300, min_slice=30)
    hap = report.overall["HAP"]
    assert (hap.n, hap.wins, hap.ties) == (125, 75, 0)
    assert hap.value == pytest.approx(75 / 125)
    assert hap.p_value == pytest.approx(binomial_test(75, 125))
    assert report.overall["LP"].value == 0.0
    assert report.overall["SO"].value == pytest.approx(75 / 125)
    assert report.overall["HAP_tau"].value == pytest.approx(75 / 125)
    assert hap.ci_low < hap.value < hap.ci_high
    assert "cluster bootstrap" in report.ci_method


def test_triplet_report_ties_are_half_and_left_out_of_tests() -> None:
    """Four LP ties among ten: LP = (3 + 2) / 10; the binomial test counts 3 wins of 6."""
    items = [_t(4.0, 3.0 if i < 3 else (4.0 if i < 7 else 5.0), 6.0) for i in range(10)]
    lp = triplet_report(items, bootstrap=0).overall["LP"]
    assert (lp.ties, lp.wins) == (4, 3)
    assert lp.value == pytest.approx(0.5)
    assert lp.p_value == pytest.approx(binomial_test(3, 6))
    so = triplet_report(items, bootstrap=0).overall["SO"]
    assert so.value == pytest.approx(0.3)  # items 7..9: 4 < 5 < 6; ties never count for SO
    assert so.p_value == pytest.approx(binomial_test(3, 10))


def test_triplet_report_slices_suppress_small_ones_and_name_them() -> None:
    report = triplet_report(_population(), bootstrap=0, min_slice=30)
    l1 = report.slices["l1"]
    assert list(l1) == ["Arabic", "Czech", "Spanish"]
    assert l1["Czech"].suppressed and l1["Czech"].n == 5 and not l1["Czech"].metrics
    assert l1["Spanish"].metrics["HAP"].value == pytest.approx(50 / 60)
    assert any("Czech" in w for w in report.warnings)
    # Items without a CEFR level form their own slice rather than vanishing.
    assert report.slices["cefr"][UNKNOWN].n == 63
    assert report.slices["cefr"]["B1"].n == 62
    # No item has a corpus: the dimension is listed as missing, not reported as one slice.
    assert report.dimensions_missing == ["corpus"]
    assert "corpus" not in report.slices


def test_triplet_report_tests_each_slice_against_the_rest_with_holm() -> None:
    """Spanish (50/60) vs everyone else (25/65) and Arabic (20/60) vs the rest (55/65):
    Fisher on those counts, Holm across the two tested L1s."""
    report = triplet_report(_population(), bootstrap=0, min_slice=30)
    spanish = report.slices["l1"]["Spanish"].vs_rest["HAP"]
    arabic = report.slices["l1"]["Arabic"].vs_rest["HAP"]
    p_spanish = fisher_slice_vs_rest(50, 60, 25, 65).p_value
    p_arabic = fisher_slice_vs_rest(20, 60, 55, 65).p_value
    assert spanish.p_value == pytest.approx(p_spanish)
    assert arabic.p_value == pytest.approx(p_arabic)
    assert [spanish.p_holm, arabic.p_holm] == pytest.approx(holm([p_spanish, p_arabic]))
    assert spanish.slice_rate > spanish.rest_rate
    assert spanish.p_holm < 0.05
    assert set(report.slices["l1"]["Spanish"].vs_rest) == set(METRICS)


def test_a_slice_holding_every_item_is_not_tested() -> None:
    report = triplet_report(_population(), bootstrap=0, min_slice=30)
    only = report.slices["error_type"]["M:DET"]
    assert not only.suppressed and only.vs_rest == {}


def test_cluster_bootstrap_is_wider_than_item_bootstrap_for_learner_effects() -> None:
    """When a learner's items agree, resampling learners gives a wider interval."""
    items = [
        TripletScores(f"{i}", 3.0, 4.0, 5.0 if (i // 10) % 2 else 3.5, learner_id=f"L{i // 10}")
        for i in range(200)
    ]
    unclustered = [TripletScores(t.item_id, t.corrected, t.learner, t.artificial) for t in items]
    with_learners = triplet_report(items, bootstrap=1000).overall["HAP"]
    without = triplet_report(unclustered, bootstrap=1000).overall["HAP"]
    assert with_learners.value == without.value == 0.5
    assert (with_learners.ci_high - with_learners.ci_low) > 2 * (without.ci_high - without.ci_low)


def test_triplet_report_is_seeded_and_json_ready() -> None:
    first = triplet_report(_population(), bootstrap=200, seed=2).to_dict()
    assert first == triplet_report(_population(), bootstrap=200, seed=2).to_dict()
    data = json.loads(json.dumps(first, allow_nan=False))
    assert data["slices"]["l1"]["Czech"] == {"n": 5, "suppressed": True, "metrics": {}, "vs_rest": {}}
    assert data["tau"] == DEFAULT_TAU


def test_triplet_report_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="no triplets"):
        triplet_report([])
    with pytest.raises(ValueError, match="unknown slice dimension 'topic'"):
        triplet_report([_t(1, 2, 3)], dimensions=["topic"])
    with pytest.raises(ValueError, match="NaN"):
        triplet_report([_t(1, float("nan"), 3)])
