"""The records learner-corpus readers produce: an M2 edit, a learner sentence pair, a metadata
row, and the result of a read (the pairs or rows, and every issue met, as
`formats.record.ImportIssue`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from formats.record import ImportIssue

NOOP = "noop"  # an M2 annotator who made no change: `A -1 -1|||noop|||-NONE-|||...`


@dataclass(frozen=True, slots=True)
class M2Edit:
    """One edit of an M2 `A` line: original tokens [start, end) become `correction` (space-separated
    tokens, "" for a deletion)."""

    start: int
    end: int
    type: str
    correction: str
    annotator: int

    @property
    def is_noop(self) -> bool:
        return self.start == -1 and self.end == -1


@dataclass(frozen=True, slots=True)
class LearnerPair:
    """A learner sentence and its correction, with where it was read and the learner's metadata.

    For M2 input `learner` is the tokenised `S` line (edit offsets index `learner.split()`),
    `corrected` the chosen annotator's edits applied, `edits` those edits (noops left out);
    parallel text has `edits` None.
    """

    pair_id: str
    source_file: str
    line: int  # 1-based: the `S` line, or the table row's first line
    learner: str
    corrected: str | None
    edits: tuple[M2Edit, ...] | None = None
    learner_id: str = ""
    essay_id: str = ""
    l1: str = ""
    cefr: str = ""
    topic: str = ""
    corpus: str = ""
    extra: dict[str, str] = field(default_factory=dict)


# The metadata fields a LearnerPair carries, filled from a metadata table.
METADATA_FIELDS = ("learner_id", "essay_id", "l1", "cefr", "topic", "corpus")


@dataclass(frozen=True, slots=True)
class MetadataRow:
    """One row of a metadata table: its key (essay or sentence id) and the fields it gives."""

    key: str
    line: int
    values: dict[str, str]  # METADATA_FIELDS present in the table, non-empty cells only
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class ReadResult:
    """The pairs read from a file and every issue met (errors skipped an item, warnings kept it)."""

    pairs: list[LearnerPair] = field(default_factory=list)
    issues: list[ImportIssue] = field(default_factory=list)

    @property
    def errors(self) -> list[ImportIssue]:
        return [i for i in self.issues if i.skipped]


@dataclass(slots=True)
class MetadataResult:
    """A metadata table's rows by key, which column the key came from, and the issues met."""

    key_column: str
    rows: dict[str, MetadataRow] = field(default_factory=dict)
    issues: list[ImportIssue] = field(default_factory=list)
    source_file: str = ""
