"""Update a vocabulary from an edited file: read and compare it (a job), then apply it (a job).

A linguist grows a word list by exporting it, editing it in a spreadsheet and uploading it again.
`vocabulary_update_start` keeps the file and queues `vocabulary_update_read_run`, which reads it
with the engine against the vocabulary's schema (or a schema file sent with it) and stores what it
would add, change and remove (`vocab.changes`). Nothing changes until the user applies it:
`vocabulary_update_apply_start` queues `vocabulary_update_apply_run`, which keeps the vocabulary as
it was as a snapshot, then writes the changes in short transactions and records the new version.
Both jobs are safe to run twice: the apply compares the file with the vocabulary afresh each run,
so a second run writes only what the first did not.
"""

from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.core.stored_uploads import (
    StoredUpload,
    uploads_discard,
    uploads_discarded_on_failure,
    uploads_keep_or_refuse,
)
from mpp_studio.jobs.services import job_create, job_fail, job_finish, job_progress, job_start
from mpp_studio.lexicon.engine import schema_from_json, vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary, VocabularyItem, VocabularyUpdate
from mpp_studio.lexicon.services.import_jobs import kept_upload_bytes, problem_record, upload_sizes_check
from mpp_studio.lexicon.services.imports import (
    ImportRejected,
    upload_lexicon_read,
)
from mpp_studio.lexicon.services.vocabularies import (
    ITEM_BATCH_SIZE,
    ITEM_WRITE_CHUNK,
    vocabulary_snapshot_ensure,
)
from mpp_studio.lexicon.signals import vocabulary_changed_announce
from vocab.changes import VocabularyChanges, vocabulary_changes
from vocab.lexicon import LexicalItem
from vocab.lexicon import Vocabulary as Lexicon

READ_JOB_KIND = "vocabulary_update_read"
APPLY_JOB_KIND = "vocabulary_update_apply"
# Items of each kind (added, changed, removed) the preview lists; the counts are always whole.
PREVIEW_ITEMS = 200


def vocabulary_update_start(
    *,
    vocabulary: Vocabulary,
    table: File,
    schema_file: File | None = None,
    created_by: RequestUser | None = None,
) -> VocabularyUpdate:
    """Keep an edited table (and schema file) of a vocabulary and queue the job that reads it and
    says what it would change; return the update. Nothing of the vocabulary changes yet.

    Raises:
        ImportRejected: a file over MPP_VOCABULARY_UPLOAD_MAX_BYTES (field `file` or `schema_file`).
        ValidationError: {"file": ...} while another update of this vocabulary is being applied,
            or for a disk that refuses to keep the files.
    """
    from mpp_studio.lexicon.tasks import read_vocabulary_update

    upload_sizes_check(table, schema_file)
    _refuse_while_applying(vocabulary)
    files = [(table.name or "upload", table)] + (
        [(schema_file.name or "schema", schema_file)] if schema_file else []
    )
    kept = uploads_keep_or_refuse("vocabulary-updates", files, field="file", noun="file")
    with uploads_discarded_on_failure(kept), transaction.atomic():
        job = job_create(
            project=vocabulary.project,
            kind=READ_JOB_KIND,
            created_by=created_by,
            message="Waiting for a worker to read the file.",
        )
        update = VocabularyUpdate.objects.create(
            project=vocabulary.project,
            vocabulary=vocabulary,
            created_by=signed_in_or_none(created_by),
            file_name=kept[0].name,
            schema_file_name=kept[1].name if len(kept) > 1 else "",
            uploads=[upload.to_dict() for upload in kept],
            read_job=job,
        )
        read_vocabulary_update.delay_on_commit(update.pk)
    return update


def _refuse_while_applying(vocabulary: Vocabulary) -> None:
    applying = VocabularyUpdate.objects.filter(vocabulary=vocabulary, status=VocabularyUpdate.Status.APPLYING)
    if applying.exists():
        raise ValidationError(
            {
                "file": "Another file is being applied to this vocabulary: wait until it is done, "
                "then send this one."
            }
        )


