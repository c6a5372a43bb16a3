"""Scoring one chunk of a run, safely more than once.

A chunk's sentences are fixed by its pair ranges, so a run of it always sees the same
sentences: it skips those already stored for the configuration, copies those another
configuration with the same settings key has stored (the same model registered twice, or in
another project), scores the rest and stores them in one transaction, upserting on
(configuration, sentence key); then it records its pairs' keys and scores (`PairKey`,
`PairScore`), which results are counted from. A chunk delivered twice, or again after its
worker died, therefore stores every sentence and records every pair exactly once.

No-data-loss invariant: stored scores are never changed or removed by a run; a failed or
cancelled run keeps them, and the next run of the same configuration reuses them.

The job ends when no chunk of the run is pending: done, or failed with a message in words
naming the model (or the sentence) at fault. A user never sees a traceback.
"""

import logging
from collections.abc import Sequence

from celery.exceptions import SoftTimeLimitExceeded
from django.db import DatabaseError, transaction
from django.db.models import F, Sum

from mpp_studio.core.wording import count_of
from mpp_studio.evaluation import scorer_cache
from mpp_studio.evaluation.engine import config_settings
from mpp_studio.evaluation.models import ScoreConfig, ScoringChunk, ScoringRun, SentenceScore
from mpp_studio.evaluation.services.pair_scores import pair_scores_record
from mpp_studio.evaluation.services.sentences import (
    dataset_pairs,
    distinct_sentences,
    pair_keys_store,
    sentences_per_pair,
)
from mpp_studio.evaluation.services.token_frequencies import chunk_unigrams_fill
from mpp_studio.jobs.retrying import DATABASE_ERRORS, when_database_answers
from mpp_studio.jobs.selectors import job_is_open
from mpp_studio.jobs.services import job_fail, job_finish, job_progress, job_start
from scoring.errors import ModelLoadError, OutOfMemoryError, ScoringError, SentenceTooLongError
from scoring.items import SentenceScore as EngineScore
from scoring.settings import model_fingerprint

logger = logging.getLogger(__name__)

# A chunk started this many times without finishing has been killing its worker (out of
# memory, a crash in the model code): the run fails instead of redelivering it for ever.
MAX_ATTEMPTS = 3
# Rows per INSERT: a score row holds a few hundred bytes of JSON per token, ~5-10 kB a sentence.
WRITE_BATCH = 500
# Every database error: those a retry may cure (DATABASE_ERRORS) and the others.
DATABASE_FAILURES: tuple[type[Exception], ...] = (*DATABASE_ERRORS, DatabaseError)


def score_chunk(*, run_id: int, config_id: int, dataset_id: int, chunk_index: int) -> None:
    """Score and store one chunk's sentences that are not stored yet; end the job when it was
    the run's last pending chunk.

    Returns quietly when there is nothing to do: the run or configuration was deleted, the
    chunk is finished, or the job was cancelled or has failed. Scoring errors never raise:
    they fail the job with a message naming the model or sentence.

    Raises:
        DatabaseError: on a database failure (the task retries; stored scores stay).
    """
    chunk = (
        ScoringChunk.objects.select_related("run", "dataset", "config__language_model")
        .filter(run_id=run_id, config_id=config_id, dataset_id=dataset_id, index=chunk_index)
        .first()
    )
    if chunk is None:  # the run, one of its datasets or models was deleted meanwhile
        if not ScoreConfig.objects.filter(pk=config_id).exists():
            # a model deleted from the run (its chunks with it): the others go on
            run_finish_if_complete(run_id=run_id)
            return
        run_gone = ScoringRun.objects.filter(pk=run_id).values_list("job_id", flat=True).first()
        if run_gone is not None:
            job_fail(
                job_id=run_gone,
                message="A dataset or model of this run was deleted while it was being scored; "
                "the scores stored so far are kept.",
            )
        return
    run = chunk.run
    if chunk.status != ScoringChunk.Status.PENDING:
        run_finish_if_complete(run_id=run.pk)
        return
    if run.job_id is None or not job_start(job_id=run.job_id):  # cancelled, or already ended
        return
    ScoringChunk.objects.filter(pk=chunk.pk).update(attempts=F("attempts") + 1)
    chunk.attempts += 1
    try:
        _score_attempt(chunk, run, dataset_id)
    except DATABASE_ERRORS:
        _forget_attempt(chunk)  # a database outage is not a dead worker: the task retries
        raise


