"""Results counted by the database from recorded pair scores: every pair decided as the
engine decides it, reports equal to the engine's on the same numbers, chunks that record each
pair once, and item pages read a page at a time."""

import math
from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from mpp_studio.evaluation import results
from mpp_studio.evaluation.models import LanguageModel, PairScore, ScoreConfig, ScoringChunk, ScoringRun
from mpp_studio.evaluation.pair_outcomes import paradigm_sizes, sentence_value
from mpp_studio.evaluation.services import score_chunk
from scoring import metrics
from scoring.linking import LINKING_NAMES, parse_linking
from tests.web.evaluation.conftest import run_chunks
from tests.web.evaluation.outcome_cases import CASES, TOLERANCES, outcome_mismatches, store_cases

pytestmark = pytest.mark.django_db


@pytest.fixture
def hand_config(make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel) -> ScoreConfig:
    """The tiny GPT-2's configuration, in a run of `generated` (never scored: tests record scores)."""
    return make_run([gpt2_model]).configs.get()  # type: ignore[no-any-return]


def test_the_database_decides_every_pair_as_the_engine(hand_config: ScoreConfig, generated: object) -> None:
    assert store_cases(hand_config, generated) == len(CASES)  # type: ignore[arg-type]
    assert outcome_mismatches(hand_config) == []


@pytest.mark.parametrize("name", LINKING_NAMES)
def test_a_stored_sentence_scores_as_the_engine_scores_its_tokens(name: str) -> None:
    logprobs = [-1.25, -0.5, -3.0, -0.125]
    lp_sum, n = math.fsum(logprobs), len(logprobs)
    linking = parse_linking(name)
    assert sentence_value(linking, lp_sum, lp_sum / n, n, -12.5) == linking.score(lp_sum, n, -12.5)


def test_pages_take_every_function_and_refuse_a_bad_parameter_in_words() -> None:
    assert results.check_reduction("morcela:beta=0.9").key == "morcela:beta=0.9,gamma=0"
    with pytest.raises(results.ResultsError, match="alpha"):
        results.check_reduction("slln:alpha=1.5")
    assert results.check_reduction("slln").key == "slln:alpha=0.5"


@pytest.mark.parametrize(
    "reduction",
    [
        "sum",
        "mean",
        "bpt",
        "slln:alpha=0.5",
        "lognorm:beta=1",
        "penlp:alpha=2",
        "slor",
        "morcela:beta=0.5,gamma=4",
    ],
)
@pytest.mark.parametrize("tolerance", TOLERANCES)
def test_counted_reports_equal_the_engine_report_of_the_same_pairs(
    hand_config: ScoreConfig, generated: object, reduction: str, tolerance: float
) -> None:
    store_cases(hand_config, generated)  # type: ignore[arg-type]
    scored = [
        p for p in results.scored_pairs(generated, hand_config, reduction=reduction) if p.outcome is not None
    ]  # type: ignore[arg-type]
    expected = metrics.pair_report(
        [p.pair_scores() for p in scored],
        reduction=reduction,
        higher_is_better=parse_linking(reduction).higher_is_better,
        tie_tolerance=tolerance,
        bootstrap=0,  # type: ignore[arg-type]
    )
    report = results.pair_report(generated, hand_config, reduction=reduction, tie_tolerance=tolerance)  # type: ignore[arg-type]
    assert report is not None and report.to_dict() == expected.to_dict()
    [row] = results.leaderboard(generated, reduction=reduction, tie_tolerance=tolerance).rows  # type: ignore[arg-type]
    # SLOR and MORCELA leave out the two pairs whose unigram log-probabilities are not filled
    without_unigram = (
        sum(1 for case in CASES if None in case[6:]) if parse_linking(reduction).needs_unigram else 0
    )
    assert (row.n, row.n_pairs, row.correct, row.ties) == (
        len(CASES) - without_unigram,
        20,
        expected.overall.correct,
        expected.overall.ties,
    )
    table = results.paradigm_table(generated, hand_config, reduction=reduction, tie_tolerance=tolerance)  # type: ignore[arg-type]
    assert {r.uid: (r.n, r.correct, r.ties) for r in table if r.n} == {
        uid: (c.n, c.correct, c.ties) for uid, c in expected.by_paradigm.items()
    }


def test_resampled_intervals_read_the_pairs_and_seed_them(
    hand_config: ScoreConfig, generated: object
) -> None:
    store_cases(hand_config, generated)  # type: ignore[arg-type]
    scored = [p.pair_scores() for p in results.scored_pairs(generated, hand_config) if p.outcome is not None]  # type: ignore[arg-type]
    expected = metrics.pair_report(scored, reduction="sum", bootstrap=300, seed=4)
    report = results.pair_report(generated, hand_config, bootstrap=300, seed=4)  # type: ignore[arg-type]
    assert report is not None and report.to_dict() == expected.to_dict()
    assert report.to_dict()["ci"] == "300 bootstrap resamples, seed 4"


