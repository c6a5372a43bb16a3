"""An import report as the pages show it: one row per issue, and the outcome in a sentence."""

from dataclasses import dataclass

from generator.formats.record import ReadResult
from mpp_studio.datasets.models import Dataset


@dataclass(frozen=True, slots=True)
class ReportRow:
    """One issue of an import: where, whether the item was skipped or kept, and why."""

    file: str
    line: int | None
    field: str
    skipped: bool
    message: str


def report_rows(report: list[object]) -> list[ReportRow]:
    """Return the stored issues (dicts) as rows, errors (skipped items) first, each in file order."""
    rows = []
    for issue in report:
        if not isinstance(issue, dict):
            continue
        line = issue.get("line")
        rows.append(
            ReportRow(
                file=str(issue.get("file", "")),
                line=line if isinstance(line, int) else None,
                field=str(issue.get("field", "") or ""),
                skipped=issue.get("severity") == "error",
                message=str(issue.get("message", "")),
            )
        )
    return sorted(rows, key=lambda r: not r.skipped)


def import_outcome_text(dataset: Dataset, result: ReadResult) -> str:
    """Return a sentence saying what an import stored and what it skipped or noted."""
    counts = list(dataset.paradigms.values_list("produced", flat=True))
    paradigms, files = len(counts), len(result.files)
    text = (
        f"Imported “{dataset.name}”: {sum(counts):,} pairs in {paradigms} paradigm"
        f"{'s' if paradigms != 1 else ''} from {files} file{'s' if files != 1 else ''}."
    )
    errors, warnings = len(result.errors), len(result.warnings)
    if errors or warnings:
        text += (
            f" {errors:,} item{'s' if errors != 1 else ''} could not be imported and {warnings:,} "
            f"came with a note: the import report below lists each one."
        )
    return text