def vocabulary_update_read_run(*, update_id: int) -> None:
    """Read an update's kept file and store what it would change (the read job); safe to run twice.

    A refused file fails the job in words and keeps every problem, by line, on the update.
    """
    update = VocabularyUpdate.objects.select_related("read_job", "vocabulary").filter(pk=update_id).first()
    if update is None or update.read_job is None or update.read_job.finished:
        return
    job_id = update.read_job.pk
    if not job_start(job_id=job_id, message=f"Reading {update.file_name}."):
        return
    _compare(update, job_id)


def _compare(update: VocabularyUpdate, job_id: int) -> None:
    """Read the update's file, compare it with its vocabulary as it is now and end the job: done,
    the update ready with what it would change; or failed, the update refused with every problem
    (its kept files go)."""
    vocabulary = update.vocabulary
    try:
        edited = _read(update, vocabulary)
    except ImportRejected as exc:
        # The code tells the page whether declaring a feature or value would cure the problem.
        problems = [{**problem_record(exc.field, error), "code": error.code} for error in exc.errors]
        count = len(problems)
        with transaction.atomic():
            VocabularyUpdate.objects.filter(pk=update.pk).update(
                status=VocabularyUpdate.Status.REFUSED, problems=problems, uploads=[]
            )
            job_fail(
                job_id=job_id,
                message=f"{update.file_name} was refused: {count} problem{'s' if count != 1 else ''}, each "
                "listed with its line. The vocabulary is unchanged.",
            )
        _discard_uploads(update)
        return
    current = vocabulary_to_engine(vocabulary)
    changes = vocabulary_changes(current, edited)
    with transaction.atomic():
        VocabularyUpdate.objects.filter(pk=update.pk).update(
            status=VocabularyUpdate.Status.READY,
            compared_version=current.version,
            summary=changes_summary(changes, edited.schema.multi_separator),
        )
        if update.apply_job_id == job_id:
            job_fail(
                job_id=job_id,
                message="The vocabulary was edited after the file was read, so nothing was changed. The page "
                "now shows what applying the file would do to the vocabulary as it is: look again, "
                "then apply.",
            )
        else:
            job_finish(job_id=job_id, message=f"Read {update.file_name}: {changes_sentence(changes)}")


def _read(update: VocabularyUpdate, vocabulary: Vocabulary) -> Lexicon:
    """Return the engine's reading of the update's kept files, against the vocabulary's schema
    unless a schema file came with the table.

    Raises:
        ImportRejected: every problem of the files.
    """
    uploads = [StoredUpload.from_dict(record) for record in update.uploads]
    table = kept_upload_bytes(uploads[0], "file")
    schema_file = kept_upload_bytes(uploads[1], "schema_file") if len(uploads) > 1 else None
    lexicon, _ = upload_lexicon_read(
        table=table,
        schema_file=schema_file,
        language=vocabulary.language,
        name=vocabulary.name,
        schema=schema_from_json(vocabulary.schema),
    )
    return lexicon


def changes_summary(changes: VocabularyChanges, separator: str) -> dict[str, object]:
    """Return what an update's page shows of the changes: the counts, the features added, removed
    or changed, and the first PREVIEW_ITEMS items of each kind (changed ones with their cells)."""

    def row(item: LexicalItem) -> dict[str, object]:
        return {
            "id": item.id,
            "form": item.form,
            "lemma": item.lemma,
            "pos": item.pos,
            "features": {name: separator.join(values) for name, values in sorted(item.features.items())},
        }

    return {
        "added": len(changes.added),
        "changed": len(changes.changed),
        "removed": len(changes.removed),
        "unchanged": changes.unchanged,
        "features": [[change.name, change.change] for change in changes.features],
        "added_items": [row(item) for item in changes.added[:PREVIEW_ITEMS]],
        "changed_items": [
            {
                "id": change.after.id,
                "form": change.after.form,
                "cells": [[cell.column, cell.before, cell.after] for cell in change.cells],
            }
            for change in changes.changed[:PREVIEW_ITEMS]
        ],
        "removed_items": [row(item) for item in changes.removed[:PREVIEW_ITEMS]],
    }


