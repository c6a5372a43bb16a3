"""Scoring runs: creation and its checks, the chunk plan, scoring chunks (idempotent, cancellable,
failing in words), the resident scorer, and registering models and checkpoint series."""

from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from mpp_studio.datasets.models import Pair
from mpp_studio.evaluation import scorer_cache
from mpp_studio.evaluation.models import (
    LanguageModel,
    PairKey,
    PairScore,
    ScoreConfig,
    ScoringChunk,
    ScoringRun,
    SentenceScore,
)
from mpp_studio.evaluation.services import (
    MAX_ATTEMPTS,
    language_model_create,
    language_model_series_register,
    language_model_unigram_ensure,
    language_model_update,
    run_cancel,
    run_create,
    score_chunk,
)
from mpp_studio.evaluation.services.sentences import (
    chunk_plan,
    chunk_sentences,
    dataset_pair_refs,
    dataset_pairs,
    sentence_key,
)
from mpp_studio.jobs.models import Job
from scoring.errors import OutOfMemoryError, SentenceTooLongError
from scoring.items import Sentence
from scoring.registry import load_scorer
from tests.web.evaluation.conftest import FakeScorer, run_chunks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_scorer_cache() -> None:
    """Each test loads its own scorer (the cache is per process)."""
    scorer_cache.scorer_clear()


def errors_of(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return exc.value.message_dict


def rows(config: ScoreConfig) -> list[tuple[object, ...]]:
    return list(
        SentenceScore.objects.filter(config=config)
        .order_by("sentence_key")
        .values_list("pk", "sentence_key", "text", "data", "lp_sum")
    )


def first_chunk(run: ScoringRun) -> ScoringChunk:
    return ScoringChunk.objects.filter(run=run).order_by("config_id", "dataset_id", "index").first()  # type: ignore[return-value]


def score(chunk: ScoringChunk) -> None:
    score_chunk(
        run_id=chunk.run_id, config_id=chunk.config_id, dataset_id=chunk.dataset_id, chunk_index=chunk.index
    )


# -- Creating a run ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        ({"name": "  "}, "name", "Give the run a name"),
        ({"method": "pll"}, "method", "'tiny-gpt2' is a Causal LM: it is scored with causal, not pll"),
        ({"method": "magic"}, "method", "Unknown method 'magic'"),
        ({"dtype": "int4"}, "dtype", "Unknown dtype 'int4'"),
        ({"reduction": "max"}, "reduction", "unknown linking function 'max'"),
        ({"device": "tpu"}, "device", "Unknown device 'tpu'"),
        ({"chunk_size": 1}, "chunk_size", "from 2 to"),
        ({"token_budget": 10}, "token_budget", "from 64 to"),
        ({"tie_tolerance": -1.0}, "tie_tolerance", "from 0 to"),
    ],
)
def test_run_create_rejects_bad_options_by_field(
    make_run: Callable[..., ScoringRun],
    gpt2_model: LanguageModel,
    options: dict[str, object],
    field: str,
    words: str,
) -> None:
    """Each bad option is reported under its field, in words, and nothing is stored."""
    with pytest.raises(ValidationError) as exc:
        make_run([gpt2_model], **options)
    assert any(words in message for message in errors_of(exc)[field]), errors_of(exc)
    assert not ScoringRun.objects.exists() and not Job.objects.filter(kind="scoring_run").exists()
    assert not ScoreConfig.objects.exists()


def test_run_create_rejects_another_projects_dataset_and_model(
    project: object,
    other_project: object,
    editor: object,
    generated: object,
    make_dataset: Callable[..., object],
) -> None:
    foreign_model = language_model_create(project=other_project, name="theirs", source="gpt2")  # type: ignore[arg-type]
    foreign_dataset = type(generated).objects.create(  # type: ignore[attr-defined]
        project=other_project, name="Their set", pairs_per_paradigm=1
    )
    with pytest.raises(ValidationError) as exc:
        run_create(
            project=project,  # type: ignore[arg-type]
            name="Run",
            language_models=[foreign_model],
            datasets=[generated, foreign_dataset],  # type: ignore[list-item]
            created_by=editor,  # type: ignore[arg-type]
        )
    errors = errors_of(exc)
    assert errors["language_models"] == ["'theirs' is not a model of this project."]
    assert errors["datasets"] == ["'Their set' is not a dataset of this project."]


