"""Triplet runs: chunked, safe to run twice, independent of the chunk size, and a yield report
whose counts add up to the corpus and to the stored triplets."""

import pytest
from django.core.exceptions import ValidationError

from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.jobs.models import Job
from mpp_studio.learner.models import TripletChunk, TripletRun
from mpp_studio.learner.services import SLOTS, make_triplets_chunk, run_create
from tests.web.learner.conftest import BLISS_KEYS, make_run
from triplets.report import YieldReport

pytestmark = pytest.mark.django_db


def _rows(run: TripletRun) -> list[tuple[str, int, str, str, str]]:
    pairs = Pair.objects.filter(paradigm__dataset=run.dataset).order_by("index")
    return [
        (p.paradigm.uid, p.index, p.sentence_good, p.sentence_bad, p.record["artificial_error"])
        for p in pairs
    ]


def _records(run: TripletRun) -> list[dict[str, object]]:
    pairs = Pair.objects.filter(paradigm__dataset=run.dataset).order_by("index")
    return [{k: v for k, v in p.record.items() if k != "chunk"} for p in pairs]


def test_runs_of_one_corpus_make_datasets_of_distinct_names(corpus: object, editor: object) -> None:
    names = [
        run_create(corpus=corpus, seed=seed, strict=strict, created_by=editor, dispatch=False).dataset.name  # type: ignore[arg-type,union-attr]
        for seed, strict in ((7, False), (7, True), (7, False), (7, False), (8, False))
    ]
    assert names == [
        "Demo learners triplets (seed 7)",
        "Demo learners triplets (seed 7, strict rules)",
        "Demo learners triplets (seed 7) #2",
        "Demo learners triplets (seed 7) #3",
        "Demo learners triplets (seed 8)",
    ]


def test_run_creates_a_learner_dataset_job_and_chunks(corpus: object, editor: object) -> None:
    run = run_create(corpus=corpus, chunk_size=100, seed=7, strict=False, created_by=editor, dispatch=False)  # type: ignore[arg-type]
    dataset = run.dataset
    assert dataset is not None and dataset.origin == Dataset.Origin.LEARNER and dataset.is_read_only
    assert (
        dataset.name == "Demo learners triplets (seed 7)"
        and dataset.pairs_per_paradigm == 0
        and dataset.seed == 7
    )
    assert dataset.job_id == run.job_id and run.job.status == Job.Status.QUEUED
    chunks = list(TripletChunk.objects.filter(run=run).order_by("index"))
    n = corpus.pair_count  # type: ignore[attr-defined]
    assert [(c.first_index, c.last_index) for c in chunks] == [
        (start, min(start + 100, n) - 1) for start in range(0, n, 100)
    ]
    assert run.job.progress_total == len(chunks)