def changes_sentence(changes: VocabularyChanges) -> str:
    """Return what an update changes in words: counts of items added, changed and removed."""
    if changes.empty:
        return "it holds the vocabulary as it is; there is nothing to apply."
    parts = [
        f"{len(changes.added):,} item{'s' if len(changes.added) != 1 else ''} added",
        f"{len(changes.changed):,} changed",
        f"{len(changes.removed):,} removed",
    ]
    if changes.features:
        parts.append(
            f"{len(changes.features)} feature{'s' if len(changes.features) != 1 else ''} declared anew"
        )
    return ", ".join(parts) + ". Apply it, or discard it, on this page."


def vocabulary_update_apply_start(*, update: VocabularyUpdate, created_by: RequestUser | None = None) -> None:
    """Queue the job that applies a read update to its vocabulary.

    Raises:
        ValidationError: {"update": ...} if the update is not ready (still read, refused, applied,
            discarded, or it changes nothing) or another update of the vocabulary is being applied.
    """
    from mpp_studio.lexicon.tasks import apply_vocabulary_update

    with transaction.atomic():
        locked = VocabularyUpdate.objects.select_for_update().get(pk=update.pk)
        if locked.status != VocabularyUpdate.Status.READY:
            raise ValidationError(
                {"update": f"This update is {locked.get_status_display().lower()}: it cannot be applied."}
            )
        if not _changes_anything(locked.summary):
            raise ValidationError(
                {"update": "The file holds the vocabulary as it is: there is nothing to apply."}
            )
        _refuse_while_applying(locked.vocabulary)
        job = job_create(
            project=locked.project,
            kind=APPLY_JOB_KIND,
            created_by=created_by,
            message="Waiting for a worker to apply the file.",
        )
        VocabularyUpdate.objects.filter(pk=locked.pk).update(
            status=VocabularyUpdate.Status.APPLYING, apply_job=job
        )
        apply_vocabulary_update.delay_on_commit(locked.pk)


def _changes_anything(summary: dict[str, object]) -> bool:
    return any(summary.get(kind) for kind in ("added", "changed", "removed", "features"))


def vocabulary_update_discard(*, update: VocabularyUpdate) -> None:
    """Discard an update that was read and not applied (or refused); its kept files go.

    Raises:
        ValidationError: {"update": ...} if it is being applied or was applied.
    """
    with transaction.atomic():
        done = VocabularyUpdate.objects.filter(pk=update.pk).filter(
            Q(status=VocabularyUpdate.Status.READY) | Q(status=VocabularyUpdate.Status.REFUSED)
        )
        if not done.update(status=VocabularyUpdate.Status.DISCARDED, uploads=[]):
            raise ValidationError(
                {"update": "This update is being applied or was applied: it cannot be discarded."}
            )
    _discard_uploads(update)


def vocabulary_update_apply_run(*, update_id: int) -> None:
    """Apply an update (the apply job); safe to run twice, and after a run that died part-way.

    The first run keeps the vocabulary as it is as a snapshot, then the file's schema and items
    replace it: items removed, changed and added, ITEM_WRITE_CHUNK at a time, each chunk its own
    transaction. Each run compares the file with the vocabulary afresh, so a second run writes
    only what is left. A vocabulary changed since the preview is left alone and the job says so.
    """
    update = VocabularyUpdate.objects.select_related("apply_job", "vocabulary").filter(pk=update_id).first()
    if update is None or update.apply_job is None or update.apply_job.finished:
        return
    job_id = update.apply_job.pk
    if not job_start(job_id=job_id, message=f"Applying {update.file_name}."):
        return
    vocabulary = update.vocabulary
    current = vocabulary_to_engine(vocabulary)
    if update.before_id is None and current.version != update.compared_version:
        _compare(update, job_id)  # edited since the preview: preview again, change nothing
        return
    try:
        edited = _read(update, vocabulary)
    except ImportRejected:
        _compare(update, job_id)  # the features changed meanwhile: the update is refused, in words
        return
    if update.before_id is None:
        before = vocabulary_snapshot_ensure(vocabulary=vocabulary)
        VocabularyUpdate.objects.filter(pk=update.pk).update(before=before)
    changes = vocabulary_changes(current, edited)
    total = len(changes.removed) + len(changes.changed) + len(changes.added)

    def progress(done: int) -> bool:
        return job_progress(job_id=job_id, done=done, total=total, message=f"Applying {update.file_name}.")

    with transaction.atomic():
        Vocabulary.objects.filter(pk=vocabulary.pk).update(schema=edited.schema.to_dict())
    if not _write(vocabulary, changes, progress):
        # Cancelled part-way: applying again writes what is left; the snapshot keeps the earlier version.
        VocabularyUpdate.objects.filter(pk=update.pk).update(status=VocabularyUpdate.Status.READY)
        return
    vocabulary.refresh_from_db()
    after = vocabulary_snapshot_ensure(vocabulary=vocabulary)
    with transaction.atomic():
        VocabularyUpdate.objects.filter(pk=update.pk).update(
            status=VocabularyUpdate.Status.APPLIED, after=after, uploads=[]
        )
        Vocabulary.objects.filter(pk=vocabulary.pk).update(updated_at=timezone.now())
        vocabulary_changed_announce(vocabulary)
        job_finish(
            job_id=job_id,
            message=f"Applied {update.file_name}: {len(changes.added):,} added, "
            f"{len(changes.changed):,} changed, "
            f"{len(changes.removed):,} removed. The vocabulary as it was is kept as an earlier version.",
        )
    _discard_uploads(update)


