"""scoring.linking: every linking function against a hand computation, keys, and refusals."""

from __future__ import annotations

import math

import pytest

from scoring.linking import LINKING_NAMES, LinkingError, LinkingFunction, parse_linking

# A sentence of 4 scored tokens with summed log-prob -12.0 and unigram log-prob -20.0.
LP, N, U = -12.0, 4, -20.0

# Worked by hand:
#   mean     -12 / 4                            = -3
#   bpt      12 / 4 / ln 2 = 3 / 0.693147       = 4.328085
#   slln     -12 / 4^0.5 = -12 / 2              = -6
#   slln .25 -12 / 4^0.25 = -12 / 1.414214      = -8.485281
#   lognorm  -12 / ln(4 + 1) = -12 / 1.609438   = -7.456019
#   lognorm2 -12 / ln(4 + 2) = -12 / 1.791759   = -6.697328
#   penlp    -12 / (9/6)^0.8 = -12 / 1.383161   = -8.675781
#   penlp1   -12 / (9/6)^1 = -12 / 1.5          = -8
#   slor     (-12 - (-20)) / 4                  = 2
#   morcela  (-12 - 1 * (-20) + 0) / 4          = 2
#   morcela' (-12 - 0.5 * (-20) + 1) / 4        = -0.25
HAND = [
    ("sum", -12.0),
    ("mean", -3.0),
    ("bpt", 4.328085),
    ("slln", -6.0),
    ("slln:alpha=0.25", -8.485281),
    ("lognorm", -7.456019),
    ("lognorm:beta=2", -6.697328),
    ("penlp", -8.675781),
    ("penlp:alpha=1", -8.0),
    ("slor", 2.0),
    ("morcela", 2.0),
    ("morcela:beta=0.5,gamma=1", -0.25),
]


@pytest.mark.parametrize(("written", "expected"), HAND)
def test_each_function_matches_the_hand_computation(written: str, expected: float) -> None:
    assert parse_linking(written).score(LP, N, U) == pytest.approx(expected, abs=1e-5)


def test_sum_mean_and_bpt_keep_the_meaning_of_the_old_reductions() -> None:
    assert parse_linking("bpt").score(LP, N) == pytest.approx(-(LP / N) / math.log(2))
    assert not parse_linking("bpt").higher_is_better
    assert all(parse_linking(name).higher_is_better for name in LINKING_NAMES if name != "bpt")


def test_slln_lies_between_the_sum_and_the_mean() -> None:
    # alpha -> 0 is LP, alpha -> 1 is MeanLP: a sublinear normalisation
    assert parse_linking("slln:alpha=0.01").score(LP, N) == pytest.approx(LP, rel=0.02)
    assert parse_linking("slln:alpha=0.99").score(LP, N) == pytest.approx(LP / N, rel=0.02)


def test_a_sentence_with_no_scored_token_scores_zero_under_every_function() -> None:
    assert {parse_linking(name).score(0.0, 0, 0.0) for name in LINKING_NAMES} == {0.0}


def test_keys_and_labels_name_every_parameter() -> None:
    assert parse_linking("slln").key == "slln:alpha=0.5"
    assert parse_linking("morcela:gamma=1.5").key == "morcela:beta=1,gamma=1.5"
    assert parse_linking("mean").key == "mean"
    assert parse_linking(" penlp : alpha = 0.6 ").key == "penlp:alpha=0.6"
    assert parse_linking("slln:alpha=0.7").label == "SLLN-LP (alpha 0.7)"
    assert parse_linking("bpt").label == "bits per token"
    assert parse_linking(parse_linking("lognorm:beta=3").key) == parse_linking("lognorm:beta=3")


def test_slor_and_morcela_need_the_unigram_log_probability() -> None:
    assert [name for name in LINKING_NAMES if LinkingFunction.of(name).needs_unigram] == ["slor", "morcela"]
    with pytest.raises(LinkingError, match="unigram"):
        parse_linking("slor").score(LP, N)


@pytest.mark.parametrize(
    ("written", "named"),
    [
        ("slln:alpha=1", "alpha"),
        ("slln:alpha=0", "alpha"),
        ("lognorm:beta=0", "beta"),
        ("penlp:alpha=-1", "alpha"),
        ("slln:beta=2", "beta"),
        ("mean:alpha=0.5", "alpha"),
        ("median", "median"),
        ("slln:alpha=half", "half"),
        ("slln:alpha", "alpha"),
        ("morcela:gamma=nan", "gamma"),
    ],
)
def test_a_function_that_cannot_be_used_is_refused_naming_the_part(written: str, named: str) -> None:
    with pytest.raises(LinkingError, match=named):
        parse_linking(written)


def test_a_negative_length_is_refused() -> None:
    with pytest.raises(LinkingError):
        parse_linking("mean").score(LP, -1)
