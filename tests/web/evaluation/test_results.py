"""Results computed from stored scores: the same accuracies as `scoring.metrics` on the same
numbers, ties as half, reductions and their direction, partial runs, paradigm tables,
comparisons, learning curves and item pages."""

import math
from collections.abc import Callable
from pathlib import Path

import pytest

from mpp_studio.evaluation import results
from mpp_studio.evaluation.models import (
    DEFAULT_TIE_TOLERANCE,
    LanguageModel,
    PairScore,
    ScoreConfig,
    ScoringRun,
)
from mpp_studio.evaluation.services import config_ensure, language_model_create
from mpp_studio.evaluation.services.sentences import PairSentences, dataset_pairs
from scoring import metrics
from scoring.paired import paired_comparison
from scoring.registry import load_scorer
from scoring.settings import ScorerSettings
from tests.scoring.tiny_models import build_gpt2
from tests.web.evaluation.conftest import run_chunks, store_score

pytestmark = pytest.mark.django_db


def pairs_of(dataset: object) -> list[PairSentences]:
    return list(dataset_pairs(dataset))  # type: ignore[arg-type]


@pytest.fixture
def hand_config(
    project: object, make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel
) -> ScoreConfig:
    """The tiny GPT-2's configuration, in a run of `generated` (never scored: tests store scores)."""
    return make_run([gpt2_model]).configs.get()  # type: ignore[no-any-return]


def test_default_tie_tolerance_is_the_metrics_one() -> None:
    assert DEFAULT_TIE_TOLERANCE == metrics.DEFAULT_TIE_TOLERANCE


@pytest.mark.parametrize("reduction", ["sum", "mean", "bpt"])
def test_accuracies_equal_scoring_metrics_on_the_engine_numbers(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel, generated: object, reduction: str
) -> None:
    """Scored through the run, reported from the database == scored directly, reported by metrics."""
    run = make_run([unigram_en])
    run_chunks(run)
    config = run.configs.get()
    engine = load_scorer(ScorerSettings(method="unigram", language="en"))
    pairs = [p for p in pairs_of(generated) if p.uid.startswith("en_")]  # the English word list's
    items = []
    for p in pairs:
        good, bad = engine.score([p.good, p.bad])
        items.append(
            metrics.PairScores(
                p.item_id,
                p.uid,
                p.phenomenon,
                good.reduce(reduction),
                bad.reduce(reduction),
                good.n_tokens == bad.n_tokens,  # type: ignore[arg-type]
            )
        )
    expected = metrics.pair_report(items, reduction=reduction, bootstrap=0)  # type: ignore[arg-type]
    report = results.pair_report(generated, config, reduction=reduction)  # type: ignore[arg-type]
    assert report is not None
    assert report.to_dict() == expected.to_dict()
    board = results.leaderboard(generated, reduction=reduction)  # type: ignore[arg-type]
    [row] = board.rows
    assert (row.accuracy, row.correct, row.ties, row.n, row.n_pairs) == (
        expected.overall.accuracy,
        expected.overall.correct,
        expected.overall.ties,
        10,
        10,
    )
    assert row.by_phenomenon == {k: v.accuracy for k, v in expected.by_phenomenon.items()}
    assert board.phenomena == ["classifiers", "subject_verb_agreement"]
    assert not PairScore.objects.filter(config=config, paradigm__uid="zh_classifier_noun").exists()


