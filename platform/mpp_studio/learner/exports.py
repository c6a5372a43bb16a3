"""Downloads of a run's triplets (BLiSS JSONL, CSV) and of its yield report, streamed."""

import csv
import io
import json
from collections.abc import Iterator

from django.db.models import QuerySet
from django.http import HttpResponse, StreamingHttpResponse

from mpp_studio.datasets.models import Pair
from mpp_studio.learner.models import TripletRun
from mpp_studio.learner.selectors import run_report
from vocab.csv_cells import safe_row

EXPORT_FORMATS = {"jsonl": "BLiSS JSONL", "csv": "CSV"}
READ_BATCH = 2_000
CSV_COLUMNS = (
    "UID",
    "sentence_id",
    "essay_id",
    "learnerID",
    "L1",
    "cefr",
    "topic",
    "corpus",
    "error_type",
    "corrected",
    "learner_error",
    "artificial_error",
    "learner_edit",
    "artificial_edit",
    "rule",
    "strict",
    "artificial_source",
    "learners_made",
    "learners_made_in_context",
    "learner_error_position",
    "artificial_error_position",
    "all_error_types",
    "source_file",
    "source_line",
)


def bliss_record(pair: Pair) -> dict[str, object]:
    """Return the triplet's record as the pipeline wrote it (the platform's `chunk` key left out)."""
    record = dict(pair.record) if isinstance(pair.record, dict) else {}
    record.pop("chunk", None)
    return record


def _records(pairs: QuerySet[Pair]) -> Iterator[dict[str, object]]:
    for pair in pairs.select_related(None).only("record", "index").iterator(chunk_size=READ_BATCH):
        yield bliss_record(pair)


def jsonl_lines(pairs: QuerySet[Pair]) -> Iterator[bytes]:
    """Yield one BLiSS JSON record a line."""
    for record in _records(pairs):
        yield (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def _edit(edit: object) -> str:
    if not isinstance(edit, dict):
        return ""
    return f"{edit.get('o_str', '')} -> {edit.get('c_str', '')}"


def _span(value: object) -> str:
    return f"{value[0]}:{value[1]}" if isinstance(value, list) and len(value) == 2 else ""


def _made(artificial: object, where: str) -> object:
    made = artificial.get("learners_made") if isinstance(artificial, dict) else None
    return made.get(where, "") if isinstance(made, dict) else ""


def csv_row(record: dict[str, object]) -> list[str]:
    """Return a record as the CSV's cells (edits as "before -> after", spans as start:end)."""
    edits = record.get("errant_edits")
    artificial = record.get("artificial_edit")
    source = record.get("source") if isinstance(record.get("source"), dict) else {}
    types = record.get("all_error_types")
    values: dict[str, object] = {
        **record,
        "learner_edit": _edit(edits[0]) if isinstance(edits, list) and edits else "",
        "artificial_edit": _edit(artificial),
        "rule": artificial.get("rule", "") if isinstance(artificial, dict) else "",
        "strict": artificial.get("strict", "") if isinstance(artificial, dict) else "",
        "artificial_source": artificial.get("source", "") if isinstance(artificial, dict) else "",
        "learners_made": _made(artificial, "anywhere"),
        "learners_made_in_context": _made(artificial, "in_context"),
        "learner_error_position": _span(record.get("learner_error_position")),
        "artificial_error_position": _span(record.get("artificial_error_position")),
        "all_error_types": " ".join(str(t) for t in types) if isinstance(types, list) else "",
        "source_file": source.get("file", "") if isinstance(source, dict) else "",
        "source_line": source.get("line", "") if isinstance(source, dict) else "",
    }
    return ["" if values.get(column) is None else str(values.get(column, "")) for column in CSV_COLUMNS]


def csv_lines(pairs: QuerySet[Pair]) -> Iterator[bytes]:
    """Yield the CSV's header, then one row per triplet."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def flush() -> bytes:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text.encode("utf-8")

    writer.writerow(CSV_COLUMNS)
    yield flush()
    for record in _records(pairs):
        writer.writerow(safe_row(csv_row(record)))
        yield flush()


def _file_stem(run: TripletRun) -> str:
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in run.corpus.name).strip("-") or "corpus"
    return f"{name}-triplets-run{run.pk}"


def export_response(run: TripletRun, pairs: QuerySet[Pair], fmt: str) -> StreamingHttpResponse:
    """Return the streamed download of the triplets in `fmt` ("jsonl" or "csv")."""
    if fmt == "jsonl":
        response = StreamingHttpResponse(jsonl_lines(pairs), content_type="application/jsonl; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{_file_stem(run)}.jsonl"'
        return response
    if fmt == "csv":
        response = StreamingHttpResponse(csv_lines(pairs), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{_file_stem(run)}.csv"'
        return response
    raise ValueError(f"unknown export format {fmt!r}")


def report_response(run: TripletRun) -> HttpResponse:
    """Return the run's yield report (with its settings) as a JSON download."""
    data = {
        "corpus": run.corpus.name,
        "run": run.pk,
        "settings": {"seed": run.seed, "strict": run.strict, "max_tries": run.max_tries},
        "finished": bool(run.report),
        "report": run_report(run).to_dict(),
        "rows": run_report(run).rows(),
    }
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{_file_stem(run)}-report.json"'
    return response