def _score_attempt(chunk: ScoringChunk, run: ScoringRun, dataset_id: int) -> None:
    """Score and store a chunk whose attempt has been counted (see score_chunk)."""
    assert run.job_id is not None
    config = chunk.config
    if chunk.attempts > MAX_ATTEMPTS:
        chunk_fail(
            chunk=chunk,
            message=f"{config.label}: the worker stopped {MAX_ATTEMPTS} times while scoring chunk "
            f"{chunk.index + 1} of '{chunk.dataset.name}' (it may run out of memory: try a smaller "
            "token budget or fewer sentences per task).",
        )
        return
    total_chunks = ScoringChunk.objects.filter(run=run, config=config, dataset_id=dataset_id).count()
    job_progress(
        job_id=run.job_id,
        done=_done(run),
        message=f"Scoring '{chunk.dataset.name}' with {config.label}: "
        f"chunk {chunk.index + 1} of {total_chunks}.",
    )

    try:
        scored, note = _score_and_store(chunk, config, run)
    except DATABASE_FAILURES:
        raise  # the task retries (or fails, for other database errors); never the model's fault
    except SoftTimeLimitExceeded:
        chunk_fail(
            chunk=chunk,
            message=f"{config.label}: chunk {chunk.index + 1} of '{chunk.dataset.name}' took longer than "
            "the task's time limit; create the run with fewer sentences per task.",
        )
        return
    except ModelLoadError as exc:
        name = config.language_model.name
        chunk_fail(chunk=chunk, message=f"The model '{name}' could not be loaded: {exc}")
        return
    except SentenceTooLongError as exc:
        chunk_fail(chunk=chunk, message=f"{config.label}: {exc}{_where(chunk, str(exc))}")
        return
    except OutOfMemoryError as exc:
        chunk_fail(
            chunk=chunk,
            message=f"{config.label} ran out of memory on {run.settings.get('device', 'auto')}, even "
            f"scoring one sentence at a time: {exc} Try bfloat16, or a device with more memory.",
        )
        return
    except ScoringError as exc:
        chunk_fail(chunk=chunk, message=f"{config.label}: {exc}")
        return
    except Exception as exc:  # the scorer's own bug: fail in words rather than retry for ever
        logger.exception("scoring chunk %s of run %s failed", chunk.index, run.pk)
        chunk_fail(
            chunk=chunk,
            message=f"{config.label}: scoring failed unexpectedly ({type(exc).__name__}: {exc}). "
            "The error was logged; please report it.",
        )
        return
    ScoringChunk.objects.filter(pk=chunk.pk, status=ScoringChunk.Status.PENDING).update(
        status=ScoringChunk.Status.DONE, scored=scored, message=note
    )
    job_progress(job_id=run.job_id, done=_done(run))
    run_finish_if_complete(run_id=run.pk)


