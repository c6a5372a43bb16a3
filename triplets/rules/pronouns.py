"""Pronoun errors: R:PRON (case, reflexive and relative-pronoun swaps), M:PRON (a missing
object or subject pronoun), U:PRON (a resumptive pronoun after a full subject, an indirect object
after a verb that takes none).

Strict candidates are those whose context forces the error: a subject pronoun in object case
("Me like it"), an object pronoun in subject case, "I hurt me", a deleted subject of a declarative
main clause, a deleted object of a verb that needs one, "My brother he likes".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from triplets.candidates import Candidate

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_TO_OBJECT = {"i": "me", "he": "him", "she": "her", "we": "us", "they": "them"}
_TO_SUBJECT = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they"}
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
_OBJECT_DEPS = {"dobj", "pobj", "dative"}
_REFLEXIVE = {"myself": ("i", "me"), "yourself": ("you", "you"), "ourselves": ("we", "us")}

# Verbs that cannot drop their object ("I bought" / "everybody enjoyed" are incomplete).
_NEEDS_OBJECT = frozenset(
    [
        "afford",
        "bring",
        "buy",
        "carry",
        "enjoy",
        "find",
        "get",
        "give",
        "hate",
        "have",
        "hit",
        "hold",
        "keep",
        "like",
        "love",
        "make",
        "need",
        "put",
        "recognise",
        "recognize",
        "send",
        "show",
        "take",
        "tell",
        "thank",
        "throw",
        "use",
        "want",
        "wear",
    ]
)
_ANIMALS = frozenset({"dog", "cat", "pet", "animal", "horse", "bird", "puppy", "kitten"})
# Words after which a clause starts with its subject ("and there are" -> "and are").
_CLAUSE_OPENERS = frozenset({"and", "but", "or", "because", "that", "if", "when", "although", "though"})
# Nouns whose resumptive pronoun is "he" / "she" (otherwise it / they by number).
_MALE = frozenset(
    ["father", "brother", "son", "husband", "uncle", "grandfather", "boyfriend", "man", "boy", "dad", "king"]
)
_FEMALE = frozenset(
    [
        "mother",
        "sister",
        "daughter",
        "wife",
        "aunt",
        "grandmother",
        "girlfriend",
        "woman",
        "girl",
        "mum",
        "mom",
        "landlady",
        "queen",
    ]
)
# Verbs that take no indirect object: "explained me the rules" (learners' double object).
_NO_DATIVE = frozenset(
    ["explain", "describe", "suggest", "recommend", "say", "mention", "announce", "report"]
)
_PERSON_NOUNS = (
    _MALE
    | _FEMALE
    | frozenset(
        [
            "people",
            "person",
            "friend",
            "friends",
            "children",
            "child",
            "student",
            "students",
            "teacher",
            "teachers",
            "parent",
            "parents",
            "neighbour",
            "neighbours",
            "doctor",
            "doctors",
            "man",
            "men",
            "woman",
            "women",
            "colleague",
            "colleagues",
            "nurse",
            "waiter",
            "waitress",
            "author",
            "driver",
            "landlord",
            "manager",
            "tourist",
            "tourists",
            "someone",
            "anyone",
            "everyone",
            "nobody",
        ]
    )
)


def _glued(token: Token) -> bool:
    """True when a word follows the token without a space ("I" + "'m"): replacing or deleting
    it would leave "Me'm" or "'m happy"."""
    doc = token.doc
    return not token.whitespace_ and token.i + 1 < len(doc) and not doc[token.i + 1].is_punct


def _gap(doc: Doc, i: int) -> bool:
    """True when an insertion before token `i` falls into a space: `candidates.apply` keeps the
    previous token's whitespace, so inserting before a glued token ("makes" + ".") would
    render as "makesthem ."."""
    return i == 0 or (i <= len(doc) and bool(doc[i - 1].whitespace_))


def _case(word: str, model: Token) -> str:
    """Return `word` with the model's initial capital ("I" stays "I")."""
    if word == "I":
        return word
    if model.i == 0 or (model.text[:1].isupper() and model.text != "I"):
        return word[:1].upper() + word[1:]
    return word


def case_swap(doc: Doc) -> Iterator[Candidate]:
    """Yield subject pronouns put in object case and object pronouns in subject case.

    Strict unless the pronoun is coordinated ("my sister and me will come", "between you and
    I" are widespread and not forcing)."""
    for token in doc:
        if token.tag_ != "PRP" or _glued(token):
            continue
        lower = token.lower_
        coordinated = token.dep_ == "conj" or any(c.dep_ == "conj" for c in token.children)
        dep = token.head.dep_ if token.dep_ == "conj" else token.dep_
        # Sentence-initial "Us" is read as something else: ERRANT calls it R:OTHER (measured).
        if lower in _TO_OBJECT and dep in _SUBJECT_DEPS and not (lower == "we" and token.i == 0):
            new = _TO_OBJECT[lower]
        elif lower in _TO_SUBJECT and dep in _OBJECT_DEPS:
            new = _TO_SUBJECT[lower]
        else:
            continue
        yield Candidate(token.i, token.i + 1, (_case(new, token),), "pron_case", not coordinated)


