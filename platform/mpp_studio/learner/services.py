"""Writes for learner corpora: uploading a corpus, starting a triplet run, making one chunk's
triplets (safe to run twice), and ending the run.

The work is the engine's (`generator.triplets`): the readers read the files, `run_pipeline`
makes the triplets and the yield report. Here the pairs are stored, a run is cut into chunks of
corpus pairs (one Celery task each), and each chunk's triplets become `Pair` rows of the run's
read-only dataset, one `DatasetParadigm` per ERRANT type. A chunk's rows are replaced, never
added to, so a chunk delivered twice stores its triplets once; the pipeline's output depends only
on each pair and the seed, so the chunk size never changes the triplets.
"""

import logging
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, F

from generator.formats.record import ImportIssue
from generator.triplets.corpus import METADATA_FIELDS, LearnerPair, M2Edit
from generator.triplets.pipeline import Triplet, TripletSettings, run_pipeline
from generator.triplets.readers import (
    MetadataColumns,
    ParallelColumns,
    attach_metadata,
    read_m2,
    read_metadata,
    read_parallel,
)
from generator.triplets.report import YieldReport
from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.jobs.retrying import DATABASE_ERRORS, when_database_answers
from mpp_studio.jobs.selectors import job_is_open
from mpp_studio.jobs.services import job_create, job_fail, job_finish, job_progress, job_start
from mpp_studio.learner.models import LearnerCorpus, LearnerPairRecord, TripletChunk, TripletRun
from mpp_studio.learner.selectors import chunks_report
from mpp_studio.learner.uploads import (
    Upload,
    UploadError,
    display_name,
    header_row,
    max_pairs,
    save_checked,
    sniff_delimiter,
)

logger = logging.getLogger(__name__)

JOB_KIND = "learner_triplets"
WRITE_BATCH = 2_000
CHUNK_SIZE = 500
MAX_CHUNK_SIZE = 100_000
MAX_TRIES = 200
# A triplet's Pair index is source pair index * SLOTS + k ("#k" of its id: the k-th grammatical
# edit of the pair), unique in the dataset and the same whatever the chunking.
SLOTS = 64
# A chunk started this many times without finishing has been killing its worker.
MAX_ATTEMPTS = 3
LANGUAGE = "en"

User = AbstractBaseUser | AnonymousUser | None

DEFAULT_COLUMNS = {
    "learner": "learner",
    "corrected": "corrected",
    "pair_id": "sentence_id",
    "essay_id": "essay_id",
}
JOIN_KEYS = {"essay_id": "essay id", "pair_id": "sentence id"}


def _user(user: User) -> AbstractBaseUser | None:
    return user if user is not None and user.is_authenticated else None  # type: ignore[return-value]


# -- Upload ---------------------------------------------------------------------------------------


class CorpusRejected(Exception):
    """No readable pair in the upload; nothing was stored. Carries every issue found."""

    def __init__(self, message: str, issues: list[dict[str, object]]) -> None:
        super().__init__(message)
        self.message = message
        self.issues = issues


