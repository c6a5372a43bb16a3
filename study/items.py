"""What a study shows: an item (a minimal pair or a learner triplet) with the paradigm and
phenomenon it tests and the template positions and words that made it, so a judgement can be
traced back to the generator."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from study.errors import StudyError

ItemKind = Literal["pair", "triplet"]

# The sentences of an item, in stored order. The first is always the acceptable one.
PAIR_ROLES: tuple[str, str] = ("good", "bad")
TRIPLET_ROLES: tuple[str, str, str] = ("corrected", "learner", "artificial")


def item_sort_key(item_id: str) -> tuple[tuple[int, int, str], ...]:
    """Return the key that sorts item ids as a reader counts: digits by their value, so "227"
    comes before "1022" and "catch-1-2" before "catch-1-10"."""
    return tuple(
        (1, int(part), "") if part.isdigit() else (0, 0, part) for part in re.split(r"(\d+)", item_id) if part
    )


@dataclass(frozen=True, slots=True)
class StudyItem:
    """One item of a study.

    `sentences` is (good, bad) for a pair and (corrected, learner, artificial) for a triplet.
    `words` is optional provenance: (template position, word or vocabulary entry id) for each
    slot filler, so disagreement can be traced to the word that caused it.
    """

    item_id: str
    paradigm: str
    phenomenon: str
    kind: ItemKind
    sentences: tuple[str, ...]
    words: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        name = f"Item {self.item_id!r}" if self.item_id else "An item"
        if not str(self.item_id).strip():
            raise StudyError(f"{name} has no item id.")
        if not str(self.paradigm).strip():
            raise StudyError(f"{name} has no paradigm.")
        if self.kind not in ("pair", "triplet"):
            raise StudyError(f"{name}: kind must be 'pair' or 'triplet', not {self.kind!r}.")
        expected = 2 if self.kind == "pair" else 3
        if len(self.sentences) != expected:
            roles = ", ".join(self.roles)
            raise StudyError(
                f"{name} is a {self.kind} and needs {expected} sentences ({roles}), "
                f"got {len(self.sentences)}."
            )
        for role, sentence in zip(self.roles, self.sentences, strict=True):
            if not isinstance(sentence, str) or not sentence.strip():
                raise StudyError(f"{name}: the {role} sentence is empty.")

    @property
    def roles(self) -> tuple[str, ...]:
        """Return each stored sentence's role: (good, bad) or (corrected, learner, artificial)."""
        return PAIR_ROLES if self.kind == "pair" else TRIPLET_ROLES

    @property
    def good(self) -> str:
        """Return the acceptable sentence (a pair's good one, a triplet's corrected one)."""
        return self.sentences[0]

    def to_dict(self) -> dict[str, Any]:
        """Return the item as JSON-ready data (`from_dict` reads it back)."""
        return {
            "item_id": self.item_id,
            "paradigm": self.paradigm,
            "phenomenon": self.phenomenon,
            "kind": self.kind,
            "sentences": list(self.sentences),
            "words": [[position, word] for position, word in self.words],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StudyItem:
        """Return the item `to_dict` wrote; a StudyError names a missing field."""
        try:
            return cls(
                item_id=str(data["item_id"]),
                paradigm=str(data["paradigm"]),
                phenomenon=str(data.get("phenomenon", "")),
                kind=data["kind"],
                sentences=tuple(str(s) for s in data["sentences"]),
                words=tuple((str(p), str(w)) for p, w in data.get("words") or ()),
            )
        except KeyError as missing:
            raise StudyError(f"A stored study item has no {missing.args[0]!r} field.") from None


def item_from_pair_record(record: Mapping[str, Any]) -> StudyItem:
    """Return the StudyItem of a generated (BLiMP-layout) pair record: `sentence_good`,
    `sentence_bad`, `UID` (the paradigm), `phenomenon`, `item_id` (else `pairID`), and the
    good sentence's slot fillers from `provenance.fillers.good` as its words."""
    item_id = record.get("item_id") or record.get("pairID")
    if item_id in (None, ""):
        raise StudyError("A pair record has neither 'item_id' nor 'pairID'.")
    fillers = (record.get("provenance") or {}).get("fillers") or {}
    words = tuple((str(p), str(w)) for p, w in sorted((fillers.get("good") or {}).items()))
    return StudyItem(
        item_id=str(item_id),
        paradigm=str(record.get("UID", "")),
        phenomenon=str(record.get("phenomenon", "")),
        kind="pair",
        sentences=(str(record.get("sentence_good", "")), str(record.get("sentence_bad", ""))),
        words=words,
    )


def item_from_triplet_record(record: Mapping[str, Any]) -> StudyItem:
    """Return the StudyItem of a learner triplet record (BLiSS layout, `Triplet.record()`):
    `UID`, `corrected`, `learner_error`, `artificial_error`; the ERRANT `error_type` is both the
    paradigm and the phenomenon."""
    error_type = str(record.get("error_type", ""))
    return StudyItem(
        item_id=str(record.get("UID", "")),
        paradigm=error_type,
        phenomenon=error_type,
        kind="triplet",
        sentences=(
            str(record.get("corrected", "")),
            str(record.get("learner_error", "")),
            str(record.get("artificial_error", "")),
        ),
    )
