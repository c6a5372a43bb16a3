"""HTTP responses for dataset exports, shared by the pages and the API: streamed, never whole."""

import itertools
from collections.abc import Iterator

from django.http import FileResponse, HttpResponseBase, StreamingHttpResponse

from mpp_studio.datasets.exports import (
    blimp_jsonl_lines,
    csv_lines,
    hf_zip,
    jsonl_lines,
    zhoblimp_jsonl_lines,
)
from mpp_studio.datasets.exports.hf import export_folder_name
from mpp_studio.datasets.models import Dataset

EXPORT_LABELS = {
    "jsonl": "JSONL (BLiMP style)",
    "csv": "CSV",
    "csv-excel": "CSV for Excel (UTF-8 with a byte order mark)",
    "hf": "Hugging Face datasets (Parquet, zip)",
    "zhoblimp": "ZhoBLiMP JSONL",
    "blimp": "BLiMP JSONL (BLiMP's fields only)",
}


def exportable(dataset: Dataset) -> bool:
    """Return whether the dataset's generation has ended (done, failed or cancelled)."""
    return dataset.job is None or dataset.job.finished


def export_response(dataset: Dataset, fmt: str) -> HttpResponseBase:
    """Return the download of a dataset in `fmt` (a key of EXPORT_LABELS) as an attachment."""
    name = export_folder_name(dataset)
    if fmt == "jsonl":
        response: HttpResponseBase = StreamingHttpResponse(
            jsonl_lines(dataset), content_type="application/jsonl; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{name}.jsonl"'
        return response
    if fmt in ("zhoblimp", "blimp"):
        lines = zhoblimp_jsonl_lines(dataset) if fmt == "zhoblimp" else blimp_jsonl_lines(dataset)
        response = StreamingHttpResponse(lines, content_type="application/jsonl; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}-{fmt}.jsonl"'
        return response
    if fmt in ("csv", "csv-excel"):
        rows: Iterator[str] = csv_lines(dataset)
        if fmt == "csv-excel":
            # Excel reads a CSV as UTF-8 only after a byte order mark; without one, Chinese and
            # accented words come out garbled. Other tools want the file without it.
            rows = itertools.chain(["\ufeff"], rows)
        response = StreamingHttpResponse(
            (row.encode("utf-8") for row in rows), content_type="text/csv; charset=utf-8"
        )
        suffix = "-excel" if fmt == "csv-excel" else ""
        response["Content-Disposition"] = f'attachment; filename="{name}{suffix}.csv"'
        return response
    if fmt == "hf":
        return FileResponse(
            hf_zip(dataset), as_attachment=True, filename=f"{name}-hf.zip", content_type="application/zip"
        )
    raise ValueError(f"unknown export format {fmt!r}")
