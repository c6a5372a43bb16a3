"""Import a ZhoBLiMP project (template JSONs, one vocabulary TSV, one phrase JSON) into a project.

The web request only checks what it can without reading the files (`zhoblimp_import_start`: the
vocabulary name, each file's size), keeps them on disk (core.stored_uploads), creates the job and
its `ZhoblimpImport` row and queues `paradigms.import_zhoblimp`. The job (`zhoblimp_import_run`):

1. reads the files, each (and each entry of a zip) no further than its limit, and converts them
   with the engine (`generator.importers.zhoblimp`), which validates every template against the
   imported vocabulary and phrases and reports, item by item, what it could not convert;
2. decides before it writes anything whatever refuses the upload: no vocabulary TSV or more than
   one, more than one phrase JSON, no template that converts, a vocabulary name or a phrase the
   project has with other content;
3. checks each template in the project as it will be (`ProjectContent`: the imported vocabulary
   and phrases), the slow part (0.2 s a template), counted on the job;
4. when ZhoBLiMP's released data (`.jsonl`) came with the project, rebuilds each released UID
   from its template under two seeds and compares it with the release
   (`services.zhoblimp_comparison`), a template at a time, counted on the job;
5. writes a new vocabulary's items in short chunks, then the phrases and the templates (version 1
   of each new project template) in one short transaction that also records the outcome (and
   the comparison).

A project imports whole or not at all: a refusal at any step stores nothing (a vocabulary the job
began is removed again) and the row keeps the reason (the job's message) and the report. A
template whose uid the project already has is reported and the others are stored. The job is safe
to run twice: a second run finds the vocabulary the first began and writes what it lacks.
"""

import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath

from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction

from generator.importers import zhoblimp as engine
from generator.importers.zhoblimp import SourceFile, import_zhoblimp
from generator.importers.zhoblimp_yaml import phrases_yaml
from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.core.stored_uploads import (
    StoredUpload,
    uploads_discard,
    uploads_discarded_on_failure,
    uploads_keep_or_refuse,
)
from mpp_studio.core.uploads import file_display_name, mib_text
from mpp_studio.jobs.services import job_create, job_fail, job_finish, job_progress, job_start
from mpp_studio.lexicon.engine import vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.lexicon.services.imports import row_count_problem
from mpp_studio.lexicon.services.vocabularies import (
    lexicon_storage_problems,
    vocabulary_begin,
    vocabulary_discard,
    vocabulary_items_store,
)
from mpp_studio.lexicon.validation import vocabulary_name_check
from mpp_studio.paradigms.models import TemplateVersion, ZhoblimpImport
from mpp_studio.paradigms.project_engine import (
    ProjectContent,
    ProjectTemplateCheck,
    project_phrase_texts,
    project_template_check,
)
from mpp_studio.paradigms.services.phrases import PhraseConflictError, PhraseFileError, phrase_file_import
from mpp_studio.paradigms.services.project_templates import NewTemplate, templates_create
from mpp_studio.paradigms.services.template_upload import (
    MAX_ZIP_FILES,
    MAX_ZIP_UNPACKED_BYTES,
    Upload,
    upload_size_limit,
)
from mpp_studio.paradigms.services.zhoblimp_comparison import (
    ReleasedData,
    is_released_file,
    released_compare,
    released_compare_units,
    released_read,
)
from vocab.import_report import ImportNote, count_levels

DEFAULT_VOCABULARY_NAME = "zhoblimp_vocab"
JOB_KIND = "zhoblimp_import"
MAX_FILES = 50  # files of one upload (a zip holds up to MAX_ZIP_FILES)


