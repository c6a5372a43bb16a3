"""Importing released datasets (BLiMP JSONL, ZhoBLiMP JSONL, Zorro text files) as read-only datasets.

The web request only checks what it can without reading pairs, keeps the files on disk and
queues a job (`dataset_import_start`). The job (`dataset_import_run`) streams each file through
the engine's readers (`formats`), which report every line they could not take (file,
line, field; skipped or kept), and writes the pairs in short chunks: one `DatasetParadigm` per UID
(no template version: nothing generated them) with their `Pair` rows; the dataset records its
origin, format, files and the whole report. No usable pair, or too many: the job fails in words,
nothing stays but the report. A file with some bad lines gives its good lines. Memory stays flat
whatever the size: pairs are never held all at once.
"""

import zipfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import IO, cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from formats.record import ImportedPair, ImportIssue, ReadResult
from formats.sources import FORMATS, is_zip, stream_pairs
from formats.zorro import ORDERS, Order
from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.core.stored_uploads import (
    StoredUpload,
    uploads_discard,
    uploads_discarded_on_failure,
    uploads_keep_or_refuse,
)
from mpp_studio.core.uploads import file_display_name, size_text
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.jobs.models import Job
from mpp_studio.jobs.services import (
    job_create,
    job_fail,
    job_finish,
    job_progress,
    job_start,
    progress_kib,
)

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


JOB_KIND = "dataset_import"
TOO_MANY_PAIRS = (
    "The files hold more than {limit:,} pairs, the most one import takes, so nothing was imported: "
    "split them into several imports."
)
NO_PAIRS = "No file gave a usable pair, so nothing was imported: the import report lists why."


def _length_problem(pair: ImportedPair) -> ImportIssue | None:
    """Return why a pair's UID or phenomenon does not fit the database, or None."""
    if len(pair.uid) > UID_LENGTH:
        return ImportIssue(pair.file, pair.line, f"longer than {UID_LENGTH} characters", field="UID")
    if len(pair.phenomenon) > PHENOMENON_LENGTH:
        return ImportIssue(
            pair.file, pair.line, f"longer than {PHENOMENON_LENGTH} characters", field="phenomenon"
        )
    return None


def _source_format(result: ReadResult) -> str:
    formats = {f.format for f in result.files if f.format and f.pairs}
    if len(formats) == 1:
        return formats.pop()
    return Dataset.SourceFormat.MIXED if formats else ""


def _check_request(*, name: str, files: Sequence[UploadedFile], source_format: str, zorro_order: str) -> None:
    """Refuse what can be told before reading: the fields, the number of files, their size.

    Raises:
        ValidationError: keyed by field (`name`, `files`, `source_format`, `zorro_order`).
    """
    errors: dict[str, list[str]] = {}
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
    sizes = [(upload.name, int(getattr(upload.stream, "size", 0) or 0)) for upload in files]
    too_large = import_size_problem(sizes) or unpacked_size_problem(files)
    if too_large is not None:
        raise ValidationError({"files": [too_large]})


def dataset_import_start(
    *,
    project: Project,
    name: str,
    files: Sequence[UploadedFile],
    source_format: str = "auto",
    zorro_order: str = "bad-first",
    description: str = "",
    created_by: RequestUser | None = None,
) -> Dataset:
    """Keep the uploaded files and queue the job that imports them as a new read-only dataset;
    return the dataset (its `job` shows the progress and, at the end, the outcome).

    Only what can be told without reading the pairs is checked here (fields, number and size of
    the files, what zips unpack to); the job reads each file line by line (`dataset_import_run`).

    Raises:
        ValidationError: keyed by field (`name`, `files`, `source_format`, `zorro_order`); `files`
            also for files over MPP_DATASET_IMPORT_MAX_BYTES (zipped or not), and for a disk
            that refuses to keep them.
    """
    from mpp_studio.datasets.tasks import import_files

    name = name.strip()
    _check_request(name=name, files=files, source_format=source_format, zorro_order=zorro_order)
    kept = uploads_keep_or_refuse(
        "dataset-imports", [(upload.name, upload.stream) for upload in files], field="files"
    )
    with uploads_discarded_on_failure(kept), transaction.atomic():
        job = job_create(
            project=project,
            kind=JOB_KIND,
            created_by=created_by,
            total=progress_kib(sum(upload.size for upload in kept)),
            unit=Job.ProgressUnit.KIB,
            message="Waiting for a worker to read the files.",
        )
        dataset = Dataset(
            project=project,
            name=name,
            description=description.strip(),
            seed=0,
            pairs_per_paradigm=0,
            origin=Dataset.Origin.IMPORTED,
            job=job,
            import_uploads=[upload.to_dict() for upload in kept],
            import_format=source_format,
            zorro_order=zorro_order,
            source_files=[
                {"file": upload.name, "format": "", "pairs": 0, "errors": 0, "warnings": 0} for upload in kept
            ],
            created_by=signed_in_or_none(created_by),
        )
        dataset.full_clean()
        dataset.save()
        import_files.delay_on_commit(dataset.pk)
    return dataset


