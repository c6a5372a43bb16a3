"""Writes for learner corpora: uploading a corpus (keeping its files and reading them as a job,
safe to run twice), starting a triplet run, making one chunk's triplets (safe to run twice), and
ending the run.

The work is the engine's (`triplets`): the readers read the files, `run_pipeline`
makes the triplets and the yield report. The upload request only checks the files' bytes and
keeps them; the `learner.read_corpus` job streams them through the readers and stores the pairs
in short chunks. A run is cut into chunks of corpus pairs (one Celery task each), and each
chunk's triplets become `Pair` rows of the run's read-only dataset, one `DatasetParadigm` per
ERRANT type. A chunk's rows are replaced, never added to, so a chunk delivered twice stores its
triplets once; the pipeline's output depends only on each pair and the seed, so the chunk size
never changes the triplets.
"""

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, F

from formats.record import MAX_ISSUES_PER_FILE, ImportIssue, IssueList
from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.core.stored_uploads import (
    StoredUpload,
    uploads_discard,
    uploads_discarded_on_failure,
    uploads_keep_or_refuse,
)
from mpp_studio.core.uploads import size_text
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.jobs.models import Job
from mpp_studio.jobs.retrying import DATABASE_ERRORS, when_database_answers
from mpp_studio.jobs.selectors import job_is_open
from mpp_studio.jobs.services import (
    job_create,
    job_fail,
    job_finish,
    job_progress,
    job_start,
    progress_kib,
)
from mpp_studio.learner.models import (
    CorpusConfusions,
    LearnerCorpus,
    LearnerPairRecord,
    TripletChunk,
    TripletRun,
)
from mpp_studio.learner.selectors import chunks_report
from mpp_studio.learner.uploads import (
    Upload,
    UploadError,
    display_name,
    header_row,
    max_pairs,
    sniff_delimiter,
    upload_check,
)
from triplets.confusions import ConfusionTable, learn_pair, spacy_tokenize
from triplets.corpus import METADATA_FIELDS, LearnerPair, M2Edit
from triplets.other_errors import SentenceCorrections, group_corrections, sentence_key
from triplets.pipeline import Triplet, TripletSettings, run_pipeline
from triplets.readers import (
    MetadataColumns,
    MetadataJoin,
    ParallelColumns,
    TableTooLarge,
    m2_pairs,
    metadata_table,
    parallel_pairs,
)
from triplets.report import YieldReport

logger = logging.getLogger(__name__)

JOB_KIND = "learner_triplets"
READ_JOB_KIND = "learner_corpus_read"
UPLOADS_FOLDER = "learner-corpora"  # under MPP_UPLOAD_DIR
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

DEFAULT_COLUMNS = {
    "learner": "learner",
    "corrected": "corrected",
    "pair_id": "sentence_id",
    "essay_id": "essay_id",
}
JOIN_KEYS = {"essay_id": "essay id", "pair_id": "sentence id"}


