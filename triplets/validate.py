"""Validation of an artificial sentence (pipeline step 4), in two stages.

Before parsing (cheap): every new word is a real English word (ERRANT's word list; LemmInflect
dictionary forms only), except for the INFL types whose errors are non-words by design and must
not be real words; the artificial sentence differs from the corrected and the learner sentence.

After parsing: ERRANT, with the artificial sentence as original and the corrected one as
correction (the direction of learner -> corrected; the other direction swaps M and U and
re-labels INFL), finds exactly one edit, of the learner's type, at another position than the
learner's edit.
"""

from __future__ import annotations

from collections.abc import Sequence

from triplets.annotate import Edit
from triplets.candidates import Candidate, spans_overlap, widened
from triplets.lexicon import is_word

# The types whose errors are non-words by design ("childs", "goed").
NON_WORD_TYPES = frozenset({"R:NOUN:INFL", "R:VERB:INFL"})

# Rejection reasons (yield report keys).
NOT_A_WORD = "not_a_word"  # a new word is not in the word list (a rule-made guess)
REAL_WORD = "real_word_for_infl"  # an INFL error must be a non-word, but this form is a word
SAME_AS_CORRECTED = "same_as_corrected"
SAME_AS_LEARNER = "same_as_learner"
ERRANT_EDIT_COUNT = "errant_not_one_edit"  # ERRANT finds no edit or several
ERRANT_TYPE = "errant_other_type"  # one edit, of another type
ERRANT_POSITION = "errant_same_position"  # one edit of the type, but where the learner's is

REASONS = (
    NOT_A_WORD,
    REAL_WORD,
    SAME_AS_CORRECTED,
    SAME_AS_LEARNER,
    ERRANT_EDIT_COUNT,
    ERRANT_TYPE,
    ERRANT_POSITION,
)


def _new_words(candidate: Candidate, corrected_tokens: Sequence[str]) -> list[str]:
    old = {t.lower() for t in corrected_tokens[candidate.start : candidate.end]}
    return [w for w in candidate.new if w.isalpha() and w.lower() not in old]


def check_words(candidate: Candidate, error_type: str, corrected_tokens: Sequence[str]) -> str | None:
    """Return why the candidate's new words are refused (`NOT_A_WORD`, `REAL_WORD`), or None."""
    words = _new_words(candidate, corrected_tokens)
    if error_type in NON_WORD_TYPES:
        return REAL_WORD if not words or any(is_word(w) for w in words) else None
    return NOT_A_WORD if any(not is_word(w) for w in words) else None


def check_text(artificial: str, corrected: str, learner: str) -> str | None:
    """Return `SAME_AS_CORRECTED` / `SAME_AS_LEARNER` if the artificial sentence equals one of
    the others, else None."""
    if artificial == corrected:
        return SAME_AS_CORRECTED
    if artificial == learner:
        return SAME_AS_LEARNER
    return None


def check_errant(edits: Sequence[Edit], error_type: str, learner_span: tuple[int, int]) -> str | None:
    """Return why ERRANT's edits (artificial -> corrected) refuse the candidate, or None when
    there is exactly one edit, of `error_type`, whose corrected-side span does not overlap the
    learner's (`learner_span`: the learner edit's corrected-side tokens, an insertion point
    widened to the token after it)."""
    if len(edits) != 1:
        return ERRANT_EDIT_COUNT
    edit = edits[0]
    if edit.type != error_type:
        return ERRANT_TYPE
    if spans_overlap(widened(edit.c_start, edit.c_end), widened(*learner_span)):
        return ERRANT_POSITION
    return None


def check_errant_written(edits: Sequence[Edit], error_type: str) -> str | None:
    """Return why ERRANT's edits between the written artificial and the written corrected
    sentence refuse the candidate (not exactly one edit, or one of another type), or None. The
    position is checked on the tokens the learner's edit was counted on (`check_errant`)."""
    if len(edits) != 1:
        return ERRANT_EDIT_COUNT
    return ERRANT_TYPE if edits[0].type != error_type else None
