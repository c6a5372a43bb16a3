"""Inter-rater agreement against published worked examples (Fleiss 1971 as on Wikipedia,
Krippendorff 2011 with missing data, Wikipedia's Krippendorff example), the prevalence paradox
of the validation notes, and the hand-computed tiny study."""

from __future__ import annotations

import math

import numpy as np
import pytest

from study.rater_agreement import (
    binary_rater_agreement,
    fleiss_kappa,
    krippendorff_alpha_nominal,
    observed_agreement,
    randolph_kappa,
)

# Wikipedia "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories.
FLEISS_TABLE = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def _units(rows: list[str], missing: str = ".") -> list[list[str]]:
    """Return per-unit values from observer rows written as space-separated cells."""
    cells = [row.split() for row in rows]
    return [[row[u] for row in cells if row[u] != missing] for u in range(len(cells[0]))]


def test_fleiss_kappa_matches_the_published_example() -> None:
    """P = 0.378, P_e = 0.213, kappa = 0.210."""
    assert fleiss_kappa(FLEISS_TABLE) == pytest.approx(0.210, abs=5e-4)


def test_randolph_kappa_uses_one_over_k_as_chance() -> None:
    """Same table: (P - 1/5) / (1 - 1/5) with P = 0.378 (mean item agreement, 81/214.2...)."""
    observed = sum(observed_agreement(row) or 0.0 for row in FLEISS_TABLE) / len(FLEISS_TABLE)
    assert observed == pytest.approx(0.378, abs=5e-4)
    assert randolph_kappa(FLEISS_TABLE) == pytest.approx((observed - 0.2) / 0.8)
    assert randolph_kappa(FLEISS_TABLE) >= fleiss_kappa(FLEISS_TABLE)  # Warrens 2010


def test_krippendorff_alpha_matches_krippendorff_2011_with_missing_data() -> None:
    """Krippendorff (2011) 'Computing Krippendorff's alpha-reliability', nominal data, four
    observers, 12 units, missing values: alpha = 0.743 (unit 12 has one value and drops out)."""
    units = _units(
        [
            "1 2 3 3 2 1 4 1 2 . . .",
            "1 2 3 3 2 2 4 1 2 5 . 3",
            ". 3 3 3 2 3 4 2 2 5 1 .",
            "1 2 3 3 2 4 4 1 2 5 1 .",
        ]
    )
    assert krippendorff_alpha_nominal(units) == pytest.approx(0.743, abs=5e-4)


def test_krippendorff_alpha_matches_the_wikipedia_example() -> None:
    """Wikipedia 'Krippendorff's alpha', three coders, 15 units, nominal: alpha = 0.691."""
    units = _units(
        [
            "* * * * * 3 4 1 2 1 1 3 3 * 3",
            "1 * 2 1 3 3 4 3 * * * * * * *",
            "* * 2 1 3 4 4 * 2 1 1 3 3 * 4",
        ],
        missing="*",
    )
    assert krippendorff_alpha_nominal(units) == pytest.approx(0.691, abs=5e-4)


def test_prevalence_paradox_kappa_near_zero_with_accurate_raters() -> None:
    """The notes' simulation: 650 pairs x 5 raters, each 95 % accurate with random errors:
    observed agreement ~0.91, Fleiss' kappa ~0.01, Randolph ~0.82. With 10 % bad pairs (40 %)
    among 99 % pairs, kappa rises to ~0.5: kappa measures whether errors gather on items."""
    rng = np.random.default_rng(0)
    correct = (rng.random((650, 5)) < 0.95).sum(axis=1)
    result = binary_rater_agreement([(int(c), 5) for c in correct])
    assert result is not None and result.fleiss_kappa is not None
    assert result.observed_agreement == pytest.approx(0.91, abs=0.01)
    assert abs(result.fleiss_kappa) < 0.05
    assert result.randolph_kappa == pytest.approx(0.82, abs=0.02)
    accuracy = np.where(np.arange(650) < 65, 0.40, 0.99)
    correct = (rng.random((650, 5)) < accuracy[:, None]).sum(axis=1)
    result = binary_rater_agreement([(int(c), 5) for c in correct])
    assert result is not None and result.fleiss_kappa is not None
    assert result.fleiss_kappa == pytest.approx(0.51, abs=0.08)


