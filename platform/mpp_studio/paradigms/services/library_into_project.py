"""Import paradigms of the shipped library into a project: vocabulary, phrases and template.

Each library template comes with what it needs, in this order: its vocabulary (a project
vocabulary named by the stem of the template's `vocabulary:` path), the phrases of its phrase
files, and the template itself as version 1 of a new project template. What the project already
has with the same content is reused. What it has under the same name with other content is never
overwritten: that paradigm is skipped with a message naming both, and nothing of it is stored
(one template's import is one transaction).

From the library page and API this is a background job: the request records the choice and
queues `paradigms.import_library` (`library_templates_import_start`); the job imports one template
after another (`library_templates_import_run`), each result stored on the `LibraryImport` row in
that template's transaction, so that a second run goes on after the last template imported.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Literal

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.jobs.models import Job
from mpp_studio.jobs.services import job_create, job_fail, job_finish, job_progress, job_start
from mpp_studio.lexicon.engine import vocabulary_parse, vocabulary_to_engine
from mpp_studio.lexicon.models import LibraryVocabulary, Vocabulary
from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon
from mpp_studio.paradigms.engine import template_fields
from mpp_studio.paradigms.models import LibraryImport, LibraryTemplate, Template, TemplateVersion
from mpp_studio.paradigms.project_engine import vocabulary_name
from mpp_studio.paradigms.services.phrases import (
    PhraseConflictError,
    PhraseFileError,
    PhraseImport,
    phrase_file_import,
)
from mpp_studio.paradigms.services.project_templates import template_save
from vocab.errors import VocabularyError

PartOutcome = Literal["created", "reused"]
JOB_KIND = "library_import"


@dataclass(frozen=True, slots=True)
class ImportedPart:
    """A vocabulary or phrase that a template's import created in the project or found there."""

    kind: Literal["vocabulary", "phrase"]
    name: str
    outcome: PartOutcome


@dataclass(frozen=True, slots=True)
class TemplateImportResult:
    """What the import did with one library template: imported (with its parts) or skipped, and why."""

    source: LibraryTemplate
    imported: bool
    message: str = ""  # why it was skipped; a note (such as a missing vocabulary) when imported
    parts: tuple[ImportedPart, ...] = ()
    version: TemplateVersion | None = None

    @property
    def template(self) -> Template | None:
        return self.version.template if self.version is not None else None

    @property
    def created(self) -> list[ImportedPart]:
        return [p for p in self.parts if p.outcome == "created"]

    @property
    def reused(self) -> list[ImportedPart]:
        return [p for p in self.parts if p.outcome == "reused"]


@dataclass(slots=True)
class LibraryImportReport:
    """The outcome of each chosen library template, in the order they were imported (and the
    import job's row, for a report rebuilt from it)."""

    project: Project
    results: list[TemplateImportResult] = field(default_factory=list)
    row: LibraryImport | None = None

    @property
    def imported(self) -> list[TemplateImportResult]:
        return [r for r in self.results if r.imported]

    @property
    def skipped(self) -> list[TemplateImportResult]:
        return [r for r in self.results if not r.imported]


class _Skip(Exception):
    """Stops one template's import; its transaction is rolled back and the message reported."""


def library_templates_import(
    *,
    project: Project,
    templates: Sequence[LibraryTemplate],
    user: User | None,
    record: Callable[[TemplateImportResult], None] | None = None,
) -> LibraryImportReport:
    """Import each library template, with its vocabulary and phrases, into the project.

    Each template is imported in its own transaction: either all it needs is stored (or found
    already stored with the same content) and the template becomes version 1 of a new project
    template, with the problems the engine finds in the project, or nothing of it is stored and
    the report says why (a uid, vocabulary or phrase the project has with other content, or a
    library file that cannot be read). `record(result)` runs in that template's transaction (the
    import job keeps each result on its row there).
    """
    report = LibraryImportReport(project=project)
    for library_template in templates:
        report.results.append(_import_one(project, library_template, user, record))
    return report


def _import_one(
    project: Project,
    source: LibraryTemplate,
    user: User | None,
    record: Callable[[TemplateImportResult], None] | None,
) -> TemplateImportResult:
    """Import one library template in its own transaction; return what happened to it."""
    try:
        with transaction.atomic():
            result = _template_import(project, source, user)
            if record is not None:
                record(result)
    except _Skip as exc:
        result = TemplateImportResult(source, imported=False, message=str(exc))
        if record is not None:
            with transaction.atomic():
                record(result)
    return result


