"""Artificial-error candidates: one local edit of the corrected sentence, and how to render it.

Generators (`triplets.rules`) read the parsed corrected sentence (a spaCy `Doc`) and
propose `Candidate`s; the pipeline drops those at the learner's position and validates the rest
(`triplets.validate`). Edits are made on the Doc's own tokens and rendered with each
token's own trailing whitespace, never by indexing whitespace-split words with spaCy indices (the
public BLiSS generator's bug).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from triplets.atomise import ATTACH_LEFT

if TYPE_CHECKING:
    from spacy.tokens import Doc


@dataclass(frozen=True, slots=True)
class Candidate:
    """The corrected sentence with its tokens [start, end) replaced by `new` (start == end: an
    insertion before token `start`; `new` empty: a deletion).

    `rule` names the rule that made it (kept with every triplet, so analyses can filter);
    `strict` is True when the context forces the error (agreement, a time adverbial, a/an before
    a vowel...), False when the result may still be grammatical English. `likely` is False for
    the rules whose errors learners seldom make ("a things", "an tour"): among candidates of the
    same strictness they are tried last. `confusion` names the one-word confusion of the
    corpus' learners the edit is (`triplets.confusions`; "" when none is), `seen` how often they
    made it and `seen_in_context` how often with the same *selecting* neighbour (0 where no
    neighbour can force that error, `triplets.learned`).
    """

    start: int
    end: int
    new: tuple[str, ...]
    rule: str
    strict: bool = True
    likely: bool = True
    confusion: str = ""
    seen: int = 0
    seen_in_context: int = 0

    @property
    def source(self) -> str:
        """Return where the edit comes from: "corpus" (learnt from the corpus' learners: its rule
        is one of `triplets.learned`'s), "rules and corpus" (a rule's edit its learners make too)
        or "rules"."""
        if self.rule.startswith("corpus"):
            return "corpus"
        return "rules and corpus" if self.seen else "rules"

    def span(self) -> tuple[int, int]:
        """Return the corrected-side token span this candidate changes, an insertion point
        widened to the token after it (so two edits at one point count as the same position)."""
        return (self.start, self.end) if self.end > self.start else (self.start, self.start + 1)


def cased(word: str, model: str) -> str:
    """Return `word` written as `model` is: in capitals after a word in capitals ("EACH OF" ->
    "EVERY"), with an initial capital after a capitalised word ("Each" -> "Every"), else as it
    is. A one-letter model ("A", "I") counts as capitalised, not as capitals."""
    if len(model) > 1 and model.isupper():
        return word.upper()
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


def spans_overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Return True when two half-open token spans share a token."""
    return a[0] < b[1] and b[0] < a[1]


def widened(start: int, end: int) -> tuple[int, int]:
    """Return the span [start, end), an empty one widened to the token after it."""
    return (start, end) if end > start else (start, start + 1)


OPENERS = frozenset({"(", "[", "{", '"', "“", "‘", "'"})  # written against the word after them


def _attaches_left(token: str) -> bool:
    return token.lower() in ATTACH_LEFT


def _match_case(word: str, model: str) -> str:
    if model[:1].isupper() and not word[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _sentence_initial_lower(word: str, token_tag: str) -> str:
    # The old first word moves inside the sentence: lower it unless it is "I" or a proper noun.
    if word == "I" or token_tag in {"NNP", "NNPS"} or (word.isupper() and len(word) > 1):
        return word
    return word[:1].lower() + word[1:]


def apply(doc: Doc, candidate: Candidate) -> tuple[list[str], list[str]]:
    """Return the artificial sentence's tokens and each token's trailing whitespace.

    At the start of the sentence capitalisation follows the position: "The cat" with "The"
    deleted gives "Cat", an article inserted before "Cats" gives "A cats" ... "The" lowered
    where it is no longer first. ERRANT then still sees one edit (case alone is no edit).
    """
    tokens = [t.text for t in doc]
    spaces = [t.whitespace_ for t in doc]
    tags = [t.tag_ for t in doc]
    start, end = candidate.start, candidate.end
    new = list(candidate.new)
    new_spaces = [" "] * len(new)
    if new and end > start:
        # The last new token takes the whitespace of the last replaced token.
        new_spaces[-1] = spaces[end - 1]
    elif new and start > 0:
        before = spaces[start - 1]
        # Written against the next word: an opening bracket or quote, or anything (a comma typed
        # without its space) directly before a word; never a word at the end or before punctuation.
        glued = (
            not before
            and start < len(tokens)
            and (tokens[start - 1] in OPENERS or tokens[start][:1].isalnum())
        )
        if not glued:
            # An insertion: the new words take the whitespace of the token before them, which
            # is then followed by a space ("them" + "." -> "them up." not "themup .").
            new_spaces[-1] = before
            spaces = [*spaces[: start - 1], " ", *spaces[start:]]
        # Else the token before is written against the next word ("(", an opening quote, a
        # comma typed without its space): the new words stay against it and take a space
        # before the next word ("( a fruits" is written "(a fruits", never "( afruits").
    elif end > start and start > 0:
        # A deletion: the token before takes the whitespace the deleted span ended with.
        spaces = [*spaces[: start - 1], spaces[end - 1], *spaces[start:]]
    for j in range(1, len(new)):
        if _attaches_left(new[j]):  # "friend" + "'s" inside the new words
            new_spaces[j - 1] = ""
    out_tokens = tokens[:start] + new + tokens[end:]
    out_spaces = spaces[:start] + new_spaces + spaces[end:]
    if new and start > 0:
        # A clitic or closing mark is written against the word before it ("teacher's"); a
        # full word that replaces one needs its space back ("John's" -> "John is").
        if _attaches_left(new[0]):
            out_spaces[start - 1] = ""
        elif end > start and _attaches_left(tokens[start]):
            out_spaces[start - 1] = " "
    if start == 0 and tokens:
        first = tokens[0]
        if new:
            out_tokens[0] = _match_case(new[0], first)
            if end == start:  # insertion before the old first word
                out_tokens[len(new)] = _sentence_initial_lower(first, tags[0])
        elif end < len(tokens):  # deletion at the start: the next word becomes first
            out_tokens[0] = _match_case(out_tokens[0], first)
    return out_tokens, out_spaces


def render(tokens: Sequence[str], spaces: Sequence[str]) -> str:
    """Return running text from tokens and their trailing whitespace."""
    return "".join(t + s for t, s in zip(tokens, spaces, strict=True)).strip()
