"""Generating one paradigm of a dataset, chunk by chunk, safely more than once.

Generation is deterministic for (template version, vocabulary snapshot, seed), so a run always
walks the same sequence of pairs from the start: it skips the indexes already stored, writes the
rest in chunks (each chunk one transaction, upserted on (paradigm, index)), and after
`pairs_per_run` new pairs returns so that the task can queue the next run. A run that is
delivered twice, or restarted after its worker died, therefore writes the same rows and no
duplicates.

No-data-loss invariant: every pair stored stays stored. A paradigm that falls short
(E_SHORTFALL) keeps the pairs made before the engine gave up and is marked failed with the
engine's reason; the other paradigms of the dataset are not touched. A paradigm asked to make
as many as it can (`as_many_as_possible`) is done instead, with the reason it made no more. A
failed paradigm can be generated again alone (`dataset_paradigm_retry`), continuing from the
pairs it stored.
"""

import dataclasses
import logging
from collections.abc import Iterable
from typing import Literal

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import F, Sum

from generator import GENERATOR_VERSION
from generator import errors as E
from generator.errors import GenerationError, Problem, TemplateError
from generator.generate import GenerationStats, Generator
from mpp_studio.accounts.users import RequestUser
from mpp_studio.datasets.engine import paradigm_generator, template_file_name
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.datasets.problem_text import problem_summary
from mpp_studio.datasets.services.datasets import JOB_KIND
from mpp_studio.jobs.retrying import DATABASE_ERRORS, when_database_answers
from mpp_studio.jobs.selectors import job_is_open
from mpp_studio.jobs.services import job_create, job_fail, job_finish, job_progress, job_start
from mpp_studio.paradigms.engine import E_ENGINE, engine_failure_message
from vocab.errors import VocabularyError

logger = logging.getLogger(__name__)

# How a run ended: every pair stored, the run's budget spent (queue another), or the job closed.
Outcome = Literal["complete", "more", "stopped"]

# 2,000 records of ~900 bytes: about 2 MB per INSERT, one short transaction each, so progress
# moves every second or so and a killed worker loses at most one chunk.
CHUNK_SIZE = 2_000
# New pairs one task run stores before handing over to a fresh run (well under the broker's
# redelivery timeout: Redis redelivers a message not acknowledged within an hour).
PAIRS_PER_RUN = 50_000
# Runs of a paradigm that may start without storing a chunk (each one's worker died first, e.g.
# out of memory) before the paradigm fails instead of being redelivered for ever.
MAX_ATTEMPTS = 3


def dataset_paradigm_generate(
    *, paradigm_id: int, chunk_size: int = CHUNK_SIZE, pairs_per_run: int = PAIRS_PER_RUN
) -> bool:
    """Store the next pairs of a dataset paradigm; return True if another run must continue it.

    Returns False when there is nothing (more) to do: the paradigm is finished now or was
    before, its dataset was deleted, or its job was cancelled. Engine problems never raise:
    they mark the paradigm failed with the reason, and the job ends once every paradigm has.

    Raises:
        DatabaseError: on a database failure (the task retries; stored chunks stay).
    """
    paradigm = (
        DatasetParadigm.objects.select_related("dataset", "template_version", "vocabulary_snapshot")
        .filter(pk=paradigm_id)
        .first()
    )
    if paradigm is None:  # the dataset was deleted meanwhile
        return False
    dataset = paradigm.dataset
    job_id = dataset.job_id
    if paradigm.status != DatasetParadigm.Status.PENDING:
        dataset_finish_if_complete(dataset_id=dataset.pk)
        return False
    if job_id is None or not job_start(job_id=job_id):  # cancelled, or already ended
        return False
    DatasetParadigm.objects.filter(pk=paradigm.pk).update(attempts=F("attempts") + 1)
    paradigm.attempts += 1
    if paradigm.attempts > MAX_ATTEMPTS:
        _paradigm_fail(
            paradigm,
            [
                Problem(
                    "E_WORKER",
                    f"the worker stopped {MAX_ATTEMPTS} times while generating this paradigm, each "
                    "time before it could store a pair (it may run out of memory: ask for fewer "
                    "pairs, or give the worker more memory); the pairs stored before are kept",
                    template_file_name(paradigm.uid),
                )
            ],
        )
        dataset_finish_if_complete(dataset_id=dataset.pk)
        return False

    stats = GenerationStats()
    try:
        generator = paradigm_generator(paradigm)
        outcome = _store_pairs(
            paradigm, generator, chunk_size=chunk_size, pairs_per_run=pairs_per_run, stats=stats
        )
    except DATABASE_ERRORS:
        _forget_attempt(paradigm)  # a database outage is not a dead worker: the task retries
        raise
    except DatabaseError:
        raise
    except GenerationError as exc:
        problem = exc.problem
        if paradigm.dataset.balanced_words_only:
            # The reason may be the words left out, not the template: say so where it is read.
            problem = dataclasses.replace(
                problem,
                message=f"{problem.message} (this dataset uses counterbalanced words only: the "
                "vocabulary items marked balanced = 0 were left out)",
            )
        _paradigm_fail(paradigm, [problem])
    except TemplateError as exc:
        _paradigm_fail(paradigm, list(exc.problems))
    except VocabularyError as exc:  # defensive: paradigm_generator converts these
        _paradigm_fail(
            paradigm, [Problem(E.E_VOCABULARY, str(e), template_file_name(paradigm.uid)) for e in exc.errors]
        )
    except Exception as exc:  # the engine's own bug: record it rather than retry forever
        logger.exception("generation of dataset paradigm %s failed", paradigm.pk)
        _paradigm_fail(
            paradigm, [Problem(E_ENGINE, engine_failure_message(exc), template_file_name(paradigm.uid))]
        )
    else:
        if outcome == "more":
            return True
        if outcome == "stopped":
            return False
        produced = Pair.objects.filter(paradigm=paradigm).count()
        # Made as many as it could: why no more is kept beside the count.
        notes = [stats.short.to_dict()] if stats.short is not None and produced < paradigm.requested else []
        DatasetParadigm.objects.filter(pk=paradigm.pk, status=DatasetParadigm.Status.PENDING).update(
            status=DatasetParadigm.Status.DONE,
            produced=produced,
            problems=notes,
            generator_version=GENERATOR_VERSION,
        )
    dataset_finish_if_complete(dataset_id=dataset.pk)
    return False