def reflexive_swap(doc: Doc) -> Iterator[Candidate]:
    """Yield a first-person/second-person reflexive object replaced by the plain pronoun ("I
    hurt me"): strict when the clause's subject is the same person."""
    for token in doc:
        lower = token.lower_
        if lower not in _REFLEXIVE or token.dep_ not in _OBJECT_DEPS:
            continue
        subject_form, object_form = _REFLEXIVE[lower]
        verb = token.head.head if token.dep_ == "pobj" else token.head
        subjects = [c for c in verb.children if c.dep_ in _SUBJECT_DEPS]
        same = any(s.lower_ == subject_form for s in subjects)
        if subjects:
            yield Candidate(token.i, token.i + 1, (object_form,), "pron_reflexive", same)


def _antecedent(relative: Token) -> Token | None:
    clause = relative.head
    if clause.dep_ == "relcl" and clause.head.pos_ in {"NOUN", "PROPN", "PRON"}:
        return clause.head
    return None


def relative_swap(doc: Doc) -> Iterator[Candidate]:
    """Yield who/which swapped by the antecedent ("the book who", "the people which") and a
    relative "which"/"that" replaced by "what" ("a film what was called"). "which" for a person
    is common in learner English and not always judged wrong: not strict."""
    for token in doc:
        lower = token.lower_
        # Only relative subjects: ERRANT calls object-relative swaps R:OTHER (measured).
        if (
            lower not in {"who", "which", "that"}
            or token.tag_ not in {"WP", "WDT"}
            or token.dep_ not in _SUBJECT_DEPS
        ):
            continue
        antecedent = _antecedent(token)
        if antecedent is None:
            continue
        person = antecedent.lower_ in _PERSON_NOUNS
        if lower == "which" and not person:
            # "the dogs who were abandoned": pets and animals often take "who".
            animal = antecedent.lemma_.lower() in _ANIMALS
            yield Candidate(token.i, token.i + 1, ("who",), "pron_relative", not animal)
        if lower == "who" and person:
            yield Candidate(token.i, token.i + 1, ("which",), "pron_relative", False)
        if lower in {"which", "that"} and not person:
            yield Candidate(token.i, token.i + 1, ("what",), "pron_relative_what", True)


def delete_object(doc: Doc) -> Iterator[Candidate]:
    """Yield a personal object pronoun deleted; strict when the verb needs an object."""
    for token in doc:
        if token.tag_ != "PRP" or token.dep_ != "dobj" or token.head.pos_ != "VERB":
            continue
        if token.lower_.startswith("'"):  # "let's": the "'s" is "us", and "Let go" is English
            continue
        if token.lower_ in {"myself", "yourself", "himself", "herself", "itself", "ourselves"}:
            continue
        strict = token.head.lemma_.lower() in _NEEDS_OBJECT
        yield Candidate(token.i, token.i + 1, (), "pron_drop_object", strict)


def delete_subject(doc: Doc) -> Iterator[Candidate]:
    """Yield the subject pronoun of a finite clause deleted (never "you", which could read as
    an imperative). Strict for a main or subordinate clause; not strict for a second conjunct
    ("and he blamed" -> "and blamed" is ordinary coordination) or a verb that reads as an
    imperative without its subject ("I read them" -> "Read them")."""
    for token in doc:
        if token.tag_ != "PRP" or token.dep_ != "nsubj" or token.lower_ == "you" or _glued(token):
            continue
        verb = token.head
        if verb.tag_ not in {"VBZ", "VBP", "VBD", "MD"} and not any(
            c.dep_ in {"aux", "auxpass"} and c.tag_ in {"VBZ", "VBP", "VBD", "MD"} for c in verb.children
        ):
            continue
        if token.i > verb.i:  # inverted ("said he", questions)
            continue
        finite = next((c for c in verb.children if c.dep_ in {"aux", "auxpass"} and c.i < verb.i), verb)
        # "I like it" -> "Like it" reads as an imperative: a base-form VBP main verb is not forcing.
        # After a subordinator ("before I buy it" -> "before buy it") no imperative reading.
        subordinate = any(c.dep_ == "mark" for c in verb.children)
        imperative_like = (
            finite is verb and verb.lemma_ != "be" and verb.lower_ == verb.lemma_.lower() and not subordinate
        )
        after_coordinator = token.i > 0 and doc[token.i - 1].lower_ in {"and", "but", "or", "so"}
        strict = verb.dep_ != "conj" and not after_coordinator and not imperative_like
        yield Candidate(token.i, token.i + 1, (), "pron_drop_subject", strict)


