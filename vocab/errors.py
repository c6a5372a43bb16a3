"""The errors of the vocabulary engine, each with a code and a location a linguist can act on."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vocab.counterbalance import BalanceResult

# Codes of the problems a vocabulary or schema file can have (stable: the web layer keys on them).
E_ENCODING = "E_ENCODING"  # bytes that are not UTF-8
E_EMPTY_FILE = "E_EMPTY_FILE"  # no header line
E_HEADER = "E_HEADER"  # unnamed or repeated header column
E_MISSING_COLUMN = "E_MISSING_COLUMN"  # a required or declared column is not in the header
E_UNDECLARED_COLUMN = "E_UNDECLARED_COLUMN"  # a header column the schema does not declare
E_CELL_COUNT = "E_CELL_COUNT"  # a row with more or fewer cells than the header
E_MISSING_FORM = "E_MISSING_FORM"  # a row with a blank form
E_VALUE = "E_VALUE"  # a value that does not fit its feature (type or declared values)
E_DUPLICATE_ID = "E_DUPLICATE_ID"  # two rows with the same id
E_SCHEMA = "E_SCHEMA"  # a malformed schema file or entry
E_WRITE = "E_WRITE"  # a value that cannot be written back to a file unchanged

# How many problems `str(VocabularyError)` spells out; all of them stay in `.errors`.
MAX_LISTED_PROBLEMS = 50


@dataclass(frozen=True, slots=True)
class RowError:
    """One problem in a vocabulary or schema file, located by file, line and column."""

    file: str
    line: int | None
    column: str | None
    message: str
    code: str = E_VALUE

    def __str__(self) -> str:
        where = [self.file]
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column '{self.column}'")
        return f"{', '.join(where)}: {self.message}"


class VocabularyError(Exception):
    """A vocabulary or schema that cannot be used; `errors` lists every problem found."""

    def __init__(self, errors: Iterable[RowError]) -> None:
        self.errors: tuple[RowError, ...] = tuple(errors)
        super().__init__(self._render())

    def _render(self) -> str:
        if not self.errors:
            return "the vocabulary has problems"
        shown = [str(error) for error in self.errors[:MAX_LISTED_PROBLEMS]]
        hidden = len(self.errors) - len(shown)
        if hidden:
            shown.append(f"... and {hidden} more problem{'s' if hidden != 1 else ''}")
        return "\n".join(shown)

    def __str__(self) -> str:
        return self._render()


class FrequencyError(ValueError):
    """Frequencies that cannot be computed: an unsupported language or an unreadable corpus."""


class BalanceError(ValueError):
    """A counterbalanced subset that cannot be found; `best` is the closest subset, if any."""

    def __init__(self, message: str, best: BalanceResult | None = None) -> None:
        super().__init__(message)
        self.best = best


class CoverageError(ValueError):
    """A tokenizer that cannot be loaded or used to count tokens."""
