"""Missing and unnecessary verbs: M:VERB / U:VERB (a main verb or copula deleted; a
near-synonym, a doubled base form or a be inserted), M:VERB:FORM / U:VERB:FORM (infinitival
"to" deleted or inserted), M:VERB:TENSE / U:VERB:TENSE (an auxiliary deleted or inserted).

Strict candidates break a forcing frame: a clause without its verb, "want go", "can to swim",
"I seen", "I have went", "I did worked", "can motivated", "why we need it?", "he go home".
Deleting an auxiliary where the bare verb is still a finite form ("have lived" -> "lived",
"will go" -> "I go") is never strict.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from triplets.candidates import Candidate
from triplets.lexicon import dictionary_forms, lemmas
from triplets.rules.verbs import (
    BE_PAST,
    BE_PRESENT,
    NEGATIVE_ENDINGS,
    SINGULAR,
    conditional_present,
    number_of,
    ordered,
    past_anchored,
    subject,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from triplets.rules import Generator

_AUX_DEPS = ("aux", "auxpass")
# Verbs after which a bare infinitive is grammatical too ("help me (to) move", "come (to) see
# us" in American English).
_BARE_OR_TO = frozenset({"help", "dare", "need", "come", "go"})
# Verbs whose object takes a bare infinitive in the active ("let me go", "made him cry").
_BARE_INFINITIVE_VERBS = frozenset({"let", "make"})
# Present verb forms that read as English after "am/is/are" (a preposition, nouns of measure).
_AFTER_BE_ENGLISH = frozenset({"like", "worth", "near", "round", "past"})


def _content_children(token: Token) -> list[Token]:
    return [c for c in token.children if c.pos_ != "PUNCT"]


def _main_verb(token: Token) -> bool:
    return token.pos_ == "VERB" and token.text.isalpha() and token.dep_ not in _AUX_DEPS


def _finite_main(token: Token) -> bool:
    # A finite main verb with no auxiliary of its own ("she likes", "we went"), after its one
    # subject: "then came my favourite singer" has no slot for an auxiliary before "came", and
    # a verb the parser gives two subjects ("the robot ... and I think") has no clear number.
    subj = subject(token)
    before = token.doc[token.i - 1].lower_ if token.i > 0 else ""
    return (
        _main_verb(token)
        and token.tag_ in {"VBD", "VBZ", "VBP"}
        and not any(c.dep_ in _AUX_DEPS for c in token.children)
        and subj is not None
        and subj.i < token.i
        and sum(c.dep_ in {"nsubj", "nsubjpass"} for c in subj.head.children) == 1
        and not before.endswith(NEGATIVE_ENDINGS)
    )


def _start_of_verb_group(verb: Token) -> int:
    # Insert auxiliaries before adverbs sitting between the subject and the verb ("I often go").
    start = verb.i
    while (
        start > 0 and verb.doc[start - 1].dep_ in {"advmod", "neg"} and verb.doc[start - 1].head.i == verb.i
    ):
        start -= 1
    return start


# M:VERB -------------------------------------------------------------------------------------


def _copula(token: Token) -> bool:
    # A full-word copula with a complement ("is kind", "been my favourite", "is in Paris").
    following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    return (
        token.lemma_.lower() == "be"
        and token.text.isalpha()
        and token.dep_ not in _AUX_DEPS
        and token.tag_ in {"VB", "VBZ", "VBP", "VBD", "VBN"}
        and not (following is not None and following.lower_ == "n't")
        and any(c.dep_ in {"acomp", "attr", "prep", "advmod", "npadvmod"} for c in token.children)
        and any(c.dep_ in {"nsubj", "expl", "aux"} for c in token.children)
    )


def missing_verb(doc: Doc) -> Iterator[Candidate]:
    """Yield deletions of a clause's main verb: the sentence's root verb, and any verb with a
    subject of its own, that has something left to govern ("I go to school" -> "I to school"),
    strict unless an auxiliary stays behind; and copulas with their complement ("she is kind"
    -> "she kind")."""
    found = []
    for token in doc:
        if _copula(token):
            # "My mother is very kind" -> "My mother very kind": the commonest learner M:VERB.
            # After a conjoined copula the gap can be English ("the pizza was hot and the
            # soup cold").
            gapped = token.dep_ == "conj" and token.head.lemma_.lower() == "be"
            found.append(Candidate(token.i, token.i + 1, (), "verb-delete-copula", not gapped))
            continue
        if not _main_verb(token) or not _content_children(token):
            continue
        has_subject = any(c.dep_ in {"nsubj", "nsubjpass"} for c in token.children)
        if token.dep_ == "ROOT" or has_subject:
            # Behind an auxiliary the rest can be an English ellipsis ("I couldn't eat" -> "I
            # couldn't", "I have seen it" -> "I have it").
            strict = not any(c.dep_ in _AUX_DEPS for c in token.children)
            found.append(Candidate(token.i, token.i + 1, (), "verb-delete-main", strict))
    return iter(ordered(found))


# U:VERB -------------------------------------------------------------------------------------


def _be_for(verb: Token) -> str | None:
    number = number_of(verb)[0]
    if number is None:
        return None
    return (BE_PAST if verb.tag_ == "VBD" else BE_PRESENT)[number]


def _copula_insertions(doc: Doc, rule: str) -> Iterator[Candidate]:
    for verb in doc:
        if not _finite_main(verb) or verb.lemma_.lower() in {"be", "have", "do"}:
            continue
        # After be, "like" is a preposition and "close", "free" adjectives: "they are like cats".
        if verb.lower_ in _AFTER_BE_ENGLISH or lemmas(verb.lower_, "ADJ"):
            continue
        # "was" before a past that is also the participle makes a passive, often English
        # ("the shop closed" -> "the shop was closed"): only "was went" is forced.
        if verb.tag_ == "VBD" and not _differs_from(verb, "VBN"):
            continue
        be = _be_for(verb)
        if be is not None:
            yield Candidate(_start_of_verb_group(verb), _start_of_verb_group(verb), (be,), rule, True)


# A near-synonym that learners leave in front of the verb they meant when they reformulate
# ("my mother took drove me", "people want need more time": the demo corpus's U:VERB edits).
# No go/come before another verb: "come see us", "go travel" are (American) English.
_SYNONYM = {
    "need": "want",
    "want": "need",
    "hope": "want",
    "believe": "think",
    "think": "believe",
    "cause": "make",
    "create": "make",
    "build": "make",
    "cook": "make",
    "drive": "take",
    "bring": "take",
    "see": "find",
    "find": "see",
    "visit": "see",
    "meet": "see",
    "watch": "see",
    "study": "learn",
    "learn": "study",
    "buy": "get",
    "receive": "get",
    "earn": "get",
    "say": "tell",
    "tell": "say",
    "explain": "tell",
    "invest": "put",
    "prefer": "like",
    "enjoy": "like",
    "love": "like",
    "like": "love",
    "start": "begin",
    "begin": "start",
    "finish": "end",
    "understand": "know",
    "know": "understand",
    "speak": "talk",
    "talk": "speak",
    "decide": "choose",
    "choose": "take",
    "arrive": "come",
    "return": "come",
    "live": "stay",
    "stay": "live",
    "improve": "change",
    "spend": "pass",
    "pay": "give",
}


def _synonym_insertions(doc: Doc) -> Iterator[Candidate]:
    for verb in doc:
        if not _main_verb(verb) or verb.tag_ not in {"VB", "VBD", "VBZ", "VBP"}:
            continue
        synonym = _SYNONYM.get(verb.lemma_.lower())
        if synonym is None:
            continue
        for form in dictionary_forms(synonym, verb.tag_, "VERB")[:1]:
            yield Candidate(verb.i, verb.i, (form,), "verb-insert-synonym-before", True)


def unnecessary_verb(doc: Doc) -> Iterator[Candidate]:
    """Yield inserted verbs, most reliable first: a near-synonym in the same form before the
    verb ("my mother took drove me"); the base form doubled after a past main verb ("he went go
    home"); an agreeing be before a present main verb or an irregular past ("he is works", "I
    was went": ERRANT says U:VERB
    only when the parser reads the inserted verb as the main verb, about 1 in 4 on the demo
    corpus, U:VERB:TENSE when it reads an auxiliary)."""
    yield from _synonym_insertions(doc)
    for verb in doc:
        if not _finite_main(verb) or verb.tag_ != "VBD":
            continue
        for base in dictionary_forms(verb.lemma_.lower(), "VB", "VERB")[:1]:
            if base != verb.lower_:
                yield Candidate(verb.i + 1, verb.i + 1, (base,), "verb-insert-base-after-past", True)
    yield from _copula_insertions(doc, "verb-insert-copula")


# M:VERB:FORM / U:VERB:FORM --------------------------------------------------------------------


def missing_to(doc: Doc) -> Iterator[Candidate]:
    """Yield deletions of infinitival "to" ("want to go" -> "want go"); not strict after
    help/dare/need, where the bare infinitive is also English, at the start of a sentence, or
    where the bare verb reads as a noun object ("I want to rest" -> "I want rest")."""
    for token in doc:
        if token.lower_ != "to" or token.tag_ != "TO" or token.dep_ != "aux" or token.head.tag_ != "VB":
            continue
        if token.i + 1 < len(doc) and doc[token.i + 1].lower_ == "not":
            continue
        governor = token.head.head
        strict = (
            token.i > 0
            and governor.lemma_.lower() not in _BARE_OR_TO
            and governor.i != token.head.i
            and not _noun_object_reading(token.head)
        )
        yield Candidate(token.i, token.i + 1, (), "verb-delete-to", strict)


def _noun_object_reading(verb: Token) -> bool:
    # "want to rest", "would like to help with it", "it is hard to work here": the bare verb,
    # a noun too, with nothing after it but a prepositional phrase or an adverb that the
    # clause can take, reads as a noun ("want rest", "like help with it", "hard work here");
    # an object, a particle or the goal "home" keeps it a verb ("decided tell the truth",
    # "want go home").
    return bool(lemmas(verb.lower_, "NOUN")) and all(
        c.dep_ in {"aux", "prep", "punct", "npadvmod"}
        or (c.dep_ == "advmod" and c.lower_ != "home")
        or c.i < verb.i
        for c in verb.children
    )


def unnecessary_to(doc: Doc) -> Iterator[Candidate]:
    """Yield "to" inserted before a bare infinitive after a modal ("can to swim") or after the
    object of let/make ("let me to go")."""
    found = []
    for verb in doc:
        if verb.tag_ != "VB" or not verb.text.isalpha():
            continue
        modal = [c for c in verb.children if c.tag_ == "MD" and c.dep_ == "aux" and c.i < verb.i]
        if modal:
            before = doc[verb.i - 1]
            if before.i == modal[0].i or before.dep_ == "neg":
                found.append(Candidate(verb.i, verb.i, ("to",), "verb-insert-to-modal", True))
            continue
        governor = verb.head
        if (
            verb.dep_ in {"ccomp", "xcomp"}
            and governor.lemma_.lower() in _BARE_INFINITIVE_VERBS
            and governor.i < verb.i
            and not any(c.dep_ in _AUX_DEPS for c in verb.children)
            and not any(c.dep_ == "auxpass" for c in governor.children)
            and any(c.dep_ == "nsubj" and c.i < verb.i for c in verb.children)
        ):
            found.append(Candidate(verb.i, verb.i, ("to",), "verb-insert-to-bare-infinitive", True))
    return iter(ordered(found))


# M:VERB:TENSE / U:VERB:TENSE ------------------------------------------------------------------


def _differs_from(verb: Token, other: str) -> bool:
    # True when `verb` (a participle, or a past with other="VBN") is not also the `other` form.
    forms = set(dictionary_forms(verb.lemma_.lower(), other, "VERB"))
    return bool(forms) and verb.lower_ not in forms


def missing_auxiliary(doc: Doc) -> Iterator[Candidate]:
    """Yield deletions of an auxiliary: progressive be ("I am going" -> "I going") and perfect
    have before a participle that is not also a past ("I have seen" -> "I seen"), both strict;
    a base "be" or "have" after a modal or "to" before a participle that is not also the base
    form ("can be done" -> "can done", "could have saved" -> "could saved"), strict; the "do"
    of a direct wh-question ("Why do we need it?" -> "Why we need it?"), strict; a modal whose
    verb is then a bare "be" or a bare verb after a singular subject ("we will be" -> "we be",
    "he will go" -> "he go"), strict; passive be ("was built" -> "built") not strict.
    Contracted auxiliaries are left alone."""
    found = []
    for aux in doc:
        if aux.dep_ not in _AUX_DEPS or not aux.text.isalpha():
            continue
        verb = aux.head
        lemma = aux.lemma_.lower()
        first = aux.i == 0 or doc[aux.i - 1].is_punct  # a question's fronted auxiliary
        if aux.dep_ == "aux" and lemma == "be" and verb.tag_ == "VBG":
            found.append(Candidate(aux.i, aux.i + 1, (), "verb-delete-progressive-be", not first))
        elif aux.dep_ == "aux" and lemma == "have" and verb.tag_ == "VBN" and _differs_from(verb, "VBD"):
            found.append(Candidate(aux.i, aux.i + 1, (), "verb-delete-perfect-have", not first))
        elif lemma in {"be", "have"} and aux.tag_ == "VB" and verb.tag_ == "VBN" and _after_modal_or_to(aux):
            # "can be done" -> "can done", "could have saved" -> "could saved": a participle
            # that is not also the base form cannot follow a modal or "to" ("must be put" ->
            # "must put" is English).
            if _differs_from(verb, "VB"):
                found.append(Candidate(aux.i, aux.i + 1, (), f"verb-delete-{lemma}-after-modal", True))
        elif aux.dep_ == "auxpass" and lemma == "be" and verb.tag_ == "VBN":
            found.append(Candidate(aux.i, aux.i + 1, (), "verb-delete-passive-be", False))
        elif aux.dep_ == "aux" and lemma == "do" and _wh_question_do(aux):
            found.append(Candidate(aux.i, aux.i + 1, (), "verb-delete-question-do", True))
        elif aux.dep_ == "aux" and aux.tag_ == "MD" and _modal_left_bare(aux):
            found.append(Candidate(aux.i, aux.i + 1, (), "verb-delete-modal", True))
    return iter(ordered(found))


def _after_modal_or_to(aux: Token) -> bool:
    before = aux.doc[aux.i - 1] if aux.i > 0 else None
    return (
        before is not None and before.head.i == aux.head.i and (before.tag_ == "MD" or before.lower_ == "to")
    )


def _negated(aux: Token) -> bool:
    following = aux.doc[aux.i + 1] if aux.i + 1 < len(aux.doc) else None
    return following is not None and following.lower_ in {"not", "n't"}


def _wh_question_do(aux: Token) -> bool:
    """Return True for the "do / does / did" of a direct wh-question, between the wh-word and
    the subject, before its verb ("Why do we need it?": "Why we need it?" is no English); not
    for an elliptical "Why do you?" ("Why you?") nor a negative."""
    doc = aux.doc
    verb = aux.head
    subj = subject(aux)
    return (
        aux.text.isalpha()
        and aux.i > 0
        and doc[aux.i - 1].tag_ in {"WRB", "WP"}
        and not _negated(aux)
        and subj is not None
        and subj.i == aux.i + 1
        and verb.i > subj.i
        and any(t.text == "?" for t in doc[verb.i :])
    )


# Heads after which a bare "be" is a subjunctive ("I suggest that we be there", "the advice
# that he study", "it is vital that she go").
_SUBJUNCTIVE_HEADS = frozenset(
    {"suggest", "recommend", "insist", "demand", "require", "request", "propose", "ask", "urge"}
    | {"advise", "order", "command", "stipulate", "move", "prefer"}
    | {"important", "essential", "necessary", "vital", "crucial"}
    | {"suggestion", "recommendation", "requirement", "proposal", "insistence", "advice"}
)


def _modal_left_bare(modal: Token) -> bool:
    """Return True when deleting the modal leaves a bare verb that no subject allows: "be"
    after any subject but "you" ("we will be able" -> "we be able"; "you be careful" is an
    imperative) or a lexical verb after a clear third-person singular ("he will go" -> "he
    go"). Not in a question ("Will he go?"), a negative, or a subjunctive clause."""
    verb = modal.head
    subj = subject(modal)
    if (
        not modal.text.isalpha()
        or modal.lower_ not in _DELETABLE_MODALS
        or verb.tag_ != "VB"
        or verb.i != modal.i + 1
        or subj is None
        or subj.i > modal.i
        or (len(subj.text) == 1 and subj.tag_ != "PRP")  # "l can" is "I can" typed with an "l"
        or _negated(modal)
        or _subjunctive_slot(verb)
    ):
        return False
    if verb.lemma_.lower() == "be":
        return subj.lower_ != "you"
    number, clear = number_of(modal)
    return clear and number == SINGULAR and verb.pos_ == "VERB" and verb.lemma_.lower() not in {"have", "do"}


def _subjunctive_slot(verb: Token) -> bool:
    # "I suggest (that) he go", "it is important that he be there", "the demand that he
    # resign", "my suggestion is that he rest", "lest she misunderstand".
    if any(c.dep_ == "mark" and c.lower_ == "lest" for c in verb.children):
        return True
    head = verb.head
    if head.i == verb.i:
        return False
    return head.lemma_.lower() in _SUBJUNCTIVE_HEADS or any(
        c.dep_ in {"acomp", "nsubj", "attr"} and c.lemma_.lower() in _SUBJUNCTIVE_HEADS for c in head.children
    )


_DELETABLE_MODALS = frozenset({"will", "would", "can", "could", "should", "must", "may", "might"})


def unnecessary_auxiliary(doc: Doc) -> Iterator[Candidate]:
    """Yield an auxiliary inserted before a finite main verb: have/has (by subject) before a
    past whose participle differs ("I have went"), "did" before a past that is also the
    participle ("I did worked"), and an agreeing be before a finite main verb ("I am agree")."""
    found = []
    anchored = past_anchored(doc)
    for verb in doc:
        if not _finite_main(verb) or verb.lemma_.lower() in {"be", "have", "do"}:
            continue
        at = _start_of_verb_group(verb)
        if verb.tag_ == "VBD":
            number = number_of(verb)[0]
            participles = set(dictionary_forms(verb.lemma_.lower(), "VBN", "VERB"))
            have = "has" if number == SINGULAR else "have"
            if participles and verb.lower_ not in participles and number is not None:
                found.append(Candidate(at, at, (have,), "verb-insert-have-before-past", True))
            elif number is not None and verb.i in anchored:
                # "Last month I have read a novel": the perfect clashes with a finished time.
                found.append(Candidate(at, at, (have,), "verb-insert-have-anchored-past", True))
            else:
                found.append(Candidate(at, at, ("did",), "verb-insert-did-before-past", True))
        if verb.tag_ == "VBP" and conditional_present(verb) == verb.lower_:
            # "If you visit it, you will enjoy it" -> "If you will visit it, ...".
            found.append(Candidate(at, at, ("will",), "verb-insert-will-in-condition", True))
    found.extend(_copula_insertions(doc, "verb-insert-be-before-verb"))
    return iter(ordered(found))


RULES: dict[str, tuple[Generator, ...]] = {
    "M:VERB": (missing_verb,),
    "U:VERB": (unnecessary_verb,),
    "M:VERB:FORM": (missing_to,),
    "U:VERB:FORM": (unnecessary_to,),
    "M:VERB:TENSE": (missing_auxiliary,),
    "U:VERB:TENSE": (unnecessary_auxiliary,),
}