class ZhoblimpUploadRejected(Exception):
    """An upload that stores nothing: `message` says why, `notes` are the report so far."""

    def __init__(self, message: str, notes: Sequence[ImportNote] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.notes = list(notes)


def zhoblimp_size_problem(name: str, size: int) -> str | None:
    """Return why an uploaded file (or zip entry) of this name and size is refused, or None."""
    limit = upload_size_limit(name)
    if size <= limit:
        return None
    return f"{name} is {size / 1024 / 1024:.1f} MiB; the limit for this kind of file is {mib_text(limit)}."


def zhoblimp_import_start(
    *,
    project: Project,
    files: Sequence[File],
    vocabulary_name: str = "",
    created_by: RequestUser | None = None,
) -> ZhoblimpImport:
    """Keep the uploaded files of a ZhoBLiMP project and queue the job that imports them; return
    the import (its `job` shows the progress and, at the end, the outcome).

    Only what can be told without reading the files is checked here: the vocabulary name, the
    number of files and each one's size. The job reads and converts them (`zhoblimp_import_run`).

    Raises:
        ValidationError: {"vocabulary_name": ...} for a malformed name; {"files": ...} for no file,
            too many, one over its limit, or a disk that refuses to keep them. Nothing is kept.
    """
    from mpp_studio.paradigms.tasks import import_zhoblimp

    try:
        name = vocabulary_name_check(vocabulary_name.strip() or DEFAULT_VOCABULARY_NAME)
    except ValidationError as exc:
        raise ValidationError({"vocabulary_name": exc.messages}) from None
    if not files:
        raise ValidationError({"files": ["Choose the files of a ZhoBLiMP project (or a .zip of them)."]})
    if len(files) > MAX_FILES:
        raise ValidationError(
            {"files": [f"{len(files)} files were given; upload at most {MAX_FILES} at once (or a .zip)."]}
        )
    too_large = [
        problem
        for file in files
        if (problem := zhoblimp_size_problem(file_display_name(file.name), int(file.size or 0))) is not None
    ]
    if too_large:
        raise ValidationError({"files": [*too_large, "Nothing was stored."]})
    kept = uploads_keep_or_refuse(
        "zhoblimp-imports", [(file.name or "upload", file) for file in files], field="files", outcome="stored"
    )
    with uploads_discarded_on_failure(kept), transaction.atomic():
        job = job_create(
            project=project,
            kind=JOB_KIND,
            created_by=created_by,
            message="Waiting for a worker to read the files.",
        )
        row = ZhoblimpImport(
            project=project,
            job=job,
            created_by=signed_in_or_none(created_by),
            vocabulary_name=name,
            file_names=[upload.name for upload in kept],
            uploads=[upload.to_dict() for upload in kept],
        )
        row.full_clean()
        row.save()
        import_zhoblimp.delay_on_commit(row.pk)
    return row


def _unpack(upload: Upload) -> list[SourceFile]:
    """Return the files of an upload: itself, or the files of a zip (within the size caps)."""
    problem = zhoblimp_size_problem(upload.name, upload.size)
    if upload.data is None or problem is not None:
        raise ZhoblimpUploadRejected(problem or f"{upload.name} could not be read.")
    if not upload.name.lower().endswith(".zip"):
        return [SourceFile(PurePosixPath(upload.name).name, upload.data)]
    try:
        archive = zipfile.ZipFile(io.BytesIO(upload.data))
    except zipfile.BadZipFile:
        raise ZhoblimpUploadRejected(f"{upload.name} is not a readable zip archive.") from None
    files: list[SourceFile] = []
    unpacked = 0
    with archive:
        entries = [
            info
            for info in archive.infolist()
            if not info.is_dir()
            and not any(p.startswith(".") or p == "__MACOSX" for p in PurePosixPath(info.filename).parts)
        ]
        if len(entries) > MAX_ZIP_FILES:
            raise ZhoblimpUploadRejected(
                f"{upload.name} holds {len(entries)} files; the limit is {MAX_ZIP_FILES}."
            )
        for info in entries:
            entry_limit = upload_size_limit(info.filename)
            try:
                with archive.open(info) as handle:
                    data = handle.read(entry_limit + 1)
            except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError) as exc:
                raise ZhoblimpUploadRejected(
                    f"{info.filename} in {upload.name} cannot be unpacked ({exc})."
                ) from None
            unpacked += len(data)
            if len(data) > entry_limit or unpacked > MAX_ZIP_UNPACKED_BYTES:
                raise ZhoblimpUploadRejected(
                    f"{upload.name} unpacks to more than its limits allow; nothing was stored."
                )
            files.append(SourceFile(info.filename, data))
    return files