def test_run_create_rejects_a_dataset_still_generating(
    make_run: Callable[..., ScoringRun], make_dataset: Callable[..., object], unigram_en: LanguageModel
) -> None:
    pending = make_dataset("en", n=4, name="Pending set")  # generation queued, not run
    with pytest.raises(ValidationError) as exc:
        make_run([unigram_en], datasets=[pending])
    assert errors_of(exc)["datasets"] == ["'Pending set' is still being generated; score it when it is done."]


def test_run_create_needs_a_model_unless_unigram(
    make_run: Callable[..., ScoringRun], project: object
) -> None:
    with pytest.raises(ValidationError) as exc:
        make_run([])
    assert "Choose at least one model" in errors_of(exc)["language_models"][0]

    run = make_run([], method="unigram")
    languages = sorted(c.language for c in run.configs.all())
    assert languages == ["en", "zh"]  # one baseline per language of the dataset's paradigms
    assert {c.language_model.kind for c in run.configs.all()} == {"unigram"}
    assert LanguageModel.objects.filter(project=project, kind="unigram").count() == 2


def test_run_create_reuses_configurations_and_plans_chunks_per_configuration(
    make_run: Callable[..., ScoringRun],
    gpt2_model: LanguageModel,
    unigram_en: LanguageModel,
    generated: object,
) -> None:
    first = make_run([gpt2_model, unigram_en], chunk_size=8)
    second = make_run([gpt2_model], chunk_size=8, name="Again")
    assert list(second.configs.all()) == [c for c in first.configs.all() if c.language_model == gpt2_model]
    config = second.configs.get()
    assert (config.method, config.dtype, config.source) == ("causal", "float32", gpt2_model.source)
    assert config.fingerprint  # a local folder: its files are part of the key
    n_pairs = Pair.objects.filter(paradigm__dataset=generated).count()
    chunks = ScoringChunk.objects.filter(run=first)
    # the model scores all 20 pairs; the English word list the 10 of the English paradigm
    assert chunks.filter(config=config).count() == (n_pairs * 2 + 7) // 8 == 5
    assert chunks.exclude(config=config).count() == (n_pairs + 7) // 8 == 3
    assert first.job.progress_total == 2 * n_pairs + n_pairs  # type: ignore[union-attr]
    assert first.job.kind == "scoring_run" and first.job.status == "queued"  # type: ignore[union-attr]


