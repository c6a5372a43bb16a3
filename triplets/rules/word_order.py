"""Word-order errors (R:WO): two adjacent pieces of the corrected sentence swapped.

Strict swaps break a fixed English order: adjective after its noun ("air clean"), an article
after the adjective ("big a house"), an adverb between a verb and its object ("I like very much
it", "I like also jazz"), subject-verb inversion in an embedded question ("what was my problem").
Moving a frequency adverb around an auxiliary or a verb without object ("always is", "go often")
often leaves good English: never strict.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from triplets.candidates import Candidate

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

_MID_ADVERBS = frozenset(
    [
        "also",
        "always",
        "often",
        "usually",
        "never",
        "sometimes",
        "really",
        "rarely",
        "seldom",
        "just",
        "still",
        "already",
        "even",
        "only",
    ]
)
_END_ADVERBS = frozenset(["much", "often", "well", "again", "everywhere", "sometimes"])
_ARTICLES = frozenset(
    ["a", "an", "the", "this", "that", "these", "those", "my", "your", "his", "her", "our", "their"]
)
_WH = frozenset(["what", "who", "where", "when", "why", "how", "which", "whom"])


def _moved(tokens: Sequence[Token], start: int) -> list[str]:
    """Return the tokens' texts, the old sentence-initial word lowered once it moves inside."""
    out = []
    for k, token in enumerate(tokens):
        text = token.text
        if token.i == 0 and k + start != 0 and text != "I" and token.tag_ not in {"NNP", "NNPS"}:
            text = text[:1].lower() + text[1:]
        out.append(text)
    return out


def _swap(first: Span, second: Span, rule: str, strict: bool) -> Iterator[Candidate]:
    """Yield the candidate that puts the adjacent span `second` before `first`, unless a token
    in them is glued to the next one ("friend" + "'s"): the moved words are rendered with
    single spaces, so "my best friend's" cannot become "my friend best's"."""
    doc = first.doc
    last = doc[second.end - 1]
    inner_glued = any(not t.whitespace_ for t in doc[first.start : second.end - 1])
    clitic_after = not last.whitespace_ and second.end < len(doc) and not doc[second.end].is_punct
    if inner_glued or clitic_after:
        return
    tokens = [*second, *first]
    yield Candidate(first.start, second.end, tuple(_moved(tokens, first.start)), rule, strict)


def _contiguous(token: Token) -> Span | None:
    """Return the token's subtree as a span of words, or None when it holds punctuation or a
    glued token ("brother's"): a moved span is rendered with single spaces between words."""
    doc = token.doc
    left, right = token.left_edge.i, token.right_edge.i + 1
    span = doc[left:right]
    words = all(t.is_alpha for t in span)
    spaced = all(t.whitespace_ for t in span[:-1])
    return span if words and spaced else None


def _article_fits(article: Token, word: Token) -> bool:
    """True unless `article` is a/an and no longer fits the word now after it ("an pace")."""
    if article.lower_ not in {"a", "an"}:
        return True
    return (article.lower_ == "an") == (word.lower_[:1] in set("aeiou"))


def adjective_noun(doc: Doc) -> Iterator[Candidate]:
    """Yield an attributive adjective swapped with the common noun right after it ("clean air"
    -> "air clean"): strict."""
    for token in doc:
        head = token.head
        if (
            token.dep_ == "amod"
            and token.pos_ == "ADJ"
            and head.i == token.i + 1
            and head.tag_ in {"NN", "NNS"}
            and (token.i == 0 or _article_fits(doc[token.i - 1], head))
        ):
            yield from _swap(doc[token.i : token.i + 1], doc[head.i : head.i + 1], "wo_adjective_noun", True)