def library_templates_import_start(
    *, project: Project, templates: Sequence[LibraryTemplate], user: RequestUser | None
) -> LibraryImport:
    """Record the library templates chosen for the project and queue the job that imports them,
    in this order (`library_templates_import_run`); return the import, whose job shows the progress."""
    from mpp_studio.paradigms.tasks import import_library

    with transaction.atomic():
        job = job_create(
            project=project,
            kind=JOB_KIND,
            created_by=user,
            total=len(templates),
            message="Waiting for a worker to import the paradigms.",
        )
        row = LibraryImport(
            project=project,
            job=job,
            created_by=signed_in_or_none(user),
            library_templates=[template.pk for template in templates],
        )
        row.save()
        import_library.delay_on_commit(row.pk)
    return row


def library_templates_import_run(*, import_id: int) -> None:
    """Import the chosen library templates of an import, one after another (the
    `paradigms.import_library` job); safe to run twice, and after a run that died part-way.

    Each template's result is stored on the row in that template's transaction, with the job's
    progress; a second run goes on after the last one stored. A cancelled job stops after the
    template it is importing; what was imported stays, each paradigm whole.
    """
    row = LibraryImport.objects.select_related("job", "project", "created_by").filter(pk=import_id).first()
    if row is None or row.job is None or row.job.finished:
        return
    job_id, wanted = row.job.pk, list(row.library_templates)
    if not job_start(
        job_id=job_id, message=f"Importing {len(wanted)} paradigm{'s' if len(wanted) != 1 else ''}."
    ):
        return
    by_id = {t.pk: t for t in LibraryTemplate.objects.filter(pk__in=wanted).select_related("vocabulary")}
    results = list(LibraryImport.objects.get(pk=row.pk).results)

    def record(result: TemplateImportResult) -> None:
        results.append(_result_record(result))
        LibraryImport.objects.filter(pk=row.pk).update(results=results)
        job_progress(
            job_id=job_id, done=len(results), message=library_import_outcome_text(results, len(wanted))
        )

    for pk in wanted[len(results) :]:
        source = by_id.get(pk)
        if source is None:  # gone from the library since it was chosen (rows are never deleted)
            with transaction.atomic():
                record(
                    TemplateImportResult(
                        LibraryTemplate(pk=pk), imported=False, message="The library has no such paradigm."
                    )
                )
            continue
        _import_one(row.project, source, row.created_by, record)
        if Job.objects.filter(pk=job_id, status__in=Job.FINISHED).exists():
            return  # cancelled meanwhile: what was imported stays
    job_finish(job_id=job_id, message=library_import_outcome_text(results, len(wanted)))


def library_import_outcome_text(results: Sequence[dict[str, object]], total: int) -> str:
    """Return a sentence saying how many of the chosen paradigms were imported and skipped so far."""
    imported = sum(1 for result in results if result["imported"])
    skipped = len(results) - imported
    return f"{imported} of {total} paradigm{'s' if total != 1 else ''} imported" + (
        f", {skipped} skipped: the table says why." if skipped else "."
    )


def _result_record(result: TemplateImportResult) -> dict[str, object]:
    """Return what the import row keeps of one template's result (ids, not objects)."""
    return {
        "source": result.source.pk,
        "uid": result.source.uid,
        "file_name": result.source.file_name,
        "imported": result.imported,
        "message": result.message,
        "parts": [{"kind": p.kind, "name": p.name, "outcome": p.outcome} for p in result.parts],
        "version": result.version.pk if result.version is not None else None,
    }


def library_import_report(*, row: LibraryImport) -> LibraryImportReport:
    """Return an import's results so far as the report the pages and the API show (each result's
    library template and stored version read back by id)."""
    records = list(row.results)
    sources = LibraryTemplate.objects.in_bulk([r["source"] for r in records])
    versions = TemplateVersion.objects.select_related("template").in_bulk(
        [r["version"] for r in records if r["version"] is not None]
    )
    report = LibraryImportReport(project=row.project, row=row)
    for r in records:
        source = sources.get(r["source"]) or LibraryTemplate(
            pk=r["source"], uid=r["uid"], file_name=r["file_name"]
        )
        parts = tuple(ImportedPart(p["kind"], p["name"], p["outcome"]) for p in r["parts"])
        version = versions.get(r["version"]) if r["version"] is not None else None
        report.results.append(TemplateImportResult(source, r["imported"], r["message"], parts, version))
    return report


