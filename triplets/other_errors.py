"""The learner's other errors in a sentence, read from the pairs that share the sentence.

A table of single edits (the BLiSS toolkit's Write & Improve files have one row per edit) gives
one learner sentence several rows, each corrected at one place with the learner's other errors
left in. An artificial error placed at or next to another row's correction sits where this
learner really erred: a naturalistic locus, which BLiSS's position divergence is meant to avoid,
and it can even repair the error left in ("got used to put" -> "got used to putting"). The
pipeline keeps its artificial edits off those tokens (`at_other_errors`). Their neighbours stay
open: on the W&I dev pairs the artificial errors next to another error read as errors still, and
closing them too would cost 43 triplets more.

Only plain-text pairs count: an M2 sentence is one pair with all its edits, corrected in full.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from triplets.corpus import LearnerPair

if TYPE_CHECKING:
    from spacy.tokens import Doc

# A learner sentence -> the distinct corrections given for it (only sentences with two or more).
SentenceCorrections = Mapping[str, tuple[str, ...]]

_WORD = re.compile(r"\w+|[^\w\s]")


def sentence_key(learner: str) -> str:
    """Return the key a store finds a learner sentence's rows by (a hex digest of its text)."""
    return hashlib.sha1(learner.encode("utf-8"), usedforsecurity=False).hexdigest()


def corrections_by_sentence(pairs: Iterable[LearnerPair]) -> dict[str, tuple[str, ...]]:
    """Return each plain-text learner sentence that has two or more distinct corrections among
    `pairs`, with those corrections in the order met."""
    return group_corrections((p.learner, p.corrected) for p in pairs if p.edits is None)


def group_corrections(rows: Iterable[tuple[str, str | None]]) -> dict[str, tuple[str, ...]]:
    """Return each learner sentence of the plain-text (learner, corrected) rows that has two or
    more distinct corrections, with those corrections in the order met (a row without a
    correction, or with the learner sentence itself, counts for nothing)."""
    found: dict[str, dict[str, None]] = defaultdict(dict)
    for learner, corrected in rows:
        if corrected is not None and corrected != learner:
            found[learner][corrected] = None
    return {learner: tuple(c) for learner, c in found.items() if len(c) > 1}


def _words(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _WORD.finditer(text)]


def _texts(text: str, spans: Sequence[tuple[int, int]]) -> list[str]:
    return [text[s:e] for s, e in spans]


def other_error_ranges(learner: str, corrected: str, others: Iterable[str]) -> list[tuple[int, int]]:
    """Return where the other corrections `others` of `learner` change it, as character ranges
    of `corrected` (the learner sentence with this pair's own correction): the words changed or
    deleted, or for an insertion the words on either side of it. A change that falls inside
    this pair's own correction is left out: the pipeline keeps away from that place anyway."""
    learner_words = _words(learner)
    learner_texts = _texts(learner, learner_words)
    corrected_words = _words(corrected)
    # learner word index -> corrected word index, for the words this pair's correction keeps
    to_corrected: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(a=learner_texts, b=_texts(corrected, corrected_words), autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            to_corrected[a + k] = b + k
    ranges: list[tuple[int, int]] = []
    for other in others:
        if other == corrected:
            continue
        other_texts = _texts(other, _words(other))
        diff = difflib.SequenceMatcher(a=learner_texts, b=other_texts, autojunk=False)
        for op, i1, i2, _j1, _j2 in diff.get_opcodes():
            if op == "equal":
                continue
            touched = [i1 - 1, i1] if i1 == i2 else list(range(i1, i2))
            mapped = [to_corrected[i] for i in touched if i in to_corrected]
            if not mapped:
                continue
            start, end = corrected_words[min(mapped)][0], corrected_words[max(mapped)][1]
            ranges.append((start, end))
    return ranges


def at_other_errors(doc: Doc, ranges: Iterable[tuple[int, int]]) -> frozenset[int]:
    """Return the indices of the doc's tokens that overlap the other errors' character ranges."""
    return frozenset(t.i for start, end in ranges for t in doc if t.idx < end and t.idx + len(t.text) > start)
