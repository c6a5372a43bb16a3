"""SentenceScore reductions and round trip."""

from __future__ import annotations

import math

import pytest

from scoring.items import HIGHER_IS_BETTER, REDUCTIONS, SentenceScore


def _score(logprobs: list[float]) -> SentenceScore:
    return SentenceScore(
        text="a b",
        tokens=["a", "Ġb"][: len(logprobs)],
        token_spans=[(0, 1), (1, 3)][: len(logprobs)],
        logprobs=logprobs,
        word_spans=[(0, 1), (2, 3)],
        word_logprobs=logprobs,
    )


def test_reductions_are_sum_mean_and_bits_per_token() -> None:
    score = _score([-1.0, -3.0])
    assert score.reduce("sum") == pytest.approx(-4.0)
    assert score.reduce("mean") == pytest.approx(-2.0)
    assert score.reduce("bpt") == pytest.approx(2.0 / math.log(2))
    assert score.n_tokens == 2


def test_bits_per_token_ranks_like_mean_log_prob_but_reversed() -> None:
    better, worse = _score([-1.0, -1.5]), _score([-2.0, -2.5])
    assert better.reduce("mean") > worse.reduce("mean")
    assert better.reduce("bpt") < worse.reduce("bpt")
    assert HIGHER_IS_BETTER == {"sum": True, "mean": True, "bpt": False}
    assert set(REDUCTIONS) == set(HIGHER_IS_BETTER)


def test_unknown_reduction_is_named() -> None:
    with pytest.raises(ValueError, match="unknown reduction 'max'"):
        _score([-1.0]).reduce("max")  # type: ignore[arg-type]


def test_empty_sentence_reduces_to_zero() -> None:
    empty = SentenceScore(text="", tokens=[], token_spans=[], logprobs=[])
    assert empty.reduce("sum") == 0.0
    assert empty.reduce("mean") == 0.0


def test_dict_round_trip_keeps_every_field() -> None:
    score = _score([-0.25, -7.5])
    again = SentenceScore.from_dict(score.to_dict())
    assert again == score
