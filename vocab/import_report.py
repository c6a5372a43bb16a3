"""One line of an importer's report: what could not be converted, or was converted with a change.

Importers of other benchmarks' files (BLiMP, ZhoBLiMP) never drop or alter anything silently:
each skipped row, dropped column, rewritten rule or unenforced option becomes a note that names
the file and the place in it (a line, a row and column, a rule cell and choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# skipped: the item was not imported; changed: imported, but not exactly as written;
# info: a fact about the import (counts, options not carried over) that needs no action.
NoteLevel = Literal["skipped", "changed", "info"]
NOTE_LEVELS: tuple[str, ...] = ("skipped", "changed", "info")


@dataclass(frozen=True, slots=True)
class ImportNote:
    """One reported item: the file, where in it (line, row, column, rule cell), level and message."""

    file: str
    where: str
    message: str
    level: NoteLevel = "changed"

    def __str__(self) -> str:
        place = f"{self.file}, {self.where}" if self.where else self.file
        return f"{place}: [{self.level}] {self.message}"

    def to_dict(self) -> dict[str, str]:
        """Return the note as plain data (for JSON answers and stored reports)."""
        return {"file": self.file, "where": self.where, "level": self.level, "message": self.message}


def count_levels(notes: list[ImportNote] | tuple[ImportNote, ...]) -> dict[str, int]:
    """Return how many notes there are of each level, every level present (0 if none)."""
    counts = dict.fromkeys(NOTE_LEVELS, 0)
    for note in notes:
        counts[note.level] += 1
    return counts
