"""What every upload path shares: size words, file fields that name an empty file, and the
messages for requests over Django's own limits (text fields, fields, files) or the project's cap
on a whole request (MPP_UPLOAD_MAX_REQUEST_BYTES).

The per-kind file limits stay with the apps that read the files; this module only words them.
"""

from pathlib import PurePath

from django import forms
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent, ValidationError
from django.core.files import File
from rest_framework import serializers

# Django's defaults, used where a setting is absent.
DEFAULT_MAX_MEMORY_SIZE = 2_621_440
DEFAULT_MAX_FIELDS = 1000
DEFAULT_MAX_FILES = 100


def size_text(n: int) -> str:
    """Return a size in words: "12.5 MB", "20.1 KB" or "900 bytes" (binary units)."""
    if n >= 1024 * 1024:
        return f"{n / 1024 / 1024:.1f} MB"
    if n >= 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n:,} bytes"


def mib_text(n: int) -> str:
    """Return a limit in MiB: "10 MiB", or "0.25 MiB" for one that is not a whole number of MiB."""
    mib = n / 1024 / 1024
    return f"{int(mib)} MiB" if mib == int(mib) else f"{mib:.2f} MiB"


def file_display_name(name: str | None) -> str:
    """Return a file's own name, without any folder a browser may send."""
    return PurePath((name or "").replace("\\", "/")).name or "the file"


def empty_file_message(name: str | None) -> str:
    """Return the message for an uploaded file with no bytes."""
    return f"{file_display_name(name)} is empty (0 bytes); choose the file with its content."


def max_request_bytes() -> int:
    """Return the largest request body the server reads (setting MPP_UPLOAD_MAX_REQUEST_BYTES; 0: no cap)."""
    return int(getattr(settings, "MPP_UPLOAD_MAX_REQUEST_BYTES", 0) or 0)


def request_too_large_message(length: int, limit: int) -> str:
    """Return why a request of `length` bytes is refused before it is read."""
    return (
        f"The upload is {size_text(length)}; the server takes at most {size_text(limit)} in one request "
        "(all files together). Nothing was saved. Upload fewer or smaller files at a time."
    )


def request_limit_problem(exc: BaseException) -> tuple[int, str] | None:
    """Return (status, message) for a request over one of Django's limits, or None for other errors."""
    if isinstance(exc, RequestDataTooBig):
        limit = getattr(settings, "DATA_UPLOAD_MAX_MEMORY_SIZE", DEFAULT_MAX_MEMORY_SIZE) or 0
        return 413, (
            f"The request's text (its form fields or JSON body, files not counted) is larger than "
            f"{size_text(limit)}, the most the server reads. Nothing was saved. Shorten the text, or "
            "send long content as a file upload."
        )
    if isinstance(exc, TooManyFieldsSent):
        limit = getattr(settings, "DATA_UPLOAD_MAX_NUMBER_FIELDS", DEFAULT_MAX_FIELDS) or 0
        return (
            400,
            f"The request sends more than {limit:,} fields, the most the server reads. Nothing was saved.",
        )
    if isinstance(exc, TooManyFilesSent):
        limit = getattr(settings, "DATA_UPLOAD_MAX_NUMBER_FILES", DEFAULT_MAX_FILES) or 0
        return 400, (
            f"The request holds more than {limit:,} files, the most one upload takes. Nothing was saved. "
            "Upload them in several goes, or put them in a .zip where the page takes one."
        )
    return None


class NamedFileField(forms.FileField):
    """A form file field whose "empty file" error names the file."""

    def to_python(self, data: File | None) -> File | None:
        if data is not None and getattr(data, "name", None) and getattr(data, "size", None) == 0:
            raise ValidationError(empty_file_message(data.name), code="empty")
        return super().to_python(data)


class NamedUploadField(serializers.FileField):
    """An API file field whose "empty file" error names the file."""

    def to_internal_value(self, data: File) -> File:
        if getattr(data, "name", None) and getattr(data, "size", None) == 0:
            raise serializers.ValidationError(empty_file_message(data.name))
        return super().to_internal_value(data)
