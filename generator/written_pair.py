"""A minimal pair written by hand into a paradigm, as SyntaxGym lets authors write items.

The author gives the two sentences; the record is the one a generated pair has (words, critical
region, provenance) so that every export, score and report takes it alike. The critical region is
found as for imported pairs, by a word-level diff (`word_diff`): each stretch the diff leaves
unmatched is one edit, a substitution where both sentences have words there, else an insertion
or a deletion, with its word and character spans on both sides.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Sequence

from generator import errors as E
from generator.critical_region import token_span
from generator.errors import Problem
from generator.word_diff import sentence_words

# The `generator` of a hand-written pair's provenance: no engine made it.
WRITTEN = "written by hand"
EDIT_OF_OPCODE = {"replace": "substitution", "delete": "deletion", "insert": "insertion"}


def written_pair_problems(good: str, bad: str, language: str) -> list[Problem]:
    """Return why two sentences cannot be a hand-written pair (none: they can): each sentence one
    non-blank line, the two different in their words."""
    problems = []
    for side, text in (("good", good), ("bad", bad)):
        if not text.strip():
            problems.append(Problem(E.E_FIELD, f"the {side} sentence is empty", key=side))
        elif any(ch in text for ch in "\r\n\x00"):
            problems.append(Problem(E.E_FIELD, f"the {side} sentence must be one line", key=side))
    if not problems and sentence_words(good.strip(), language) == sentence_words(bad.strip(), language):
        problems.append(
            Problem(E.E_FIELD, "the two sentences have the same words: a minimal pair differs", key="bad")
        )
    return problems


def _offsets(sentence: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """Return each word's character span in the sentence (words found left to right)."""
    spans, at = [], 0
    for word in words:
        start = sentence.find(word, at)
        if start < 0:  # a word the tokenizer changed (it never does for these): a point span
            start = at
        spans.append((start, start + len(word)))
        at = start + len(word)
    return spans


def written_pair_record(
    good: str, bad: str, *, uid: str, phenomenon: str, language: str, pair_id: int, written_by: str
) -> dict[str, object]:
    """Return the record of a hand-written pair (check it first with `written_pair_problems`)."""
    good, bad = good.strip(), bad.strip()
    words_good, words_bad = sentence_words(good, language), sentence_words(bad, language)
    offsets_good, offsets_bad = _offsets(good, words_good), _offsets(bad, words_bad)
    matcher = difflib.SequenceMatcher(
        a=[w.lower() for w in words_good], b=[w.lower() for w in words_bad], autojunk=False
    )
    region = []
    for tag, g0, g1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        region.append(
            {
                "type": EDIT_OF_OPCODE[tag],
                "good": token_span(g0, g1, offsets_good, len(good), ()).to_dict(),
                "bad": token_span(b0, b1, offsets_bad, len(bad), ()).to_dict(),
            }
        )
    digest = hashlib.sha256(f"{uid}\n{good}\n{bad}".encode()).hexdigest()[:16]
    return {
        "sentence_good": good,
        "sentence_bad": bad,
        "UID": uid,
        "phenomenon": phenomenon,
        "pairID": str(pair_id),
        "item_id": f"written-{digest}",
        "language": language,
        "words_good": list(words_good),
        "words_bad": list(words_bad),
        "critical_region": region,
        "provenance": {"template": uid, "generator": WRITTEN, "written_by": written_by},
    }
