"""Vocabulary files uploaded on the import page or API are read and stored by a background job.

The web request only checks what it can without reading the file (`vocabulary_import_start`: the
format, the size, a name or language typed in), keeps the files on disk (core.stored_uploads),
creates the job and its `VocabularyImport` row and queues `lexicon.import_vocabulary`. The job
(`vocabulary_import_run`) reads the whole file with the engine, every limit checked as it reads; a
refused file stores nothing and the row keeps every problem with its file, line and column. An
accepted file is written in short chunks, each its own transaction, so no other save waits long
for the database. The job is safe to run twice: a second run finds the vocabulary the first began
and writes only the items it lacks. A cancelled or abandoned import removes what it wrote.
"""

from collections.abc import Sequence
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.core.stored_uploads import (
    StoredUpload,
    uploads_discard,
    uploads_discarded_on_failure,
    uploads_keep_or_refuse,
)
from mpp_studio.core.uploads import file_display_name
from mpp_studio.jobs.services import job_create, job_fail, job_finish, job_progress, job_start
from mpp_studio.lexicon.models import Vocabulary, VocabularyImport
from mpp_studio.lexicon.services.converted_imports import vocabulary_converted_read
from mpp_studio.lexicon.services.imports import (
    ImportRejected,
    PreparedVocabulary,
    Upload,
    max_upload_bytes,
    size_problem,
    vocabulary_upload_read,
)
from mpp_studio.lexicon.services.vocabularies import (
    vocabulary_begin,
    vocabulary_discard,
    vocabulary_items_store,
    vocabulary_name_free,
)
from mpp_studio.lexicon.signals import vocabulary_changed_announce
from mpp_studio.lexicon.validation import language_check, vocabulary_name_check
from vocab.errors import E_ENCODING, RowError
from vocab.import_report import ImportNote, count_levels

JOB_KIND = "vocabulary_import"
IMPORT_FORMATS: dict[str, str] = dict(VocabularyImport.Format.choices)
NOTHING_SAVED = "Nothing was saved: fix the file and import it again."


def vocabulary_import_start(
    *,
    project: Project,
    table: File,
    schema_file: File | None = None,
    source_format: str = "ours",
    name: str = "",
    language: str = "",
    description: str = "",
    created_by: RequestUser | None = None,
) -> VocabularyImport:
    """Keep an uploaded vocabulary file (and schema file) and queue the job that imports it; return
    the import (its `job` shows the progress and, at the end, the outcome).

    Only what can be told without reading the file is checked here: the format, the size of each
    file, a name or language typed in (malformed, or a name the project has). The job reads it.

    Raises:
        ImportRejected: a file over MPP_VOCABULARY_UPLOAD_MAX_BYTES (field `file` or `schema_file`).
        ValidationError: keyed by field (`format`, `schema_file`, `name`, `language`), and `file`
            for a disk that refuses to keep the files.
    """
    from mpp_studio.lexicon.tasks import import_vocabulary

    _check_request(
        project=project,
        table=table,
        schema_file=schema_file,
        source_format=source_format,
        name=name,
        language=language,
    )
    files = [(table.name or "upload", table)] + (
        [(schema_file.name or "schema", schema_file)] if schema_file else []
    )
    kept = uploads_keep_or_refuse("vocabulary-imports", files, field="file", noun="file")
    with uploads_discarded_on_failure(kept), transaction.atomic():
        job = job_create(
            project=project,
            kind=JOB_KIND,
            created_by=created_by,
            message="Waiting for a worker to read the file.",
        )
        row = VocabularyImport(
            project=project,
            job=job,
            created_by=signed_in_or_none(created_by),
            source_format=source_format,
            file_name=kept[0].name,
            schema_file_name=kept[1].name if len(kept) > 1 else "",
            name=name.strip(),
            language=language.strip(),
            description=description.strip(),
            uploads=[upload.to_dict() for upload in kept],
        )
        row.full_clean()
        row.save()
        import_vocabulary.delay_on_commit(row.pk)
    return row