def library_import_give_up(*, import_id: int, reason: str) -> None:
    """Fail an import whose task gave up (retries spent, a worker error), in words; the
    paradigms imported so far stay, each whole, and the report lists them."""
    job_id = LibraryImport.objects.filter(pk=import_id).values_list("job_id", flat=True).first()
    if job_id is not None:
        job_fail(job_id=job_id, message=f"The worker could not finish importing the paradigms ({reason}).")


def _template_import(
    project: Project, source: LibraryTemplate, user: User | None
) -> TemplateImportResult:
    if Template.objects.filter(project=project, uid=source.uid).exists():
        raise _Skip(
            f"The project already has a template with uid '{source.uid}'; it was left as it is. "
            "Rename or delete the project's template to import this one."
        )
    parts: list[ImportedPart] = []
    note = ""
    reference = template_fields(source.source_text).vocabulary
    if source.vocabulary is not None and reference:
        parts.append(_vocabulary_import(project, source, source.vocabulary, vocabulary_name(reference)))
    elif (
        reference and not Vocabulary.objects.filter(project=project, name=vocabulary_name(reference)).exists()
    ):
        note = (
            f"The library holds no usable vocabulary '{vocabulary_name(reference)}' for this paradigm, "
            "so its check in the project reports the missing vocabulary."
        )
    for path, text in sorted(source.phrase_texts.items()):
        name = _library_path(path)
        try:
            imported: list[PhraseImport] = phrase_file_import(
                project=project,
                file_name=name,
                text=text,
                description=f"Imported from the paradigm library ({name}).",
            )
        except PhraseConflictError as exc:
            raise _Skip(
                f"{_sentence(str(exc))[:-1]}, and this paradigm was not imported. Rename one of the two "
                "phrases, then import again."
            ) from None
        except PhraseFileError as exc:
            raise _Skip(f"The library's phrase file cannot be imported: {exc}.") from None
        parts += [ImportedPart("phrase", p.name, p.outcome) for p in imported]
    try:
        version = template_save(
            project=project,
            source_text=source.source_text,
            user=user,
            note=f"Imported from the paradigm library ({source.file_name}).",
        )
    except ValidationError as exc:
        raise _Skip(f"The template cannot be saved: {' '.join(exc.messages)}") from None
    return TemplateImportResult(source, imported=True, message=note, parts=tuple(parts), version=version)


def _vocabulary_import(
    project: Project, source: LibraryTemplate, library_vocabulary: LibraryVocabulary, name: str
) -> ImportedPart:
    """Return the project vocabulary `name` made from the library's, or found with the same content."""
    try:
        lexicon = vocabulary_parse(
            file_name=library_vocabulary.file_name,
            items_text=library_vocabulary.items_text,
            schema_text=library_vocabulary.schema_text,
        ).lexicon
    except VocabularyError as exc:
        raise _Skip(
            f"The library's vocabulary {library_vocabulary.file_name} cannot be read: {exc.errors[0]}"
        ) from None
    existing = Vocabulary.objects.filter(project=project, name=name).first()
    if existing is not None:
        if vocabulary_to_engine(existing).version == lexicon.version:
            return ImportedPart("vocabulary", name, "reused")
        raise _Skip(
            f"The project's vocabulary '{name}' differs from the library's vocabulary "
            f"{library_vocabulary.file_name} (which the paradigm names '{name}'); the project's "
            "vocabulary was left unchanged, and this paradigm was not imported. Rename or delete the "
            "project's vocabulary to import the paradigm with the library's."
        )
    try:
        vocabulary_create_from_lexicon(
            project=project,
            lexicon=lexicon,
            name=name,
            description=f"Imported from the paradigm library ({library_vocabulary.file_name}).",
        )
    except ValidationError as exc:
        raise _Skip(f"The vocabulary '{name}' cannot be stored: {' '.join(exc.messages)}") from None
    return ImportedPart("vocabulary", name, "created")


def _library_path(path: str) -> str:
    """Return a phrase file's path as written in a template without its climb: phrases/en.yaml."""
    parts = [part for part in PurePosixPath(path).parts if part not in ("..", ".")]
    return "/".join(parts) or path


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."