# -- Upload ---------------------------------------------------------------------------------------


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
        """Return the options as a corpus's `read_settings` keeps them."""
        return {
            "annotator": self.annotator,
            "learner_column": self.learner_column,
            "corrected_column": self.corrected_column,
            "id_column": self.id_column,
            "essay_column": self.essay_column,
            "join_key": self.join_key,
            "metadata_key": self.metadata_key,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> "ReadOptions":
        """Return the options a corpus's `read_settings` keeps (defaults for what it lacks)."""
        defaults = cls()
        return cls(
            annotator=int(str(data.get("annotator", defaults.annotator))),
            **{
                name: str(data.get(name, getattr(defaults, name)))
                for name in (
                    "learner_column",
                    "corrected_column",
                    "id_column",
                    "essay_column",
                    "join_key",
                    "metadata_key",
                )
            },
        )


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


def _check_request(
    *, name: str, source_format: str, file: Upload, metadata_file: Upload | None, options: ReadOptions
) -> list[tuple[str, Upload]]:
    """Refuse what can be told before the pairs are read: the fields, and each file's bytes (size,
    binary data, UTF-8), read a chunk at a time; return the files to keep by field.

    Raises:
        ValidationError: keyed by field (`name`, `source_format`, `join_key`, `annotator`,
            `file`, `metadata_file`).
    """
    errors: dict[str, list[str]] = {}
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
    files = [("file", file)] + ([("metadata_file", metadata_file)] if metadata_file is not None else [])
    for key, upload in files:
        try:
            upload_check(upload)
        except UploadError as exc:
            errors.setdefault(key, []).append(str(exc))
    if errors:
        raise ValidationError(errors)
    return files


def corpus_upload_start(
    *,
    project: Project,
    name: str,
    source_format: str,
    file: Upload,
    metadata_file: Upload | None = None,
    options: ReadOptions | None = None,
    created_by: RequestUser | None = None,
    dispatch: bool = True,
) -> LearnerCorpus:
    """Keep an M2 file or a parallel TSV/CSV table (with an optional metadata table joined on the
    essay or sentence id) and queue the job that reads it into a new corpus; return the corpus
    (its `job` shows the progress and, at the end, the outcome; its pairs come with the job).

    Only what can be told without reading pairs is checked here: the fields, and each file's
    bytes (size, binary data, UTF-8), a chunk at a time. `dispatch` False queues nothing: the
    caller runs `corpus_read` itself.

    Raises:
        ValidationError: keyed by field (`name`, `source_format`, `file`, `metadata_file`,
            `annotator`, `join_key`): a bad choice, a file too big, binary or not UTF-8, or a
            disk that refuses to keep the files.
    """
    from mpp_studio.learner.tasks import read_corpus

    options = options or ReadOptions()
    name = name.strip()
    files = _check_request(
        name=name, source_format=source_format, file=file, metadata_file=metadata_file, options=options
    )
    kept = uploads_keep_or_refuse(
        UPLOADS_FOLDER,
        [(display_name(u.name), u.stream) for _, u in files],
        field="file",
        outcome="stored",
    )
    with uploads_discarded_on_failure(kept), transaction.atomic():
        job = job_create(
            project=project,
            kind=READ_JOB_KIND,
            created_by=created_by,
            total=progress_kib(kept[0].size),
            unit=Job.ProgressUnit.KIB,
            message="Waiting for a worker to read the files.",
        )
        corpus = LearnerCorpus(
            project=project,
            name=name,
            source_format=source_format,
            file_name=display_name(file.name),
            metadata_file_name=display_name(metadata_file.name) if metadata_file else "",
            m2_annotator=options.annotator if source_format == LearnerCorpus.SourceFormat.M2 else 0,
            read_settings=options.to_dict(),
            job=job,
            uploads={key: upload.to_dict() for (key, _), upload in zip(files, kept, strict=True)},
            created_by=signed_in_or_none(created_by),
        )
        corpus.full_clean()
        corpus.save()
        if dispatch:
            read_corpus.delay_on_commit(corpus.pk)
    return corpus


class _ReadStopped(Exception):
    """The read cannot go on: the job fails with `message` (the report is kept)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(slots=True)
class _Reading:
    """What a run of the read job tracks: the issues of each part, the pairs met and those
    waiting to be written."""

    main: IssueList
    notes: list[ImportIssue] = field(default_factory=list)
    metadata: list[ImportIssue] = field(default_factory=list)
    join: MetadataJoin | None = None
    pairs: int = 0
    pending: list[LearnerPairRecord] = field(default_factory=list)
    confusions: ConfusionTable = field(default_factory=ConfusionTable)

    def report(self) -> list[dict[str, object]]:
        """Return every issue as the corpus keeps it: the corpus file's (with a note when some
        were left out), the notes on its columns, the metadata table's, then the join's."""
        issues = self.main.close(self.pairs, "").issues + self.notes + self.metadata
        if self.join is not None:
            issues += self.join.finish()
        return [issue.to_dict() for issue in issues]

    def errors(self) -> int:
        """Return how many problems left an item out (counted, even those not listed)."""
        return self.main.errors + sum(1 for issue in self.metadata if issue.skipped)


def corpus_read(*, corpus_id: int) -> None:
    """Read a corpus's kept files and store its pairs (the `learner.read_corpus` job); safe to
    run twice, and after a run that died part-way.

    The metadata table, if any, is read whole first (at most MPP_LEARNER_MAX_PAIRS rows); then
    the corpus file is read as a stream, each pair joined to its metadata as it comes, and
    written in chunks of WRITE_BATCH, each chunk its own short transaction. A pair's index is
    its place in the file among the pairs read, so a second run writes the same rows (those
    already stored are skipped). Every issue goes to the corpus's `read_report`. More than
    MPP_LEARNER_MAX_PAIRS pairs, or none: the job fails in words, the pairs written so far are
    removed and the report stays. The kept files are removed once the job has finished.
    """
    corpus = LearnerCorpus.objects.select_related("job").filter(pk=corpus_id).first()
    if corpus is None or corpus.job is None or corpus.job.finished:
        return
    if not job_start(job_id=corpus.job.pk, message="Reading the files."):
        return
    uploads = {key: StoredUpload.from_dict(record) for key, record in (corpus.uploads or {}).items()}
    main = uploads.get("file")
    reading = _Reading(IssueList(main.name if main else corpus.file_name))
    try:
        if main is None:
            raise _ReadStopped(
                "The uploaded files are no longer on the server, so the corpus could not be read. "
                "Upload the files again."
            )
        options = ReadOptions.from_dict(corpus.read_settings or {})
        if "metadata_file" in uploads:
            _read_metadata_table(uploads["metadata_file"], options, reading)
        if not _read_pairs(corpus, main, options, reading):
            return  # the job was ended meanwhile (cancelled, or given up)
        if reading.pairs == 0:
            raise _ReadStopped(
                f"No pair could be read from {main.name}, so nothing was stored. "
                "The read report lists why, with each file and line."
            )
    except _ReadStopped as stopped:
        _read_fail(corpus, reading.report(), stopped.message)
        return
    except OSError as exc:  # the kept file cannot be read (the disk): fail in words
        logger.exception("learner corpus %s: the kept files could not be read", corpus.pk)
        _read_fail(
            corpus,
            reading.report(),
            f"The server could not read the uploaded files ({exc.strerror or exc}); nothing was stored. "
            "Upload the files again.",
        )
        return
    _write_pending(reading)
    _read_finish(corpus, reading)


def _read_metadata_table(upload: StoredUpload, options: ReadOptions, reading: _Reading) -> None:
    """Read the metadata table whole (it is small: at most as many rows as a corpus has pairs)
    and get the join ready."""
    limit = max_pairs()
    with upload.open() as stream:
        delimiter = sniff_delimiter(stream)
        columns = _metadata_columns(header_row(stream, delimiter), options)
        try:
            table = metadata_table(stream, upload.name, columns=columns, delimiter=delimiter, max_rows=limit)
        except TableTooLarge as exc:
            raise _ReadStopped(
                f"{upload.name} has more than {limit:,} rows (line {exc.line} is row {limit + 1:,}); a "
                "metadata table takes at most as many rows as a corpus takes pairs, so nothing was "
                "stored. Leave out the rows of learners who are not in the corpus."
            ) from None
    reading.metadata = list(table.issues)
    if table.rows:
        reading.join = MetadataJoin(table, key=options.join_key, max_issues=MAX_ISSUES_PER_FILE)


def _read_pairs(corpus: LearnerCorpus, main: StoredUpload, options: ReadOptions, reading: _Reading) -> bool:
    """Read the corpus file's pairs and write them a chunk at a time; return False when the job
    was ended meanwhile (cancelled, failed elsewhere)."""
    assert corpus.job_id is not None
    limit = max_pairs()
    tokenize = spacy_tokenize()  # the confusions its learners make, counted as the pairs are read
    with main.open() as stream:
        pairs: Iterator[LearnerPair]
        if corpus.source_format == LearnerCorpus.SourceFormat.M2:
            pairs = m2_pairs(stream, main.name, reading.main, annotator=options.annotator)
        else:
            delimiter = sniff_delimiter(stream)
            columns, notes = _parallel_columns(header_row(stream, delimiter), options)
            reading.notes = [ImportIssue(main.name, None, note, "warning") for note in notes]
            pairs = parallel_pairs(stream, main.name, reading.main, columns=columns, delimiter=delimiter)
        for pair in pairs:
            if reading.pairs >= limit:
                raise _ReadStopped(
                    f"{main.name} holds more than {limit:,} pairs, the most one corpus takes, so nothing "
                    f"was stored (pair {limit + 1:,} is on line {pair.line}). Split it into several corpora."
                )
            if reading.join is not None:
                pair = reading.join.attach(pair)
            learn_pair(reading.confusions, pair, tokenize)
            reading.pending.append(_record(corpus, reading.pairs, pair))
            reading.pairs += 1
            if len(reading.pending) >= WRITE_BATCH:
                _write_pending(reading)
                read = min(stream.tell(), main.size)
                message = (
                    f"Read {size_text(read)} of {size_text(main.size)}; "
                    f"{reading.pairs:,} pairs stored so far."
                )
                if not job_progress(job_id=corpus.job_id, done=progress_kib(read), message=message):
                    return False
    return True


def _write_pending(reading: _Reading) -> None:
    """Write the pairs waiting, in one short transaction; a place already stored (by an earlier
    run of the job) is skipped."""
    if not reading.pending:
        return
    with transaction.atomic():
        LearnerPairRecord.objects.bulk_create(reading.pending, ignore_conflicts=True)
    reading.pending = []


def _read_finish(corpus: LearnerCorpus, reading: _Reading) -> None:
    """Record the pairs and the report, finish the job, and remove the kept files."""
    assert corpus.job_id is not None
    report = reading.report()
    errors = reading.errors()
    text = f"Corpus “{corpus.name}” uploaded: {reading.pairs:,} pairs."
    if errors:
        text += f" {errors:,} problem{'s' if errors != 1 else ''} left items out; each is listed below."
    with transaction.atomic():
        if not job_finish(job_id=corpus.job_id, message=text):
            return  # ended meanwhile: another delivery of the message finished it, or it gave up
        LearnerCorpus.objects.filter(pk=corpus.pk).update(
            pair_count=reading.pairs, read_report=report, uploads={}
        )
        CorpusConfusions.objects.update_or_create(
            corpus=corpus, defaults={"table": reading.confusions.to_dict()}
        )
    _discard_kept(corpus)


def _read_fail(corpus: LearnerCorpus, report: list[dict[str, object]], message: str) -> None:
    """Fail the job in words, keep the report, remove the pairs written; the kept files go.
    Nothing changes when the job has ended meanwhile (another delivery finished it)."""
    assert corpus.job_id is not None
    with transaction.atomic():
        if not job_fail(job_id=corpus.job_id, message=message):
            return
        LearnerCorpus.objects.filter(pk=corpus.pk).update(pair_count=0, read_report=report, uploads={})
    _remove_pairs(corpus.pk)
    _discard_kept(corpus)


def _remove_pairs(corpus_id: int) -> None:
    """Delete a corpus's pairs a chunk at a time, each chunk its own short transaction."""
    while chunk := list(
        LearnerPairRecord.objects.filter(corpus_id=corpus_id).values_list("pk", flat=True)[:WRITE_BATCH]
    ):
        LearnerPairRecord.objects.filter(pk__in=chunk).delete()


