"""Uploads kept on disk for the background job that reads them.

A long import never runs in the web request: the request copies the uploaded files here (in
chunks, never whole in memory), records them on the row the job works on, and queues the job.
The worker opens them by the recorded path; the job removes its folder when it has finished with
them. The folder is `MPP_UPLOAD_DIR` (var/uploads; in the images a volume the web server and the
CPU workers share).

Every import that starts a job does the same two steps: keep the files or refuse the request in
words (`uploads_keep_or_refuse`), then record them on a new row in a block that removes them
again if the row is never saved (`uploads_discarded_on_failure`).
"""

import shutil
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.exceptions import ValidationError

from mpp_studio.core.uploads import file_display_name

COPY_CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class StoredUpload:
    """One kept file: the name the user gave it, where it lies (relative to MPP_UPLOAD_DIR) and
    its size in bytes."""

    name: str
    path: str
    size: int

    def to_dict(self) -> dict[str, object]:
        """Return the record a row keeps (JSON)."""
        return {"name": self.name, "path": self.path, "size": self.size}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "StoredUpload":
        """Return the upload a row's record names."""
        return cls(str(data["name"]), str(data["path"]), int(data["size"]))

    def open(self) -> IO[bytes]:
        """Return the kept file, open for reading bytes."""
        return (upload_root() / self.path).open("rb")


def upload_root() -> Path:
    """Return the folder uploads are kept in (created when missing)."""
    root = Path(getattr(settings, "MPP_UPLOAD_DIR", Path(settings.VAR_DIR) / "uploads"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def uploads_store(kind: str, files: Iterable[tuple[str, IO[bytes]]]) -> list[StoredUpload]:
    """Copy each (name, stream) into a new folder of its own under `kind`; return what was kept.

    Raises:
        OSError: when the disk refuses (full, not writable); nothing of this call is left behind.
    """
    folder = Path(kind) / uuid.uuid4().hex
    (upload_root() / folder).mkdir(parents=True)
    kept = []
    try:
        for number, (name, stream) in enumerate(files, start=1):
            display = file_display_name(name)
            # The number keeps two files of the same name apart; the name is kept only as a label.
            relative = folder / f"{number:03d}.upload"
            size = 0
            with (upload_root() / relative).open("wb") as out:
                while chunk := stream.read(COPY_CHUNK):
                    out.write(chunk)
                    size += len(chunk)
            kept.append(StoredUpload(display, relative.as_posix(), size))
    except OSError:
        uploads_discard(kept or [StoredUpload("", (folder / "x").as_posix(), 0)])
        raise
    return kept


def uploads_keep_or_refuse(
    kind: str,
    files: Iterable[tuple[str, IO[bytes]]],
    *,
    field: str,
    noun: str = "files",
    outcome: str = "imported",
) -> list[StoredUpload]:
    """Keep the uploads as `uploads_store` does; return what was kept.

    Args:
        kind: the folder under MPP_UPLOAD_DIR (one per kind of import).
        files: (name, stream) of each upload.
        field: the request's field the refusal is keyed by (`file`, `files`).
        noun, outcome: the refusal's words, "The server could not keep the <noun> (<why>);
            nothing was <outcome>."

    Raises:
        ValidationError: {field: [that sentence]} when the disk refuses (full, not writable);
            nothing of this call is left behind.
    """
    try:
        return uploads_store(kind, files)
    except OSError as exc:
        raise ValidationError(
            {field: [f"The server could not keep the {noun} ({exc.strerror or exc}); nothing was {outcome}."]}
        ) from exc


@contextmanager
def uploads_discarded_on_failure(kept: Sequence[StoredUpload]) -> Iterator[None]:
    """Run the block that records `kept` on a new row; if it raises, remove them and re-raise.

    A kept file always belongs to a saved row: a request whose row, job or queued message failed
    leaves no folder behind.
    """
    try:
        yield
    except BaseException:
        uploads_discard(kept)
        raise


def uploads_discard(uploads: Iterable[StoredUpload]) -> None:
    """Remove the folders of these kept uploads (a job that has finished with them)."""
    root = upload_root()
    for folder in {Path(upload.path).parent for upload in uploads}:
        if folder.parts and folder != Path("."):
            shutil.rmtree(root / folder, ignore_errors=True)
