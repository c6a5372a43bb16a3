"""The analysis downloads that the analysis page and the studies API both answer: each table of
the report as a CSV, streamed (responses in tidy long format, participants, items, paradigms,
phenomena, words; a rating study has no phenomena or words tables), or the whole report as
JSON."""

import csv
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from django.utils.text import slugify

from mpp_studio.studies.models import Study
from mpp_studio.studies.report import StudyReport
from mpp_studio.studies.report_exports import (
    ITEM_EXPORT_COLUMNS,
    RESPONSE_COLUMNS,
    item_rows,
    response_rows,
)
from mpp_studio.studies.report_ratings import (
    RATING_ITEM_COLUMNS,
    RATING_PARADIGM_COLUMNS,
    AnalysisReport,
    RatingReport,
    analysis_dict,
    rating_item_rows,
    rating_paradigm_rows,
)
from study.validation_study import GROUP_COLUMNS, PARTICIPANT_COLUMNS, WORD_COLUMNS, participant_rows
from vocab.csv_cells import safe_row

CSV_EXPORTS = ("responses", "participants", "items", "paradigms", "phenomena", "words")
DOWNLOADS = (*CSV_EXPORTS, "json")
RATING_CSV_EXPORTS = ("responses", "participants", "items", "paradigms")  # what a rating study has


class _Echo:
    """A file-like object whose write returns the line, for streaming csv.writer output."""

    def write(self, value: str) -> str:
        return value


def _csv_lines(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield "\ufeff" + writer.writerow(columns)  # a BOM so spreadsheet programs read UTF-8
    for row in rows:
        yield writer.writerow(safe_row(["" if row.get(c) is None else row.get(c) for c in columns]))


Exports = dict[str, tuple[Sequence[str], Callable[[], Iterable[Mapping[str, Any]]]]]


def _exports(report: StudyReport) -> Exports:
    analysis = report.analysis
    return {
        "responses": (RESPONSE_COLUMNS, lambda: response_rows(report)),
        "participants": (PARTICIPANT_COLUMNS, analysis.participant_rows),
        "items": (ITEM_EXPORT_COLUMNS, lambda: item_rows(report)),
        "paradigms": (GROUP_COLUMNS, analysis.paradigm_rows),
        "phenomena": (GROUP_COLUMNS, analysis.phenomenon_rows),
        "words": (WORD_COLUMNS, analysis.word_rows),
    }


def _rating_exports(report: RatingReport) -> Exports:
    exclusion = report.analysis.exclusion
    return {
        "responses": (RESPONSE_COLUMNS, lambda: response_rows(report)),
        "participants": (PARTICIPANT_COLUMNS, lambda: participant_rows(exclusion) if exclusion else []),
        "items": (RATING_ITEM_COLUMNS, lambda: rating_item_rows(report)),
        "paradigms": (RATING_PARADIGM_COLUMNS, lambda: rating_paradigm_rows(report)),
    }


def analysis_download(
    study: Study, report: AnalysisReport, what: str
) -> HttpResponse | StreamingHttpResponse | None:
    """Return the download `what` (one of DOWNLOADS) of the study's report, as an attachment
    named after the study (None when the report has no such table: a rating study has no
    phenomena or words). Participants are keyed by `participant_key`, never a PID."""
    stem = f"{slugify(study.name) or 'study'}-{what}"
    if what == "json":
        response = HttpResponse(
            json.dumps(analysis_dict(report), ensure_ascii=False, indent=1),
            content_type="application/json; charset=utf-8",
        )
        response["Content-Disposition"] = f'attachment; filename="{stem}.json"'
        return response
    exports = _rating_exports(report) if isinstance(report, RatingReport) else _exports(report)
    if what not in exports:
        return None
    columns, rows = exports[what]
    participant_columns = tuple("participant_key" if c == "participant_id" else c for c in columns)
    renamed = (
        ({("participant_key" if k == "participant_id" else k): v for k, v in row.items()} for row in rows())
        if what == "participants"
        else rows()
    )
    streamed = StreamingHttpResponse(
        _csv_lines(participant_columns, renamed), content_type="text/csv; charset=utf-8"
    )
    streamed["Content-Disposition"] = f'attachment; filename="{stem}.csv"'
    return streamed