def _check_request(
    *,
    project: Project,
    table: File,
    schema_file: File | None,
    source_format: str,
    name: str,
    language: str,
) -> None:
    """Refuse what can be told before reading: the format, the sizes, a typed name or language.

    Raises:
        ImportRejected: a file over the size limit.
        ValidationError: keyed by field.
    """
    if source_format not in IMPORT_FORMATS:
        raise ValidationError(
            {"format": f"Unknown format '{source_format}': use one of {', '.join(IMPORT_FORMATS)}."}
        )
    if schema_file is not None and source_format != "ours":
        raise ValidationError(
            {
                "schema_file": "A schema file goes with the MPP Studio format only; the BLiMP and "
                "ZhoBLiMP converters write their own schema."
            }
        )
    upload_sizes_check(table, schema_file)
    language_check(language)
    # The name the vocabulary will have, where it is known before reading: typed in, or (for the
    # converters, which read no schema) the file's stem.
    wanted = name.strip() or ("" if source_format == "ours" else Path(file_display_name(table.name)).stem)
    if wanted:
        vocabulary_name_free(project=project, name=vocabulary_name_check(wanted))


def upload_sizes_check(table: File, schema_file: File | None) -> None:
    """Refuse an uploaded table or schema file over MPP_VOCABULARY_UPLOAD_MAX_BYTES, unread.

    Raises:
        ImportRejected: naming the file (field `file` or `schema_file`) and the limit.
    """
    for upload, field in ((table, "file"), (schema_file, "schema_file")):
        if upload is None:
            continue
        display = file_display_name(upload.name)
        problem = size_problem(int(upload.size or 0), display)
        if problem is not None:
            raise ImportRejected([RowError(display, None, None, problem, E_ENCODING)], field)


def vocabulary_import_run(*, import_id: int) -> None:
    """Read an import's kept file and store it as a vocabulary (the `lexicon.import_vocabulary`
    job); safe to run twice, and after a run that died part-way.

    A refused file (any problem of ours; a file the converters cannot use; a name taken
    meanwhile) fails the job in words, keeps every problem on the row and stores nothing. An
    accepted one becomes a vocabulary whose items are written in chunks, the job's progress
    counting them; the row records the vocabulary and the converter's report.
    """
    row = VocabularyImport.objects.select_related("job", "project").filter(pk=import_id).first()
    if row is None or row.job is None or row.job.finished:
        return
    job_id = row.job.pk
    if not job_start(job_id=job_id, message=f"Reading {row.file_name}."):
        return
    try:
        prepared = _read(row)
    except ImportRejected as exc:
        problems = [problem_record(exc.field, e) for e in exc.errors]
        count = len(problems)
        _fail(
            row,
            f"{row.file_name} was not imported: {count} problem{'s' if count != 1 else ''}, each listed "
            f"with its line. {NOTHING_SAVED}",
            problems,
        )
        return
    except ValidationError as exc:
        problems = [
            {"field": field, "file": "", "line": None, "column": None, "message": message}
            for field, messages in exc.message_dict.items()
            for message in messages
        ]
        _fail(row, " ".join(str(p["message"]) for p in problems) + " Nothing was saved.", problems)
        return
    total = len(prepared.lexicon.items)
    try:
        vocabulary = _vocabulary_of(row, prepared)
    except ValidationError as exc:  # the name was taken while the file was read
        problems = [
            {"field": "name", "file": "", "line": None, "column": None, "message": message}
            for message in exc.messages
        ]
        _fail(row, " ".join(exc.messages) + " Nothing was saved.", problems)
        return

    def progress(done: int) -> bool:
        message = f"Stored {done:,} of {total:,} items of “{vocabulary.name}”."
        return job_progress(job_id=job_id, done=done, total=total, message=message)

    if not vocabulary_items_store(vocabulary=vocabulary, lexicon=prepared.lexicon, progress=progress):
        # Cancelled meanwhile: what was written goes, so that nothing of the file stays.
        vocabulary_discard(vocabulary_id=vocabulary.pk)
        _discard_uploads(row)
        return
    with transaction.atomic():
        VocabularyImport.objects.filter(pk=row.pk).update(
            report=[note.to_dict() for note in prepared.notes], problems=[], uploads=[]
        )
        job_finish(
            job_id=job_id, message=vocabulary_import_outcome_text(row, vocabulary.name, total, prepared.notes)
        )
        vocabulary_changed_announce(vocabulary)
    _discard_uploads(row)


