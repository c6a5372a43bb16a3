"""Import a ZhoBLiMP project (template JSONs, one vocabulary TSV, one phrase JSON) into a project.

The engine (`generator.importers.zhoblimp`) converts the files and validates every template
against the imported vocabulary and phrases, reporting item by item what it could not convert.
This service stores the result in one transaction: the vocabulary, the phrases, then each
converted template as version 1 of a new project template. An upload that cannot be used (no
vocabulary, no template that converts, a vocabulary name or phrase the project already has with
other content) stores nothing and is rejected with the report.
"""

import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from generator.importers.zhoblimp import SourceFile, ZhoblimpImport, import_zhoblimp
from generator.importers.zhoblimp_yaml import phrases_yaml
from mpp_studio.accounts.models import Project
from mpp_studio.core.uploads import mib_text
from mpp_studio.lexicon.engine import vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.lexicon.services.imports import row_count_problem
from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon
from mpp_studio.lexicon.validation import vocabulary_name_check
from mpp_studio.paradigms.models import TemplateVersion
from mpp_studio.paradigms.services.phrases import PhraseConflictError, PhraseFileError, phrase_file_import
from mpp_studio.paradigms.services.project_templates import template_save
from mpp_studio.paradigms.services.template_upload import (
    MAX_ZIP_FILES,
    MAX_ZIP_UNPACKED_BYTES,
    Upload,
    upload_size_limit,
)
from vocab.import_report import ImportNote

DEFAULT_VOCABULARY_NAME = "zhoblimp_vocab"


class ZhoblimpUploadRejected(Exception):
    """An upload that stores nothing: `message` says why, `notes` are the report so far."""

    def __init__(self, message: str, notes: Sequence[ImportNote] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.notes = list(notes)


@dataclass(slots=True)
class ZhoblimpProjectImport:
    """What was stored (vocabulary, phrase names, template versions) and the full report."""

    vocabulary: Vocabulary
    vocabulary_reused: bool
    phrases: list[str]
    versions: list[TemplateVersion]
    notes: list[ImportNote] = field(default_factory=list)


def _unpack(upload: Upload) -> list[SourceFile]:
    """Return the files of an upload: itself, or the files of a zip (within the size caps)."""
    limit = upload_size_limit(upload.name)
    if upload.data is None or upload.size > limit:
        raise ZhoblimpUploadRejected(
            f"{upload.name} is {upload.size / 1024 / 1024:.1f} MiB; the limit for this kind of file is "
            f"{mib_text(limit)}."
        )
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


def _sorted_files(
    uploads: Sequence[Upload], notes: list[ImportNote]
) -> tuple[list[SourceFile], SourceFile, SourceFile | None]:
    """Return the template files, the vocabulary TSV and the phrase JSON of an upload.

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
    for file in files:
        lower = file.name.lower()
        if lower.endswith(".tsv"):
            tables.append(file)
        elif lower.endswith(".json"):
            (phrase_files if _is_phrase_file(file.data) else templates).append(file)
        else:
            notes.append(
                ImportNote(
                    file.name,
                    "",
                    "not read: a ZhoBLiMP project is template .json files, one "
                    "vocabulary .tsv and one phrase .json",
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
    return templates, tables[0], phrase_files[0] if phrase_files else None


def zhoblimp_project_import(
    *,
    project: Project,
    uploads: Sequence[Upload],
    user: AbstractBaseUser | None,
    vocabulary_name: str = "",
) -> ZhoblimpProjectImport:
    """Convert and store a ZhoBLiMP project's files in `project`; return what was stored and the report.

    Raises:
        ZhoblimpUploadRejected: nothing was stored; the message says why and `notes` hold the report.
        ValidationError: {"vocabulary_name": ...} for a malformed name; nothing was stored.
    """
    notes: list[ImportNote] = []
    templates, table, phrase_file = _sorted_files(uploads, notes)
    rows = row_count_problem(table.data)
    if rows is not None:
        raise ZhoblimpUploadRejected(f"{table.name}: {rows}; nothing was stored.", notes)
    try:
        name = vocabulary_name_check(vocabulary_name.strip() or DEFAULT_VOCABULARY_NAME)
    except ValidationError as exc:
        raise ValidationError({"vocabulary_name": exc.messages}) from None
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
    try:
        return _store(project, user, result, name, table, phrase_file, notes)
    except _Abort as abort:
        raise ZhoblimpUploadRejected(str(abort), notes) from None


class _Abort(Exception):
    """Rolls the whole import back; the message says why."""


@transaction.atomic
def _store(
    project: Project,
    user: AbstractBaseUser | None,
    result: ZhoblimpImport,
    name: str,
    table: SourceFile,
    phrase_file: SourceFile | None,
    notes: list[ImportNote],
) -> ZhoblimpProjectImport:
    assert result.vocabulary is not None
    lexicon = result.vocabulary
    existing = Vocabulary.objects.filter(project=project, name=name).first()
    reused = existing is not None
    if existing is not None:
        if vocabulary_to_engine(existing).version != lexicon.version:
            raise _Abort(
                f"The project already has a vocabulary called '{name}' with other content; choose another "
                "vocabulary name. Nothing was stored."
            )
        vocabulary = existing
    else:
        try:
            vocabulary = vocabulary_create_from_lexicon(
                project=project,
                lexicon=lexicon,
                name=name,
                description=f"Imported from the ZhoBLiMP file {table.name}.",
            )
        except ValidationError as exc:
            raise _Abort(f"The vocabulary cannot be stored: {' '.join(exc.messages)}") from None
    phrase_names: list[str] = []
    if phrase_file is not None and result.phrases:
        try:
            imported = phrase_file_import(
                project=project,
                file_name=phrase_file.name,
                text=phrases_yaml(result.phrases),
                description=f"Imported from the ZhoBLiMP file {phrase_file.name}.",
            )
        except (PhraseConflictError, PhraseFileError) as exc:
            raise _Abort(f"The phrases cannot be stored: {exc}. Nothing was stored.") from None
        phrase_names = [p.name for p in imported]
    versions: list[TemplateVersion] = []
    for template in result.templates:
        try:
            with transaction.atomic():
                version = template_save(
                    project=project,
                    source_text=template.text,
                    user=user,
                    note=f"Imported from the ZhoBLiMP file {template.source_file}.",
                )
        except ValidationError as exc:
            notes.append(
                ImportNote(
                    template.source_file, "uid", f"template not stored: {' '.join(exc.messages)}", "skipped"
                )
            )
            continue
        for problem in version.problems:
            notes.append(
                ImportNote(
                    template.source_file,
                    str(problem.get("position") or ""),
                    f"stored with a problem: {problem.get('message')}",
                    "changed",
                )
            )
        versions.append(version)
    if not versions:
        raise _Abort("No converted template could be stored; nothing was stored.")
    return ZhoblimpProjectImport(vocabulary, reused, phrase_names, versions, notes)
