"""Importing released datasets (BLiMP JSONL, ZhoBLiMP JSONL, Zorro text files) as read-only datasets.

The engine's readers (`generator.formats`) read each uploaded file line by line and report every
line they could not take (file, line, field; skipped or kept). Here the pairs become one
`DatasetParadigm` per UID (no template version: nothing generated them) with their `Pair` rows,
and the dataset records its origin, format, files and the whole report. Nothing is stored when
no file gives a usable pair; a file with some bad lines gives its good lines.
"""

import zipfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import IO

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import transaction

from generator.formats.record import ImportedPair, ImportIssue, ReadResult
from generator.formats.sources import FORMATS, is_zip, read_stream
from generator.formats.zorro import ORDERS
from mpp_studio.accounts.models import Project
from mpp_studio.core.uploads import file_display_name, size_text
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair

IMPORT_FORMATS = ("auto", *FORMATS)
MAX_IMPORT_FILES = 100
MAX_IMPORT_PAIRS = 500_000
DEFAULT_MAX_IMPORT_BYTES = 256 * 1024 * 1024
WRITE_CHUNK = 2_000
UID_LENGTH = DatasetParadigm._meta.get_field("uid").max_length or 200
PHENOMENON_LENGTH = DatasetParadigm._meta.get_field("phenomenon").max_length or 200

READ_ONLY_MESSAGE = (
    "“{name}” is an imported dataset: it is read-only, so it cannot be regenerated or edited. "
    "Browse and export it, or import the files again as a new dataset."
)


@dataclass(frozen=True, slots=True)
class UploadedFile:
    """A file to import: its name as the user gave it and a binary stream of its bytes."""

    name: str
    stream: IO[bytes]


def max_import_bytes() -> int:
    """Return the most bytes the files of one import may hold together (MPP_DATASET_IMPORT_MAX_BYTES)."""
    return int(getattr(settings, "MPP_DATASET_IMPORT_MAX_BYTES", DEFAULT_MAX_IMPORT_BYTES))


def import_size_problem(files: Sequence[tuple[str, int]]) -> str | None:
    """Return why files of these (name, size) are too large to import together, or None."""
    total, limit = sum(size for _, size in files), max_import_bytes()
    if total <= limit:
        return None
    names = [file_display_name(name) for name, _ in files]
    what = (
        f"{names[0]} is"
        if len(names) == 1
        else f"The files ({', '.join(names[:5])}{', …' if len(names) > 5 else ''}) are"
    )
    return (
        f"{what} {size_text(total)} in all; one import takes at most {size_text(limit)}. Nothing was "
        "imported: split the files into several imports."
    )


def _unpacked_bytes(upload: "UploadedFile") -> int | None:
    """Return what a zip upload unpacks to, as its entries declare (reading holds them to it), or
    None for a file that is not a readable zip."""
    stream = upload.stream
    head = stream.read(4)
    stream.seek(0)
    if not is_zip(upload.name, head):
        return None
    try:
        with zipfile.ZipFile(stream) as archive:  # a ZipFile leaves a stream it was given open
            return sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return None  # the reader reports it, with the file's name
    finally:
        stream.seek(0)


def unpacked_size_problem(files: Sequence["UploadedFile"]) -> str | None:
    """Return why zips that unpack to more than one import takes are refused, or None.

    The import limit holds for the data read, zipped or not: a small zip of one line repeated
    would otherwise fill the server's memory with pairs before the pair limit is reached.
    """
    limit = max_import_bytes()
    total, zips = 0, []
    for upload in files:
        unpacked = _unpacked_bytes(upload)
        size = unpacked if unpacked is not None else int(getattr(upload.stream, "size", 0) or 0)
        total += size
        if unpacked is not None:
            zips.append(f"{file_display_name(upload.name)} unpacks to {size_text(unpacked)}")
    if total <= limit or not zips:
        return None
    return (
        f"{'; '.join(zips)}: one import reads at most {size_text(limit)} of data, zipped or not. "
        "Nothing was imported: split the files into several imports."
    )


class DatasetImportRejected(Exception):
    """No file of the upload gave a usable pair (or there were too many); nothing was stored."""

    def __init__(self, message: str, result: ReadResult) -> None:
        super().__init__(message)
        self.message = message
        self.result = result


@dataclass(frozen=True, slots=True)
class DatasetImport:
    """A stored import: the dataset and everything the readers reported."""

    dataset: Dataset
    result: ReadResult


LEARNER_READ_ONLY_MESSAGE = (
    "“{name}” holds learner triplets: it is read-only, so it cannot be regenerated or edited. "
    "Browse, export and score it, or start a new triplet run from its learner corpus."
)


def dataset_read_only_message(dataset: Dataset) -> str:
    """Return why an imported (or learner-triplet) dataset refuses regeneration and editing."""
    if dataset.origin == Dataset.Origin.LEARNER:
        return LEARNER_READ_ONLY_MESSAGE.format(name=dataset.name)
    return READ_ONLY_MESSAGE.format(name=dataset.name)


def dataset_require_generated(*, dataset: Dataset) -> None:
    """Refuse an action that only a generated dataset allows (regenerating, editing, cancelling).

    Raises:
        ValidationError: naming the dataset as imported and read-only.
    """
    if dataset.is_read_only:
        raise ValidationError(dataset_read_only_message(dataset), code="read_only")