def test_run_queues_one_task_per_chunk_on_commit(corpus: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from mpp_studio.learner import tasks

    sent: list[int] = []
    monkeypatch.setattr(tasks.make_triplets_chunk, "delay_on_commit", lambda chunk_id: sent.append(chunk_id))
    run = run_create(corpus=corpus, chunk_size=120)  # type: ignore[arg-type]
    assert sent == list(TripletChunk.objects.filter(run=run).order_by("index").values_list("pk", flat=True))
    assert len(sent) == 3


def test_finished_run_report_adds_up(finished_run: TripletRun, corpus: object) -> None:
    run = finished_run
    assert run.job.status == Job.Status.DONE and run.job.progress_done == run.job.progress_total
    report = YieldReport.from_dict(run.report)
    assert report.pairs_in == corpus.pair_count  # type: ignore[attr-defined]
    assert report.total_triplets > 0
    stored = Pair.objects.filter(paradigm__dataset=run.dataset).count()
    assert stored == report.total_triplets == run.triplet_total
    for row in report.rows():
        # Every single-edit pair either became a triplet or was dropped for one reason.
        assert row["triplets"] + sum(row["dropped"].values()) == row["single_edit_pairs"], row
    for paradigm in DatasetParadigm.objects.filter(dataset=run.dataset):
        assert paradigm.produced == paradigm.pairs.count() == report.triplets[paradigm.uid]
        assert paradigm.requested == report.single_edit_pairs[paradigm.uid]
        assert paradigm.status == DatasetParadigm.Status.DONE and paradigm.language == "en"
        assert paradigm.phenomenon == paradigm.uid.split(":", 1)[1]
    # The merged report is the sum of the chunks' reports.
    merged = YieldReport()
    for data in TripletChunk.objects.filter(run=run).values_list("report", flat=True):
        merged.merge(YieldReport.from_dict(data))
    assert merged.to_dict() == run.report
    assert str(report.total_triplets) in run.job.message


def test_records_have_the_bliss_keys_and_deterministic_indexes(finished_run: TripletRun) -> None:
    from mpp_studio.learner.models import LearnerPairRecord

    for pair in Pair.objects.filter(paradigm__dataset=finished_run.dataset).select_related("paradigm"):
        record = pair.record
        assert set(record) >= BLISS_KEYS, set(BLISS_KEYS) - set(record)
        assert record["error_type"] == pair.paradigm.uid
        assert pair.sentence_good == record["corrected"] and pair.sentence_bad == record["learner_error"]
        source, k = divmod(pair.index, SLOTS)
        assert record["UID"].endswith(f"#{k}")
        source_pair = LearnerPairRecord.objects.get(corpus=finished_run.corpus, index=source)
        assert record["sentence_id"] == source_pair.pair_id and record["L1"] == source_pair.l1
        chunk = TripletChunk.objects.get(run=finished_run, index=record["chunk"])
        assert chunk.first_index <= source <= chunk.last_index


def test_a_chunk_run_twice_stores_the_same_rows(corpus: object) -> None:
    run = make_run(corpus, chunk_size=100)
    before = _rows(run)
    chunk = TripletChunk.objects.filter(run=run).order_by("index").first()
    # Delivered again once done: returns at once.
    make_triplets_chunk(chunk_id=chunk.pk)
    assert _rows(run) == before
    # Redelivered after a worker died before marking it done: its rows are replaced, not added.
    TripletChunk.objects.filter(pk=chunk.pk).update(status=TripletChunk.Status.PENDING)
    Job.objects.filter(pk=run.job_id).update(status=Job.Status.RUNNING, finished_at=None)
    make_triplets_chunk(chunk_id=chunk.pk)
    assert _rows(run) == before
    run.refresh_from_db()
    assert run.job.status == Job.Status.DONE


def test_the_celery_task_runs_a_chunk(corpus: object) -> None:
    from mpp_studio.learner.tasks import make_triplets_chunk as task

    run = run_create(corpus=corpus, chunk_size=1000, dispatch=False)  # type: ignore[arg-type]
    chunk = TripletChunk.objects.get(run=run)
    task.apply(args=(chunk.pk,)).get()
    task.apply(args=(chunk.pk,)).get()  # twice: nothing changes
    run.refresh_from_db()
    assert run.job.status == Job.Status.DONE
    assert Pair.objects.filter(paradigm__dataset=run.dataset).count() == run.triplet_total


def test_chunk_size_does_not_change_the_triplets(corpus: object) -> None:
    small = make_run(corpus, chunk_size=50)
    large = make_run(corpus, chunk_size=1000)
    assert (
        TripletChunk.objects.filter(run=small).count() > 1 == TripletChunk.objects.filter(run=large).count()
    )
    assert _records(small) == _records(large) and _records(small)
    assert small.report == large.report


def test_a_cancelled_job_stops_its_chunks(corpus: object) -> None:
    from mpp_studio.jobs.services import job_cancel

    run = run_create(corpus=corpus, chunk_size=100, dispatch=False)  # type: ignore[arg-type]
    job_cancel(job_id=run.job_id)
    for chunk in TripletChunk.objects.filter(run=run):
        make_triplets_chunk(chunk_id=chunk.pk)
    assert not TripletChunk.objects.filter(run=run, status=TripletChunk.Status.DONE).exists()
    assert not Pair.objects.filter(paradigm__dataset=run.dataset).exists()


def test_an_engine_error_fails_the_job_in_words(corpus: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from mpp_studio.learner import services

    def broken(*args: object, **kwargs: object) -> object:
        raise ValueError("the parser fell over")

    monkeypatch.setattr(services, "run_pipeline", broken)
    run = make_run(corpus, chunk_size=200)
    assert run.job.status == Job.Status.FAILED
    assert run.job.message.startswith("Making triplets failed on chunk 1 of 2 (pairs 1–200)")
    assert "the parser fell over" in run.job.message


def test_give_up_fails_the_run(corpus: object) -> None:
    from mpp_studio.learner.services import run_give_up

    run = run_create(corpus=corpus, chunk_size=1000, dispatch=False)  # type: ignore[arg-type]
    run_give_up(chunk_id=TripletChunk.objects.get(run=run).pk, message="the time limit was reached.")
    run.refresh_from_db()
    assert run.job.status == Job.Status.FAILED and "Chunk 1: the time limit" in run.job.message


def test_bad_run_settings_are_refused_per_field(corpus: object) -> None:
    with pytest.raises(ValidationError) as caught:
        run_create(corpus=corpus, max_tries=0, chunk_size=0, dispatch=False)  # type: ignore[arg-type]
    assert set(caught.value.message_dict) == {"max_tries", "chunk_size"}
    assert not TripletRun.objects.exists() and not Dataset.objects.exists()


def test_learner_datasets_are_read_only(finished_run: TripletRun) -> None:
    from mpp_studio.datasets.services import dataset_require_generated

    with pytest.raises(ValidationError) as caught:
        dataset_require_generated(dataset=finished_run.dataset)
    assert "learner triplets" in caught.value.messages[0]


def test_load_learner_demo_is_idempotent(loaded_library: object) -> None:
    import io

    from django.core.management import call_command

    from mpp_studio.learner.models import LearnerCorpus

    out = io.StringIO()
    call_command("load_learner_demo", stdout=out)
    assert "triplets (run done)" in out.getvalue()
    call_command("load_learner_demo", stdout=out)
    assert "already has its triplets" in out.getvalue()
    corpus = LearnerCorpus.objects.get()
    assert corpus.project.name == "Demo project" and corpus.runs.count() == 1
    run = corpus.runs.get()
    assert (
        run.triplet_total and Pair.objects.filter(paradigm__dataset=run.dataset).count() == run.triplet_total
    )


def test_a_chunk_that_keeps_killing_its_worker_fails_the_run(corpus: object) -> None:
    from mpp_studio.learner.services import MAX_ATTEMPTS

    run = run_create(corpus=corpus, chunk_size=1000, dispatch=False)  # type: ignore[arg-type]
    chunk = TripletChunk.objects.get(run=run)
    TripletChunk.objects.filter(pk=chunk.pk).update(attempts=MAX_ATTEMPTS)  # three starts, no finish
    make_triplets_chunk(chunk_id=chunk.pk)
    run.refresh_from_db()
    assert run.job.status == Job.Status.FAILED
    assert run.job.message.startswith(f"The worker stopped {MAX_ATTEMPTS} times while making chunk 1 of 1")
    assert not Pair.objects.filter(paradigm__dataset=run.dataset).exists()


def test_a_chunk_task_that_gives_up_fails_the_run_in_words(corpus: object) -> None:
    """The task's failure handler (retries spent, time limit) fails the run's job naming the
    chunk and the reason; a message without its chunk id is left alone."""
    from mpp_studio.learner.tasks import make_triplets_chunk as task

    run = run_create(corpus=corpus, dispatch=False, chunk_size=100)  # type: ignore[arg-type]
    chunk = TripletChunk.objects.filter(run=run).order_by("index").first()
    task.on_failure(RuntimeError("boom"), "task-id", (), {}, None)
    assert Job.objects.get(pk=run.job_id).status != "failed"
    task.on_failure(RuntimeError("boom"), "task-id", (), {"chunk_id": chunk.pk}, None)
    job = Job.objects.get(pk=run.job_id)
    assert job.status == "failed"
    assert job.message == "Chunk 1: the worker could not finish it (RuntimeError: boom)."
