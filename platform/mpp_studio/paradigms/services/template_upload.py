"""Upload template files into a project: YAML templates, or a zip with templates, vocabularies and phrases.

Every file is stored on its own, in its own transaction, and reported on its own: a template
becomes version 1 of a new project template (with the problems the engine finds, if any), a
vocabulary table (with its optional `<stem>.schema.yaml`) a project vocabulary named after the
file's stem (as templates name it), and a phrase file the project phrases it defines. A file that
cannot be stored (not UTF-8, binary, not YAML, too large, a name the project already uses for other
content) is rejected with the reason, its file name and, where there is one, the line; nothing of
it is stored. Vocabularies are stored first and phrase files next, so the templates of one upload
are checked against them.
"""

import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Literal

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from generator.errors import Problem
from generator.source import SourceError, load_yaml
from mpp_studio.accounts.models import Project
from mpp_studio.core.uploads import mib_text
from mpp_studio.lexicon.engine import SCHEMA_SUFFIX, vocabulary_parse, vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.lexicon.services.imports import max_upload_bytes as max_table_bytes
from mpp_studio.lexicon.services.imports import row_count_problem
from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon
from mpp_studio.paradigms.models import TemplateVersion
from mpp_studio.paradigms.services.phrases import PhraseConflictError, PhraseFileError, phrase_file_import
from mpp_studio.paradigms.services.project_templates import template_save
from vocab.errors import VocabularyError

# Defaults of MPP_TEMPLATE_UPLOAD_MAX_BYTES and MPP_TEMPLATE_ZIP_MAX_BYTES: a template or phrase
# file is a few kilobytes. Vocabulary tables take the vocabulary import's limit
# (MPP_VOCABULARY_UPLOAD_MAX_BYTES, 10 MiB), in a zip as on their own.
MAX_YAML_BYTES = 1024 * 1024
MAX_ZIP_BYTES = 20 * 1024 * 1024
# Inside a zip: what the archive may unpack to in all, and how many files it may hold (a zip bomb
# declares small sizes and unpacks to gigabytes; entries are read with these caps, not trusted).
MAX_ZIP_UNPACKED_BYTES = 50 * 1024 * 1024
MAX_ZIP_FILES = 500

YAML_SUFFIXES = (".yaml", ".yml")
TABLE_SUFFIXES = (".csv", ".tsv")
_TEMPLATE_MARK = re.compile(r"^uid\s*:", re.MULTILINE)

FileKind = Literal["template", "vocabulary", "schema", "phrase file", "zip", "file"]


@dataclass(frozen=True, slots=True)
class Upload:
    """One uploaded file: its name, its size in bytes and its content (None when too large to read)."""

    name: str
    size: int
    data: bytes | None


@dataclass(frozen=True, slots=True)
class UploadResult:
    """What the upload did with one file: stored (with details) or rejected (with the reason)."""

    file_name: str
    kind: FileKind
    stored: bool
    message: str
    details: tuple[str, ...] = ()
    version: TemplateVersion | None = None


@dataclass(slots=True)
class UploadReport:
    """The outcome of every file of an upload, vocabularies first, then phrase files, then templates."""

    results: list[UploadResult] = field(default_factory=list)

    @property
    def stored(self) -> list[UploadResult]:
        return [r for r in self.results if r.stored]

    @property
    def rejected(self) -> list[UploadResult]:
        return [r for r in self.results if not r.stored]


@dataclass(frozen=True, slots=True)
class _File:
    display: str  # what the report calls it: "a.yaml", or "bundle.zip › en/a.yaml"
    path: str  # its path inside the upload (pairs a table with its schema)
    data: bytes


