"""ZhoBLiMP released data uploaded with a project: read it, and compare the import's rebuilt UIDs
with it (the engine's `generator.importers.zhoblimp_compare`), for the import job.

The job (`services.zhoblimp_import`) calls these inside its plan, before it writes anything;
what the reader could not take becomes report notes naming the file and line, never a refusal.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from generator.importers.zhoblimp import SourceFile
from generator.importers.zhoblimp import ZhoblimpImport as EngineImport
from generator.importers.zhoblimp_compare import (
    SentencePair,
    compare_import,
    comparison_units,
    read_released,
)
from vocab.import_report import ImportNote

RELEASED_SUFFIX = ".jsonl"  # ZhoBLiMP's released data: one JSONL file per UID
SEEDS = (1, 2)  # as `mpp import zhoblimp --compare`: two seeds tell a seed's luck from the template


def is_released_file(name: str) -> bool:
    """Return whether an uploaded file (or zip entry) of this name is released ZhoBLiMP data."""
    return name.lower().endswith(RELEASED_SUFFIX)


@dataclass(slots=True)
class ReleasedData:
    """The released pairs by UID, and a report note for each line the reader could not take."""

    pairs: dict[str, list[SentencePair]] = field(default_factory=dict)
    notes: list[ImportNote] = field(default_factory=list)


def released_read(files: Sequence[SourceFile]) -> ReleasedData:
    """Return the released pairs of ZhoBLiMP JSONL files, with a `skipped` note (file, line) for
    each line that cannot be read: those lines are left out of the comparison."""
    pairs, issues = read_released((file.name, file.data) for file in files)
    notes = []
    for issue in issues:
        where = ", ".join(
            part
            for part in (
                f"line {issue.line}" if issue.line is not None else "",
                f"field '{issue.field}'" if issue.field else "",
            )
            if part
        )
        notes.append(ImportNote(issue.file, where, f"released data not compared: {issue.message}", "skipped"))
    return ReleasedData(pairs, notes)


def released_compare_units(result: EngineImport, released: ReleasedData) -> int:
    """Return the job's units of work of the comparison: one per template rebuilt."""
    return comparison_units(result, released.pairs)


def released_compare(
    result: EngineImport, released: ReleasedData, progress: Callable[[str], None]
) -> dict[str, object]:
    """Return the comparison of the import's rebuilt UIDs with the released data, as plain data
    (`ComparisonReport.to_dict()`); `progress` is called with each template's uid before it is
    rebuilt, and an exception it raises stops the comparison.

    Raises:
        ValueError: the import has no vocabulary (the job refuses such an upload before this).
    """
    return compare_import(result, released.pairs, SEEDS, progress=progress).to_dict()