@dataclass(slots=True)
class _ImportState:
    """What a run of the import job tracks while it reads: the pairs met per UID (their next
    index), each UID's paradigm row and phenomena, and the pairs waiting to be written."""

    next_index: dict[str, int] = field(default_factory=dict)
    paradigms: dict[str, DatasetParadigm] = field(default_factory=dict)
    phenomena: dict[str, list[str]] = field(default_factory=dict)
    pending: list[tuple[str, int, ImportedPair]] = field(default_factory=list)
    pairs: int = 0


def dataset_import_run(*, dataset_id: int) -> None:
    """Read an imported dataset's kept files and store their pairs (the `datasets.import_files`
    job); safe to run twice, and after a run that died part-way.

    Each file is read as the dataset's format, line by line; its pairs are written in chunks of
    WRITE_CHUNK, each chunk its own short transaction (other writers never wait long), grouped by
    UID into paradigms in the order met, each pair at its place among its UID's pairs, so a
    second run finds the same places and adds only what is missing. Every issue goes to the
    dataset's `import_report`. More than MAX_IMPORT_PAIRS pairs, or none usable: the job fails in
    words, the pairs written so far are removed and the report stays.
    """
    dataset = Dataset.objects.select_related("job").filter(pk=dataset_id).first()
    if dataset is None or dataset.job is None or dataset.job.finished:
        return
    job_id = dataset.job.pk
    if not job_start(job_id=job_id, message="Reading the files."):
        return
    uploads = [StoredUpload.from_dict(record) for record in dataset.import_uploads]
    result = ReadResult()
    state = _ImportState(paradigms={p.uid: p for p in dataset.paradigms.all()})
    read_before, total = 0, sum(upload.size for upload in uploads)
    for upload in uploads:
        with upload.open() as stream:
            fmt = dataset.import_format or "auto"
            order = cast(Order, dataset.zorro_order or "bad-first")  # checked against ORDERS when stored
            for pair in stream_pairs(upload.name, stream, fmt, order, result):
                problem = _length_problem(pair)
                if problem is not None:
                    result.issues.append(problem)
                    continue
                state.pairs += 1
                if state.pairs > MAX_IMPORT_PAIRS:
                    _import_fail(dataset, job_id, result, TOO_MANY_PAIRS.format(limit=MAX_IMPORT_PAIRS))
                    return
                _take(state, pair)
                if len(state.pending) >= WRITE_CHUNK:
                    _write(dataset, state)
                    read = read_before + stream.tell()
                    message = (
                        f"Read {size_text(read)} of {size_text(total)}; {state.pairs:,} pairs stored so far."
                    )
                    if not job_progress(job_id=job_id, done=progress_kib(read), message=message):
                        return  # cancelled or failed meanwhile
        read_before += upload.size
    if state.pairs == 0:
        _import_fail(dataset, job_id, result, NO_PAIRS)
        return
    _write(dataset, state)
    _import_finish(dataset, job_id, result, state)


def _take(state: _ImportState, pair: ImportedPair) -> None:
    index = state.next_index.get(pair.uid, 0)
    state.next_index[pair.uid] = index + 1
    seen = state.phenomena.setdefault(pair.uid, [])
    if pair.phenomenon not in seen and len(seen) < 10:
        seen.append(pair.phenomenon)
    state.pending.append((pair.uid, index, pair))