def test_run_create_queues_one_task_per_chunk_on_commit(
    make_run: Callable[..., ScoringRun],
    gpt2_model: LanguageModel,
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    with (
        mock.patch("mpp_studio.evaluation.tasks.score_chunk.delay") as delay,
        django_capture_on_commit_callbacks(execute=True),  # type: ignore[operator]
    ):
        run = make_run([gpt2_model], chunk_size=10)
    expected = [
        mock.call(run.pk, c.config_id, c.dataset_id, c.index)
        for c in ScoringChunk.objects.filter(run=run).order_by("config_id", "dataset_id", "index")
    ]
    assert delay.call_args_list == expected and len(expected) == 4


# -- The chunk plan ---------------------------------------------------------------------------


@pytest.mark.parametrize("chunk_size", [2, 7, 8, 40, 1000])
def test_chunk_plan_covers_every_pair_once_in_order(generated: object, chunk_size: int) -> None:
    plan = chunk_plan(generated, chunk_size)  # type: ignore[arg-type]
    assert plan == chunk_plan(generated, chunk_size)  # type: ignore[arg-type]
    assert all(count <= max(1, chunk_size // 2) for _ranges, count in plan)
    covered = [
        (paradigm_id, index)
        for ranges, _count in plan
        for paradigm_id, first, last in ranges
        for index in range(first, last + 1)
    ]
    expected = [(p.paradigm_id, p.index) for p in dataset_pairs(generated)]  # type: ignore[arg-type]
    assert covered == expected and len(set(covered)) == len(covered) == 20


def test_chunk_sentences_are_distinct_with_word_spans(generated: object) -> None:
    [(ranges, _count)] = chunk_plan(generated, 1000)  # type: ignore[arg-type]
    sentences = chunk_sentences(generated, ranges)  # type: ignore[arg-type]
    keys = [key for key, _ in sentences]
    assert len(keys) == len(set(keys))
    assert all(key == sentence_key(s) for key, s in sentences)
    first = sentences[0][1]
    assert first.word_spans is not None  # the generator's words give the spans
    assert [first.text[a:b] for a, b in first.word_spans][-1] == "."


# -- Scoring chunks ---------------------------------------------------------------------------


def test_a_run_scores_every_sentence_once_and_finishes(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, generated: object
) -> None:
    run = make_run([gpt2_model], chunk_size=6)
    run_chunks(run)
    run.job.refresh_from_db()  # type: ignore[union-attr]
    config = run.configs.get()
    distinct = {k for p in dataset_pairs(generated) for k in (p.good_key, p.bad_key)}  # type: ignore[arg-type]
    assert SentenceScore.objects.filter(config=config).count() == len(distinct)
    assert set(SentenceScore.objects.filter(config=config).values_list("sentence_key", flat=True)) == distinct
    job = run.job
    assert job.status == "done" and job.progress_done == job.progress_total == 40  # type: ignore[union-attr]
    assert job.message.startswith("Scored the 20 pairs of 1 dataset with 1 configuration")  # type: ignore[union-attr]
    assert not ScoringChunk.objects.filter(run=run).exclude(status="done").exists()


def test_chunks_record_pair_keys_equal_to_those_computed_from_records(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, generated: object
) -> None:
    computed = [(p.pair_id, p.good_key, p.bad_key) for p in dataset_pairs(generated)]  # type: ignore[arg-type]
    before = [(r.pair_id, r.good_key, r.bad_key) for r in dataset_pair_refs(generated)]  # type: ignore[arg-type]
    assert before == computed and not PairKey.objects.exists()  # no chunk ran: computed on the fly
    run = make_run([gpt2_model], chunk_size=6)
    run_chunks(run)
    recorded = list(PairKey.objects.order_by("pair_id").values_list("pair_id", "good_key", "bad_key"))
    assert recorded == sorted(computed)
    refs = dataset_pair_refs(generated)  # type: ignore[arg-type]
    assert [(r.pair_id, r.good_key, r.bad_key) for r in refs] == computed
    assert [(r.uid, r.index, r.good_text) for r in refs] == [
        (p.uid, p.index, p.good.text)
        for p in dataset_pairs(generated)  # type: ignore[arg-type]
    ]


def test_scoring_a_chunk_twice_stores_the_same_rows(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel
) -> None:
    """A redelivered chunk (its worker died after storing) changes nothing."""
    run = make_run([unigram_en], chunk_size=6)
    run_chunks(run)
    config = run.configs.get()
    before = rows(config)
    ScoringChunk.objects.filter(run=run).update(status="pending")
    Job.objects.filter(pk=run.job_id).update(status="running", finished_at=None)
    run_chunks(run)
    assert rows(config) == before
    assert set(ScoringChunk.objects.filter(run=run).values_list("scored", flat=True)) == {0}


def test_a_second_run_reuses_stored_scores(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel
) -> None:
    first = make_run([unigram_en])
    run_chunks(first)
    config = first.configs.get()
    before = rows(config)
    with mock.patch.object(scorer_cache, "load_scorer") as load:
        second = make_run([unigram_en], name="Again")
        run_chunks(second)
    load.assert_not_called()  # nothing left to score: no model is loaded
    second.job.refresh_from_db()  # type: ignore[union-attr]
    assert second.job.status == "done" and "(0 sentences scored now" in second.job.message  # type: ignore[union-attr]
    assert rows(config) == before


def test_a_twin_configuration_copies_scores_instead_of_scoring(
    project: object, make_run: Callable[..., ScoringRun], unigram_en: LanguageModel
) -> None:
    """The same scorer settings under another model row (here a second unigram baseline)."""
    run_chunks(make_run([unigram_en]))
    twin = language_model_create(project=project, name="Word frequencies", kind="unigram", language="en")  # type: ignore[arg-type]
    with mock.patch.object(scorer_cache, "load_scorer") as load:
        run = make_run([twin], name="Twin")
        run_chunks(run)
    load.assert_not_called()
    mine, theirs = run.configs.get(), ScoreConfig.objects.get(language_model=unigram_en)
    assert mine.settings_key == theirs.settings_key and mine != theirs
    assert [r[1:] for r in rows(mine)] == [r[1:] for r in rows(theirs)]


def test_cancelling_stops_the_next_chunks_and_keeps_what_is_stored(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel, editor: object
) -> None:
    run = make_run([unigram_en], chunk_size=6)
    chunks = list(ScoringChunk.objects.filter(run=run).order_by("index"))
    score(chunks[0])
    stored = SentenceScore.objects.count()
    assert stored > 0
    assert run_cancel(run=run, user=editor) is True  # type: ignore[arg-type]
    for chunk in chunks[1:]:
        score(chunk)
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert run.job.status == "cancelled" and run.job.message == "Cancelled by ed."  # type: ignore[union-attr]
    assert SentenceScore.objects.count() == stored
    assert ScoringChunk.objects.filter(run=run, status="pending").count() == len(chunks) - 1
    assert run_cancel(run=run) is False


def test_deleting_a_dataset_being_scored_fails_the_run(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel, generated: object
) -> None:
    run = make_run([unigram_en], chunk_size=6)
    chunks = list(ScoringChunk.objects.filter(run=run).order_by("index"))
    score(chunks[0])
    generated.delete()  # type: ignore[attr-defined]
    score(chunks[1])  # its message was queued before the deletion
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert run.job.status == "failed"  # type: ignore[union-attr]
    assert run.job.message.startswith("A dataset or model of this run was deleted while it was being scored")  # type: ignore[union-attr]
    assert SentenceScore.objects.exists()


def test_a_model_that_cannot_be_loaded_fails_the_job_naming_it(
    project: object, make_run: Callable[..., ScoringRun], tmp_path: Path
) -> None:
    # a config a causal LM would have, but no weights and no tokenizer
    (tmp_path / "no-weights").mkdir()
    (tmp_path / "no-weights" / "config.json").write_text(
        '{"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2"}'
    )
    missing = language_model_create(project=project, name="lost-model", source=str(tmp_path / "no-weights"))  # type: ignore[arg-type]
    run = make_run([missing])
    run_chunks(run)
    run.job.refresh_from_db()  # type: ignore[union-attr]
    message = run.job.message  # type: ignore[union-attr]
    assert run.job.status == "failed"  # type: ignore[union-attr]
    assert message.startswith("The model 'lost-model' could not be loaded: ")
    assert str(tmp_path / "no-weights") in message
    assert "Traceback" not in message and not SentenceScore.objects.exists()
    assert ScoringChunk.objects.filter(run=run, status="failed").count() == 1


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (
            OutOfMemoryError("one sentence of 9 tokens does not fit in the memory of cuda:0."),
            "ran out of memory on auto, even scoring one sentence at a time: one sentence of 9 tokens",
        ),
        (
            RuntimeError("CUDA error: device-side assert"),
            "scoring failed unexpectedly (RuntimeError: CUDA error",
        ),
    ],
)
def test_scorer_errors_fail_the_job_in_words(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, error: Exception, words: str
) -> None:
    run = make_run([gpt2_model])
    with mock.patch.object(scorer_cache, "load_scorer", return_value=FakeScorer(error)):
        run_chunks(run)
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert run.job.status == "failed" and words in run.job.message, run.job.message  # type: ignore[union-attr]
    assert run.job.message.startswith("tiny-gpt2 · causal · float32")  # type: ignore[union-attr]
    assert "Traceback" not in run.job.message  # type: ignore[union-attr]


def test_a_sentence_too_long_is_named_with_its_paradigm_and_pair(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, generated: object
) -> None:
    pair = next(iter(dataset_pairs(generated)))  # type: ignore[arg-type]
    error = SentenceTooLongError(
        f"sentence 1 has 80 tokens, more than the 64 that 'x' accepts: '{pair.good.text}'"
    )
    run = make_run([gpt2_model])
    with mock.patch.object(scorer_cache, "load_scorer", return_value=FakeScorer(error)):
        score(first_chunk(run))
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert run.job.status == "failed"  # type: ignore[union-attr]
    assert f"(paradigm {pair.uid}, pair {pair.index})" in run.job.message  # type: ignore[union-attr]


def test_batches_halved_after_out_of_memory_are_noted_in_the_job(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel
) -> None:
    run = make_run([gpt2_model], chunk_size=1000)
    with mock.patch.object(scorer_cache, "load_scorer", return_value=FakeScorer(retries=2)):
        run_chunks(run)
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert run.job.status == "done"  # type: ignore[union-attr]
    assert "The device ran out of memory 2 times; batches were made smaller" in run.job.message  # type: ignore[union-attr]


def test_a_chunk_that_keeps_killing_its_worker_fails_the_run(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel
) -> None:
    run = make_run([unigram_en])
    chunk = first_chunk(run)
    ScoringChunk.objects.filter(pk=chunk.pk).update(attempts=MAX_ATTEMPTS)  # three deliveries died
    score(chunk)
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert run.job.status == "failed"  # type: ignore[union-attr]
    assert f"the worker stopped {MAX_ATTEMPTS} times while scoring chunk 1" in run.job.message  # type: ignore[union-attr]


def test_a_chunk_over_its_time_limit_fails_the_run_in_words(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel
) -> None:
    from celery.exceptions import SoftTimeLimitExceeded

    run = make_run([gpt2_model])
    with mock.patch.object(scorer_cache, "load_scorer", return_value=FakeScorer(SoftTimeLimitExceeded())):
        score(first_chunk(run))
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert run.job.status == "failed"  # type: ignore[union-attr]
    assert "took longer than the task's time limit; create the run with fewer sentences" in run.job.message  # type: ignore[union-attr]


def test_a_database_error_is_retried_without_counting_an_attempt(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel
) -> None:
    from django.db import OperationalError

    run = make_run([unigram_en])
    chunk = first_chunk(run)
    with (
        mock.patch("mpp_studio.evaluation.services.scoring._store", side_effect=OperationalError("gone")),
        pytest.raises(OperationalError),
    ):
        score(chunk)
    chunk.refresh_from_db()
    assert (chunk.status, chunk.attempts) == ("pending", 0)
    score(chunk)  # the retry
    chunk.refresh_from_db()
    assert (chunk.status, chunk.attempts) == ("done", 1)


def test_the_scorer_stays_loaded_between_chunks(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel
) -> None:
    run = make_run([gpt2_model], chunk_size=4)
    with mock.patch.object(scorer_cache, "load_scorer", wraps=load_scorer) as load:
        assert run_chunks(run) == 10
    assert load.call_count == 1
    assert scorer_cache.scorer_loaded() == run.configs.get().settings_key


def test_tiny_gpt2_scores_through_the_task_match_the_engine(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, generated: object
) -> None:
    """The Celery task (run eagerly) stores exactly what the engine's CausalScorer returns."""
    from mpp_studio.evaluation.tasks import score_chunk as task

    run = make_run([gpt2_model], chunk_size=1000)
    chunk = first_chunk(run)
    task.apply(args=(run.pk, chunk.config_id, chunk.dataset_id, chunk.index)).get()
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert run.job.status == "done", run.job.message  # type: ignore[union-attr]
    config = run.configs.get()
    assert config.describe  # filled from the scorer on first load
    sentences = chunk_sentences(generated, chunk.ranges)  # type: ignore[arg-type]
    engine = load_scorer(config_settings_of(config))
    expected = engine.score([s for _, s in sentences])
    stored = {r.sentence_key: r for r in SentenceScore.objects.filter(config=config)}
    assert len(stored) == len(sentences)
    for (key, _sentence), score_ in zip(sentences, expected, strict=True):
        row = stored[key]
        assert row.data == score_.to_dict()
        assert row.lp_sum == pytest.approx(score_.reduce("sum"), abs=0)
        assert row.n_tokens == score_.n_tokens > 0


def config_settings_of(config: ScoreConfig) -> object:
    from mpp_studio.evaluation.engine import config_settings

    settings = config_settings(config)
    assert settings.key() == config.settings_key
    return settings


# -- Models and series ------------------------------------------------------------------------


def test_language_model_create_checks_fields(project: object, gpt2_model: LanguageModel) -> None:
    with pytest.raises(ValidationError) as exc:
        language_model_create(project=project, name="tiny-gpt2", source="")  # type: ignore[arg-type]
    errors = errors_of(exc)
    assert errors["name"] == ["This project already has a model named 'tiny-gpt2'."]
    assert errors["source"] == [
        "Give a Hugging Face model id (e.g. gpt2) or the path of a local model folder."
    ]
    with pytest.raises(ValidationError) as exc:
        language_model_create(project=project, name="c", source="x", step=5)  # type: ignore[arg-type]
    assert errors_of(exc)["series"] == ["A checkpoint step needs the name of its series."]


def test_language_model_kind_is_fixed_once_scored(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel
) -> None:
    with pytest.raises(ValidationError) as exc:
        language_model_update(model=gpt2_model, kind="masked")  # its config is a causal LM's
    assert "cannot be scored as a Masked LM" in errors_of(exc)["kind"][0]
    language_model_update(model=gpt2_model, notes="random weights")
    make_run([gpt2_model])
    with pytest.raises(ValidationError) as exc:
        language_model_update(model=gpt2_model, kind="masked")
    assert "register a new model" in errors_of(exc)["kind"][0]


def test_unigram_baseline_is_registered_once_per_language(project: object) -> None:
    first = language_model_unigram_ensure(project=project, language="zh")  # type: ignore[arg-type]
    assert language_model_unigram_ensure(project=project, language="zh") == first  # type: ignore[arg-type]
    assert (first.name, first.kind, first.source) == ("Unigram baseline (zh)", "unigram", "")


def test_series_registers_one_model_per_checkpoint(project: object, tmp_path: Path) -> None:
    for step in (2000, 500, 1000):
        (tmp_path / f"checkpoint-{step}").mkdir()
        (tmp_path / f"checkpoint-{step}" / "config.json").write_text("{}")
    outcome = language_model_series_register(project=project, folder=str(tmp_path), series="run-a")  # type: ignore[arg-type]
    assert [(m.name, m.step, m.series) for m in outcome.created] == [
        ("run-a step 500", 500, "run-a"),
        ("run-a step 1000", 1000, "run-a"),
        ("run-a step 2000", 2000, "run-a"),
    ]
    assert outcome.created[0].source == str(tmp_path / "checkpoint-500")
    again = language_model_series_register(project=project, folder=str(tmp_path), series="run-a")  # type: ignore[arg-type]
    assert again.created == [] and len(again.existing) == 3


def test_series_rejects_a_folder_without_checkpoints(project: object, tmp_path: Path) -> None:
    with pytest.raises(ValidationError) as exc:
        language_model_series_register(project=project, folder=str(tmp_path), series="x")  # type: ignore[arg-type]
    assert str(tmp_path) in errors_of(exc)["folder"][0]
    with pytest.raises(ValidationError) as exc:
        language_model_series_register(
            project=project, folder=str(tmp_path / "nope"), series="", kind="unigram"
        )  # type: ignore[arg-type]
    assert set(errors_of(exc)) == {"folder", "series", "kind"}


def test_sentence_key_depends_on_text_and_word_spans() -> None:
    plain = Sentence("The cat sleeps.")
    spanned = Sentence("The cat sleeps.", ((0, 3), (4, 7), (8, 14), (14, 15)))
    assert sentence_key(plain) == sentence_key(Sentence("The cat sleeps."))
    assert len({sentence_key(plain), sentence_key(spanned), sentence_key(Sentence("The cat sleep."))}) == 3


def test_model_folders_are_limited_to_the_allowed_ones(
    project: object, tmp_path: Path, tiny_gpt2_folder: Path, settings: object
) -> None:
    allowed = tmp_path / "models"
    allowed.mkdir()
    settings.MODEL_DIRS = [str(allowed)]  # type: ignore[attr-defined]
    with pytest.raises(ValidationError) as outside:
        language_model_create(project=project, name="elsewhere", source=str(tiny_gpt2_folder))  # type: ignore[arg-type]
    assert "outside the model folders this server allows" in str(outside.value.message_dict["source"])
    inside = allowed / "gpt2"
    inside.symlink_to(tiny_gpt2_folder)
    # a link inside the allowed folder that leads out of it is still outside
    with pytest.raises(ValidationError):
        language_model_create(project=project, name="linked", source=str(inside))  # type: ignore[arg-type]
    copy = allowed / "copy"
    copy.mkdir()
    for path in tiny_gpt2_folder.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    assert language_model_create(project=project, name="inside", source=str(copy)).source == str(copy)  # type: ignore[arg-type]
    with pytest.raises(ValidationError) as series:
        language_model_series_register(project=project, folder=str(tmp_path), series="s")  # type: ignore[arg-type]
    assert "outside the model folders" in str(series.value.message_dict["folder"])


def test_a_folder_too_big_to_be_a_model_is_refused(project: object, tmp_path: Path, monkeypatch) -> None:
    from scoring import settings as scoring_settings

    monkeypatch.setattr(scoring_settings, "FINGERPRINT_MAX_FILES", 2)
    for index in range(3):
        (tmp_path / f"{index}.bin").write_bytes(b"0")
    with pytest.raises(ValidationError) as refused:
        language_model_create(project=project, name="home", source=str(tmp_path))  # type: ignore[arg-type]
    assert "not a model folder" in str(refused.value.message_dict["source"])


@pytest.mark.django_db
def test_a_unigram_baseline_scores_only_the_datasets_of_its_language(
    project: object, editor: object, make_dataset: Callable[..., object]
) -> None:
    """One unigram run over an English and a Chinese dataset: each dataset is scored with its own
    language's word list only, and each dataset's results list only that baseline."""
    from mpp_studio.evaluation.selectors import dataset_configs
    from tests.web.datasets.conftest import run_generation

    english, chinese = make_dataset("en", name="English"), make_dataset("zh", name="Chinese")
    for dataset in (english, chinese):
        run_generation(dataset)
        dataset.refresh_from_db()  # type: ignore[attr-defined]
    run = run_create(
        project=project,  # type: ignore[arg-type]
        name="Baselines",
        language_models=[],
        datasets=[english, chinese],  # type: ignore[list-item]
        method="unigram",
        created_by=editor,  # type: ignore[arg-type]
    )
    scored = {
        (chunk.config.language_model.language, chunk.dataset.name)
        for chunk in ScoringChunk.objects.filter(run=run).select_related("config__language_model", "dataset")
    }
    assert scored == {("en", "English"), ("zh", "Chinese")}
    assert run.job.progress_total == sum(c.n_sentences for c in ScoringChunk.objects.filter(run=run))  # type: ignore[attr-defined]
    for dataset, language in ((english, "en"), (chinese, "zh")):
        configs = list(dataset_configs(dataset=dataset))  # type: ignore[arg-type]
        assert [c.language_model.language for c in configs] == [language]


@pytest.mark.django_db
def test_in_a_dataset_of_two_languages_each_baseline_scores_its_own_paradigms(
    project: object, editor: object, generated: object
) -> None:
    """`generated` holds an English and a Chinese paradigm: the English word list scores the
    English pairs only, the Chinese the Chinese, and each leaderboard row is complete."""
    from mpp_studio.evaluation import results

    run = run_create(
        project=project,  # type: ignore[arg-type]
        name="Baselines",
        language_models=[],
        datasets=[generated],  # type: ignore[list-item]
        method="unigram",
        created_by=editor,  # type: ignore[arg-type]
    )
    run_chunks(run)
    scored = {
        (config.language_model.language, uid)
        for config, uid in (
            (row.config, row.paradigm.uid)
            for row in PairScore.objects.filter(config__runs=run).select_related(
                "config__language_model", "paradigm"
            )
        )
    }
    assert scored == {("en", "en_sv_agreement"), ("zh", "zh_classifier_noun")}
    board = results.leaderboard(generated)  # type: ignore[arg-type]
    assert sorted((r.model_name, r.n, r.n_pairs, sorted(r.by_phenomenon)) for r in board.rows) == [
        ("Unigram baseline (en)", 10, 10, ["subject_verb_agreement"]),
        ("Unigram baseline (zh)", 10, 10, ["classifiers"]),
    ]
    assert run.job.progress_total == 40  # type: ignore[union-attr]  # two sentences a pair, 20 pairs once


@pytest.mark.django_db
def test_a_baseline_of_another_language_is_refused_and_hidden_from_old_runs(
    project: object, editor: object, make_dataset: Callable[..., object]
) -> None:
    from mpp_studio.evaluation.selectors import dataset_configs
    from tests.web.datasets.conftest import run_generation

    english = make_dataset("en", name="English")
    run_generation(english)
    english.refresh_from_db()  # type: ignore[attr-defined]
    chinese_words = language_model_unigram_ensure(project=project, language="zh")  # type: ignore[arg-type]
    english_words = language_model_unigram_ensure(project=project, language="en")  # type: ignore[arg-type]
    with pytest.raises(ValidationError) as raised:
        run_create(
            project=project,  # type: ignore[arg-type]
            name="Wrong words",
            language_models=[chinese_words],
            datasets=[english],  # type: ignore[list-item]
            created_by=editor,  # type: ignore[arg-type]
        )
    assert "unigram baseline of language 'zh'" in errors_of(raised)["language_models"][0]
    # a run an earlier version made, holding the Chinese baseline over the English dataset
    run = run_create(
        project=project,  # type: ignore[arg-type]
        name="Right words",
        language_models=[english_words],
        datasets=[english],  # type: ignore[list-item]
        created_by=editor,  # type: ignore[arg-type]
    )
    run.configs.add(ScoreConfig.objects.create(language_model=chinese_words, method="unigram", language="zh"))  # type: ignore[attr-defined]
    assert [c.language_model for c in dataset_configs(dataset=english)] == [english_words]  # type: ignore[arg-type]


def test_a_masked_model_registered_as_a_causal_lm_is_refused_on_its_kind(
    project: object, tiny_bert_folder: Path, tiny_gpt2_folder: Path
) -> None:
    with pytest.raises(ValidationError) as exc:
        language_model_create(project=project, name="bert", source=str(tiny_bert_folder), kind="causal")  # type: ignore[arg-type]
    [message] = errors_of(exc)["kind"]
    assert message.startswith(f"'{tiny_bert_folder}' cannot be scored as a Causal LM: ")
    assert "(architecture BertForMaskedLM, model type bert)" in message
    with pytest.raises(ValidationError) as exc:
        language_model_create(project=project, name="gpt", source=str(tiny_gpt2_folder), kind="masked")  # type: ignore[arg-type]
    assert "Register it as a causal LM" in errors_of(exc)["kind"][0]
    masked = language_model_create(project=project, name="bert", source=str(tiny_bert_folder), kind="masked")  # type: ignore[arg-type]
    assert masked.kind == "masked"
    assert not LanguageModel.objects.filter(name="gpt").exists()


def test_a_hub_model_is_checked_at_registration(project: object, stand_in_hub: dict[str, object]) -> None:
    with pytest.raises(ValidationError) as exc:
        language_model_create(project=project, name="r", source="roberta-base", kind="causal")  # type: ignore[arg-type]
    assert "cannot be scored as a Causal LM" in errors_of(exc)["kind"][0]
    with pytest.raises(ValidationError) as exc:
        language_model_create(project=project, name="x", source="nobody/nothing")  # type: ignore[arg-type]
    assert "the Hugging Face hub has no model 'nobody/nothing'" in errors_of(exc)["source"][0]
    model = language_model_create(project=project, name="g", source="gpt2")  # type: ignore[arg-type]
    stand_in_hub.clear()  # the hub is out of reach: an edit of the notes alone still saves
    assert language_model_update(model=model, notes="base model").notes == "base model"
    with pytest.raises(ValidationError):
        language_model_update(model=model, revision="v2")
    model.refresh_from_db()
    assert (model.revision, model.notes) == ("", "base model")


@pytest.mark.django_db
def test_a_baselines_items_and_downloads_are_its_own_languages_pairs(
    project: object, editor: object, generated: object
) -> None:
    from mpp_studio.evaluation import results
    from mpp_studio.evaluation.exports import items_csv_lines

    run = run_create(
        project=project,  # type: ignore[arg-type]
        name="Baselines",
        language_models=[],
        datasets=[generated],  # type: ignore[list-item]
        method="unigram",
        created_by=editor,  # type: ignore[arg-type]
    )
    run_chunks(run)
    chinese = ScoreConfig.objects.get(runs=run, language_model__language="zh")
    page = results.item_rows(generated, chinese)  # type: ignore[arg-type]
    assert page.total == 10 and {i.uid for i in page.items} == {"zh_classifier_noun"}
    assert results.item_rows(generated, chinese, outcome="unscored").total == 0  # type: ignore[arg-type]
    lines = list(items_csv_lines(generated, chinese))  # type: ignore[arg-type]
    assert len(lines) == 11 and not any(b"en_sv_agreement" in line for line in lines)