def determiner_adjective(doc: Doc) -> Iterator[Candidate]:
    """Yield an article or possessive swapped with the adjective after it ("a big house" -> "big
    a house"): strict."""
    for token in doc:
        if token.lower_ not in _ARTICLES or token.dep_ not in {"det", "poss"} or token.i + 1 >= len(doc):
            continue
        nxt = doc[token.i + 1]
        if nxt.dep_ == "amod" and nxt.pos_ == "ADJ" and nxt.head.i == token.head.i and not list(nxt.children):
            if nxt.i + 1 < len(doc) and not _article_fits(token, doc[nxt.i + 1]):
                continue
            yield from _swap(
                doc[token.i : token.i + 1], doc[nxt.i : nxt.i + 1], "wo_determiner_adjective", True
            )


def _object_after(verb: Token) -> Token | None:
    return next((c for c in verb.children if c.dep_ == "dobj" and c.left_edge.i == verb.i + 1), None)


def adverb_object(doc: Doc) -> Iterator[Candidate]:
    """Yield an adverb put between a verb and its object: an end adverb moved in front of the
    object ("like it very much" -> "like very much it") or a mid adverb moved after the verb ("I
    also like jazz" -> "I like also jazz"): strict."""
    for verb in doc:
        if verb.pos_ not in {"VERB", "AUX"}:
            continue
        obj = _object_after(verb)
        if obj is None:
            continue
        obj_span = _contiguous(obj)
        if obj_span is None or len(obj_span) > 4:
            continue
        for adverb in verb.children:
            if adverb.dep_ != "advmod":
                continue
            if (
                adverb.i > obj_span.end - 1
                and adverb.left_edge.i == obj_span.end
                and adverb.lower_ in _END_ADVERBS
            ):
                adverb_span = _contiguous(adverb)
                if adverb_span is not None:
                    yield from _swap(obj_span, adverb_span, "wo_adverb_before_object", True)
            if adverb.i == verb.i - 1 and adverb.lower_ in _MID_ADVERBS and not list(adverb.children):
                yield from _swap(
                    doc[adverb.i : adverb.i + 1], doc[verb.i : verb.i + 1], "wo_adverb_after_verb", True
                )


def embedded_question(doc: Doc) -> Iterator[Candidate]:
    """Yield subject-verb inversion in an embedded wh-question ("asked me what my problem was"
    -> "what was my problem"): strict."""
    for verb in doc:
        if (
            verb.lemma_ != "be"
            or verb.tag_ not in {"VBZ", "VBP", "VBD"}
            or verb.dep_ not in {"ccomp", "xcomp"}
        ):
            continue
        subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
        if subject is None:
            continue
        subject_span = _contiguous(subject)
        if subject_span is None or subject_span.end != verb.i or subject_span.start == 0:
            continue
        wh = doc[subject_span.start - 1]
        if wh.lower_ not in _WH or wh.head.i != verb.i:
            continue
        if subject.lower_ in {"it", "there"}:
            continue
        yield from _swap(subject_span, doc[verb.i : verb.i + 1], "wo_embedded_question", True)


def adverb_verb(doc: Doc) -> Iterator[Candidate]:
    """Yield a mid adverb moved across an auxiliary/copula ("is always" -> "always is") or
    across a verb without a following object ("often go" -> "go often"): not strict."""
    for adverb in doc:
        if adverb.lower_ not in _MID_ADVERBS or adverb.dep_ != "advmod" or list(adverb.children):
            continue
        i = adverb.i
        if i > 0:
            before = doc[i - 1]
            if before.lemma_ in {"be", "have", "do", "will", "can", "should", "must", "would", "could"} and (
                before.tag_ in {"VBZ", "VBP", "VBD", "MD"}
            ):
                yield from _swap(doc[i - 1 : i], doc[i : i + 1], "wo_adverb_auxiliary", False)
        if i + 1 < len(doc):
            after = doc[i + 1]
            if after.i == adverb.head.i and after.pos_ == "VERB" and _object_after(after) is None:
                yield from _swap(doc[i : i + 1], doc[i + 1 : i + 2], "wo_adverb_verb", False)


RULES = {"R:WO": (adjective_noun, determiner_adjective, adverb_object, embedded_question, adverb_verb)}