def _is_phrase_file(data: bytes) -> bool:
    """Return whether JSON bytes hold a phrase file (a mapping of names to lists), not a template."""
    try:
        parsed = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    return (
        isinstance(parsed, dict)
        and bool(parsed)
        and "good_rule" not in parsed
        and all(isinstance(v, list) for v in parsed.values())
    )


@dataclass(slots=True)
class _Files:
    """An upload's files by kind."""

    templates: list[SourceFile]
    table: SourceFile
    phrase_file: SourceFile | None
    released: list[SourceFile]


def _sorted_files(uploads: Sequence[Upload], notes: list[ImportNote]) -> _Files:
    """Return the template files, the vocabulary TSV, the phrase JSON and the released data of an
    upload.

    Raises:
        ZhoblimpUploadRejected: no vocabulary or no template, or more than one vocabulary or phrase file.
    """
    files: list[SourceFile] = []
    for upload in uploads:
        files += _unpack(upload)
    for file in files:
        if b"\x00" in file.data:
            line = file.data[: file.data.index(b"\x00")].count(b"\n") + 1
            raise ZhoblimpUploadRejected(
                f"{file.name} cannot be used: it is not a text file (line {line} holds a NUL byte), it "
                "looks binary or UTF-16. Save it as UTF-8 text; nothing was stored.",
                notes,
            )
    templates: list[SourceFile] = []
    tables: list[SourceFile] = []
    phrase_files: list[SourceFile] = []
    released: list[SourceFile] = []
    for file in files:
        lower = file.name.lower()
        if lower.endswith(".tsv"):
            tables.append(file)
        elif lower.endswith(".json"):
            (phrase_files if _is_phrase_file(file.data) else templates).append(file)
        elif is_released_file(file.name):
            released.append(file)
        else:
            notes.append(
                ImportNote(
                    file.name,
                    "",
                    "not read: a ZhoBLiMP project is template .json files, one "
                    "vocabulary .tsv and one phrase .json, and optionally released .jsonl data",
                    "skipped",
                )
            )
    if len(tables) != 1:
        names = ", ".join(t.name for t in tables)
        raise ZhoblimpUploadRejected(
            "Upload the project's vocabulary TSV (exactly one .tsv file)"
            + (f"; this upload has {len(tables)}: {names}." if tables else "; this upload has none."),
            notes,
        )
    if len(phrase_files) > 1:
        names = ", ".join(p.name for p in phrase_files)
        raise ZhoblimpUploadRejected(f"Upload at most one phrase JSON; this upload has {names}.", notes)
    if not templates:
        raise ZhoblimpUploadRejected("The upload holds no template .json file.", notes)
    return _Files(templates, tables[0], phrase_files[0] if phrase_files else None, released)


@dataclass(slots=True)
class _Plan:
    """What the job will store, decided before it writes: the engine's conversion, the vocabulary
    found with the same content (and when it last changed), the project's phrases as they will be,
    each template's check in that project and, with released data, the comparison
    (`ComparisonReport.to_dict()`; {} without) and the templates it rebuilds (`compared`)."""

    result: engine.ZhoblimpImport
    name: str
    table: SourceFile
    phrase_file: SourceFile | None
    notes: list[ImportNote]
    existing: Vocabulary | None = None
    existing_changed: datetime | None = None
    phrase_texts: dict[str, str] = field(default_factory=dict)
    checks: list[ProjectTemplateCheck] = field(default_factory=list)
    released: ReleasedData | None = None
    compared: int = 0
    comparison: dict[str, object] = field(default_factory=dict)


class _Stopped(Exception):
    """The job was cancelled (or finished elsewhere) while it worked: stop, storing nothing more."""