def _score_and_store(chunk: ScoringChunk, config: ScoreConfig, run: ScoringRun) -> tuple[int, str]:
    """Store the chunk's missing scores; return how many were scored anew and a note for the
    job (batches made smaller after running out of memory), or ""."""
    pairs = list(dataset_pairs(chunk.dataset, ranges=chunk.ranges))
    sentences = distinct_sentences(pairs)
    keys = [key for key, _ in sentences]
    stored = _stored_keys(config, keys)
    missing = [(key, s) for key, s in sentences if key not in stored]
    if missing:
        copied = _copy_from_twins(config, [key for key, _ in missing])
        missing = [(key, s) for key, s in missing if key not in copied]
    if not missing:
        pair_keys_store(chunk.dataset, pairs)
        pair_scores_record(config, pairs)
        chunk_unigrams_fill(config, [p.pair_id for p in pairs])
        return 0, ""
    if config.fingerprint and model_fingerprint(config.source) not in ("", config.fingerprint):
        raise ScoringError(
            f"the model folder '{config.source}' changed after the run was created (its files differ); "
            "start a new run to score the new weights"
        )
    settings = config_settings(
        config,
        device=str(run.settings.get("device", "auto")),
        token_budget=int(run.settings.get("token_budget", 0)),
    )
    scorer = scorer_cache.scorer_get(settings)
    retries_before = int(getattr(scorer, "oom_retries", 0))
    results = scorer.score([s for _, s in missing])
    retries = int(getattr(scorer, "oom_retries", 0)) - retries_before
    if len(results) != len(missing):
        raise ScoringError(f"the scorer returned {len(results)} scores for {len(missing)} sentences")
    if not config.describe:
        ScoreConfig.objects.filter(pk=config.pk).update(describe=scorer.describe())
    _store(config, [key for key, _ in missing], results)
    pair_keys_store(chunk.dataset, pairs)
    pair_scores_record(config, pairs)
    chunk_unigrams_fill(config, [p.pair_id for p in pairs])
    note = (
        f"The device ran out of memory {retries} time{'s' if retries != 1 else ''}; batches were made "
        "smaller and scoring went on."
        if retries > 0
        else ""
    )
    return len(missing), note


def _forget_attempt(chunk: ScoringChunk) -> None:
    """Give back the attempt counted for this run of the chunk, once the database answers."""

    def give_back() -> None:
        ScoringChunk.objects.filter(pk=chunk.pk, attempts__gt=0).update(attempts=F("attempts") - 1)

    if not when_database_answers(give_back):  # still down: the count stays one too high
        logger.warning("could not undo the attempt count of chunk %s", chunk.pk)


def _stored_keys(config: ScoreConfig, keys: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(keys), WRITE_BATCH):
        found.update(
            SentenceScore.objects.filter(
                config=config, sentence_key__in=keys[start : start + WRITE_BATCH]
            ).values_list("sentence_key", flat=True)
        )
    return found


def _copy_from_twins(config: ScoreConfig, keys: Sequence[str]) -> set[str]:
    """Copy scores stored under another configuration with the same settings key; return the
    keys copied."""
    twins = ScoreConfig.objects.filter(settings_key=config.settings_key).exclude(pk=config.pk)
    if not twins.exists():
        return set()
    copies: dict[str, SentenceScore] = {}
    for start in range(0, len(keys), WRITE_BATCH):
        rows = SentenceScore.objects.filter(
            config__in=twins, sentence_key__in=keys[start : start + WRITE_BATCH]
        ).only("sentence_key", "text", "data", "n_tokens", "lp_sum", "lp_mean")
        for row in rows:
            copies.setdefault(
                row.sentence_key,
                SentenceScore(
                    config=config,
                    sentence_key=row.sentence_key,
                    text=row.text,
                    data=row.data,
                    n_tokens=row.n_tokens,
                    lp_sum=row.lp_sum,
                    lp_mean=row.lp_mean,
                ),
            )
    with transaction.atomic():
        SentenceScore.objects.bulk_create(copies.values(), batch_size=WRITE_BATCH, ignore_conflicts=True)
    return set(copies)


def _store(config: ScoreConfig, keys: Sequence[str], results: Sequence[EngineScore]) -> None:
    rows = [
        SentenceScore(
            config=config,
            sentence_key=key,
            text=score.text,
            data=score.to_dict(),
            n_tokens=score.n_tokens,
            lp_sum=score.reduce("sum"),
            lp_mean=score.reduce("mean"),
        )
        for key, score in zip(keys, results, strict=True)
    ]
    with transaction.atomic():
        # A redelivered chunk (or a chunk of another dataset holding the same sentence) may have
        # stored a row first: the same configuration gives the same numbers, so it is kept.
        SentenceScore.objects.bulk_create(rows, batch_size=WRITE_BATCH, ignore_conflicts=True)