def test_a_chunk_records_each_of_its_pairs_once(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, generated: object
) -> None:
    run = make_run([gpt2_model])
    run_chunks(run)
    config = run.configs.get()
    assert PairScore.objects.filter(config=config).count() == 20
    chunk = ScoringChunk.objects.filter(run=run).order_by("index").first()
    assert chunk is not None
    ScoringChunk.objects.filter(pk=chunk.pk).update(status=ScoringChunk.Status.PENDING)
    run.job.status = "running"  # type: ignore[union-attr]
    run.job.save()  # type: ignore[union-attr]
    score_chunk(run_id=run.pk, config_id=config.pk, dataset_id=chunk.dataset_id, chunk_index=chunk.index)
    assert PairScore.objects.filter(config=config).count() == 20
    recorded = PairScore.objects.filter(config=config).order_by("paradigm__uid", "index")
    for row, pair in zip(recorded, results.scored_pairs(generated, config), strict=True):  # type: ignore[arg-type]
        assert (row.pair_id, row.good_sum, row.bad_sum) == (pair.pair.pair_id, pair.good, pair.bad)


def test_a_second_dataset_counts_only_the_pairs_its_own_chunks_recorded(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, generated: object
) -> None:
    """Results are what runs of the dataset have scored: before its chunk runs, a dataset shows
    its pairs unscored even where their sentences were stored for another dataset."""
    run = make_run([gpt2_model])
    config = run.configs.get()
    assert results.leaderboard(generated).rows[0].n == 0  # type: ignore[arg-type]
    assert results.item_rows(generated, config, outcome="unscored").total == 20  # type: ignore[arg-type]
    run_chunks(run)
    assert results.leaderboard(generated).rows[0].n == 20  # type: ignore[arg-type]
    assert results.item_rows(generated, config, outcome="unscored").total == 0  # type: ignore[arg-type]


def test_item_pages_read_one_page_and_count_from_the_database(
    hand_config: ScoreConfig, generated: object
) -> None:
    store_cases(hand_config, generated)  # type: ignore[arg-type]
    everything = results.scored_pairs(generated, hand_config)  # type: ignore[arg-type]
    for outcome in ("", *results.OUTCOMES):
        wanted = [p for p in everything if not outcome or p.outcome_name == outcome]
        seen = []
        page = 1
        while True:
            found = results.item_rows(generated, hand_config, outcome=outcome, page=page, page_size=3)  # type: ignore[arg-type]
            assert found.total == len(wanted), outcome
            if not found.items:
                break
            seen += [(i.pair_id, i.outcome, i.good.score, i.bad.score) for i in found.items]
            page += 1
        assert seen == [(p.pair.pair_id, p.outcome_name, p.good, p.bad) for p in wanted], outcome
    with CaptureQueriesContext(connection) as captured:
        results.item_rows(generated, hand_config, outcome="wrong", page=2, page_size=2)  # type: ignore[arg-type]
    limits = [q["sql"] for q in captured.captured_queries if '"datasets_pair"' in q["sql"].split("WHERE")[0]]
    assert limits and all("LIMIT" in sql for sql in limits)


def test_paradigm_sizes_come_from_the_kept_counts(generated: object) -> None:
    sizes = paradigm_sizes(generated)  # type: ignore[arg-type]
    assert [(s.uid, s.n_pairs) for s in sizes] == [("en_sv_agreement", 10), ("zh_classifier_noun", 10)]
    with CaptureQueriesContext(connection) as captured:
        paradigm_sizes(generated)  # type: ignore[arg-type]
    assert not any('"datasets_pair"' in q["sql"] for q in captured.captured_queries)


def test_the_migration_records_the_pairs_scored_before_it(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, generated: object
) -> None:
    """Installs upgraded from before pair scores were kept get them from the chunks' pair keys
    and stored sentence scores (migration evaluation 0004), the same rows a chunk records."""
    from importlib import import_module

    from django.apps import apps

    run = make_run([gpt2_model])
    run_chunks(run)
    fields = ("config_id", "pair_id", "paradigm_id", "index", "good_sum", "good_mean", "good_tokens")
    recorded = sorted(PairScore.objects.values_list(*fields, "bad_sum", "bad_mean", "bad_tokens"))
    assert len(recorded) == 20
    PairScore.objects.all().delete()
    migration = import_module("mpp_studio.evaluation.migrations.0004_pair_scores")
    migration.record_scored_pairs(apps, None)
    migration.record_scored_pairs(apps, None)  # run twice: each pair once
    assert sorted(PairScore.objects.values_list(*fields, "bad_sum", "bad_mean", "bad_tokens")) == recorded