def _write(vocabulary: Vocabulary, changes: VocabularyChanges, progress: Callable[[int], bool]) -> bool:
    """Write the changes ITEM_WRITE_CHUNK items at a time; return False if the job was cancelled."""
    done = 0
    removed = [item.id for item in changes.removed]
    for start in range(0, len(removed), ITEM_WRITE_CHUNK):
        chunk = removed[start : start + ITEM_WRITE_CHUNK]
        with transaction.atomic():
            VocabularyItem.objects.filter(vocabulary=vocabulary, item_id__in=chunk).delete()
        done += len(chunk)
        if not progress(done):
            return False
    changed = [change.after for change in changes.changed]
    for start in range(0, len(changed), ITEM_WRITE_CHUNK):
        chunk_items = changed[start : start + ITEM_WRITE_CHUNK]
        with transaction.atomic():
            rows = {
                row.item_id: row
                for row in VocabularyItem.objects.filter(
                    vocabulary=vocabulary, item_id__in=[item.id for item in chunk_items]
                )
            }
            for item in chunk_items:
                row = rows[item.id]
                row.form, row.lemma, row.pos = item.form, item.lemma, item.pos
                row.features = {name: list(values) for name, values in item.features.items()}
            VocabularyItem.objects.bulk_update(
                list(rows.values()), ["form", "lemma", "pos", "features"], batch_size=ITEM_BATCH_SIZE
            )
        done += len(chunk_items)
        if not progress(done):
            return False
    added = changes.added
    for start in range(0, len(added), ITEM_WRITE_CHUNK):
        chunk_added = added[start : start + ITEM_WRITE_CHUNK]
        with transaction.atomic():
            VocabularyItem.objects.bulk_create(
                [
                    VocabularyItem(
                        vocabulary=vocabulary,
                        item_id=item.id,
                        form=item.form,
                        lemma=item.lemma,
                        pos=item.pos,
                        features={name: list(values) for name, values in item.features.items()},
                    )
                    for item in chunk_added
                ],
                batch_size=ITEM_BATCH_SIZE,
                ignore_conflicts=True,
            )
        done += len(chunk_added)
        if not progress(done):
            return False
    return True


def vocabulary_update_give_up(*, update_id: int, reason: str) -> None:
    """Fail an update's running job whose task gave up (retries spent, a worker error), in words.
    A read that gave up leaves the vocabulary as it was; an apply that gave up part-way can be
    started again from the page (it writes only what is left) and its snapshot keeps the earlier
    version."""
    update = VocabularyUpdate.objects.select_related("read_job", "apply_job").filter(pk=update_id).first()
    if update is None:
        return
    for job, what in ((update.read_job, "read"), (update.apply_job, "apply")):
        if job is not None and not job.finished:
            job_fail(job_id=job.pk, message=f"The worker could not {what} {update.file_name} ({reason}).")
    if update.status == VocabularyUpdate.Status.APPLYING:
        VocabularyUpdate.objects.filter(pk=update.pk).update(status=VocabularyUpdate.Status.READY)


def _discard_uploads(update: VocabularyUpdate) -> None:
    uploads_discard(StoredUpload.from_dict(record) for record in update.uploads)
