"""What every reader and writer of released-dataset formats shares: an imported pair, an import
issue (file, line, field; skipped or kept), a read's result, and the record an imported pair
becomes.

Writers work on records, the dicts the engine writes for generated pairs
(`generator.generate.Generator.record`); an imported pair's record has the same leading keys
(`sentence_good`, `sentence_bad`, `UID`, `phenomenon`, `pairID`, `language`) and, as its
`provenance`, where it came from and the source's other fields as they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]
ERROR: Severity = "error"  # the item was skipped
WARNING: Severity = "warning"  # the item was kept, with a note

# The formats a released dataset can be read from, and the language each format's data is in.
FORMAT_LANGUAGES = {"blimp": "en", "zhoblimp": "zh", "zorro": "en"}
FORMAT_NAMES = {"blimp": "BLiMP JSONL", "zhoblimp": "ZhoBLiMP JSONL", "zorro": "Zorro text"}

# A file with more problems than this is summed up after the first ones (the rest counted).
MAX_ISSUES_PER_FILE = 200


@dataclass(frozen=True, slots=True)
class ImportIssue:
    """Something a reader could not take as it was: an error skipped the item, a warning kept it."""

    file: str
    line: int | None  # 1-based; None for the whole file
    message: str
    severity: Severity = ERROR
    field: str = ""

    @property
    def skipped(self) -> bool:
        return self.severity == ERROR

    def where(self) -> str:
        """Return "file, line N, field F" (the parts that apply)."""
        parts = [self.file]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.field:
            parts.append(f"field '{self.field}'")
        return ", ".join(parts)

    def __str__(self) -> str:
        text = f"{self.severity}: {self.where()}: {self.message}"
        return f"{text} (skipped)" if self.skipped else text

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "field": self.field,
            "severity": self.severity,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class ImportedPair:
    """A minimal pair read from a released dataset, with where it was read."""

    uid: str
    phenomenon: str
    sentence_good: str
    sentence_bad: str
    pair_id: str  # as the source numbered it (BLiMP: "0".."999"; ZhoBLiMP, Zorro: the number as text)
    source_format: str
    file: str
    line: int  # 1-based; Zorro: the line of the pair's first sentence
    language: str = ""
    fields: Mapping[str, object] = field(default_factory=dict)  # the source's other fields, as read

    def record(self) -> dict[str, object]:
        """Return the pair as a record: the engine's leading keys and the import as provenance."""
        return {
            "sentence_good": self.sentence_good,
            "sentence_bad": self.sentence_bad,
            "UID": self.uid,
            "phenomenon": self.phenomenon,
            "pairID": self.pair_id,
            "language": self.language,
            "provenance": {
                "source_format": self.source_format,
                "source_file": self.file,
                "source_line": self.line,
                "fields": dict(self.fields),
            },
        }


@dataclass(frozen=True, slots=True)
class FileRead:
    """One file's outcome: its format and how many pairs it gave."""

    file: str
    format: str  # "" when the format could not be told
    pairs: int
    errors: int
    warnings: int


@dataclass(slots=True)
class ReadResult:
    """The pairs read from one or more files, every issue met, and each file's outcome."""

    pairs: list[ImportedPair] = field(default_factory=list)
    issues: list[ImportIssue] = field(default_factory=list)
    files: list[FileRead] = field(default_factory=list)

    @property
    def errors(self) -> list[ImportIssue]:
        return [i for i in self.issues if i.skipped]

    @property
    def warnings(self) -> list[ImportIssue]:
        return [i for i in self.issues if not i.skipped]

    def extend(self, other: ReadResult) -> None:
        """Add another read's pairs, issues and files to this one."""
        self.pairs.extend(other.pairs)
        self.issues.extend(other.issues)
        self.files.extend(other.files)


class IssueList:
    """Collects a file's issues, keeping the first MAX_ISSUES_PER_FILE and counting the rest."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.kept: list[ImportIssue] = []
        self.errors = 0
        self.warnings = 0
        self._dropped = {ERROR: 0, WARNING: 0}

    def add(self, line: int | None, message: str, *, severity: Severity = ERROR, field: str = "") -> None:
        if severity == ERROR:
            self.errors += 1
        else:
            self.warnings += 1
        if len(self.kept) < MAX_ISSUES_PER_FILE:
            self.kept.append(ImportIssue(self.file, line, message, severity, field))
        else:
            self._dropped[severity] += 1

    def error(self, line: int | None, message: str, *, field: str = "") -> None:
        self.add(line, message, severity=ERROR, field=field)

    def warning(self, line: int | None, message: str, *, field: str = "") -> None:
        self.add(line, message, severity=WARNING, field=field)

    def result(self, pairs: list[ImportedPair], fmt: str) -> ReadResult:
        """Return the file's ReadResult, with a closing note when issues were left out."""
        outcome = self.close(len(pairs), fmt)
        outcome.pairs = pairs
        return outcome

    def close(self, pair_count: int, fmt: str) -> ReadResult:
        """Return the file's issues and outcome (`pair_count` pairs read) without its pairs: what a
        streaming read reports once the file's last pair has been passed on."""
        issues = list(self.kept)
        dropped_errors, dropped_warnings = self._dropped[ERROR], self._dropped[WARNING]
        if dropped_errors or dropped_warnings:
            issues.append(
                ImportIssue(
                    self.file,
                    None,
                    f"{dropped_errors:,} more error(s) and {dropped_warnings:,} more warning(s) in this file "
                    f"are not listed (only the first {MAX_ISSUES_PER_FILE} are)",
                    ERROR if dropped_errors else WARNING,
                )
            )
        summary = FileRead(self.file, fmt, pair_count, self.errors, self.warnings)
        return ReadResult([], issues, [summary])


def record_pair_id(record: Mapping[str, object]) -> str:
    """Return a record's pairID as text ("" when it has none)."""
    value = record.get("pairID", record.get("pair_id", ""))
    return "" if value is None else str(value)


def record_text(record: Mapping[str, object], key: str) -> str:
    """Return a record's value for `key` as text ("" when missing or null)."""
    value = record.get(key)
    return "" if value is None else str(value)


def source_fields(record: Mapping[str, object]) -> Mapping[str, object]:
    """Return the source's own fields an imported record kept ({} for a generated record)."""
    provenance = record.get("provenance")
    if isinstance(provenance, Mapping):
        fields = provenance.get("fields")
        if isinstance(fields, Mapping):
            return fields
    return {}