def zhoblimp_import_run(*, import_id: int) -> None:
    """Read, convert and store a ZhoBLiMP import's kept files (the `paradigms.import_zhoblimp`
    job); safe to run twice, and after a run that died part-way.

    An upload that cannot be used fails the job with the reason and stores nothing; the row keeps
    the report. Otherwise the vocabulary, the phrases and the templates are stored and the row
    records them with the report.
    """
    row = ZhoblimpImport.objects.select_related("job", "project", "created_by").filter(pk=import_id).first()
    if row is None or row.job is None or row.job.finished:
        return
    if not job_start(job_id=row.job.pk, message="Reading the files."):
        return
    try:
        _write(row, _plan(row))
    except ZhoblimpUploadRejected as exc:
        _fail(row, exc.message, exc.notes)
        return
    except _Stopped:
        _discard_begun(row)
        _discard_uploads(row)
        return
    _discard_uploads(row)


def _kept_uploads(row: ZhoblimpImport) -> list[Upload]:
    """Return the kept files, each read no further than its limit (None: over it)."""
    uploads = []
    for record in row.uploads:
        kept = StoredUpload.from_dict(record)
        limit = upload_size_limit(kept.name)
        with kept.open() as stream:
            data = stream.read(limit + 1)
        over = len(data) > limit
        uploads.append(Upload(kept.name, max(kept.size, len(data)), None if over else data))
    return uploads


def _job_id(row: ZhoblimpImport) -> int:
    """Return the id of the import's job (zhoblimp_import_run stops at once for an import without one)."""
    assert row.job_id is not None
    return row.job_id


def _progress(row: ZhoblimpImport, done: int, total: int, message: str) -> None:
    """Record the job's progress; stop the run if the job was cancelled meanwhile."""
    if not job_progress(job_id=_job_id(row), done=done, total=total, message=message):
        raise _Stopped


def _plan(row: ZhoblimpImport) -> _Plan:
    """Read and convert the files and decide what to store, writing nothing.

    Raises:
        ZhoblimpUploadRejected: the upload cannot be used; the message says why, `notes` hold the report.
        _Stopped: the job was cancelled.
    """
    notes: list[ImportNote] = []
    files = _sorted_files(_kept_uploads(row), notes)
    templates, table, phrase_file = files.templates, files.table, files.phrase_file
    rows = row_count_problem(table.data)
    if rows is not None:
        raise ZhoblimpUploadRejected(f"{table.name}: {rows}; nothing was stored.", notes)
    try:
        name = vocabulary_name_check(row.vocabulary_name or DEFAULT_VOCABULARY_NAME)
    except ValidationError as exc:
        raise ZhoblimpUploadRejected(
            f"The vocabulary name cannot be used: {' '.join(exc.messages)}"
        ) from None
    _progress(row, 0, 0, f"Converting {len(templates)} template file{'s' if len(templates) != 1 else ''}.")
    result = import_zhoblimp(
        templates, vocabulary=table, phrases=phrase_file, vocabulary_name=name, for_project=True
    )
    notes += result.notes
    if result.vocabulary is None:
        raise ZhoblimpUploadRejected(
            f"The vocabulary {table.name} cannot be used; nothing was stored.", notes
        )
    if not result.templates:
        raise ZhoblimpUploadRejected("No template could be converted; nothing was stored.", notes)
    plan = _Plan(result, name, table, phrase_file, notes)
    if files.released:
        plan.released = released_read(files.released)
        notes += plan.released.notes
        plan.compared = released_compare_units(result, plan.released)
    _plan_vocabulary(row, plan)
    plan.phrase_texts = _phrases_planned(row.project, plan)
    content = ProjectContent(phrase_texts=plan.phrase_texts, vocabularies={name: result.vocabulary})
    total = _units(plan)
    for number, template in enumerate(result.templates, start=1):
        plan.checks.append(
            project_template_check(
                project=row.project, source_text=template.text, file_name="template.yaml", content=content
            )
        )
        _progress(
            row, number, total, f"Checked {number} of {len(result.templates)} templates in the project."
        )
    if plan.released is not None:
        _plan_comparison(row, plan, total)
    return plan