def _check_lengths(result: ReadResult) -> list[ImportedPair]:
    """Return the pairs whose UID and phenomenon fit the database; report the others."""
    kept = []
    for pair in result.pairs:
        if len(pair.uid) > UID_LENGTH:
            result.issues.append(
                ImportIssue(pair.file, pair.line, f"longer than {UID_LENGTH} characters", field="UID")
            )
        elif len(pair.phenomenon) > PHENOMENON_LENGTH:
            result.issues.append(
                ImportIssue(
                    pair.file, pair.line, f"longer than {PHENOMENON_LENGTH} characters", field="phenomenon"
                )
            )
        else:
            kept.append(pair)
    return kept


def _source_format(result: ReadResult) -> str:
    formats = {f.format for f in result.files if f.format and f.pairs}
    if len(formats) == 1:
        return formats.pop()
    return Dataset.SourceFormat.MIXED if formats else ""


def dataset_import(
    *,
    project: Project,
    name: str,
    files: Sequence[UploadedFile],
    source_format: str = "auto",
    zorro_order: str = "bad-first",
    description: str = "",
    created_by: AbstractBaseUser | AnonymousUser | None = None,
) -> DatasetImport:
    """Read the files and store their pairs as a new read-only dataset; return it with the report.

    Each file (or each data file of a zip) is read as `source_format` ("auto": told from its
    name and first line); Zorro files pair their lines in `zorro_order`. Pairs are grouped by
    UID into paradigms, in the order met; each keeps its pairID, file and line.

    Raises:
        ValidationError: keyed by field (`name`, `files`, `source_format`, `zorro_order`); `files`
            also for zips that unpack to more than MPP_DATASET_IMPORT_MAX_BYTES.
        DatasetImportRejected: no file gave a usable pair, or more than MAX_IMPORT_PAIRS; it
            carries every issue found. Nothing is stored.
    """
    errors: dict[str, list[str]] = {}
    name = name.strip()
    if not name:
        errors.setdefault("name", []).append("Give the dataset a name.")
    if source_format not in IMPORT_FORMATS:
        errors.setdefault("source_format", []).append(
            f"Unknown format '{source_format}': use one of {', '.join(IMPORT_FORMATS)}."
        )
    if zorro_order not in ORDERS:
        errors.setdefault("zorro_order", []).append(
            f"Unknown Zorro line order '{zorro_order}': use one of {', '.join(ORDERS)}."
        )
    if not files:
        errors.setdefault("files", []).append("Choose at least one file to import.")
    elif len(files) > MAX_IMPORT_FILES:
        errors.setdefault("files", []).append(
            f"{len(files)} files were given; import at most {MAX_IMPORT_FILES} at once "
            "(or put them in a .zip)."
        )
    if errors:
        raise ValidationError(errors)
    unpacked = unpacked_size_problem(files)
    if unpacked is not None:
        raise ValidationError({"files": [unpacked]})

    result = ReadResult()
    for upload in files:
        result.extend(read_stream(upload.name, upload.stream, source_format, zorro_order))  # type: ignore[arg-type]
    pairs = _check_lengths(result)
    if not pairs:
        raise DatasetImportRejected("No file gave a usable pair, so nothing was imported.", result)
    if len(pairs) > MAX_IMPORT_PAIRS:
        raise DatasetImportRejected(
            f"The files hold {len(pairs):,} pairs, more than the {MAX_IMPORT_PAIRS:,} one import takes, "
            "so nothing was imported.",
            result,
        )
    by_uid: dict[str, list[ImportedPair]] = {}
    for pair in pairs:
        by_uid.setdefault(pair.uid, []).append(pair)
    for uid, group in by_uid.items():
        phenomena = list(dict.fromkeys(p.phenomenon for p in group))
        if len(phenomena) > 1:
            first = group[0]
            result.issues.append(
                ImportIssue(
                    first.file,
                    None,
                    f"the pairs of {uid} name several phenomena ({', '.join(repr(p) for p in phenomena)}); "
                    f"the paradigm is listed under the first, each pair keeps its own",
                    "warning",
                    "phenomenon",
                )
            )
    with transaction.atomic():
        dataset = _store(
            project=project,
            name=name,
            description=description,
            by_uid=by_uid,
            result=result,
            zorro_order=zorro_order,
            created_by=created_by,
        )
    return DatasetImport(dataset, result)


def _store(
    *,
    project: Project,
    name: str,
    description: str,
    by_uid: dict[str, list[ImportedPair]],
    result: ReadResult,
    zorro_order: str,
    created_by: AbstractBaseUser | AnonymousUser | None,
) -> Dataset:
    source_format = _source_format(result)
    dataset = Dataset(
        project=project,
        name=name,
        description=description.strip(),
        seed=0,
        pairs_per_paradigm=0,
        origin=Dataset.Origin.IMPORTED,
        source_format=source_format,
        zorro_order=zorro_order if any(f.format == "zorro" for f in result.files) else "",
        source_files=[asdict(f) for f in result.files],
        import_report=[issue.to_dict() for issue in result.issues],
        created_by=created_by if created_by is not None and created_by.is_authenticated else None,
    )
    dataset.full_clean()
    dataset.save()
    for uid, group in by_uid.items():
        paradigm = DatasetParadigm(
            dataset=dataset,
            template_version=None,
            uid=uid,
            phenomenon=group[0].phenomenon,
            language=group[0].language,
            requested=len(group),
            produced=len(group),
            status=DatasetParadigm.Status.DONE,
        )
        paradigm.full_clean()
        paradigm.save()
        for start in range(0, len(group), WRITE_CHUNK):
            Pair.objects.bulk_create(
                Pair(
                    paradigm=paradigm,
                    index=start + offset,
                    sentence_good=pair.sentence_good,
                    sentence_bad=pair.sentence_bad,
                    record=pair.record(),
                )
                for offset, pair in enumerate(group[start : start + WRITE_CHUNK])
            )
    return dataset