class _Rejected(Exception):
    def __init__(self, message: str, details: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.details = tuple(details)


def upload_size_limit(name: str) -> int:
    """Return the largest size in bytes accepted for an uploaded file of this name."""
    lower = name.lower()
    if lower.endswith(".zip"):
        return int(getattr(settings, "MPP_TEMPLATE_ZIP_MAX_BYTES", MAX_ZIP_BYTES))
    if lower.endswith(TABLE_SUFFIXES):
        return max_table_bytes()
    return int(getattr(settings, "MPP_TEMPLATE_UPLOAD_MAX_BYTES", MAX_YAML_BYTES))


def template_files_upload(
    *, project: Project, uploads: Sequence[Upload], user: User | None
) -> UploadReport:
    """Store every uploaded file that can be stored in the project and report on each one.

    Templates are `.yaml`/`.yml` files with a top-level `uid:`; other YAML files are phrase files
    (a mapping of phrase names to alternatives); `.csv`/`.tsv` are vocabularies, each with an
    optional `<stem>.schema.yaml` beside it; a `.zip` may hold any of these, in any folders.
    """
    report = UploadReport()
    files: list[_File] = []
    for upload in uploads:
        try:
            files += _unpack(upload)
        except _Rejected as exc:
            kind: FileKind = "zip" if upload.name.lower().endswith(".zip") else "file"
            report.results.append(UploadResult(upload.name, kind, False, str(exc), exc.details))

    tables: list[_File] = []
    schemas: dict[str, _File] = {}  # by the table path they belong to, without suffix
    yaml_files: list[_File] = []
    others: list[_File] = []
    for file in files:
        lower = file.path.lower()
        if lower.endswith(SCHEMA_SUFFIX):
            schemas[file.path[: -len(SCHEMA_SUFFIX)]] = file
        elif lower.endswith(TABLE_SUFFIXES):
            tables.append(file)
        elif lower.endswith(YAML_SUFFIXES):
            yaml_files.append(file)
        else:
            others.append(file)

    for file in others:
        report.results.append(
            UploadResult(
                file.display,
                "file",
                False,
                "Not a file MPP Studio reads: upload templates (.yaml), vocabularies (.csv or .tsv, with "
                "an optional .schema.yaml) or phrase files (.yaml), or a .zip holding them.",
            )
        )
    for file in tables:
        stem = str(PurePosixPath(file.path).with_suffix(""))
        report.results.append(_store(project, user, "vocabulary", file, schemas.pop(stem, None)))
    for schema in schemas.values():
        report.results.append(
            UploadResult(
                schema.display,
                "schema",
                False,
                "A schema file without its vocabulary: upload the table "
                f"({PurePosixPath(schema.path).name.removesuffix(SCHEMA_SUFFIX)}.csv or .tsv) with it.",
            )
        )
    texts: list[tuple[_File, str]] = []
    for file in yaml_files:
        try:
            texts.append((file, _text(file)))
        except _Rejected as exc:
            report.results.append(UploadResult(file.display, "file", False, str(exc), exc.details))
    for file, text in texts:
        if not _TEMPLATE_MARK.search(text):
            report.results.append(_store(project, user, "phrase file", file, None, text))
    for file, text in texts:
        if _TEMPLATE_MARK.search(text):
            report.results.append(_store(project, user, "template", file, None, text))
    return report


def _store(
    project: Project,
    user: User | None,
    kind: FileKind,
    file: _File,
    schema: _File | None,
    text: str | None = None,
) -> UploadResult:
    try:
        with transaction.atomic():
            if kind == "vocabulary":
                return _vocabulary_store(project, file, schema)
            assert text is not None
            if kind == "phrase file":
                return _phrases_store(project, file, text)
            return _template_store(project, user, file, text)
    except _Rejected as exc:
        return UploadResult(file.display, kind, False, str(exc), exc.details)


def _template_store(project: Project, user: User | None, file: _File, text: str) -> UploadResult:
    try:
        load_yaml(text)
    except SourceError as exc:
        where = f"line {exc.line}: " if exc.line is not None else ""
        raise _Rejected(f"Not YAML, so not stored: {where}{exc}") from None
    try:
        version = template_save(
            project=project, source_text=text, user=user, note=f"Uploaded from {file.display}."
        )
    except ValidationError as exc:
        raise _Rejected(f"Not stored: {' '.join(exc.messages)}") from None
    problems = tuple(_problem_text(p) for p in version.problems)
    count = len(problems)
    message = f"Stored as template '{version.template.uid}', version {version.number}" + (
        f", with {count} problem{'s' if count != 1 else ''} to fix." if count else "; it is valid."
    )
    return UploadResult(file.display, "template", True, message, problems, version)


def _phrases_store(project: Project, file: _File, text: str) -> UploadResult:
    try:
        imported = phrase_file_import(project=project, file_name=file.display, text=text)
    except PhraseFileError as exc:
        raise _Rejected(f"Not stored (a YAML file without `uid:` is read as a phrase file): {exc}") from None
    except PhraseConflictError as exc:
        raise _Rejected(f"Not stored: {exc}.") from None
    created = [p.name for p in imported if p.outcome == "created"]
    reused = [p.name for p in imported if p.outcome == "reused"]
    parts = []
    if created:
        parts.append(f"added phrase{'s' if len(created) != 1 else ''} {', '.join(created)}")
    if reused:
        parts.append(f"the project already had {', '.join(reused)} with the same alternatives")
    return UploadResult(file.display, "phrase file", True, "Phrases: " + "; ".join(parts) + ".")


def _vocabulary_store(project: Project, file: _File, schema: _File | None) -> UploadResult:
    name = PurePosixPath(file.path).stem
    rows = row_count_problem(file.data)
    if rows is not None:
        raise _Rejected(f"Not stored: {rows}.")
    items_text = _text(file)
    schema_text = _text(schema) if schema is not None else ""
    try:
        lexicon = vocabulary_parse(
            file_name=PurePosixPath(file.path).name, items_text=items_text, schema_text=schema_text
        ).lexicon
    except VocabularyError as exc:
        count = len(exc.errors)
        raise _Rejected(
            f"The vocabulary has {count} problem{'s' if count != 1 else ''}; nothing of it was stored.",
            [str(error) for error in exc.errors],
        ) from None
    with_schema = f" with its schema {schema.display}" if schema is not None else ""
    existing = Vocabulary.objects.filter(project=project, name=name).first()
    if existing is not None:
        if vocabulary_to_engine(existing).version == lexicon.version:
            return UploadResult(
                file.display,
                "vocabulary",
                True,
                f"The project already has vocabulary '{name}' with the same content; it is used as it is.",
            )
        raise _Rejected(
            f"Not stored: the project already has a vocabulary called '{name}' with other content; it "
            f"was left unchanged. Rename the file (templates name a vocabulary by its file's stem) or "
            "the project's vocabulary."
        )
    try:
        vocabulary_create_from_lexicon(
            project=project, lexicon=lexicon, name=name, description=f"Uploaded from {file.display}."
        )
    except ValidationError as exc:
        raise _Rejected(f"Not stored: {' '.join(exc.messages)}") from None
    count = len(lexicon.items)
    return UploadResult(
        file.display,
        "vocabulary",
        True,
        f"Stored as vocabulary '{name}'{with_schema}: {count:,} item{'s' if count != 1 else ''}.",
    )


def _unpack(upload: Upload) -> list[_File]:
    """Return the files of an upload: itself, or the files inside a zip."""
    limit = upload_size_limit(upload.name)
    if upload.data is None or upload.size > limit:
        raise _Rejected(
            f"The file is {upload.size / 1024 / 1024:.1f} MiB; the limit for this kind of file is "
            f"{mib_text(limit)}."
        )
    if not upload.name.lower().endswith(".zip"):
        return [_File(upload.name, PurePosixPath(upload.name).name, upload.data)]
    try:
        archive = zipfile.ZipFile(io.BytesIO(upload.data))
    except zipfile.BadZipFile:
        raise _Rejected("Not a readable zip archive (the file may be damaged or not a zip at all).") from None
    with archive:
        entries = [
            info
            for info in archive.infolist()
            if not info.is_dir()
            and not any(
                part.startswith(".") or part == "__MACOSX" for part in PurePosixPath(info.filename).parts
            )
        ]
        if len(entries) > MAX_ZIP_FILES:
            raise _Rejected(f"The archive holds {len(entries):,} files; the limit is {MAX_ZIP_FILES}.")
        files = []
        unpacked = 0
        for info in entries:
            display = f"{upload.name} › {info.filename}"
            entry_limit = upload_size_limit(info.filename)
            if info.file_size > entry_limit:
                raise _Rejected(
                    f"{info.filename} unpacks to {info.file_size / 1024 / 1024:.1f} MiB; the limit for "
                    f"this kind of file is {mib_text(entry_limit)}. Nothing of the archive "
                    "was stored."
                )
            try:
                with archive.open(info) as handle:
                    data = handle.read(entry_limit + 1)
            except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError) as exc:
                raise _Rejected(f"{info.filename} cannot be unpacked ({exc}).") from None
            unpacked += len(data)
            if len(data) > entry_limit or unpacked > MAX_ZIP_UNPACKED_BYTES:
                raise _Rejected(
                    f"The archive unpacks to more than {MAX_ZIP_UNPACKED_BYTES // 1024 // 1024} MiB "
                    "(or a file in it to more than its limit); nothing of it was stored."
                )
            files.append(_File(display, info.filename, data))
    return files


def _text(file: _File) -> str:
    """Return a file's text.

    Raises:
        _Rejected: naming the line of the first NUL byte (a binary file) or bytes that are not UTF-8.
    """
    data = file.data
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise _Rejected(
            f"This is not a text file (line {line} holds a NUL byte): it looks binary or UTF-16. "
            "Save it as UTF-8 text."
        )
    try:
        # utf-8-sig drops the byte-order mark that some editors and spreadsheet programs write.
        return data.decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _Rejected(
            f"Line {line} is not UTF-8 text (byte {exc.start}); save the file as UTF-8."
        ) from None


def _problem_text(problem: dict[str, object]) -> str:
    line = problem.get("line")
    return str(
        Problem(
            code=str(problem.get("code", "")),
            message=str(problem.get("message", "")),
            template=str(problem.get("template") or ""),
            grammar=str(problem.get("grammar") or ""),
            position=str(problem.get("position") or ""),
            line=line if isinstance(line, int) else None,
        )
    )