def _write(dataset: Dataset, state: _ImportState) -> None:
    """Write the pending pairs in one short transaction (their paradigms made as they are met)."""
    if not state.pending:
        return
    with transaction.atomic():
        rows = []
        for uid, index, pair in state.pending:
            paradigm = state.paradigms.get(uid)
            if paradigm is None:
                paradigm, _ = DatasetParadigm.objects.get_or_create(
                    dataset=dataset,
                    uid=uid,
                    defaults={
                        "template_version": None,
                        "phenomenon": pair.phenomenon,
                        "language": pair.language,
                        "requested": 0,
                        "produced": 0,
                        "status": DatasetParadigm.Status.PENDING,
                    },
                )
                state.paradigms[uid] = paradigm
            rows.append(
                Pair(
                    paradigm=paradigm,
                    index=index,
                    sentence_good=pair.sentence_good,
                    sentence_bad=pair.sentence_bad,
                    record=pair.record(),
                )
            )
        # A second run of the job meets the same (paradigm, index) places: those are skipped.
        Pair.objects.bulk_create(rows, ignore_conflicts=True)
        # Each paradigm's kept count follows the import (pages and lists count from it, never
        # over the pairs); the job's end sets the final counts.
        for uid in {uid for uid, _, _ in state.pending}:
            DatasetParadigm.objects.filter(pk=state.paradigms[uid].pk).update(produced=state.next_index[uid])
    state.pending.clear()


def _phenomenon_warnings(dataset: Dataset, state: _ImportState, result: ReadResult) -> None:
    for uid, phenomena in state.phenomena.items():
        if len(phenomena) > 1:
            first = Pair.objects.filter(paradigm=state.paradigms[uid]).order_by("index").first()
            source = first.record.get("provenance", {}).get("source_file", "") if first else ""
            result.issues.append(
                ImportIssue(
                    str(source),
                    None,
                    f"the pairs of {uid} name several phenomena ({', '.join(repr(p) for p in phenomena)}); "
                    f"the paradigm is listed under the first, each pair keeps its own",
                    "warning",
                    "phenomenon",
                )
            )


def _import_finish(dataset: Dataset, job_id: int, result: ReadResult, state: _ImportState) -> None:
    _phenomenon_warnings(dataset, state, result)
    with transaction.atomic():
        for uid, paradigm in state.paradigms.items():
            count = state.next_index.get(uid, 0)
            DatasetParadigm.objects.filter(pk=paradigm.pk).update(
                requested=count, produced=count, status=DatasetParadigm.Status.DONE
            )
        Dataset.objects.filter(pk=dataset.pk).update(
            source_format=_source_format(result),
            zorro_order=dataset.zorro_order if any(f.format == "zorro" for f in result.files) else "",
            source_files=[asdict(f) for f in result.files],
            import_report=[issue.to_dict() for issue in result.issues],
            import_uploads=[],
        )
        job_finish(job_id=job_id, message=import_outcome_text(dataset, result, state.pairs))
    uploads_discard(StoredUpload.from_dict(record) for record in dataset.import_uploads)


def _import_fail(dataset: Dataset, job_id: int, result: ReadResult, message: str) -> None:
    """Fail the job in words, remove what was written, keep the report; the kept files go."""
    from mpp_studio.datasets.services.datasets import pairs_delete

    pairs_delete(paradigm_ids=list(dataset.paradigms.values_list("pk", flat=True)))
    with transaction.atomic():
        DatasetParadigm.objects.filter(dataset=dataset).delete()
        Dataset.objects.filter(pk=dataset.pk).update(
            source_files=[asdict(f) for f in result.files],
            import_report=[issue.to_dict() for issue in result.issues],
            import_uploads=[],
            zorro_order=dataset.zorro_order if any(f.format == "zorro" for f in result.files) else "",
        )
        job_fail(job_id=job_id, message=message)
    uploads_discard(StoredUpload.from_dict(record) for record in dataset.import_uploads)


def import_outcome_text(dataset: Dataset, result: ReadResult, pairs: int) -> str:
    """Return a sentence saying what an import stored and what it skipped or noted."""
    paradigms, files = DatasetParadigm.objects.filter(dataset=dataset).count(), len(result.files)
    text = (
        f"Imported “{dataset.name}”: {pairs:,} pairs in {paradigms} paradigm"
        f"{'s' if paradigms != 1 else ''} from {files} file{'s' if files != 1 else ''}."
    )
    errors, warnings = len(result.errors), len(result.warnings)
    if errors or warnings:
        text += (
            f" {errors:,} item{'s' if errors != 1 else ''} could not be imported and {warnings:,} "
            f"came with a note: the import report lists each one."
        )
    return text