def _plan_comparison(row: ZhoblimpImport, plan: _Plan, total: int) -> None:
    """Compare the rebuilt UIDs with the released data, one unit of work a template rebuilt.

    Raises:
        _Stopped: the job was cancelled.
    """
    assert plan.released is not None
    checked = len(plan.result.templates)
    compared = 0

    def progress(uid: str) -> None:
        nonlocal compared
        _progress(
            row,
            checked + compared,
            total,
            f"Comparing {uid} with the released data ({compared + 1} of {plan.compared} templates).",
        )
        compared += 1

    plan.comparison = released_compare(plan.result, plan.released, progress)


def _units(plan: _Plan) -> int:
    """Return the job's units of work: each template checked, each template rebuilt to compare
    with the released data, each new vocabulary item, the store."""
    assert plan.result.vocabulary is not None
    items = 0 if plan.existing is not None else len(plan.result.vocabulary.items)
    return len(plan.result.templates) + plan.compared + items + 1


def _plan_vocabulary(row: ZhoblimpImport, plan: _Plan) -> None:
    """Find the project's vocabulary of the import's name: one with the same content is reused,
    one with other content refuses the upload; check a new one's values fit the database.

    Raises:
        ZhoblimpUploadRejected: the name is taken by other content, or a value does not fit.
    """
    lexicon = plan.result.vocabulary
    assert lexicon is not None
    existing = Vocabulary.objects.filter(project=row.project, name=plan.name).first()
    if existing is not None and not (row.vocabulary_created and existing.pk == row.vocabulary_id):
        if vocabulary_to_engine(existing).version != lexicon.version:
            raise ZhoblimpUploadRejected(
                f"The project already has a vocabulary called '{plan.name}' with other content; choose "
                "another vocabulary name. Nothing was stored.",
                plan.notes,
            )
        plan.existing, plan.existing_changed = existing, existing.updated_at
        return
    problems = lexicon_storage_problems(lexicon)
    if problems:
        details = "; ".join(f"column '{column}', {message}" for column, message in problems[:20])
        raise ZhoblimpUploadRejected(
            f"The vocabulary cannot be stored: {details}. Nothing was stored.", plan.notes
        )


class _TrialOver(Exception):
    """Rolls a trial import of the phrases back."""


def _phrases_planned(project: Project, plan: _Plan) -> dict[str, str]:
    """Return the project's phrases (name -> text) as they will be once the upload's are stored:
    a trial import, rolled back at once, so that the one owner of the phrase rules decides.

    Raises:
        ZhoblimpUploadRejected: a phrase the project has with other alternatives, or a bad file.
    """
    texts: dict[str, str] = {}
    try:
        with transaction.atomic():
            _phrases_store(project, plan)
            texts = project_phrase_texts(project)
            raise _TrialOver
    except _TrialOver:
        pass
    return texts


def _phrases_store(project: Project, plan: _Plan) -> list[str]:
    """Store the upload's phrases (the caller holds the transaction); return their names.

    Raises:
        ZhoblimpUploadRejected: a phrase the project has with other alternatives, or a bad file.
    """
    if plan.phrase_file is None or not plan.result.phrases:
        return []
    try:
        imported = phrase_file_import(
            project=project,
            file_name=plan.phrase_file.name,
            text=phrases_yaml(plan.result.phrases),
            description=f"Imported from the ZhoBLiMP file {plan.phrase_file.name}.",
        )
    except (PhraseConflictError, PhraseFileError) as exc:
        raise ZhoblimpUploadRejected(
            f"The phrases cannot be stored: {exc}. Nothing was stored.", plan.notes
        ) from None
    return [p.name for p in imported]