def _store_pairs(
    paradigm: DatasetParadigm,
    generator: Generator,
    *,
    chunk_size: int,
    pairs_per_run: int,
    stats: GenerationStats,
) -> Outcome:
    """Store the pairs not yet stored, chunk by chunk, and say how the run ended (`stats`: the
    engine's account of the run, with why it stopped short when it made all it could)."""
    dataset = paradigm.dataset
    seed = dataset.seed
    stored = set(Pair.objects.filter(paradigm=paradigm).values_list("index", flat=True))
    if len(stored) >= paradigm.requested:
        return "complete"
    new = 0
    chunk: list[Pair] = []
    try:
        pairs = generator.pairs(
            paradigm.requested,
            seed,
            unique=dataset.unique or None,
            stats=stats,
            as_many_as_possible=paradigm.as_many_as_possible,
        )
        for pair in pairs:
            if pair.index in stored:
                continue
            chunk.append(
                Pair(
                    paradigm=paradigm,
                    index=pair.index,
                    sentence_good=pair.good,
                    sentence_bad=pair.bad,
                    record=generator.record(pair, seed),
                )
            )
            new += 1
            if len(chunk) >= chunk_size:
                open_job = _flush(paradigm, chunk)
                chunk = []
                if not open_job:
                    return "stopped"  # cancelled: what is stored stays
                if new >= pairs_per_run and len(stored) + new < paradigm.requested:
                    return "more"
    except DatabaseError:
        raise
    except Exception:
        # The pairs made before the engine stopped (a shortfall) are kept, never thrown away.
        if chunk:
            _flush(paradigm, chunk)
        raise
    if chunk and not _flush(paradigm, chunk):
        return "stopped"
    return "complete"


def _flush(paradigm: DatasetParadigm, chunk: Iterable[Pair]) -> bool:
    """Upsert a chunk and report progress; return whether the job is still open."""
    with transaction.atomic():
        # A rerun regenerates exactly the same pair for an index, so an existing row is kept.
        Pair.objects.bulk_create(chunk, ignore_conflicts=True)
        produced = Pair.objects.filter(paradigm=paradigm).count()
        # Progress: the runs that died before this one no longer count against the paradigm.
        DatasetParadigm.objects.filter(pk=paradigm.pk).update(produced=produced, attempts=0)
    job_id = paradigm.dataset.job_id
    if job_id is None:
        return False
    # The paradigms' counts, not a count of the dataset's rows: one small row per paradigm.
    done = (
        DatasetParadigm.objects.filter(dataset_id=paradigm.dataset_id).aggregate(n=Sum("produced"))["n"] or 0
    )
    return job_progress(
        job_id=job_id,
        done=done,
        message=f"Generating {paradigm.uid}: {produced:,} of {paradigm.requested:,} pairs stored.",
    )


def _forget_attempt(paradigm: DatasetParadigm) -> None:
    """Give back the attempt counted for this run, once the database answers again."""

    def give_back() -> None:
        DatasetParadigm.objects.filter(pk=paradigm.pk, attempts__gt=0).update(attempts=F("attempts") - 1)

    if not when_database_answers(give_back):  # still down: the count stays one too high
        logger.warning("could not undo the attempt count of dataset paradigm %s", paradigm.pk)


