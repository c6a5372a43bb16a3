"""Reading the records of a CSV or TSV text with the lines each spans, stopping at the first
record the csv module rejects (a stray double quote), so that every reader of tables in this
package names the same lines in its errors."""

import csv
import io
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CsvRecord:
    """One record: its cells as written, the line it starts on and the line it ends on (a quoted
    cell may span lines)."""

    line: int
    end_line: int
    cells: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CsvProblem:
    """The record the csv module could not read: the line it starts on, and why."""

    line: int
    reason: str


def csv_records(text: str, delimiter: str = ",") -> tuple[list[CsvRecord], CsvProblem | None]:
    """Return the records of `text` up to the first unreadable one, and that one's problem
    (None when every record was read)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    records: list[CsvRecord] = []
    start = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return records, None
        except csv.Error as exc:
            return records, CsvProblem(start, str(exc))
        records.append(CsvRecord(start, reader.line_num, tuple(cells)))
        start = reader.line_num + 1
