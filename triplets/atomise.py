"""Atomisation of annotated learner pairs into single-edit pairs (pipeline step 2, as in BLiSS
section 3): spelling, punctuation and orthography corrections are applied to the learner
sentence, and a pair with k grammatical edits becomes k pairs whose learner sentence keeps exactly
one of them (every other correction applied); the corrected sentence is the full correction."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from triplets.annotate import AnnotatedPair, Edit
from triplets.corpus import LearnerPair

# Edits that are not grammatical errors: they are corrected, never kept. OTHER is deliberately
# not here: ERRANT uses it for multi-token rewrites that usually do hold a grammatical error
# ("Us discussed" -> "We discussed"); filtering it would silently correct that error and could
# leave a learner sentence that looks error-free. The generation step skips types it has no
# rule for and counts them, so an OTHER pair is reported there instead of vanishing here.
FILTERED_TYPES = frozenset({"R:SPELL", "R:ORTH", "M:PUNCT", "U:PUNCT", "R:PUNCT"})

NO_EDIT = "no_edit"  # the learner sentence was already correct
NO_GRAMMATICAL_EDIT = "no_grammatical_edit"  # only spelling / punctuation / orthography edits

# Tokens written without a space before them / after them.
_ATTACH_LEFT = frozenset({".", ",", "!", "?", ";", ":", ")", "]", "}", "%", "...", "n't", "'"})
_CLITICS = frozenset({"'s", "'re", "'m", "'ve", "'ll", "'d"})
_ATTACH_RIGHT = frozenset({"(", "[", "{", "$", "£", "€"})
ATTACH_LEFT = _ATTACH_LEFT | _CLITICS  # written against the token before them


def detokenise(tokens: Sequence[str]) -> str:
    """Return the tokens as running text: spaces between words, none before closing punctuation
    and contractions ("do n't" -> "don't", "John 's" -> "John's"), none inside brackets and
    double quotes (alternately opening and closing)."""
    out: list[str] = []
    no_space_next = True
    quote_open = False
    for token in tokens:
        lower = token.lower()
        attach = lower in _ATTACH_LEFT or lower in _CLITICS
        if token == '"':
            attach = quote_open
            quote_open = not quote_open
        if out and not attach and not no_space_next:
            out.append(" ")
        out.append(token)
        no_space_next = token in _ATTACH_RIGHT or (token == '"' and quote_open)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class KeptEdit:
    """The one error left in a single-edit learner sentence: its tokens [start, end) in that
    sentence (start == end for a missing word) should read `correction` instead of `original`."""

    type: str
    start: int
    end: int
    original: str
    correction: str


@dataclass(frozen=True, slots=True)
class SingleEditPair:
    """A learner sentence with exactly one (grammatical) error and its full correction."""

    pair_id: str  # the source pair's id + "#k", k = 1-based index among its grammatical edits
    learner: str
    corrected: str
    learner_tokens: tuple[str, ...]
    corrected_tokens: tuple[str, ...]
    edit: KeptEdit
    all_error_types: tuple[str, ...]  # every ERRANT type of the source pair, filtered ones too
    source: LearnerPair  # id, file, line and the learner's metadata
    annotated: AnnotatedPair | None = None  # the source pair's parses (the corrected Doc is reused)
    learner_whitespace: tuple[str, ...] = ()  # each learner token's trailing whitespace

    @property
    def tokenised(self) -> bool:
        """True for M2 input (sentences rendered by `detokenise`)."""
        return self.source.edits is not None

    @property
    def needs_recheck(self) -> bool:
        """True when the learner sentence differs from the source's, so ERRANT must read it
        again: the source had other edits (a lone edit's sentence is the source's own parse)."""
        return self.annotated is None or len(self.annotated.edits) != 1

    @property
    def learner_span(self) -> tuple[int, int]:
        """Return the learner edit's corrected-side token span [start, end)."""
        return (self.edit.start, self.edit.start + len(self.edit.correction.split()))


@dataclass(slots=True)
class AtomiseResult:
    """The single-edit pairs, how many source pairs were dropped by reason, and how many edits of
    each filtered type were corrected on the learner side."""

    single_edit_pairs: list[SingleEditPair] = field(default_factory=list)
    rejected: Counter[str] = field(default_factory=Counter)
    rejected_ids: list[tuple[str, str]] = field(default_factory=list)  # (reason, source pair id)
    filtered_edits: Counter[str] = field(default_factory=Counter)


def _render(annotated: AnnotatedPair, tokens: list[str], whitespace: list[str]) -> str:
    if annotated.tokenised:
        return detokenise(tokens)
    # Running text: keep the writer's own spacing, token by token.
    return "".join(t + w for t, w in zip(tokens, whitespace, strict=True)).strip()


def _single(annotated: AnnotatedPair, kept: Edit, index: int, types: tuple[str, ...]) -> SingleEditPair:
    cor = list(annotated.cor)
    orig = list(annotated.orig)
    # Reverting the kept edit in the corrected sentence is the same as applying every other
    # correction to the learner sentence (ERRANT edits do not overlap).
    before, span, after = cor[: kept.c_start], orig[kept.o_start : kept.o_end], cor[kept.c_end :]
    tokens = [t.text for t in (*before, *span, *after)]
    spaces = [t.whitespace_ for t in (*before, *span, *after)]
    if before and not span and kept.c_end > kept.c_start:
        # A removed word: the token before it takes the space the removed word had.
        spaces[len(before) - 1] = cor[kept.c_end - 1].whitespace_
    elif before and span and kept.o_start > 0:
        # Learner words put back: the token before them is spaced as it was in the learner's
        # sentence ("hotel directly." not "hoteldirectly.").
        spaces[len(before) - 1] = orig[kept.o_start - 1].whitespace_
    corrected_tokens = tuple(t.text for t in cor)
    return SingleEditPair(
        pair_id=f"{annotated.pair.pair_id}#{index}",
        learner=_render(annotated, tokens, spaces),
        corrected=_render(annotated, list(corrected_tokens), [t.whitespace_ for t in cor]),
        learner_tokens=tuple(tokens),
        corrected_tokens=corrected_tokens,
        edit=KeptEdit(
            kept.type, kept.c_start, kept.c_start + kept.o_end - kept.o_start, kept.o_str, kept.c_str
        ),
        all_error_types=types,
        source=annotated.pair,
        annotated=annotated,
        learner_whitespace=tuple(spaces),
    )


def atomise(annotated: Iterable[AnnotatedPair]) -> AtomiseResult:
    """Return the single-edit pairs of the annotated pairs (in input order, a pair's edits in
    learner order) and the count of dropped pairs by reason (`NO_EDIT`, `NO_GRAMMATICAL_EDIT`)."""
    result = AtomiseResult()
    for pair in annotated:
        if not pair.edits:
            result.rejected[NO_EDIT] += 1
            result.rejected_ids.append((NO_EDIT, pair.pair.pair_id))
            continue
        types = tuple(e.type for e in pair.edits)
        grammatical = [e for e in pair.edits if e.type not in FILTERED_TYPES]
        result.filtered_edits.update(t for t in types if t in FILTERED_TYPES)
        if not grammatical:
            result.rejected[NO_GRAMMATICAL_EDIT] += 1
            result.rejected_ids.append((NO_GRAMMATICAL_EDIT, pair.pair.pair_id))
            continue
        for index, kept in enumerate(grammatical, start=1):
            result.single_edit_pairs.append(_single(pair, kept, index, types))
    return result