def _paradigm_fail(paradigm: DatasetParadigm, problems: list[Problem]) -> None:
    produced = Pair.objects.filter(paradigm=paradigm).count()
    DatasetParadigm.objects.filter(pk=paradigm.pk).update(
        status=DatasetParadigm.Status.FAILED, produced=produced, problems=[p.to_dict() for p in problems]
    )


def dataset_paradigm_fail(*, paradigm_id: int, message: str) -> None:
    """Mark a paradigm failed for a reason outside the engine (its worker task gave up)."""
    paradigm = DatasetParadigm.objects.filter(pk=paradigm_id).first()
    if paradigm is None or paradigm.status != DatasetParadigm.Status.PENDING:
        return
    _paradigm_fail(paradigm, [Problem("E_WORKER", message, template_file_name(paradigm.uid))])
    dataset_finish_if_complete(dataset_id=paradigm.dataset_id)


def dataset_finish_if_complete(*, dataset_id: int) -> None:
    """End the dataset's job once no paradigm is pending: done, or failed naming the failures.

    Safe to call from every paradigm's task, in any order and more than once: each task
    commits its own paradigm's status before calling, so the last one to finish sees them all.
    """
    dataset = Dataset.objects.filter(pk=dataset_id).first()
    if dataset is None or dataset.job_id is None or not job_is_open(job_id=dataset.job_id):
        return
    paradigms = list(dataset.paradigms.order_by("uid"))
    if any(p.status == DatasetParadigm.Status.PENDING for p in paradigms):
        return
    total = sum(p.produced for p in paradigms)
    count = f"{len(paradigms)} paradigm{'s' if len(paradigms) != 1 else ''}"
    job_progress(job_id=dataset.job_id, done=total)
    failed = [p for p in paradigms if p.status == DatasetParadigm.Status.FAILED]
    short = [p for p in paradigms if p.is_short]
    fewer = (
        " Made fewer than asked, all they can make: "
        + ", ".join(f"{p.uid} ({p.produced:,} of {p.requested:,})" for p in short)
        + "."
        if short
        else ""
    )
    if not failed:
        if short:
            # Done means every pair that could be made: the bar counts those, not the ones asked for.
            job_progress(job_id=dataset.job_id, done=total, total=total)
        job_finish(job_id=dataset.job_id, message=f"Generated {total:,} pairs in {count}.{fewer}")
        return
    reasons = "\n".join(
        f"{p.uid}: {problem_summary(p.problems, empty='it failed without a reason (please report this)')}"
        for p in failed
    )
    job_fail(
        job_id=dataset.job_id,
        message=(
            f"{len(failed)} of {count} failed:\n{reasons}\nThe {total:,} pairs stored are kept; "
            f"a failed paradigm can be retried alone.{fewer}"
        ),
    )


def dataset_paradigm_retry(
    *,
    paradigm: DatasetParadigm,
    as_many_as_possible: bool = False,
    user: RequestUser | None = None,
) -> DatasetParadigm:
    """Generate a failed paradigm again, alone, from the template version, phrases and vocabulary
    snapshot it recorded; it continues from the pairs it stored (the same seed makes the same
    pairs). With `as_many_as_possible` it is done with all it can make rather than failing again.

    The dataset gets a new job when its last one has ended (done, failed or cancelled).

    Raises:
        ValidationError: the paradigm did not fail, or its dataset was imported (no generation).
    """
    dataset = paradigm.dataset
    if dataset.is_imported or paradigm.template_version_id is None:
        raise ValidationError(f"{paradigm.uid} was imported, not generated: there is nothing to retry.")
    with transaction.atomic():
        retried = DatasetParadigm.objects.filter(pk=paradigm.pk, status=DatasetParadigm.Status.FAILED).update(
            status=DatasetParadigm.Status.PENDING,
            attempts=0,
            problems=[],
            as_many_as_possible=as_many_as_possible or paradigm.as_many_as_possible,
        )
        if not retried:
            raise ValidationError(f"Only a paradigm that failed can be retried; {paradigm.uid} did not.")
        if dataset.job_id is None or not job_is_open(job_id=dataset.job_id):
            total = DatasetParadigm.objects.filter(dataset=dataset).aggregate(n=Sum("requested"))["n"] or 0
            job = job_create(
                project=dataset.project,
                kind=JOB_KIND,
                created_by=user,
                total=total,
                message=f"Waiting to generate {paradigm.uid} again.",
            )
            Dataset.objects.filter(pk=dataset.pk).update(job=job)
            dataset.job = job
        from mpp_studio.datasets.tasks import generate_paradigm as generate_paradigm_task

        generate_paradigm_task.delay_on_commit(paradigm.pk)
    paradigm.refresh_from_db()
    return paradigm