def delete_expletive(doc: Doc) -> Iterator[Candidate]:
    """Yield expletive "there" deleted ("There are five people" -> "Are five people"): ERRANT
    counts EX as a pronoun; English needs the dummy subject, so strict."""
    for token in doc:
        if token.tag_ == "EX" and token.dep_ == "expl" and token.head.lemma_ == "be":
            # After a fronted phrase the result can read as inversion ("In my town is a river",
            # "so are traffic jams", "Last month was a problem"): only clause-initially strict.
            before = doc[token.i - 1].lower_ if token.i > 0 else ""
            strict = token.i == 0 or before in _CLAUSE_OPENERS
            yield Candidate(token.i, token.i + 1, (), "pron_drop_expletive", strict)


def _resumptive(subject: Token) -> tuple[str, ...]:
    """Return the pronouns that resume `subject` (a person noun of unknown sex: he and she)."""
    lower = subject.lemma_.lower()
    if subject.tag_ in {"NNS", "NNPS"} or any(c.dep_ == "conj" for c in subject.children):
        return ("they",)
    if lower in _MALE:
        return ("he",)
    if lower in _FEMALE:
        return ("she",)
    if lower in _PERSON_NOUNS or subject.ent_type_ == "PERSON":
        return ("he", "she")
    return ("it",)


def resumptive_subject(doc: Doc) -> Iterator[Candidate]:
    """Yield a resumptive pronoun inserted after a full-noun subject, before its verb ("My
    brother he likes"): always strict."""
    for token in doc:
        if token.dep_ != "nsubj" or token.pos_ not in {"NOUN", "PROPN"}:
            continue
        verb = token.head
        end = token.right_edge.i + 1
        if end >= len(doc) or end > verb.i or doc[end].is_punct:
            continue
        # Only right before the verb or its auxiliaries/adverbs: no relative clause between.
        if any(t.dep_ not in {"aux", "auxpass", "neg", "advmod"} for t in doc[end : verb.i]):
            continue
        if not _gap(doc, end):
            continue
        for pronoun in _resumptive(token):
            yield Candidate(end, end, (pronoun,), "pron_resumptive", True)


def resumptive_object(doc: Doc) -> Iterator[Candidate]:
    """Yield a resumptive object pronoun in a relative clause whose relative pronoun is the
    object ("the book that I bought" -> "the book that I bought it"): strict."""
    for verb in doc:
        if verb.dep_ != "relcl" or verb.pos_ != "VERB":
            continue
        relative = [c for c in verb.children if c.dep_ == "dobj" and c.tag_ in {"WDT", "WP"} and c.i < verb.i]
        if not relative or any(c.dep_ in {"dobj", "prt", "dative"} and c.i > verb.i for c in verb.children):
            continue
        antecedent = verb.head
        if antecedent.tag_ in {"NNS", "NNPS"}:
            pronoun = "them"
        elif antecedent.lemma_.lower() in _MALE:
            pronoun = "him"
        elif antecedent.lemma_.lower() in _FEMALE:
            pronoun = "her"
        elif antecedent.lower_ in _PERSON_NOUNS:
            continue  # him or her: the sex is unknown and one guess would be a second error
        else:
            pronoun = "it"
        if _gap(doc, verb.i + 1):
            yield Candidate(verb.i + 1, verb.i + 1, (pronoun,), "pron_resumptive_object", True)


def dative_object(doc: Doc) -> Iterator[Candidate]:
    """Yield "me"/"us" inserted after explain/describe/suggest... before their object
    ("explained me the rules"): these verbs take no indirect object, so it is strict."""
    for token in doc:
        if token.pos_ != "VERB" or token.lemma_.lower() not in _NO_DATIVE:
            continue
        nxt = token.i + 1
        if nxt >= len(doc) or doc[nxt].dep_ != "det" or doc[nxt].head.dep_ != "dobj":
            continue
        if doc[nxt].head.head.i != token.i or any(
            c.dep_ in {"dative", "prep"} and c.lower_ == "to" for c in token.children
        ):
            continue
        subjects = {c.lower_ for c in token.children if c.dep_ in _SUBJECT_DEPS}
        pronoun = "them" if subjects & {"i", "we"} else "me"
        yield Candidate(nxt, nxt, (pronoun,), "pron_dative", True)


RULES = {
    "R:PRON": (case_swap, reflexive_swap, relative_swap),
    "M:PRON": (delete_object, delete_subject, delete_expletive),
    "U:PRON": (resumptive_subject, resumptive_object, dative_object),
}
