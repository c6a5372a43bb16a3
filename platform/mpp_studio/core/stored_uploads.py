"""Uploads kept on disk for the background job that reads them.

A long import never runs in the web request: the request copies the uploaded files here (in
chunks, never whole in memory), records them on the row the job works on, and queues the job.
The worker opens them by the recorded path; the job removes its folder when it has finished with
them. The folder is `MPP_UPLOAD_DIR` (var/uploads; in the images a volume the web server and the
CPU workers share).
"""

import shutil
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from django.conf import settings

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
    def from_dict(cls, data: dict[str, object]) -> "StoredUpload":
        """Return the upload a row's record names."""
        return cls(str(data["name"]), str(data["path"]), int(data["size"]))  # type: ignore[call-overload]

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


def uploads_discard(uploads: Iterable[StoredUpload]) -> None:
    """Remove the folders of these kept uploads (a job that has finished with them)."""
    root = upload_root()
    for folder in {Path(upload.path).parent for upload in uploads}:
        if folder.parts and folder != Path("."):
            shutil.rmtree(root / folder, ignore_errors=True)
