"""A stored triplet as the pages show it: its three sentences cut into segments, the learner's
error and the artificial error marked.

The record gives both errors as corrected-side token spans (spaCy tokens, which the record does
not store), so the marks come from comparing the sentences word by word instead: the words where
the learner sentence differs from the corrected one are the learner's error, those where the
artificial sentence differs are the artificial one. Text is escaped by the template.
"""

import difflib
import re
from dataclasses import dataclass

from mpp_studio.datasets.models import Pair

_WORDS = re.compile(r"\S+|\s+")


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of a sentence; `mark` is "" (unchanged), "learner" or "artificial"."""

    text: str
    mark: str = ""


@dataclass(frozen=True, slots=True)
class TripletView:
    pair: Pair
    record: dict[str, object]
    corrected: list[Segment]
    learner: list[Segment]
    artificial: list[Segment]
    error_type: str
    rule: str
    strict: bool
    origin: str  # where the artificial error comes from, in words
    learner_edit: str  # "o_str → c_str" of the learner's error
    artificial_edit: str


def _spans(source: list[str], target: list[str]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Return the differing word index ranges of `source` and of `target` (whitespace ignored)."""
    a = [w for w in source if not w.isspace()]
    b = [w for w in target if not w.isspace()]
    in_a, in_b = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            in_a.append((i1, i2))
            in_b.append((j1, j2))
    return in_a, in_b


def _segments(
    pieces: list[str], spans: list[tuple[int, int]], mark: str, base: list[str] | None = None
) -> list[str]:
    """Return each piece's mark: `mark` for words inside a span (over non-space words)."""
    marks = list(base) if base is not None else [""] * len(pieces)
    word = 0
    for i, piece in enumerate(pieces):
        if piece.isspace():
            continue
        if any(start <= word < end for start, end in spans):
            marks[i] = marks[i] or mark
        word += 1
    return marks


def _join(pieces: list[str], marks: list[str]) -> list[Segment]:
    out: list[Segment] = []
    for piece, mark in zip(pieces, marks, strict=True):
        if out and out[-1].mark == mark:
            out[-1] = Segment(out[-1].text + piece, mark)
        else:
            out.append(Segment(piece, mark))
    return out


def _edit_text(edit: object) -> str:
    if not isinstance(edit, dict):
        return ""
    before, after = str(edit.get("o_str", "")), str(edit.get("c_str", ""))
    return f"{before or '∅'} → {after or '∅'}"


def origin_text(artificial_edit: object) -> str:
    """Return where a triplet's artificial error comes from, in words: "learnt from the corpus
    (its learners made it 12 times, 3 in this context)", "a rule (learners made it 5 times)" or
    "a rule" (triplets made before the corpus was learnt from say nothing)."""
    if not isinstance(artificial_edit, dict) or "source" not in artificial_edit:
        return ""
    made = artificial_edit.get("learners_made")
    anywhere = int(made.get("anywhere", 0)) if isinstance(made, dict) else 0
    in_context = int(made.get("in_context", 0)) if isinstance(made, dict) else 0
    times = f"{anywhere} time{'s' if anywhere != 1 else ''}"
    if in_context:
        times += f", {in_context} in this context"
    if artificial_edit.get("source") == "corpus":
        return f"learnt from the corpus (its learners made it {times})"
    if anywhere:
        return f"a rule (the corpus' learners made it {times})"
    return "a rule"


def triplet_view(pair: Pair) -> TripletView:
    """Return the triplet with both errors marked in the sentences they are in, and both
    positions marked in the corrected sentence."""
    record = pair.record if isinstance(pair.record, dict) else {}
    corrected = str(record.get("corrected", pair.sentence_good))
    learner = str(record.get("learner_error", pair.sentence_bad))
    artificial = str(record.get("artificial_error", ""))
    c_words, l_words, a_words = (_WORDS.findall(t) for t in (corrected, learner, artificial))
    c_learner, l_spans = _spans(c_words, l_words)
    c_artificial, a_spans = _spans(c_words, a_words)
    c_marks = _segments(c_words, c_learner, "learner")
    c_marks = _segments(c_words, c_artificial, "artificial", c_marks)
    artificial_edit = record.get("artificial_edit")
    edits = record.get("errant_edits")
    return TripletView(
        pair=pair,
        record=record,
        corrected=_join(c_words, c_marks),
        learner=_join(l_words, _segments(l_words, l_spans, "learner")),
        artificial=_join(a_words, _segments(a_words, a_spans, "artificial")),
        error_type=str(record.get("error_type", pair.paradigm.uid if pair.paradigm_id else "")),
        rule=str(artificial_edit.get("rule", "")) if isinstance(artificial_edit, dict) else "",
        strict=bool(artificial_edit.get("strict", False)) if isinstance(artificial_edit, dict) else False,
        origin=origin_text(artificial_edit),
        learner_edit=_edit_text(edits[0]) if isinstance(edits, list) and edits else "",
        artificial_edit=_edit_text(artificial_edit),
    )