def _discard_kept(corpus: LearnerCorpus) -> None:
    uploads_discard(StoredUpload.from_dict(record) for record in (corpus.uploads or {}).values())


def corpus_read_give_up(*, corpus_id: int, message: str) -> None:
    """Fail the read of a corpus whose task gave up (retries spent, time limit, a worker error):
    the pairs written are removed, the kept files too (the corpus cannot be read again)."""
    corpus = LearnerCorpus.objects.select_related("job").filter(pk=corpus_id).first()
    if corpus is None or corpus.job is None:
        return
    with transaction.atomic():
        if not job_fail(job_id=corpus.job.pk, message=message):
            return  # it had ended: its pairs and report stay as they are
        LearnerCorpus.objects.filter(pk=corpus.pk).update(pair_count=0, uploads={})
    _remove_pairs(corpus.pk)
    _discard_kept(corpus)


def _record(corpus: LearnerCorpus, index: int, pair: LearnerPair) -> LearnerPairRecord:
    return LearnerPairRecord(
        corpus=corpus,
        index=index,
        pair_id=pair.pair_id[:200],
        source_file=display_name(pair.source_file),
        line=pair.line,
        learner=pair.learner,
        learner_key=sentence_key(pair.learner),
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


def triplet_dataset_name(corpus: LearnerCorpus, *, seed: int, strict: bool) -> str:
    """Return the name of a triplet run's dataset, which says what tells it from the corpus's
    other runs (seed, strict rules) and is numbered when the project has that name already:
    "Learner essays triplets (seed 7, strict rules) #2"."""
    base = f"{corpus.name} triplets (seed {seed}{', strict rules' if strict else ''})"[:190]
    taken = set(
        Dataset.objects.filter(project=corpus.project, name__startswith=base).values_list("name", flat=True)
    )
    if base not in taken:
        return base
    number = 2
    while f"{base} #{number}" in taken:
        number += 1
    return f"{base} #{number}"


@transaction.atomic(durable=True)
def run_create(
    *,
    corpus: LearnerCorpus,
    seed: int = 0,
    strict: bool = True,
    max_tries: int = 20,
    chunk_size: int = CHUNK_SIZE,
    created_by: RequestUser | None = None,
    dispatch: bool = True,
) -> TripletRun:
    """Create a triplet run over the corpus: its dataset (origin learner), job and chunks, and
    queue one `learner.make_triplets_chunk` task per chunk once the transaction commits
    (`dispatch` False queues nothing: the caller runs the chunks itself).

    Raises:
        ValidationError: keyed by field (`seed`, `max_tries`, `chunk_size`); `corpus` for a
            corpus whose files are still being read, or could not be.
    """
    if not corpus.is_read:
        raise ValidationError({"corpus": [corpus_unread_message(corpus)]})
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
        name=triplet_dataset_name(corpus, seed=seed, strict=strict),
        description=f"Learner triplets of the corpus “{corpus.name}” (seed {seed}, "
        f"{'strict rules only' if strict else 'all rules'}).",
        seed=seed,
        pairs_per_paradigm=0,
        origin=Dataset.Origin.LEARNER,
        job=job,
        created_by=signed_in_or_none(created_by),
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
        created_by=signed_in_or_none(created_by),
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


def corpus_unread_message(corpus: LearnerCorpus) -> str:
    """Return why no run can be made yet from a corpus whose pairs are not all stored."""
    if corpus.read_failed:
        return (
            f"The files of “{corpus.name}” could not be stored as a corpus (its page says why), so "
            "there are no pairs to make triplets from. Upload the files again as a new corpus."
        )
    return f"“{corpus.name}” is still being read: start a run once all its pairs are stored."


def corpus_confusions(corpus: LearnerCorpus) -> ConfusionTable:
    """Return the confusions the corpus' learners make: counted when it was read, or learnt now
    from its stored pairs (and kept) for a corpus read before, or whose table an older version
    learnt. The table depends on the pairs only, so two chunks learning it at once store the
    same, and the second store is skipped."""
    stored = CorpusConfusions.objects.filter(corpus=corpus).values_list("table", flat=True).first()
    if ConfusionTable.is_current(stored):
        assert isinstance(stored, dict)
        return ConfusionTable.from_dict(stored)
    table = ConfusionTable()
    tokenize = spacy_tokenize()
    records = LearnerPairRecord.objects.filter(corpus=corpus).order_by("index")
    for record in records.iterator(chunk_size=WRITE_BATCH):
        learn_pair(table, learner_pair(record), tokenize)
    try:
        with transaction.atomic():
            CorpusConfusions.objects.update_or_create(corpus=corpus, defaults={"table": table.to_dict()})
    except IntegrityError:
        pass  # another chunk stored the same table first
    return table


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


def _sentence_corrections(corpus: LearnerCorpus, records: list[LearnerPairRecord]) -> SentenceCorrections:
    """Return the corrections of the chunk's learner sentences that have several (a table of
    single edits gives one row per edit), read from the whole corpus: a sentence's rows may
    fall in two chunks, and the triplets must not depend on the cut."""
    keys = {r.learner_key for r in records if r.learner_key and r.edits is None}
    if not keys:
        return {}
    # Each distinct correction once: a sentence met a thousand times costs one row, not a thousand.
    sharing = (
        LearnerPairRecord.objects.filter(corpus=corpus, learner_key__in=keys, edits__isnull=True)
        .exclude(corrected__isnull=True)
        .exclude(corrected=F("learner"))
        .values_list("learner", "corrected")
        .order_by()  # the model's ordering would make DISTINCT see the row index too
        .distinct()
    )
    return group_corrections(sharing)


def _forget_attempt(chunk: TripletChunk) -> None:
    """Give back the attempt counted for this run of the chunk, once the database answers."""

    def give_back() -> None:
        TripletChunk.objects.filter(pk=chunk.pk, attempts__gt=0).update(attempts=F("attempts") - 1)

    if not when_database_answers(give_back):  # still down: the count stays one too high
        logger.warning("could not undo the attempt count of triplet chunk %s", chunk.pk)


def _make_attempt(chunk: TripletChunk, run: TripletRun, where: str) -> None:
    """Make and store a chunk whose attempt has been counted (see make_triplets_chunk)."""
    job_id = run.job_id
    assert job_id is not None
    if chunk.attempts + 1 > MAX_ATTEMPTS:
        job_fail(
            job_id=job_id,
            message=f"The worker stopped {MAX_ATTEMPTS} times while making {where} (it may run out of "
            "memory): start a new run with fewer pairs per task. The triplets of the chunks finished "
            "before are kept.",
        )
        return
    job_progress(job_id=job_id, done=_done(run), message=f"Making triplets: {where}.")
    if run.dataset is None:
        job_fail(job_id=job_id, message="The run's dataset was deleted, so its triplets cannot be stored.")
        return
    records = list(
        LearnerPairRecord.objects.filter(
            corpus=run.corpus, index__gte=chunk.first_index, index__lte=chunk.last_index
        ).order_by("index")
    )
    pairs = [learner_pair(r) for r in records]

    def progress(stage: str) -> None:
        job_progress(job_id=job_id, done=_done(run), message=f"Making triplets: {where}, {stage}.")

    try:
        confusions = corpus_confusions(run.corpus)
        other_corrections = _sentence_corrections(run.corpus, records)
        result = run_pipeline(
            pairs,
            run_settings(run),
            progress=progress,
            confusions=confusions,
            other_corrections=other_corrections,
        )
    except DATABASE_ERRORS:
        raise  # from the progress callback: the task retries; never the engine's fault
    except Exception as exc:  # the engine's own bug: fail in words rather than retry for ever
        logger.exception("triplet chunk %s of run %s failed", chunk.index, run.pk)
        job_fail(
            job_id=job_id,
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
    job_progress(job_id=job_id, done=_done(run))
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
        message=f"Made {_counted(report.total_triplets, 'triplet')} of {_counted(types, 'error type')} "
        f"from {_counted(report.pairs_in, 'pair')} "
        f"({_counted(report.total_single_edit_pairs, 'single-edit pair')}).",
    )


def _counted(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


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
