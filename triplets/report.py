"""The yield report: how many pairs went in, what became of them, per ERRANT type, and why each
dropped pair or refused candidate was dropped. Reports of chunks merge into the report of the
whole corpus (every count is a sum), and round-trip through JSON for the platform."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

# Source-pair outcomes.
NO_CORRECTION = "no_correction"  # the corpus gives no corrected sentence (a test split)
# Single-edit pair outcomes (besides becoming a triplet).
ATOMIC_RECLASSIFIED = "atomic_reclassified"  # ERRANT reads the one-error sentence differently
NO_GENERATOR = "no_generator"  # no rule makes this type (OTHER, R:NOUN...)
NO_CANDIDATE = "no_candidate"  # the rules find no place for the error in this sentence
ONLY_LEARNER_POSITION = "only_learner_position"  # ...except where the learner's error is
ONLY_AT_OTHER_ERRORS = "only_at_other_errors"  # ...or where the learner's other errors are
NO_VALID_CANDIDATE = "no_valid_candidate"  # every candidate tried was refused
RULE_FAILED = "rule_failed"  # a rule raised on this sentence (logged; a bug to report)


# Each reason in plain words, for pages a linguist reads (the codes stay the JSON keys).
REASON_LABELS = {
    NO_CORRECTION: "no corrected sentence given",
    "no_edit": "already correct",
    "no_grammatical_edit": "only spelling, punctuation or capitals corrected",
    ATOMIC_RECLASSIFIED: "ERRANT reads the one-error sentence as another error",
    NO_GENERATOR: "no rule makes this error type",
    NO_CANDIDATE: "no place in the sentence for this error",
    ONLY_LEARNER_POSITION: "the only place is where the learner's error is",
    ONLY_AT_OTHER_ERRORS: "the only places are where the learner's other errors are",
    NO_VALID_CANDIDATE: "every artificial sentence tried was refused",
    RULE_FAILED: "a rule failed on this sentence (a bug: please report it)",
    "not_a_word": "a new word is not a real English word",
    "real_word_for_infl": "the made-up form is a real word",
    "same_as_corrected": "same as the corrected sentence",
    "same_as_learner": "same as the learner's sentence",
    "errant_not_one_edit": "ERRANT sees no edit or several",
    "errant_other_type": "ERRANT sees another error type",
    "errant_same_position": "ERRANT puts it where the learner's error is",
}


def reason_label(code: str) -> str:
    """Return the reason in plain words (the code itself for one this list does not know)."""
    return REASON_LABELS.get(code, code)


def _counter(data: object) -> Counter[str]:
    return Counter({str(k): int(v) for k, v in dict(data or {}).items()})  # type: ignore[call-overload]


def _nested(data: object) -> dict[str, Counter[str]]:
    return {str(k): _counter(v) for k, v in dict(data or {}).items()}  # type: ignore[call-overload]


# The pairs of each (type, reason) cell kept for reading (a page lists them): the first ones met
# as the run went (stage by stage, chunk by chunk: which ones may change with the chunk size, the
# counts never do), at most this many, so a report of a million pairs stays small.
EXAMPLES_PER_CELL = 50


def _examples(data: object) -> dict[str, dict[str, list[str]]]:
    return {
        str(t): {str(r): [str(i) for i in ids][:EXAMPLES_PER_CELL] for r, ids in dict(cells).items()}
        for t, cells in dict(data or {}).items()  # type: ignore[call-overload]
    }


@dataclass(slots=True)
class YieldReport:
    """Counts of one pipeline run (or the sum of several)."""

    pairs_in: int = 0
    pairs_dropped: Counter[str] = field(default_factory=Counter)  # reason -> source pairs
    filtered_edits: Counter[str] = field(default_factory=Counter)  # filtered type -> edits corrected
    single_edit_pairs: Counter[str] = field(default_factory=Counter)  # type -> single-edit pairs
    triplets: Counter[str] = field(default_factory=Counter)  # type -> triplets
    dropped: dict[str, Counter[str]] = field(default_factory=dict)  # type -> reason -> single-edit pairs
    refused: dict[str, Counter[str]] = field(default_factory=dict)  # type -> reason -> candidates
    rules: Counter[str] = field(default_factory=Counter)  # rule -> triplets
    # type -> reason -> the first pair ids dropped there (SOURCE_PAIRS: source pairs; single-edit
    # pairs are "<source id>#<n>"), at most EXAMPLES_PER_CELL a cell.
    examples: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    SOURCE_PAIRS: ClassVar[str] = ""  # the type key of source pairs dropped before they have a type

    def example(self, error_type: str, reason: str, pair_id: str) -> None:
        """Keep `pair_id` among the cell's examples while it has room."""
        kept = self.examples.setdefault(error_type, {}).setdefault(reason, [])
        if pair_id and len(kept) < EXAMPLES_PER_CELL:
            kept.append(pair_id)

    def drop(self, error_type: str, reason: str, pair_id: str = "") -> None:
        """Count a single-edit pair of `error_type` dropped for `reason` (kept as an example)."""
        self.dropped.setdefault(error_type, Counter())[reason] += 1
        if pair_id:
            self.example(error_type, reason, pair_id)

    def drop_pair(self, reason: str, pair_id: str) -> None:
        """Count a source pair dropped before it had a type (kept as an example)."""
        self.pairs_dropped[reason] += 1
        self.example(self.SOURCE_PAIRS, reason, pair_id)

    def examples_of(self, error_type: str, reason: str) -> list[str]:
        """Return the pair ids kept for a cell (SOURCE_PAIRS for the source pairs' reasons)."""
        return list(self.examples.get(error_type, {}).get(reason, []))

    def refuse(self, error_type: str, reason: str) -> None:
        self.refused.setdefault(error_type, Counter())[reason] += 1

    @property
    def total_single_edit_pairs(self) -> int:
        return sum(self.single_edit_pairs.values())

    @property
    def total_triplets(self) -> int:
        return sum(self.triplets.values())

    def merge(self, other: YieldReport) -> None:
        """Add another report's counts to this one."""
        self.pairs_in += other.pairs_in
        self.pairs_dropped.update(other.pairs_dropped)
        self.filtered_edits.update(other.filtered_edits)
        self.single_edit_pairs.update(other.single_edit_pairs)
        self.triplets.update(other.triplets)
        self.rules.update(other.rules)
        for mine, theirs in ((self.dropped, other.dropped), (self.refused, other.refused)):
            for key, counts in theirs.items():
                mine.setdefault(key, Counter()).update(counts)
        for error_type, cells in other.examples.items():
            for reason, ids in cells.items():
                for pair_id in ids:
                    self.example(error_type, reason, pair_id)

    def rows(self) -> list[dict[str, Any]]:
        """Return one row per error type (most single-edit pairs first): single-edit pairs,
        triplets, yield, and the drop and refusal counts by reason."""
        types = set(self.single_edit_pairs) | set(self.triplets)
        rows = []
        for error_type in sorted(types, key=lambda t: (-self.single_edit_pairs[t], t)):
            n = self.single_edit_pairs[error_type]
            made = self.triplets[error_type]
            rows.append(
                {
                    "type": error_type,
                    "single_edit_pairs": n,
                    "triplets": made,
                    "yield": made / n if n else 0.0,
                    "dropped": dict(self.dropped.get(error_type, Counter()).most_common()),
                    "refused": dict(self.refused.get(error_type, Counter()).most_common()),
                }
            )
        return rows

    def to_dict(self) -> dict[str, Any]:
        """Return the report as JSON-ready data (`from_dict` reads it back)."""
        return {
            "pairs_in": self.pairs_in,
            "pairs_dropped": dict(self.pairs_dropped),
            "filtered_edits": dict(self.filtered_edits),
            "single_edit_pairs": dict(self.single_edit_pairs),
            "triplets": dict(self.triplets),
            "dropped": {k: dict(v) for k, v in self.dropped.items()},
            "refused": {k: dict(v) for k, v in self.refused.items()},
            "rules": dict(self.rules),
            "examples": {t: {r: list(ids) for r, ids in cells.items()} for t, cells in self.examples.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> YieldReport:
        """Return the report `to_dict` wrote."""
        return cls(
            pairs_in=int(data.get("pairs_in", 0)),
            pairs_dropped=_counter(data.get("pairs_dropped")),
            filtered_edits=_counter(data.get("filtered_edits")),
            single_edit_pairs=_counter(data.get("single_edit_pairs")),
            triplets=_counter(data.get("triplets")),
            dropped=_nested(data.get("dropped")),
            refused=_nested(data.get("refused")),
            rules=_counter(data.get("rules")),
            examples=_examples(data.get("examples")),
        )

    def summary(self) -> str:
        """Return the report as plain text: totals, then one line per type."""
        lines = [
            f"pairs in: {self.pairs_in}",
            "pairs dropped: "
            + (", ".join(f"{k} {v}" for k, v in self.pairs_dropped.most_common()) or "none"),
            f"single-edit pairs: {self.total_single_edit_pairs}",
            f"triplets: {self.total_triplets}",
        ]
        if self.filtered_edits:
            lines.append(
                "filtered edits corrected: "
                + ", ".join(f"{k} {v}" for k, v in self.filtered_edits.most_common())
            )
        lines.append("")
        lines.append(f"{'type':<14} {'single':>7} {'triplets':>8} {'yield':>6}  dropped / refused candidates")
        for row in self.rows():
            reasons = [f"{k} {v}" for k, v in row["dropped"].items()]
            reasons += [f"refused:{k} {v}" for k, v in row["refused"].items()]
            lines.append(
                f"{row['type']:<14} {row['single_edit_pairs']:>7} {row['triplets']:>8} "
                f"{row['yield']:>6.0%}  {', '.join(reasons)}"
            )
        return "\n".join(lines)