def test_tiny_study_incomplete_design_by_hand() -> None:
    """Items 3/3, 2/3, 1/3, 1/2: P_i = 1, 1/3, 1/3, 0; mean 5/12; Randolph 2P - 1 = -1/6;
    Fleiss undefined (3 raters on some items, 2 on one); Krippendorff from the coincidences
    o_TT = 4, o_TF = o_FT = 3, o_FF = 1 (n_T = 7, n_F = 4): 1 - 6 / (56 / 10) = -1/14."""
    result = binary_rater_agreement([(3, 3), (2, 3), (1, 3), (1, 2)])
    assert result is not None
    assert (result.n_items, result.n_responses, result.raters_per_item) == (4, 11, None)
    assert result.fleiss_kappa is None
    assert result.observed_agreement == pytest.approx(5 / 12)
    assert result.randolph_kappa == pytest.approx(-1 / 6)
    assert result.krippendorff_alpha == pytest.approx(-1 / 14)


def test_complete_binary_design_by_hand() -> None:
    """Three items, three raters each: 3/3, 3/3, 0/3 -> P = 1, p_gold = 2/3, P_e = 5/9, kappa 1;
    2/3, 3/3, 1/3 -> P = 5/9, p = 2/3, kappa = (5/9 - 5/9) / (4/9) = 0."""
    perfect = binary_rater_agreement([(3, 3), (3, 3), (0, 3)])
    assert perfect is not None and perfect.raters_per_item == 3
    assert perfect.fleiss_kappa == pytest.approx(1.0)
    assert perfect.krippendorff_alpha == pytest.approx(1.0)
    chance = binary_rater_agreement([(2, 3), (3, 3), (1, 3)])
    assert chance is not None and chance.fleiss_kappa == pytest.approx(0.0)


def test_items_with_one_response_are_left_out() -> None:
    """A single response cannot agree or disagree with anyone; none at all gives None."""
    result = binary_rater_agreement([(1, 1), (2, 2), (0, 2)])
    assert result is not None and result.n_items == 2
    assert binary_rater_agreement([(1, 1)]) is None
    assert binary_rater_agreement([]) is None


def test_one_category_throughout_is_undefined_not_an_error() -> None:
    """Everybody always chose gold: no expected disagreement, kappa and alpha are nan."""
    assert math.isnan(fleiss_kappa([[3, 0], [3, 0]]))
    assert math.isnan(krippendorff_alpha_nominal([[1, 1], [1, 1, 1]]))
    assert fleiss_kappa([]) != fleiss_kappa([])  # nan for an empty table
    result = binary_rater_agreement([(3, 3), (2, 2)])
    assert result is not None and result.to_dict()["fleiss_kappa"] is None
    assert result.to_dict()["randolph_kappa"] == 1.0


def test_fleiss_kappa_refuses_unequal_raters_in_words() -> None:
    """Fleiss' kappa needs complete designs; the message points to Krippendorff's alpha."""
    with pytest.raises(ValueError, match="Krippendorff"):
        fleiss_kappa([[2, 1], [1, 1]])
    with pytest.raises(ValueError, match="at least two raters"):
        fleiss_kappa([[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="negative"):
        fleiss_kappa([[3, -1]])
    with pytest.raises(ValueError, match="two categories"):
        randolph_kappa([[2]], n_categories=1)


def test_observed_agreement_by_hand() -> None:
    """P_i for 4-1 of five is (16 + 1 - 5) / 20 = 0.6; 3-2 is 0.4; one rater is None."""
    assert observed_agreement((4, 1)) == pytest.approx(0.6)
    assert observed_agreement((3, 2)) == pytest.approx(0.4)
    assert observed_agreement((1, 0)) is None