def _read(row: VocabularyImport) -> PreparedVocabulary:
    """Return the engine's reading of the kept files (each read no further than its size limit).

    Raises:
        ImportRejected: every problem of the file, or a file over its limit.
        ValidationError: a malformed or taken name, a malformed language.
    """
    uploads = [StoredUpload.from_dict(record) for record in row.uploads]
    own = Vocabulary.objects.filter(pk=row.vocabulary_id).first() if row.vocabulary_id is not None else None
    table = kept_upload_bytes(uploads[0], "file")
    schema = kept_upload_bytes(uploads[1], "schema_file") if len(uploads) > 1 else None
    if row.source_format == "ours":
        return vocabulary_upload_read(
            project=row.project,
            table=table,
            schema_file=schema,
            name=row.name,
            language=row.language,
            description=row.description,
            own=own,
        )
    return vocabulary_converted_read(
        project=row.project,
        table=table,
        source_format=row.source_format,  # type: ignore[arg-type]  # not "ours": a converted format
        name=row.name,
        language=row.language,
        description=row.description,
        own=own,
    )


def kept_upload_bytes(upload: StoredUpload, field: str) -> Upload:
    """Return a kept file's bytes, read no further than the vocabulary size limit.

    Raises:
        ImportRejected: the file is larger than the limit (it was changed on disk, or the limit
            was lowered, after the request).
    """
    limit = max_upload_bytes()
    with upload.open() as stream:
        data = stream.read(limit + 1)
    problem = size_problem(len(data) if len(data) <= limit else upload.size, upload.name)
    if problem is not None:
        raise ImportRejected([RowError(upload.name, None, None, problem, E_ENCODING)], field)
    return Upload(upload.name, data)


def _vocabulary_of(row: VocabularyImport, prepared: PreparedVocabulary) -> Vocabulary:
    """Return the vocabulary this import writes: the one a first run began, or a new one.

    Raises:
        ValidationError: the name is taken (by a vocabulary made while the file was read).
    """
    if row.vocabulary_id is not None:
        began = Vocabulary.objects.filter(pk=row.vocabulary_id).first()
        if began is not None:
            return began
    with transaction.atomic():
        vocabulary = vocabulary_begin(
            project=row.project,
            lexicon=prepared.lexicon,
            name=prepared.name,
            description=prepared.description,
        )
        VocabularyImport.objects.filter(pk=row.pk).update(vocabulary=vocabulary)
    return vocabulary


def problem_record(field: str, error: RowError) -> dict[str, object]:
    """Return a refused file's problem as stored on its row: the form field, file, line, column
    and message."""
    return {
        "field": field,
        "file": error.file,
        "line": error.line,
        "column": error.column,
        "message": error.message,
    }


def _fail(row: VocabularyImport, message: str, problems: Sequence[dict[str, object]]) -> None:
    """Fail the job in words and keep every problem on the row; the kept files go."""
    assert row.job_id is not None  # vocabulary_import_run returns for an import without a job
    with transaction.atomic():
        VocabularyImport.objects.filter(pk=row.pk).update(problems=list(problems), uploads=[])
        job_fail(job_id=row.job_id, message=message)
    _discard_uploads(row)


def _discard_uploads(row: VocabularyImport) -> None:
    uploads_discard(StoredUpload.from_dict(record) for record in row.uploads)


def vocabulary_import_give_up(*, import_id: int, reason: str) -> None:
    """Fail an import whose task gave up (retries spent, a worker error), in words; remove the
    vocabulary it began, so that nothing of a file half written stays. The kept files stay with
    the import."""
    row = VocabularyImport.objects.filter(pk=import_id).select_related("job").first()
    if row is None or row.job is None or row.job.finished:
        return
    job_fail(job_id=row.job.pk, message=f"The worker could not finish importing {row.file_name} ({reason}).")
    if row.vocabulary_id is not None:
        vocabulary_discard(vocabulary_id=row.vocabulary_id)


def vocabulary_import_outcome_text(
    row: VocabularyImport, name: str, items: int, notes: Sequence[ImportNote]
) -> str:
    """Return a sentence saying what an import stored (and what its report holds)."""
    text = f"Imported “{name}”: {items:,} item{'s' if items != 1 else ''}"
    if row.source_format == "ours":
        return text + "."
    counts = count_levels(tuple(notes))
    return (
        f"{text}, converted from {row.file_name} ({IMPORT_FORMATS[row.source_format]}). The report lists "
        f"{counts['skipped']} skipped, {counts['changed']} changed and {counts['info']} informational "
        f"item{'s' if len(notes) != 1 else ''}."
    )