@dataclass(frozen=True, slots=True)
class CorpusUpload:
    """A stored corpus and what the readers reported."""

    corpus: LearnerCorpus
    issues: list[dict[str, object]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How to read the files: the M2 annotator, the parallel table's column names, and the
    metadata join (`join_key` "essay_id" or "pair_id"; `metadata_key` the table's key column,
    "" for essay_id / sentence_id)."""

    annotator: int = 0
    learner_column: str = "learner"
    corrected_column: str = "corrected"
    id_column: str = "sentence_id"
    essay_column: str = "essay_id"
    join_key: str = "essay_id"
    metadata_key: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "annotator": self.annotator,
            "learner_column": self.learner_column,
            "corrected_column": self.corrected_column,
            "id_column": self.id_column,
            "essay_column": self.essay_column,
            "join_key": self.join_key,
            "metadata_key": self.metadata_key,
        }


def _matching(header: Sequence[str], wanted: str) -> str:
    """Return the header cell equal to `wanted`, ignoring case (`wanted` itself if none is)."""
    for cell in header:
        if cell.lower() == wanted.lower():
            return cell
    return wanted


def _parallel_columns(header: Sequence[str], options: ReadOptions) -> tuple[ParallelColumns, list[str]]:
    """Return the columns to read (metadata columns matched without regard to case) and notes."""
    notes = []
    pair_id = options.id_column.strip()
    if pair_id == DEFAULT_COLUMNS["pair_id"] and _matching(header, pair_id) not in header:
        # The default id column, absent: number the rows (a column the user named must be there).
        notes.append(f"the header has no column '{pair_id}'; pairs are numbered by row")
        pair_id = ""
    metadata = {name: _matching(header, name) for name in METADATA_FIELDS if name != "essay_id"}
    return (
        ParallelColumns(
            learner=_matching(header, options.learner_column.strip()),
            corrected=_matching(header, options.corrected_column.strip()),
            pair_id=_matching(header, pair_id) if pair_id else "",
            essay_id=_matching(header, options.essay_column.strip() or "essay_id"),
            **metadata,
        ),
        notes,
    )


def _metadata_columns(header: Sequence[str], options: ReadOptions) -> MetadataColumns:
    default_key = "essay_id" if options.join_key == "essay_id" else "sentence_id"
    key = _matching(header, options.metadata_key.strip() or default_key)
    return MetadataColumns(key=key, **{name: _matching(header, name) for name in METADATA_FIELDS})


def _renamed(issue: ImportIssue, names: dict[str, str]) -> dict[str, object]:
    """Return the issue as a dict, the temporary paths replaced by the names the user gave."""
    data = issue.to_dict()
    data["file"] = names.get(issue.file, display_name(issue.file))
    message = str(data["message"])
    for path, name in names.items():
        message = message.replace(path, name)
    data["message"] = message
    return data


def _read(
    main: Path, metadata: Path | None, source_format: str, options: ReadOptions
) -> tuple[list[LearnerPair], list[ImportIssue]]:
    issues: list[ImportIssue] = []
    if source_format == LearnerCorpus.SourceFormat.M2:
        result = read_m2(main, annotator=options.annotator)
        pairs, issues = list(result.pairs), list(result.issues)
    else:
        delimiter = sniff_delimiter(main)
        columns, notes = _parallel_columns(header_row(main, delimiter), options)
        result = read_parallel(main, columns=columns, delimiter=delimiter)
        pairs, issues = list(result.pairs), list(result.issues)
        issues += [ImportIssue(str(main), None, note, "warning") for note in notes]
    if metadata is not None and pairs:
        delimiter = sniff_delimiter(metadata)
        table = read_metadata(
            metadata, columns=_metadata_columns(header_row(metadata, delimiter), options), delimiter=delimiter
        )
        issues += table.issues
        if table.rows:
            attached = attach_metadata(pairs, table, key=options.join_key)
            pairs, issues = attached.pairs, issues + attached.issues
    return pairs, issues


def corpus_upload(
    *,
    project: Project,
    name: str,
    source_format: str,
    file: Upload,
    metadata_file: Upload | None = None,
    options: ReadOptions | None = None,
    created_by: User = None,
) -> CorpusUpload:
    """Read an M2 file or a parallel TSV/CSV table (with an optional metadata table joined on
    the essay or sentence id) and store the corpus with its pairs; return it with every issue.

    Pairs the readers could not take are reported (file, line) and left out; the rest is stored
    in one transaction, so nothing is stored when anything fails.

    Raises:
        ValidationError: keyed by field (`name`, `source_format`, `file`, `metadata_file`,
            `annotator`, `join_key`): a bad choice, or a file too big, binary or not UTF-8.
        CorpusRejected: no pair could be read; it carries every issue found.
    """
    options = options or ReadOptions()
    errors: dict[str, list[str]] = {}
    name = name.strip()
    if not name:
        errors.setdefault("name", []).append("Give the corpus a name.")
    if source_format not in LearnerCorpus.SourceFormat.values:
        errors.setdefault("source_format", []).append(
            f"Unknown format '{source_format}': use m2 or parallel."
        )
    if options.join_key not in JOIN_KEYS:
        errors.setdefault("join_key", []).append(
            f"Unknown join key '{options.join_key}': use essay_id or pair_id."
        )
    if options.annotator < 0:
        errors.setdefault("annotator", []).append("The annotator is a number from 0.")
    if errors:
        raise ValidationError(errors)

    with tempfile.TemporaryDirectory(prefix="mpp-learner-") as folder:
        names: dict[str, str] = {}
        paths: dict[str, Path] = {}
        for key, upload in (("file", file), ("metadata_file", metadata_file)):
            if upload is None:
                continue
            try:
                path = save_checked(upload, Path(folder) / key)
            except UploadError as exc:
                errors.setdefault(key, []).append(str(exc))
                continue
            paths[key] = path
            names[str(path)] = display_name(upload.name)
        if errors:
            raise ValidationError(errors)
        pairs, issues = _read(paths["file"], paths.get("metadata_file"), source_format, options)
        # Longer keys first: a folder's path is a prefix of its file's.
        names = dict(sorted(names.items(), key=lambda item: -len(item[0])))
        report = [_renamed(issue, names) for issue in issues]
        if not pairs:
            raise CorpusRejected(
                f"No pair could be read from {display_name(file.name)}, so nothing was stored.", report
            )
        if len(pairs) > max_pairs():
            raise CorpusRejected(
                f"{display_name(file.name)} holds {len(pairs):,} pairs, more than the {max_pairs():,} one "
                "corpus takes, so nothing was stored. Split it into several corpora.",
                report,
            )
        with transaction.atomic():
            corpus = LearnerCorpus(
                project=project,
                name=name,
                source_format=source_format,
                file_name=display_name(file.name),
                metadata_file_name=display_name(metadata_file.name) if metadata_file else "",
                m2_annotator=options.annotator if source_format == LearnerCorpus.SourceFormat.M2 else 0,
                read_settings=options.to_dict(),
                read_report=report,
                pair_count=len(pairs),
                created_by=_user(created_by),
            )
            corpus.full_clean()
            corpus.save()
            for start in range(0, len(pairs), WRITE_BATCH):
                LearnerPairRecord.objects.bulk_create(
                    _record(corpus, start + offset, pair, names)
                    for offset, pair in enumerate(pairs[start : start + WRITE_BATCH])
                )
    return CorpusUpload(corpus, report)


def _record(corpus: LearnerCorpus, index: int, pair: LearnerPair, names: dict[str, str]) -> LearnerPairRecord:
    return LearnerPairRecord(
        corpus=corpus,
        index=index,
        pair_id=pair.pair_id[:200],
        source_file=names.get(pair.source_file, display_name(pair.source_file)),
        line=pair.line,
        learner=pair.learner,
        corrected=pair.corrected,
        edits=None
        if pair.edits is None
        else [
            {
                "start": e.start,
                "end": e.end,
                "type": e.type,
                "correction": e.correction,
                "annotator": e.annotator,
            }
            for e in pair.edits
        ],
        learner_id=pair.learner_id[:200],
        essay_id=pair.essay_id[:200],
        l1=pair.l1[:100],
        cefr=pair.cefr[:20],
        topic=pair.topic[:300],
        corpus_name=pair.corpus[:200],
        metadata=dict(pair.extra),
    )


def learner_pair(record: LearnerPairRecord) -> LearnerPair:
    """Return the engine's LearnerPair of a stored pair."""
    edits = None
    if record.edits is not None:
        edits = tuple(
            M2Edit(int(e["start"]), int(e["end"]), str(e["type"]), str(e["correction"]), int(e["annotator"]))
            for e in record.edits
        )
    return LearnerPair(
        pair_id=record.pair_id,
        source_file=record.source_file,
        line=record.line,
        learner=record.learner,
        corrected=record.corrected,
        edits=edits,
        learner_id=record.learner_id,
        essay_id=record.essay_id,
        l1=record.l1,
        cefr=record.cefr,
        topic=record.topic,
        corpus=record.corpus_name,
        extra={str(k): str(v) for k, v in (record.metadata or {}).items()},
    )


# -- Runs -----------------------------------------------------------------------------------------


def chunk_ranges(pair_count: int, chunk_size: int) -> list[tuple[int, int]]:
    """Return the (first, last) pair indexes, inclusive, of each chunk."""
    return [(start, min(start + chunk_size, pair_count) - 1) for start in range(0, pair_count, chunk_size)]


@transaction.atomic(durable=True)
def run_create(
    *,
    corpus: LearnerCorpus,
    seed: int = 0,
    strict: bool = True,
    max_tries: int = 20,
    chunk_size: int = CHUNK_SIZE,
    created_by: User = None,
    dispatch: bool = True,
) -> TripletRun:
    """Create a triplet run over the corpus: its dataset (origin learner), job and chunks, and
    queue one `learner.make_triplets_chunk` task per chunk once the transaction commits
    (`dispatch` False queues nothing: the caller runs the chunks itself).

    Raises:
        ValidationError: keyed by field (`seed`, `max_tries`, `chunk_size`).
    """
    errors: dict[str, list[str]] = {}
    if not 1 <= max_tries <= MAX_TRIES:
        errors.setdefault("max_tries", []).append(f"Tries per pair must be from 1 to {MAX_TRIES}.")
    if not 1 <= chunk_size <= MAX_CHUNK_SIZE:
        errors.setdefault("chunk_size", []).append(f"Pairs per task must be from 1 to {MAX_CHUNK_SIZE:,}.")
    if not -(2**63) <= seed < 2**63:
        errors.setdefault("seed", []).append("The seed is too large.")
    if errors:
        raise ValidationError(errors)
    ranges = chunk_ranges(corpus.pair_count, chunk_size)
    job = job_create(
        project=corpus.project,
        kind=JOB_KIND,
        created_by=created_by,
        total=len(ranges),
        message=f"Waiting to make triplets from {corpus.pair_count:,} pairs in {len(ranges):,} "
        f"chunk{'s' if len(ranges) != 1 else ''}.",
    )
    dataset = Dataset(
        project=corpus.project,
        name=f"{corpus.name} triplets"[:200],
        description=f"Learner triplets of the corpus “{corpus.name}” (seed {seed}, "
        f"{'strict rules only' if strict else 'all rules'}).",
        seed=seed,
        pairs_per_paradigm=0,
        origin=Dataset.Origin.LEARNER,
        job=job,
        created_by=_user(created_by),
    )
    dataset.full_clean()
    dataset.save()
    run = TripletRun(
        corpus=corpus,
        seed=seed,
        strict=strict,
        max_tries=max_tries,
        chunk_size=chunk_size,
        job=job,
        dataset=dataset,
        created_by=_user(created_by),
    )
    run.full_clean()
    run.save()
    TripletChunk.objects.bulk_create(
        TripletChunk(run=run, index=i, first_index=first, last_index=last)
        for i, (first, last) in enumerate(ranges)
    )
    if dispatch:
        from mpp_studio.learner.tasks import make_triplets_chunk as task

        for chunk_id in TripletChunk.objects.filter(run=run).order_by("index").values_list("pk", flat=True):
            task.delay_on_commit(chunk_id)
    return run


def run_settings(run: TripletRun) -> TripletSettings:
    """Return the engine's settings of a run."""
    return TripletSettings(seed=run.seed, strict=run.strict, max_tries=run.max_tries)


def _triplet_k(triplet: Triplet) -> int:
    _, _, k = triplet.triplet_id.rpartition("#")
    return int(k) if k.isdigit() else 0


def _paradigm(dataset: Dataset, error_type: str) -> DatasetParadigm:
    """Return the dataset's paradigm of an ERRANT type, created on first use (safe when two
    chunks create it at once)."""
    found = DatasetParadigm.objects.filter(dataset=dataset, uid=error_type).first()
    if found is not None:
        return found
    _, _, phenomenon = error_type.partition(":")
    try:
        with transaction.atomic():
            return DatasetParadigm.objects.create(
                dataset=dataset,
                uid=error_type,
                phenomenon=phenomenon or error_type,
                language=LANGUAGE,
                requested=0,
                produced=0,
                status=DatasetParadigm.Status.DONE,
            )
    except IntegrityError:
        return DatasetParadigm.objects.get(dataset=dataset, uid=error_type)


def make_triplets_chunk(*, chunk_id: int) -> None:
    """Make and store one chunk's triplets; end the run when it was the last chunk.

    Returns at once when the chunk is gone or done, or its job has ended (cancelled, failed).
    The chunk's earlier rows (from an attempt that died) are replaced, so running it twice
    stores each triplet once. Pipeline errors fail the job with a message in words.

    Raises:
        DatabaseError: on a database failure (the task retries).
    """
    chunk = TripletChunk.objects.select_related("run__corpus", "run__dataset").filter(pk=chunk_id).first()
    if chunk is None:
        return
    run = chunk.run
    if chunk.status == TripletChunk.Status.DONE:
        run_finish_if_complete(run_id=run.pk)
        return
    if run.job_id is None or not job_start(job_id=run.job_id):
        return
    total = TripletChunk.objects.filter(run=run).count()
    where = f"chunk {chunk.index + 1} of {total} (pairs {chunk.first_index + 1:,}–{chunk.last_index + 1:,})"
    TripletChunk.objects.filter(pk=chunk.pk).update(attempts=F("attempts") + 1)
    try:
        _make_attempt(chunk, run, where)
    except DATABASE_ERRORS:
        _forget_attempt(chunk)  # a database outage is not a dead worker: the task retries
        raise


def _forget_attempt(chunk: TripletChunk) -> None:
    """Give back the attempt counted for this run of the chunk, once the database answers."""

    def give_back() -> None:
        TripletChunk.objects.filter(pk=chunk.pk, attempts__gt=0).update(attempts=F("attempts") - 1)

    if not when_database_answers(give_back):  # still down: the count stays one too high
        logger.warning("could not undo the attempt count of triplet chunk %s", chunk.pk)


def _make_attempt(chunk: TripletChunk, run: TripletRun, where: str) -> None:
    """Make and store a chunk whose attempt has been counted (see make_triplets_chunk)."""
    assert run.job_id is not None
    if chunk.attempts + 1 > MAX_ATTEMPTS:
        job_fail(
            job_id=run.job_id,
            message=f"The worker stopped {MAX_ATTEMPTS} times while making {where} (it may run out of "
            "memory): start a new run with fewer pairs per task. The triplets of the chunks finished "
            "before are kept.",
        )
        return
    job_progress(job_id=run.job_id, done=_done(run), message=f"Making triplets: {where}.")
    if run.dataset is None:
        job_fail(
            job_id=run.job_id, message="The run's dataset was deleted, so its triplets cannot be stored."
        )
        return
    records = list(
        LearnerPairRecord.objects.filter(
            corpus=run.corpus, index__gte=chunk.first_index, index__lte=chunk.last_index
        ).order_by("index")
    )
    pairs = [learner_pair(r) for r in records]
    try:
        result = run_pipeline(
            pairs,
            run_settings(run),
            progress=lambda stage: job_progress(
                job_id=run.job_id,  # type: ignore[arg-type]
                done=_done(run),
                message=f"Making triplets: {where}, {stage}.",
            ),
        )
    except DATABASE_ERRORS:
        raise  # from the progress callback: the task retries; never the engine's fault
    except Exception as exc:  # the engine's own bug: fail in words rather than retry for ever
        logger.exception("triplet chunk %s of run %s failed", chunk.index, run.pk)
        job_fail(
            job_id=run.job_id,
            message=f"Making triplets failed on {where}: {type(exc).__name__}: {exc}. "
            "The error was logged; please report it. The triplets of the chunks finished before are kept.",
        )
        return
    # The pipeline hands each triplet the very LearnerPair it was given; the pair id backs it up.
    index_of = {id(pair): record.index for pair, record in zip(pairs, records, strict=True)}
    index_of_id = {record.pair_id: record.index for record in records}
    sources = {
        id(t.source): index_of.get(id(t.source), index_of_id.get(t.source.pair_id, -1))
        for t in result.triplets
    }
    _store(chunk, run.dataset, result.triplets, result.report, sources)
    job_progress(job_id=run.job_id, done=_done(run))
    run_finish_if_complete(run_id=run.pk)


def _store(
    chunk: TripletChunk,
    dataset: Dataset,
    triplets: Sequence[Triplet],
    report: YieldReport,
    index_of: dict[int, int],
) -> None:
    """Replace the chunk's Pair rows by its triplets and mark it done, in one transaction."""
    with transaction.atomic():
        locked = TripletChunk.objects.select_for_update().filter(pk=chunk.pk).first()
        if locked is None or locked.status == TripletChunk.Status.DONE:
            return  # deleted meanwhile, or another delivery of this chunk finished first
        Pair.objects.filter(
            paradigm__dataset=dataset,
            index__gte=chunk.first_index * SLOTS,
            index__lt=(chunk.last_index + 1) * SLOTS,
        ).delete()
        paradigms: dict[str, DatasetParadigm] = {}
        rows = []
        for triplet in triplets:
            k = _triplet_k(triplet)
            source_index = index_of[id(triplet.source)]
            if not 0 <= k < SLOTS or source_index < 0:
                logger.warning(
                    "triplet %s left out: more than %s edits in one pair", triplet.triplet_id, SLOTS - 1
                )
                continue
            if triplet.error_type not in paradigms:
                paradigms[triplet.error_type] = _paradigm(dataset, triplet.error_type)
            record = triplet.record()
            record["chunk"] = chunk.index
            rows.append(
                Pair(
                    paradigm=paradigms[triplet.error_type],
                    index=source_index * SLOTS + k,
                    sentence_good=triplet.corrected,
                    sentence_bad=triplet.learner_error,
                    record=record,
                )
            )
        Pair.objects.bulk_create(rows, batch_size=WRITE_BATCH)
        TripletChunk.objects.filter(pk=chunk.pk).update(
            status=TripletChunk.Status.DONE, report=report.to_dict()
        )


def _done(run: TripletRun) -> int:
    return TripletChunk.objects.filter(run=run, status=TripletChunk.Status.DONE).count()


def run_finish_if_complete(*, run_id: int) -> None:
    """Once every chunk is done: store the merged yield report, each paradigm's counts (single-
    edit pairs of its type requested, triplets produced), and finish the job. Safe to call from
    every chunk, more than once."""
    run = TripletRun.objects.select_related("dataset").filter(pk=run_id).first()
    if run is None or run.job_id is None or not job_is_open(job_id=run.job_id):
        return
    if TripletChunk.objects.filter(run=run, status=TripletChunk.Status.PENDING).exists():
        return
    report = chunks_report(run)
    TripletRun.objects.filter(pk=run.pk).update(report=report.to_dict())
    if run.dataset is not None:
        counts = dict(
            Pair.objects.filter(paradigm__dataset=run.dataset)
            .values("paradigm")
            .annotate(n=Count("pk"))
            .values_list("paradigm", "n")
        )
        for paradigm in DatasetParadigm.objects.filter(dataset=run.dataset):
            paradigm.requested = report.single_edit_pairs.get(paradigm.uid, 0)
            paradigm.produced = counts.get(paradigm.pk, 0)
            paradigm.save(update_fields=["requested", "produced", "updated_at"])
    types = sum(1 for n in report.triplets.values() if n)
    job_finish(
        job_id=run.job_id,
        message=f"Made {report.total_triplets:,} triplets of {types} error type{'s' if types != 1 else ''} "
        f"from {report.pairs_in:,} pairs ({report.total_single_edit_pairs:,} single-edit pairs).",
    )


def run_give_up(*, chunk_id: int, message: str) -> None:
    """Fail the run of a chunk whose task gave up (retries spent, time limit)."""
    chunk = TripletChunk.objects.select_related("run").filter(pk=chunk_id).first()
    if chunk is None or chunk.status == TripletChunk.Status.DONE or chunk.run.job_id is None:
        return
    job_fail(job_id=chunk.run.job_id, message=f"Chunk {chunk.index + 1}: {message}")


def run_all_chunks(*, run: TripletRun) -> int:
    """Make every chunk of the run in this process, in order (the demo, no broker); return how
    many chunks ran."""
    ids = list(TripletChunk.objects.filter(run=run).order_by("index").values_list("pk", flat=True))
    for chunk_id in ids:
        make_triplets_chunk(chunk_id=chunk_id)
    return len(ids)