def _where(chunk: ScoringChunk, message: str) -> str:
    """Return " (paradigm <uid>, pair <index>)" for the chunk's first sentence named in `message`."""
    for pair in dataset_pairs(chunk.dataset, ranges=chunk.ranges):
        for _key, sentence in pair.sentences():
            # Engine messages quote the sentence, clipped to its first ~60 characters.
            if sentence.text and sentence.text[:40] in message:
                return f" (paradigm {pair.uid}, pair {pair.index})"
    return ""


def _done(run: ScoringRun) -> int:
    done_chunks = ScoringChunk.objects.filter(run=run, status=ScoringChunk.Status.DONE)
    done = done_chunks.aggregate(n=Sum("n_sentences"))
    return int(done["n"] or 0)


def chunk_fail(*, chunk: ScoringChunk, message: str) -> None:
    """Mark a chunk failed and fail its run's job with `message` (the other chunks then stop)."""
    ScoringChunk.objects.filter(pk=chunk.pk).update(status=ScoringChunk.Status.FAILED, message=message)
    run = chunk.run
    if run.job_id is not None:
        stored = _done(run)
        job_fail(
            job_id=run.job_id,
            message=f"{message}\nThe scores of the {stored:,} sentences finished before are kept.",
        )


def chunk_give_up(*, run_id: int, config_id: int, dataset_id: int, chunk_index: int, message: str) -> None:
    """Fail a chunk whose task gave up (retries spent, time limit) with `message`."""
    chunk = (
        ScoringChunk.objects.select_related("run", "config__language_model")
        .filter(run_id=run_id, config_id=config_id, dataset_id=dataset_id, index=chunk_index)
        .first()
    )
    if chunk is None or chunk.status != ScoringChunk.Status.PENDING:
        return
    chunk_fail(chunk=chunk, message=f"{chunk.config.label}: {message}")


def run_finish_if_complete(*, run_id: int) -> None:
    """End the run's job once no chunk is pending: done with a summary, or failed (already, by
    the chunk that failed). Safe to call from every chunk, in any order, more than once."""
    run = ScoringRun.objects.filter(pk=run_id).first()
    if run is None or run.job_id is None or not job_is_open(job_id=run.job_id):
        return
    chunks = ScoringChunk.objects.filter(run=run)
    if chunks.filter(status=ScoringChunk.Status.PENDING).exists():
        return
    failed = chunks.filter(status=ScoringChunk.Status.FAILED).order_by("pk").first()
    if failed is not None:
        job_fail(job_id=run.job_id, message=failed.message or "A chunk failed.")
        return
    totals = chunks.aggregate(scored=Sum("scored"))
    notes = sorted(set(chunks.exclude(message="").values_list("message", flat=True)))
    n_configs = run.configs.count()
    datasets = list(run.datasets.all())
    n_datasets = len(datasets)
    # Slots per dataset: two per pair, three per triplet.
    slots = dict(chunks.values("dataset_id").annotate(n=Sum("n_sentences")).values_list("dataset_id", "n"))
    pairs = triplets = 0
    for dataset in datasets:
        per_pair = sentences_per_pair(dataset)
        count = int(slots.get(dataset.pk) or 0) // per_pair // max(1, n_configs)
        if per_pair == 3:
            triplets += count
        else:
            pairs += count
    items = f"{pairs:,} pairs" if not triplets else f"{count_of(triplets, 'triplet')}"
    if pairs and triplets:
        items = f"{pairs:,} pairs and {count_of(triplets, 'triplet')}"
    message = (
        f"Scored the {items} of {count_of(n_datasets, 'dataset')} with "
        f"{count_of(n_configs, 'configuration')} ({count_of(int(totals['scored'] or 0), 'sentence')} scored "
        "now; sentences scored before are reused)."
    )
    job_finish(job_id=run.job_id, message=" ".join([message, *notes]))
