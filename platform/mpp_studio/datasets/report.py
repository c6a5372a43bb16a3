"""An import report as the pages show it: one row per issue."""

from dataclasses import dataclass


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
