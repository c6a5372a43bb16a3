"""Function-word errors: conjunctions (M:CONJ, U:CONJ), particles (M:PART, U:PART, R:PART),
adverbs (M:ADV, U:ADV, R:ADV) and contractions (M:CONTR).

Deleting or inserting an adverb is usually still good English ("very" can always go), so the
adverb rules only work in forcing contexts: "very much" at the end of a verb phrase, "ago" after a
time phrase, too/enough/so/as with their complement, "more"/"most" doubled on an inflected
degree, "very" before a finite verb.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from triplets.candidates import Candidate, cased

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_COORDINATORS = frozenset({"and", "or", "but"})
_CONCESSIVE = frozenset({"although", "though"})
_CAUSAL = frozenset({"because", "since", "as"})
# Phrasal verbs whose verb alone cannot take the same complement ("give smoking",
# "put a coat", "turn the music"): deleting the particle forces an error.
_FORCING_PHRASAL = frozenset(
    {
        ("give", "up"),
        ("pick", "up"),
        ("put", "on"),
        ("take", "off"),
        ("turn", "on"),
        ("turn", "off"),
        ("turn", "up"),
        ("turn", "down"),
        ("find", "out"),
        ("figure", "out"),
        ("set", "up"),
        ("fill", "in"),
        ("fill", "out"),
        ("carry", "on"),
        ("look", "up"),
        ("put", "off"),
        ("throw", "away"),
        ("get", "up"),
    }
)
# A particle that a verb never takes, repeating its meaning: "reduce down", "explain out".
_PLEONASTIC_PARTICLE = {
    "reduce": "down",
    "lower": "down",
    "limit": "down",
    "decrease": "down",
    "increase": "up",
    "measure": "up",
    "check": "up",
    "explain": "out",
    "discuss": "out",
    "describe": "out",
    "mention": "out",
    "visit": "up",
    "improve": "up",
}
_OPPOSITE_PARTICLE = {"up": "down", "down": "up", "in": "out", "out": "in", "on": "off", "off": "on"}
# The same before a prepositional object: "cope up with", "deal up with".
_PLEONASTIC_BEFORE_PREP = {"cope": ("up", "with"), "deal": ("up", "with")}
# The verbs of `_PLEONASTIC_PARTICLE`'s kind that do form a phrasal verb with "up".
_UP_PHRASAL = frozenset(
    [
        "pick",
        "call",
        "wake",
        "give",
        "set",
        "look",
        "make",
        "take",
        "bring",
        "clean",
        "fill",
        "end",
        "put",
        "turn",
    ]
)
_HOW_DEGREE = frozenset({"much", "many", "long", "often", "far", "old"})
_NEGATIVE_POLARITY = frozenset({"yet", "anymore", "either"})
_DEGREE_CHILD = {"too": "xcomp", "enough": "xcomp", "so": "ccomp"}


# ---- conjunctions -------------------------------------------------------------------------


def _gap(doc: Doc, i: int) -> bool:
    """True when an insertion before token `i` falls into a space: `candidates.apply` keeps the
    previous token's whitespace, so inserting before a glued token ("makes" + ".") would
    render as "makesthem ."."""
    return i == 0 or (i <= len(doc) and bool(doc[i - 1].whitespace_))


def delete_coordinator(doc: Doc) -> Iterator[Candidate]:
    """Yield a coordinator deleted ("rice and beans" -> "rice beans"): strict inside a
    sentence; after a comma (a comma splice) or sentence-initially not strict."""
    for token in doc:
        if token.tag_ != "CC" or token.dep_ != "cc" or token.lower_ not in _COORDINATORS:
            continue
        strict = token.i > 0 and not doc[token.i - 1].is_punct
        yield Candidate(token.i, token.i + 1, (), "conj_drop", strict)


def _fronted_clause_comma(doc: Doc, marks: frozenset[str]) -> Iterator[int]:
    """Yield the index after the comma that closes a sentence-initial adverbial clause whose
    subordinator is in `marks` ("Although it rained, | we went")."""
    for token in doc:
        if token.dep_ != "advcl" or token.head.i < token.i:
            continue
        mark = next((c for c in token.children if c.dep_ == "mark" and c.lower_ in marks), None)
        if mark is None or token.left_edge.i != 0:
            continue
        comma = token.right_edge.i + 1
        if comma < len(doc) - 1 and doc[comma].text == "," and comma < token.head.i:
            yield comma + 1


def insert_coordinator(doc: Doc) -> Iterator[Candidate]:
    """Yield "but" after a fronted although-clause ("Although it was late, but we ...") and
    "and" between a subject and its finite verb ("My brother and likes"): both strict."""
    for position in _fronted_clause_comma(doc, _CONCESSIVE):
        if _gap(doc, position):
            yield Candidate(position, position, ("but",), "conj_although_but", True)
    for token in doc:
        if token.dep_ != "nsubj" or token.lower_ in {"who", "which", "that", "what"}:
            continue
        verb = token.head
        end = token.right_edge.i + 1
        if end != verb.i or verb.tag_ not in {"VBZ", "VBD", "VBP"} or doc[end].is_punct or not _gap(doc, end):
            continue
        yield Candidate(end, end, ("and",), "conj_and_subject_verb", True)


# ---- particles ----------------------------------------------------------------------------


def delete_particle(doc: Doc) -> Iterator[Candidate]:
    """Yield a phrasal-verb particle deleted; strict for phrasal verbs whose verb alone cannot
    take the same complement ("give up smoking" -> "give smoking")."""
    for token in doc:
        if token.dep_ != "prt" or token.tag_ != "RP":
            continue
        strict = (token.head.lemma_.lower(), token.lower_) in _FORCING_PHRASAL
        yield Candidate(token.i, token.i + 1, (), "part_drop", strict)


def insert_particle(doc: Doc) -> Iterator[Candidate]:
    """Yield a particle inserted after a verb that takes none ("reduce down the prices",
    "explain out the rule") and "up" between a verb and its pronoun object, where English never
    puts a particle ("call up you"): strict."""
    for verb in doc:
        if verb.pos_ != "VERB" or any(c.dep_ == "prt" for c in verb.children):
            continue
        nxt = verb.i + 1
        if nxt >= len(doc) or not _gap(doc, nxt):
            continue
        lemma = verb.lemma_.lower()
        if lemma in _PLEONASTIC_BEFORE_PREP and doc[nxt].lower_ == _PLEONASTIC_BEFORE_PREP[lemma][1]:
            yield Candidate(nxt, nxt, (_PLEONASTIC_BEFORE_PREP[lemma][0],), "part_pleonastic", True)
        obj = next((c for c in verb.children if c.dep_ == "dobj" and c.left_edge.i == nxt), None)
        if obj is None:
            continue
        if lemma in _PLEONASTIC_PARTICLE:
            yield Candidate(nxt, nxt, (_PLEONASTIC_PARTICLE[lemma],), "part_pleonastic", True)
        elif obj.tag_ == "PRP" and lemma not in _UP_PHRASAL:
            yield Candidate(nxt, nxt, ("up",), "part_before_pronoun", True)


def swap_particle(doc: Doc) -> Iterator[Candidate]:
    """Yield a phrasal-verb particle replaced by its opposite ("wake up" -> "wake down",
    "turn off" -> "turn on"): a lexical error that may still be English, so not strict."""
    for token in doc:
        if token.dep_ == "prt" and token.tag_ == "RP" and token.lower_ in _OPPOSITE_PARTICLE:
            new = _OPPOSITE_PARTICLE[token.lower_]
            yield Candidate(token.i, token.i + 1, (new,), "part_opposite", False)


def purpose_for(doc: Doc) -> Iterator[Candidate]:
    """Yield the infinitive marker of a purpose clause replaced by "for" ("went to the square
    to dance" -> "for dance"): strict, "for" takes no bare verb."""
    for token in doc:
        if token.tag_ != "TO" or token.dep_ != "aux":
            continue
        verb = token.head
        if verb.tag_ != "VB" or verb.dep_ != "advcl" or token.i + 1 != verb.i:
            continue
        yield Candidate(token.i, token.i + 1, ("for",), "part_purpose_for", True)


# ---- adverbs ------------------------------------------------------------------------------


def delete_adverb(doc: Doc) -> Iterator[Candidate]:
    """Yield an adverb deleted where its absence is ungrammatical: "very much" -> "very" at the
    end of a verb phrase, "two years ago" -> "two years", too/enough/so without the word their
    complement needs, the first "as" of as...as, "more" before "adjective than": all strict."""
    for token in doc:
        lower = token.lower_
        span = (token.i, token.i + 1)
        if lower == "much" and token.dep_ == "advmod" and token.head.pos_ == "VERB":
            very = [c for c in token.children if c.lower_ in {"very", "so", "too"}]
            if very and token.i + 1 < len(doc) and doc[token.i + 1].is_punct:
                yield Candidate(*span, (), "adv_drop_much", True)
                # "I like it much" is stiff but heard: not strict.
                yield Candidate(very[0].i, very[0].i + 1, (), "adv_drop_very", False)
        elif lower in {"not", "never"} and token.dep_ == "neg" and _needs_negation(token.head):
            # ("n't" is left alone: its deletion is M:CONTR and turns "don't" into "do".)
            yield Candidate(*span, (), "adv_drop_negation", True)
        elif lower == "ago" and token.dep_ == "advmod":
            if any(c.dep_ == "npadvmod" for c in token.children) or (
                token.i > 0 and doc[token.i - 1].tag_ == "NNS"
            ):
                yield Candidate(*span, (), "adv_drop_ago", True)
        elif lower in _DEGREE_CHILD and token.dep_ == "advmod":
            head = token.head
            wanted = _DEGREE_CHILD[lower]
            # The complement hangs on the adjective ("too tired to walk") or, after an adverb,
            # on the verb ("speaks too quickly to follow").
            holders = [head] if head.pos_ == "ADJ" else [head, head.head] if head.pos_ == "ADV" else []
            if any(c.dep_ == wanted and c.i > head.i for h in holders for c in h.children):
                # "speaks quickly to understand" reads as a purpose clause: only "so" forces.
                strict = head.pos_ == "ADJ" or lower == "so"
                yield Candidate(*span, (), f"adv_drop_{lower}", strict)
        elif (
            lower == "how"
            and token.tag_ == "WRB"
            and token.head.lower_ in _HOW_DEGREE
            and token.head.i == token.i + 1
        ):
            yield Candidate(*span, (), "adv_drop_how", True)
        elif lower == "rather" and token.i + 1 < len(doc) and doc[token.i + 1].lower_ == "than":
            yield Candidate(*span, (), "adv_drop_rather", True)
        elif lower == "as" and token.dep_ == "advmod" and token.head.pos_ in {"ADJ", "ADV"}:
            if any(c.lower_ == "as" and c.i > token.head.i for c in token.head.children):
                yield Candidate(*span, (), "adv_drop_as", True)
        elif (
            lower == "more"
            and token.tag_ == "RBR"
            and token.head.tag_ == "JJ"
            and any(c.lower_ == "than" for c in token.head.children)
        ):
            yield Candidate(*span, (), "adv_drop_more", True)


def _needs_negation(verb: Token) -> bool:
    """True when the clause has a negative-polarity item that needs the negation ("not ...
    yet", "not ... anymore", "not ... at all"): deleting "not" leaves it ungrammatical."""
    after = [t for t in verb.subtree if t.i > verb.i]
    return any(t.lower_ in _NEGATIVE_POLARITY for t in after) or any(
        t.lower_ == "at" and t.i + 1 < len(t.doc) and t.doc[t.i + 1].lower_ == "all" for t in after
    )


def _misplaced_adverb(token: Token) -> tuple[str, str] | None:
    """Return the adverb that cannot stand right before `token` and the rule name: "very"
    before a finite main verb without auxiliary, "more"/"most" before an inflected degree."""
    before = token.doc[token.i - 1]
    if token.pos_ == "VERB" and token.tag_ in {"VBZ", "VBP", "VBD"} and token.dep_ in {"ROOT", "conj"}:
        bare = not any(c.dep_ in {"aux", "auxpass", "neg"} for c in token.children)
        return ("very", "adv_very_verb") if bare and before.dep_ in {"nsubj", "advmod"} else None
    if token.tag_ == "JJR" and token.lower_.endswith("er") and before.lower_ != "more":
        return ("more", "adv_double_comparative")
    if token.tag_ == "JJS" and token.lower_.endswith("est") and before.lower_ != "most":
        return ("most", "adv_double_superlative")
    return None


def insert_adverb(doc: Doc) -> Iterator[Candidate]:
    """Yield an adverb inserted where English cannot have one: "very" before a finite main verb
    ("I very like it"), "more"/"most" before an inflected comparative/superlative ("more
    older"), "so" after a fronted because-clause ("Because it rained, so ..."): strict; "back"
    after return ("returned back", redundant but grammatical): not strict."""
    for token in doc:
        i = token.i
        if i > 0 and _gap(doc, i):
            new = _misplaced_adverb(token)
            if new is not None:
                yield Candidate(i, i, (new[0],), new[1], True)
        if (
            token.lemma_ == "return"
            and token.pos_ == "VERB"
            and i + 1 < len(doc)
            and doc[i + 1].lower_ != "back"
            and _gap(doc, i + 1)
        ):
            yield Candidate(i + 1, i + 1, ("back",), "adv_return_back", False)
    for position in _fronted_clause_comma(doc, _CAUSAL):
        if _gap(doc, position):
            yield Candidate(position, position, ("so",), "adv_because_so", True)


def replace_adverb(doc: Doc) -> Iterator[Candidate]:
    """Yield "well" modifying a verb replaced by "good" ("played very good") and an intensifier
    that does not fit the degree ("much big", "very bigger"): strict."""
    for token in doc:
        span = (token.i, token.i + 1)
        head = token.head
        if token.lower_ == "well" and token.dep_ == "advmod" and head.pos_ == "VERB" and head.i < token.i:
            yield Candidate(*span, ("good",), "adv_well_good", True)
        elif (
            token.lower_ == "really"
            and token.dep_ == "advmod"
            and head.pos_ == "VERB"
            and head.i == token.i + 1
        ):
            # "I really like" -> "I very like": "very" cannot modify a verb.
            yield Candidate(*span, (cased("very", token.text),), "adv_really_very", True)
        elif (
            token.lower_ == "very" and token.dep_ == "advmod" and head.tag_ == "JJ" and head.i == token.i + 1
        ):
            # "much worried", "much interested" are good English with participial adjectives.
            participial = head.lower_.endswith("ed")
            yield Candidate(*span, (cased("much", token.text),), "adv_intensifier_degree", not participial)
        elif (
            token.lower_ == "much" and token.dep_ == "advmod" and head.tag_ == "JJR" and head.i == token.i + 1
        ):
            yield Candidate(*span, (cased("very", token.text),), "adv_intensifier_degree", True)


# ---- contractions -------------------------------------------------------------------------


def delete_contraction(doc: Doc) -> Iterator[Candidate]:
    """Yield a contracted copula/auxiliary 'm, 're, 's (not possessive) deleted ("I'm happy" ->
    "I happy"): strict. 've, 'll, 'd are left alone: "We've decided" -> "We decided" is fine."""
    for token in doc:
        contracted = token.lower_ in {"'m", "'re"} or (token.lower_ == "'s" and token.tag_ == "VBZ")
        if contracted and token.i > 0:
            yield Candidate(token.i, token.i + 1, (), "contr_drop", True)


RULES = {
    "M:CONJ": (delete_coordinator,),
    "U:CONJ": (insert_coordinator,),
    "M:PART": (delete_particle,),
    "U:PART": (insert_particle,),
    "R:PART": (purpose_for, swap_particle),
    "M:ADV": (delete_adverb,),
    "U:ADV": (insert_adverb,),
    "R:ADV": (replace_adverb,),
    "M:CONTR": (delete_contraction,),
}