def test_ties_count_half_and_direction_follows_the_reduction(
    hand_config: ScoreConfig, generated: object
) -> None:
    """Pair 1: good wins by sum; pair 2: a tie; pair 3: good loses by sum but wins per token."""
    p1, p2, p3 = pairs_of(generated)[:3]
    store_score(hand_config, p1.good, [-1.0, -1.0])
    store_score(hand_config, p1.bad, [-2.0, -2.0])
    store_score(hand_config, p2.good, [-1.5, -0.5])
    store_score(hand_config, p2.bad, [-1.0, -1.0])
    store_score(hand_config, p3.good, [-1.0, -1.0, -1.0])  # sum -3, mean -1
    store_score(hand_config, p3.bad, [-2.5])  # sum -2.5, mean -2.5
    by_sum = results.scored_pairs(generated, hand_config, reduction="sum")  # type: ignore[arg-type]
    assert [s.outcome for s in by_sum[:3]] == [1.0, 0.5, 0.0]
    assert [s.outcome_name for s in by_sum[:4]] == ["correct", "tie", "wrong", "unscored"]
    by_bpt = results.scored_pairs(generated, hand_config, reduction="bpt")  # type: ignore[arg-type]
    assert by_bpt[2].outcome == 1.0 and by_bpt[2].good == pytest.approx(1 / math.log(2))
    [row] = results.leaderboard(generated, reduction="sum").rows  # type: ignore[arg-type]
    assert (row.n, row.n_pairs, row.correct, row.ties, row.accuracy, row.complete) == (
        3,
        20,
        1.5,
        1,
        0.5,
        False,
    )
    # A tolerance wider than the p3 margin (0.5 nats), narrower than p1's (2), makes p3 a tie too.
    [wide] = results.leaderboard(generated, reduction="sum", tie_tolerance=0.6).rows  # type: ignore[arg-type]
    assert (wide.ties, wide.correct) == (2, 2.0)


def test_nothing_scored_gives_empty_rows_not_errors(hand_config: ScoreConfig, generated: object) -> None:
    [row] = results.leaderboard(generated).rows  # type: ignore[arg-type]
    assert (row.n, row.accuracy, row.by_phenomenon) == (0, None, {})
    assert results.pair_report(generated, hand_config) is None  # type: ignore[arg-type]
    table = results.paradigm_table(generated, hand_config)  # type: ignore[arg-type]
    assert [(r.uid, r.n_pairs, r.n, r.accuracy) for r in table] == [
        ("en_sv_agreement", 10, 0, None),
        ("zh_classifier_noun", 10, 0, None),
    ]


def test_unknown_reduction_is_a_results_error(hand_config: ScoreConfig, generated: object) -> None:
    with pytest.raises(results.ResultsError, match="unknown linking function 'max'"):
        results.leaderboard(generated, reduction="max")  # type: ignore[arg-type]
    with pytest.raises(results.ResultsError, match="Unknown outcome 'maybe'"):
        results.item_rows(generated, hand_config, outcome="maybe")  # type: ignore[arg-type]


def test_paradigm_table_and_leaderboard_order(
    make_run: Callable[..., ScoringRun],
    unigram_en: LanguageModel,
    hand_config: ScoreConfig,
    generated: object,
) -> None:
    run = make_run([unigram_en])
    run_chunks(run)
    unigram = run.configs.get()
    for p in pairs_of(generated):  # the hand configuration gets every pair right
        store_score(hand_config, p.good, [-1.0])
        store_score(hand_config, p.bad, [-3.0])
    table = results.paradigm_table(generated, hand_config, bootstrap=200)  # type: ignore[arg-type]
    assert [(r.uid, r.phenomenon, r.n, r.accuracy) for r in table] == [
        ("en_sv_agreement", "subject_verb_agreement", 10, 1.0),
        ("zh_classifier_noun", "classifiers", 10, 1.0),
    ]
    board = results.leaderboard(generated)  # type: ignore[arg-type]
    assert [r.config for r in board.rows] == [hand_config, unigram]
    assert board.rows[0].accuracy == 1.0 and board.rows[1].accuracy < 1.0  # type: ignore[operator]