def _write(row: ZhoblimpImport, plan: _Plan) -> list[TemplateVersion]:
    """Store the plan: a new vocabulary's items in chunks, then the phrases and the templates in
    one short transaction that also records the outcome and finishes the job.

    Raises:
        ZhoblimpUploadRejected: nothing could be stored after all (the project changed meanwhile);
            a vocabulary this run began is removed again.
        _Stopped: the job was cancelled.
    """
    total, checked = _units(plan), len(plan.result.templates)
    planned = checked + plan.compared  # units of work done by _plan
    vocabulary = plan.existing if plan.existing is not None else _vocabulary_begun(row, plan)
    if plan.existing is None:
        lexicon = plan.result.vocabulary
        assert lexicon is not None  # _plan refuses an upload without a vocabulary
        size = len(lexicon.items)

        def progress(done: int) -> bool:
            message = f"Stored {done:,} of {size:,} items of the vocabulary “{vocabulary.name}”."
            return job_progress(job_id=_job_id(row), done=planned + done, total=total, message=message)

        if not vocabulary_items_store(vocabulary=vocabulary, lexicon=lexicon, progress=progress):
            raise _Stopped
    _progress(row, total - 1, total, f"Storing the phrases and {checked} templates.")
    try:
        return _store(row, plan, vocabulary)
    except ZhoblimpUploadRejected:
        _discard_begun(row)
        raise


def _vocabulary_begun(row: ZhoblimpImport, plan: _Plan) -> Vocabulary:
    """Return the vocabulary this import writes: the one a first run began, or a new one, recorded
    on the row in the same transaction.

    Raises:
        ZhoblimpUploadRejected: the name was taken while the files were read.
    """
    if row.vocabulary_created and row.vocabulary_id is not None:
        began = Vocabulary.objects.filter(pk=row.vocabulary_id).first()
        if began is not None:
            return began
    assert plan.result.vocabulary is not None
    try:
        with transaction.atomic():
            vocabulary = vocabulary_begin(
                project=row.project,
                lexicon=plan.result.vocabulary,
                name=plan.name,
                description=f"Imported from the ZhoBLiMP file {plan.table.name}.",
            )
            ZhoblimpImport.objects.filter(pk=row.pk).update(vocabulary=vocabulary, vocabulary_created=True)
    except ValidationError as exc:
        raise ZhoblimpUploadRejected(
            f"The vocabulary cannot be stored: {' '.join(exc.messages)}", plan.notes
        ) from None
    row.vocabulary, row.vocabulary_created = vocabulary, True
    return vocabulary


def _store(row: ZhoblimpImport, plan: _Plan, vocabulary: Vocabulary) -> list[TemplateVersion]:
    """Store the phrases and the templates, record the outcome and finish the job: one transaction.

    Each template is checked already (`plan.checks`), so this only writes rows, the templates
    and their versions in two inserts (133 templates: a fraction of a second); only if the
    project's phrases changed while the job ran are they checked again, here. A template whose
    uid the project has is reported.

    Raises:
        ZhoblimpUploadRejected: a reused vocabulary changed meanwhile, a phrase conflicts now, or
            no template could be stored; the transaction is rolled back.
    """
    user = row.created_by
    notes = list(plan.notes)
    with transaction.atomic():
        if plan.existing is not None and not (
            Vocabulary.objects.filter(  # type: ignore[misc]  # existing_changed is set with existing
                pk=plan.existing.pk, updated_at=plan.existing_changed
            ).exists()
        ):
            raise ZhoblimpUploadRejected(
                f"The vocabulary '{plan.name}' changed while the import ran, so nothing was stored: "
                "import the files again.",
                notes,
            )
        phrase_names = _phrases_store(row.project, plan)
        checks = plan.checks
        if project_phrase_texts(row.project) != plan.phrase_texts:  # changed while the job ran
            checks = [
                project_template_check(project=row.project, source_text=t.text, file_name="template.yaml")
                for t in plan.result.templates
            ]
        outcomes = templates_create(
            project=row.project,
            new=[
                NewTemplate(t.text, check, f"Imported from the ZhoBLiMP file {t.source_file}.")
                for t, check in zip(plan.result.templates, checks, strict=True)
            ],
            user=user,
        )
        versions: list[TemplateVersion] = []
        for template, outcome in zip(plan.result.templates, outcomes, strict=True):
            if isinstance(outcome, ValidationError):
                notes.append(
                    ImportNote(
                        template.source_file,
                        "uid",
                        f"template not stored: {' '.join(outcome.messages)}",
                        "skipped",
                    )
                )
                continue
            for problem in outcome.problems:
                notes.append(
                    ImportNote(
                        template.source_file,
                        str(problem.get("position") or ""),
                        f"stored with a problem: {problem.get('message')}",
                        "changed",
                    )
                )
            versions.append(outcome)
        if not versions:
            raise ZhoblimpUploadRejected("No converted template could be stored; nothing was stored.", notes)
        ZhoblimpImport.objects.filter(pk=row.pk).update(
            vocabulary=vocabulary,
            phrases=phrase_names,
            templates=[
                {"id": v.template.pk, "uid": v.template.uid, "phenomenon": v.template.phenomenon}
                for v in versions
            ],
            report=[note.to_dict() for note in notes],
            comparison=plan.comparison,
            uploads=[],
        )
        job_finish(
            job_id=_job_id(row),
            message=zhoblimp_import_outcome_text(
                len(versions),
                vocabulary.name,
                reused=plan.existing is not None,
                notes=notes,
                comparison=str(plan.comparison.get("summary", "")),
            ),
        )
    return versions