def test_compare_counts_pairs_whose_decisions_differ(
    project: object, hand_config: ScoreConfig, generated: object
) -> None:
    other_model = language_model_create(project=project, name="other", source="gpt2")  # type: ignore[arg-type]
    other = config_ensure(model=other_model, method="causal", dtype="float32", score_eos=False)
    pairs = pairs_of(generated)
    for n, p in enumerate(pairs[:10]):  # en pairs only; `other` scores the first 6
        store_score(hand_config, p.good, [-1.0])
        store_score(hand_config, p.bad, [-2.0])
        if n < 6:
            store_score(other, p.good, [-1.0 if n < 4 else -3.0])
            store_score(other, p.bad, [-2.0])
    comparison = results.compare(generated, [hand_config, other])  # type: ignore[arg-type]
    en, zh = comparison.rows
    assert (en.uid, en.n_pairs, en.accuracies, en.n_common, en.n_differ) == (
        "en_sv_agreement",
        10,
        [1.0, 4 / 6],
        6,
        2,
    )
    assert (zh.accuracies, zh.n_common, zh.n_differ) == ([None, None], 0, 0)
    assert (comparison.overall.n_pairs, comparison.overall.n_common, comparison.overall.n_differ) == (
        20,
        6,
        2,
    )
    # paired: on the 6 common pairs the first is right everywhere, the second on 4
    expected = paired_comparison([1.0] * 6, [1.0] * 4 + [0.0] * 2, bootstrap=results.COMPARE_BOOTSTRAP)
    assert en.paired is not None and en.paired.to_dict() == {**expected.to_dict(), "p_holm": expected.p_value}
    assert (en.paired.first_better, en.paired.second_better, en.paired.p_value) == (2, 0, 0.5)
    assert zh.paired is None  # no pair both scored: no hypothesis, and Holm counts one
    assert comparison.overall.paired is not None and comparison.overall.paired.p_holm is None
    # the pairs the two decide differently, as the comparison's link lists them
    page = results.item_rows(generated, hand_config, differs_from=other)  # type: ignore[arg-type]
    assert [item.index for item in page.items] == [4, 5] and page.total == 2
    assert results.item_rows(generated, other, differs_from=hand_config).total == 2  # type: ignore[arg-type]
    three = results.compare(generated, [hand_config, other, hand_config])  # type: ignore[arg-type]
    assert three.rows[0].paired is None  # paired tests compare two configurations


def test_item_rows_show_tokens_surprisals_and_filter(hand_config: ScoreConfig, generated: object) -> None:
    pairs = pairs_of(generated)
    for n, p in enumerate(pairs[:5]):
        store_score(hand_config, p.good, [-1.0, -0.25])
        store_score(hand_config, p.bad, [-0.5] if n % 2 else [-1.0, -0.25])
    page = results.item_rows(generated, hand_config, page_size=3)  # type: ignore[arg-type]
    assert (page.total, page.n_pages, len(page.items)) == (20, 7, 3)
    first = page.items[0]
    assert (first.item_id, first.outcome, first.difference) == (pairs[0].item_id, "tie", 0.0)
    assert [(t.logprob, t.surprisal) for t in first.good.tokens] == [(-1.0, 1.0), (-0.25, 0.25)]
    assert "".join(t.text for t in first.good.tokens) == first.good.text[: first.good.tokens[-1].end]
    assert first.good.score == -1.25 and first.good.n_tokens == 2
    wrong = results.item_rows(generated, hand_config, outcome="wrong")  # type: ignore[arg-type]
    assert [i.index for i in wrong.items] == [1, 3] and all(i.difference == -0.75 for i in wrong.items)
    unscored = results.item_rows(generated, hand_config, outcome="unscored", uid="en_sv_agreement")  # type: ignore[arg-type]
    assert unscored.total == 5 and unscored.items[0].good.tokens == []
    found = results.item_rows(generated, hand_config, search=pairs[2].bad.text.upper())  # type: ignore[arg-type]
    assert pairs[2].pair_id in [i.pair_id for i in found.items]
    last = results.item_rows(generated, hand_config, page=7, page_size=3)  # type: ignore[arg-type]
    assert len(last.items) == 2


def test_learning_curve_orders_checkpoints_by_step(
    project: object, generated: object, make_run: Callable[..., ScoringRun], tmp_path: Path
) -> None:
    """Two real tiny checkpoints (different weights), scored through a run."""
    steps = {200: 1, 100: 2}
    models = [
        language_model_create(
            project=project,  # type: ignore[arg-type]
            name=f"ckpt-{step}",
            source=str(build_gpt2(tmp_path / f"checkpoint-{step}", seed=seed)),
            series="tiny-run",
            step=step,
        )
        for step, seed in steps.items()
    ]
    run = make_run(models, chunk_size=1000)
    run_chunks(run)
    curve = results.learning_curve(project, "tiny-run", generated)  # type: ignore[arg-type]
    assert [(p.step, p.model.name, p.n) for p in curve.points] == [
        (100, "ckpt-100", 20),
        (200, "ckpt-200", 20),
    ]
    for point in curve.points:
        report = results.pair_report(generated, point.config)  # type: ignore[arg-type]
        assert report is not None and point.accuracy == report.overall.accuracy
        assert point.by_phenomenon == {k: v.accuracy for k, v in report.by_phenomenon.items()}
    assert results.learning_curve(project, "tiny-run", generated, method="pll").points == []  # type: ignore[arg-type]