def zhoblimp_import_outcome_text(
    templates: int, vocabulary: str, *, reused: bool, notes: Sequence[ImportNote], comparison: str = ""
) -> str:
    """Return sentences saying what an import stored, what its report holds and, given the
    comparison's summary, how the rebuilt UIDs compare with the released data."""
    counts = count_levels(tuple(notes))
    compared = f" Compared with the released data: {comparison}." if comparison else ""
    return (
        f"Imported {templates} template{'s' if templates != 1 else ''} with the vocabulary “{vocabulary}”"
        f"{' (already in the project with the same content)' if reused else ''}. The report lists "
        f"{counts['skipped']} skipped, {counts['changed']} changed and {counts['info']} informational "
        f"item{'s' if len(notes) != 1 else ''}.{compared}"
    )


def _fail(row: ZhoblimpImport, message: str, notes: Sequence[ImportNote]) -> None:
    """Fail the job in words and keep the report; what the job began is removed, the kept files go."""
    _discard_begun(row)
    with transaction.atomic():
        ZhoblimpImport.objects.filter(pk=row.pk).update(
            report=[note.to_dict() for note in notes], uploads=[], vocabulary=None, vocabulary_created=False
        )
        job_fail(job_id=_job_id(row), message=message)
    _discard_uploads(row)


def _discard_begun(row: ZhoblimpImport) -> None:
    """Remove the vocabulary this import began (never one it found in the project)."""
    fresh = ZhoblimpImport.objects.filter(pk=row.pk).values("vocabulary_id", "vocabulary_created").first()
    if fresh is not None and fresh["vocabulary_created"] and fresh["vocabulary_id"] is not None:
        vocabulary_discard(vocabulary_id=fresh["vocabulary_id"])


def _discard_uploads(row: ZhoblimpImport) -> None:
    uploads_discard(StoredUpload.from_dict(record) for record in row.uploads)


def zhoblimp_import_give_up(*, import_id: int, reason: str) -> None:
    """Fail an import whose task gave up (retries spent, a worker error), in words; remove the
    vocabulary it began, so that nothing of the project is half imported. The kept files stay
    with the import."""
    row = ZhoblimpImport.objects.filter(pk=import_id).select_related("job").first()
    if row is None or row.job is None or row.job.finished:
        return
    job_fail(
        job_id=row.job.pk, message=f"The worker could not finish importing the ZhoBLiMP project ({reason})."
    )
    _discard_begun(row)
