"""Verb replacements: agreement (R:VERB:SVA), tense (R:VERB:TENSE), non-finite form
(R:VERB:FORM), regularised non-word pasts (R:VERB:INFL) and confusable verbs (R:VERB).

Every inflected form comes from `lexicon.dictionary_forms` (real words only), except the INFL
rule, whose forms must be non-words (`lexicon.rule_forms`). A candidate is strict when its
context forces the error: a visible subject for agreement, a time adverbial or a clause's
frame for tense (a participle with no auxiliary: "we seen it"; "if I were", "I wish"), an
auxiliary, modal, "to", preposition or nominative pronoun for the non-finite form, a valency
frame for R:VERB.
The missing/unnecessary verb types (M:/U:VERB...) are in `verb_forms`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from triplets.candidates import Candidate, cased
from triplets.lexicon import dictionary_forms, lemmas, rule_forms

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from triplets.rules import Generator

# Grammatical person/number of a subject, as far as English verb agreement sees it.
FIRST = "1sg"  # I: am / was / VBP
SECOND = "2"  # you: are / were / VBP
SINGULAR = "sg"  # he, the cat: is / was / VBZ
PLURAL = "pl"  # we, the cats: are / were / VBP

_PRONOUN_NUMBER = {
    "i": FIRST,
    "you": SECOND,
    "he": SINGULAR,
    "she": SINGULAR,
    "it": SINGULAR,
    "this": SINGULAR,
    "that": SINGULAR,
    "everyone": SINGULAR,
    "everybody": SINGULAR,
    "everything": SINGULAR,
    "someone": SINGULAR,
    "somebody": SINGULAR,
    "something": SINGULAR,
    "nobody": SINGULAR,
    "nothing": SINGULAR,
    "anyone": SINGULAR,
    "anybody": SINGULAR,
    "anything": SINGULAR,
    "we": PLURAL,
    "they": PLURAL,
    "these": PLURAL,
    "those": PLURAL,
}
# Nouns whose agreement varies (BrE "my family are", "the majority of people are"): never strict.
_VARIABLE_NOUNS = frozenset(
    {
        "family",
        "team",
        "government",
        "staff",
        "police",
        "class",
        "group",
        "couple",
        "majority",
        "minority",
        "number",
        "lot",
        "lots",
        "percent",
        "half",
        "rest",
        "none",
        "all",
        "some",
        "most",
        "public",
        "audience",
        "crew",
        "committee",
        "company",
        "band",
        "kind",
        "sort",
        "type",
        "variety",
        "series",
        "news",
        "means",
    }
)
_SUBJECT_DEPS = ("nsubj", "nsubjpass", "csubj", "expl")
_AUX_DEPS = ("aux", "auxpass")

BE_PRESENT = {FIRST: "am", SINGULAR: "is", SECOND: "are", PLURAL: "are"}
BE_PAST = {FIRST: "was", SINGULAR: "was", SECOND: "were", PLURAL: "were"}
# Agreement flips of be/have/do (both as main verbs and as auxiliaries). "am" -> "is": ERRANT
# calls "I are" R:MORPH, "I is" R:VERB:SVA (measured).
_SVA_FLIP = {
    "is": "are",
    "are": "is",
    "am": "is",
    "was": "were",
    "were": "was",
    "has": "have",
    "have": "has",
    "does": "do",
    "do": "does",
}
# Tense swaps of auxiliaries and modals; be/have/do pasts -> present are chosen by subject.
_MODAL_TENSE = {
    "will": "would",
    "would": "will",
    "can": "could",
    "could": "can",
    "may": "might",
    "might": "may",
    "shall": "should",
}
_TIME_NOUNS = frozenset(
    {
        "day",
        "week",
        "month",
        "year",
        "night",
        "morning",
        "evening",
        "afternoon",
        "weekend",
        "summer",
        "winter",
        "spring",
        "autumn",
        "century",
        "decade",
        "term",
        "semester",
        "holiday",
        "holidays",
        "time",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    }
)
# Verbs of a state, which learners seldom put in the progressive ("I knowing"); with the verbs
# of a habit, those whose present tells something that still holds, so that "I visited Rome and
# love it", "she moved to Paris and teaches French" are English: never made present in a
# coordination.
_STATE_VERBS = frozenset(
    {
        *("love", "like", "hate", "prefer", "know", "understand", "believe", "think", "want"),
        *("need", "own", "have", "remember", "miss", "enjoy", "mean", "seem", "belong"),
        *("contain", "consist", "depend", "deserve", "agree", "feel", "hope", "wish"),
    }
)
_STATIVE = _STATE_VERBS | frozenset({"live", "work", "study", "teach", "speak", "play", "go", "use"})
# Subordinators of a clause about the future that takes the present ("if it rains, ...").
_CONDITION_MARKS = frozenset({"if", "when", "unless", "until", "before", "after", "once"})
_DURATIONS = frozenset(
    {"years", "months", "weeks", "days", "hours", "minutes", "decades", "centuries", "ages", "long"}
)
# Subordinators of a temporal clause whose tense must match its main clause's.
_TEMPORAL_MARKS = frozenset({"when", "while", "after", "before", "as"})
PAST = "past"
FUTURE = "future"
PRESENT = "present"
# Years this far back anchor a clause in the past ("in 2010"); later ones may be plans.
_LAST_PAST_YEAR = 2019


def _alpha(token: Token) -> bool:
    return token.text.isalpha()


def clause_head(verb: Token) -> Token:
    """Return the head of `verb`'s clause: `verb` itself, or the verb an auxiliary belongs to."""
    return verb.head if verb.dep_ in _AUX_DEPS else verb


def subject(verb: Token) -> Token | None:
    """Return the subject of `verb`'s clause (a conjoined verb shares its first conjunct's
    subject), or None when there is none (imperatives, infinitives)."""
    head = clause_head(verb)
    for _ in range(4):
        for child in head.children:
            if child.dep_ in _SUBJECT_DEPS:
                return child
        if head.dep_ != "conj" or head.head.i == head.i:
            return None
        head = head.head
    return None


def subject_number(subj: Token) -> tuple[str | None, bool]:
    """Return the agreement class of a subject (FIRST, SECOND, SINGULAR, PLURAL or None when
    unknown) and whether it is unambiguous (a plain pronoun or a simple noun)."""
    lower = subj.lower_
    if subj.dep_ == "expl":  # "there is/are": the number is the postverbal noun's
        return None, False
    if subj.tag_ in {"WDT", "WP"}:  # who/which/that in a relative clause: the antecedent's number
        antecedent = subj.head.head if subj.head.dep_ == "relcl" else None
        if antecedent is not None and antecedent.tag_ in {"NN", "NNS", "NNP", "NNPS"}:
            return subject_number(antecedent)[0], False
        return None, False
    if lower in _PRONOUN_NUMBER:
        # Demonstratives with a noun are determiners, never subjects; "everyone" is an NN.
        return _PRONOUN_NUMBER[lower], subj.tag_ in {"PRP", "DT", "NN"}
    if subj.tag_ not in {"NN", "NNS", "NNP", "NNPS"}:
        return None, False
    coordinated = any(c.dep_ == "conj" for c in subj.children)
    if coordinated:
        return PLURAL, False
    number = PLURAL if subj.tag_ in {"NNS", "NNPS"} else SINGULAR
    if subj.tag_ == "NNP":
        # British English agrees in the plural with team and company names ("Flamengo lose",
        # "Google are"); without named-entity tags a person's name cannot be told apart.
        return number, False
    clear = lower not in _VARIABLE_NOUNS and not any(
        c.dep_ == "prep" and c.lower_ == "of" for c in subj.children
    )
    return number, clear


def number_of(verb: Token) -> tuple[str | None, bool]:
    """Return the agreement class of `verb`'s subject and whether it is unambiguous."""
    subj = subject(verb)
    return subject_number(subj) if subj is not None else (None, False)


def present_forms(lemma: str, number: str) -> tuple[str, ...]:
    """Return the present-tense forms of `lemma` that agree with a subject of `number`."""
    if lemma == "be":
        return (BE_PRESENT[number],)
    return dictionary_forms(lemma, "VBZ" if number == SINGULAR else "VBP", "VERB")


def visibly_agrees(verb: Token) -> bool:
    """Return True when a verb agrees with a subject whose number is clear (a plain pronoun or
    a simple noun): the one rule for when an agreement change is a forced error."""
    number, clear = number_of(verb)
    return clear and number is not None and _agrees(verb, number)


def _agrees(token: Token, number: str) -> bool:
    lower = token.lower_
    if lower in {"am", "is", "are"}:
        return lower == BE_PRESENT[number]
    if lower in {"was", "were"}:
        return lower == BE_PAST[number]
    if token.tag_ == "VBZ":
        return number == SINGULAR
    if token.tag_ == "VBP":
        return number != SINGULAR
    return False


def _finite_present(token: Token) -> bool:
    return token.tag_ in {"VBZ", "VBP"} or token.lower_ in {"was", "were"}


def _is_subjunctive(token: Token) -> bool:
    # "If I were you", "I wish she were here": "were" with a singular subject is grammatical.
    head = clause_head(token)
    if any(c.dep_ == "mark" and c.lower_ in {"if", "though"} for c in head.children):
        return True
    return any(t.lemma_ == "wish" for t in head.ancestors)


# A contracted negative the parser may read as a noun ("don´t" with an acute accent).
NEGATIVE_ENDINGS = ("n't", "n´t", "n’t")


def _after_negative(token: Token) -> bool:
    # A contracted negative right before the verb that the parser did not read as one ("don´t
    # have", or "don\u00B4t" split into "don\u00B4" + "t"): the verb is not finite there.
    before = token.doc[token.i - 1].lower_ if token.i > 0 else ""
    return before == "t" or before.endswith(NEGATIVE_ENDINGS)


# Modals whose contracted negative has its own stem ("can't" is "ca" + "n't" to spaCy).
_NEGATIVE_STEMS = {"can": "ca", "will": "wo", "shall": "sha"}


def _one(token: Token, word: str, rule: str, strict: bool) -> Candidate:
    following = token.nbor(1) if token.i + 1 < len(token.doc) else None
    if following is not None and following.lower_ == "n't" and not token.whitespace_:
        word = _NEGATIVE_STEMS.get(word, word)  # "couldn't" -> "can't", not "cann't"
    return Candidate(token.i, token.i + 1, (cased(word, token.text),), rule, strict)


def ordered(found: Iterable[Candidate]) -> list[Candidate]:
    """Return the candidates strict first, each edit once (a strict duplicate wins)."""
    seen: dict[tuple[int, int, tuple[str, ...]], Candidate] = {}
    for candidate in found:
        key = (candidate.start, candidate.end, tuple(w.lower() for w in candidate.new))
        if key not in seen or (candidate.strict and not seen[key].strict):
            seen[key] = candidate
    return sorted(seen.values(), key=lambda c: not c.strict)


# R:VERB:SVA ---------------------------------------------------------------------------------


def subject_verb_agreement(doc: Doc) -> Iterator[Candidate]:
    """Yield the finite present verbs (and was/were) with their agreement flipped: is/are,
    am -> is, was/were, has/have, does/do, VBZ <-> VBP; strict when the subject is a plain
    pronoun or noun that the verb agrees with."""
    found = []
    for token in doc:
        if not _alpha(token) or token.tag_ == "MD" or not _finite_present(token):
            continue
        lower = token.lower_
        number, _clear = number_of(token)
        strict = visibly_agrees(token)
        if lower in _SVA_FLIP:
            news: tuple[str, ...] = (_SVA_FLIP[lower],)
            if lower == "was" and _is_subjunctive(token):
                continue
            if lower == "were" and (number in {FIRST, SINGULAR} or _is_subjunctive(token)):
                strict = False
        else:
            other = "VBP" if token.tag_ == "VBZ" else "VBZ"
            news = tuple(f for f in dictionary_forms(token.lemma_.lower(), other, "VERB") if f != lower)
        for new in news[:1]:
            found.append(_one(token, new, "verb-sva-flip", strict))
    return iter(ordered(found))


# R:VERB:TENSE -------------------------------------------------------------------------------


def _anchor_clause(token: Token) -> Token | None:
    # The verb whose clause a time adverbial modifies: the nearest verbal ancestor.
    for ancestor in token.ancestors:
        if ancestor.pos_ in {"VERB", "AUX"} and ancestor.dep_ not in _AUX_DEPS:
            return ancestor
    return None


def _present_adverbial(token: Token) -> bool:
    # "nowadays", "these days", "at present" modifying a verb itself: not "now" or "today"
    # (past in a narrative), nor "currently" ("he was currently on tour" is heard), nor "at
    # the moment" ("at the moment, I didn't know" means "at that moment").
    if token.head.pos_ not in {"VERB", "AUX"} or token.head.i == token.i:
        return False
    lower = token.lower_
    if lower == "nowadays":
        found = token.dep_ == "advmod"
    elif lower == "days":
        found = token.dep_ == "npadvmod" and [c.lower_ for c in token.children] == ["these"]
    elif lower == "at":
        found = token.dep_ == "prep" and [c.lower_ for c in token.children] == ["present"]
    else:
        found = False
    return found and not _next_to_other_clause(token)


_CLAUSE_DEPS = frozenset({"relcl", "acl", "advcl", "ccomp", "xcomp", "conj", "csubj", "pcomp", "parataxis"})


def _next_to_other_clause(adverbial: Token) -> bool:
    """Return True when the adverbial's phrase touches another clause, which it may modify
    instead of its parsed head ("the people who live here nowadays were ...": "nowadays" may
    date "live")."""
    doc = adverbial.doc
    head = adverbial.head
    before, after = adverbial.left_edge.i - 1, adverbial.right_edge.i + 1
    while before >= 0 and doc[before].is_punct:
        before -= 1
    while after < len(doc) and doc[after].is_punct:
        after += 1
    return any(
        verb.dep_ in _CLAUSE_DEPS
        and verb.i != head.i
        and verb not in head.ancestors
        and (verb.right_edge.i == before or verb.left_edge.i == after)
        for verb in doc
        if verb.pos_ in {"VERB", "AUX"}
    )


def time_anchors(doc: Doc) -> dict[int, str]:
    """Return the clause heads (token index) that a time adverbial anchors, with PAST
    (yesterday, ... ago, last week, in 2010), FUTURE (tomorrow, next week) or PRESENT
    (nowadays, these days, at present)."""
    anchors: dict[int, str] = {}
    for token in doc:
        lower = token.lower_
        when = None
        target: Token | None = token
        if _present_adverbial(token):
            when = PRESENT
        elif lower == "yesterday":
            when = PAST
        elif lower == "tomorrow":
            when = FUTURE
        elif lower == "ago" and token.i > 0:
            when = PAST
        elif (
            lower in {"last", "next"}
            and token.head.lower_ in _TIME_NOUNS
            and token.head.i == token.i + 1
            # "the next day" in a narrative is past
            and not any(c.dep_ == "det" for c in token.head.children)
        ):
            when = PAST if lower == "last" else FUTURE
            target = token.head
        elif (
            token.like_num
            and len(token.text) == 4
            and token.text.isdigit()
            and 1900 <= int(token.text) <= _LAST_PAST_YEAR
            and token.dep_ == "pobj"
            and token.head.lower_ == "in"
        ):
            when = PAST
        if when is None or target is None or target.dep_ == "poss":
            continue  # "yesterday's newspaper" does not date the clause
        clause = _anchor_clause(target)
        if clause is not None and anchors.get(clause.i, when) == when:
            anchors[clause.i] = when
        elif clause is not None:
            anchors[clause.i] = ""  # anchored both ways ("I left yesterday and will come back tomorrow")
    return {i: w for i, w in anchors.items() if w}


def _aux_children(head: Token) -> list[Token]:
    return [c for c in head.children if c.dep_ in _AUX_DEPS]


def _past_to_present(token: Token, number: str | None) -> tuple[str, ...]:
    lower = token.lower_
    if lower in {"was", "were"}:
        if number is None:
            return ("is",) if lower == "was" else ("are",)
        return (BE_PRESENT[number],)
    if number is None:
        return ()
    lemma = "have" if lower == "had" else "do" if lower == "did" else token.lemma_.lower()
    return tuple(f for f in present_forms(lemma, number) if f != lower)


def _present_to_past(token: Token) -> tuple[str, ...]:
    lower = token.lower_
    if lower in {"am", "is"}:
        return ("was",)
    if lower == "are":
        return ("were",)
    return tuple(f for f in dictionary_forms(token.lemma_.lower(), "VBD", "VERB") if f != lower)


def _tense_swaps(token: Token) -> tuple[str, ...]:
    """The other-tense forms of a finite verb or auxiliary (empty if it has none)."""
    lower = token.lower_
    if token.tag_ == "MD":
        lower = {v: k for k, v in _NEGATIVE_STEMS.items()}.get(lower, lower)
        return (_MODAL_TENSE[lower],) if lower in _MODAL_TENSE else ()
    if token.tag_ == "VBD":
        return _past_to_present(token, number_of(token)[0])
    if token.tag_ in {"VBZ", "VBP"}:
        return _present_to_past(token)
    return ()


def _finite_of(head: Token) -> Token | None:
    # The tensed word of a clause: its first auxiliary, else the head when finite.
    auxes = [a for a in _aux_children(head) if a.i < head.i and a.tag_ != "TO"]
    if auxes:
        return auxes[0]
    return head if head.tag_ in {"VBD", "VBZ", "VBP"} else None


def _past_temporal_pair(token: Token) -> tuple[Token, ...]:
    # The finite verbs of a past temporal clause (`token`) and of its past main clause.
    if token.dep_ != "advcl" or not any(
        c.dep_ in {"mark", "advmod"} and c.lower_ in _TEMPORAL_MARKS for c in token.children
    ):
        return ()
    main = token.head
    while main.dep_ == "xcomp" and _finite_of(main) is None:  # "learned to play ... when I was"
        main = main.head
    pair = (_finite_of(token), _finite_of(main))
    return (
        tuple(v for v in pair if v is not None)
        if all(v is not None and v.tag_ == "VBD" and _alpha(v) for v in pair)
        else ()
    )


def past_anchored(doc: Doc) -> set[int]:
    """Return the clause heads (token index) whose past tense is fixed by the context: a past
    time adverbial, or a past temporal clause with its past main clause."""
    heads = {i for i, when in time_anchors(doc).items() if when == PAST}
    for token in doc:
        heads.update(clause_head(v).i for v in _past_temporal_pair(token))
    return heads


def _duration(token: Token) -> bool:
    # "since 2010", "since I moved", "for many years": a period reaching up to now.
    if token.lower_ == "since" and token.dep_ in {"prep", "mark"}:
        return True
    if token.dep_ == "advcl":
        return any(c.dep_ == "mark" and c.lower_ == "since" for c in token.children)
    return token.lower_ == "for" and any(c.lower_ in _DURATIONS for c in token.children)


def _perfect_since(verb: Token) -> Iterator[Candidate]:
    # "I have lived here since 2010" -> "I live here since 2010": the period needs the perfect.
    have = verb.doc[verb.i - 1] if verb.i > 0 else None
    if (
        verb.tag_ != "VBN"
        or have is None
        or have.lower_ not in {"have", "has"}
        or have.dep_ != "aux"
        or have.head.i != verb.i
        or not any(_duration(c) for c in verb.children)
    ):
        return
    number = number_of(have)[0]
    if number is None:
        return
    for new in present_forms(verb.lemma_.lower(), number)[:1]:
        yield Candidate(have.i, verb.i + 1, (cased(new, have.text),), "verb-tense-perfect-since")


_PERSONAL_SUBJECTS = frozenset({"i", "you", "he", "she", "it", "we", "they"})
# Verbs whose participle can follow a noun with two objects ("the man given a prize"): a noun
# subject with an object is then no proof that a finite verb is needed.
_DITRANSITIVE = frozenset({"give", "send", "show", "tell", "teach", "offer", "bring", "lend", "pay", "write"})


# Verbs whose past is also heard as a participle ("has showed", "has proved", "have got") or
# whose participle is another word to a learner ("born"): no participle/past swap is forced.
_LOOSE_PARTICIPLES = frozenset(
    {"show", "prove", "sew", "sow", "mow", "swell", "shave", "strew", "get", "bear"}
)
# Verbs whose past (and base) is heard after have / be in American English ("have beat them",
# "was beat", "have forgot"): no past or base forced there; a participle with no auxiliary
# ("we beaten them", "I forgotten it") is still wrong.
_PAST_AFTER_HAVE_HEARD = frozenset({"beat", "forget"})


def participle_only(verb: Token) -> tuple[str, ...]:
    """Return the verb's past participles that are neither its past nor its base or present
    ("seen", "gone", "taken"; none for "made", "come", "put", nor where the past is also heard
    as a participle: "showed", "got")."""
    lemma = verb.lemma_.lower()
    if lemma in _LOOSE_PARTICIPLES:
        return ()
    others = {f.lower() for tag in ("VBD", "VB", "VBP", "VBZ") for f in dictionary_forms(lemma, tag, "VERB")}
    return tuple(f for f in dictionary_forms(lemma, "VBN", "VERB") if f.lower() not in others)


def _participle_for_past(verb: Token) -> Iterator[Candidate]:
    # "We saw the garden" -> "We seen the garden": a participle with no auxiliary cannot be
    # the finite verb of a clause whose subject is a personal pronoun; after a noun subject
    # only with a direct object ("the man seen" could be a reduced relative).
    if verb.tag_ != "VBD" or verb.pos_ != "VERB" or not _alpha(verb) or _aux_children(verb):
        return
    if verb.lemma_.lower() in {"be", "have"}:
        return
    subj = subject(verb)
    if subj is None or subj.i > verb.i:
        return
    personal = subj.lower_ in _PERSONAL_SUBJECTS and subj.tag_ == "PRP"
    with_object = any(c.dep_ == "dobj" for c in verb.children) and verb.lemma_.lower() not in _DITRANSITIVE
    if not personal and not with_object:
        return
    for new in participle_only(verb)[:1]:
        if new != verb.lower_:
            yield _one(verb, new, "verb-tense-participle-for-past", True)


def conditional_present(verb: Token) -> str | None:
    """Return the base form of a present verb in an if/when clause whose main clause has
    "will" ("if it rains, we will stay"), where "will" is wrong; or in a temporal clause (when,
    until, before, after, once) whose main clause is about the future by another modal or is
    an imperative ("call me when you arrive", "we can talk when you come"); None for any other
    verb. A polite "if you will follow me" is why "if" needs a "will" in its main clause; a
    "when / if" clause of a verb that takes a question ("ask him when he comes", "find out
    when it starts") may be an embedded question, where "will" is English."""
    marks = {c.lower_ for c in verb.children if c.dep_ in {"mark", "advmod"}} & _CONDITION_MARKS
    if verb.dep_ != "advcl" or verb.tag_ not in {"VBZ", "VBP"} or not _alpha(verb) or _aux_children(verb):
        return None
    main = verb.head
    if marks & {"if", "unless"} and verb.lemma_.lower() in _VOLITIONAL:
        return None  # "if you will accept": "will" of willingness is English
    if marks & {"when", "if"} and main.lemma_.lower() in _WH_CLAUSE_VERBS:
        return None  # "ask him when he will come", "see if it will rain": an embedded question
    if not marks or not (
        any(c.lower_ == "will" and c.dep_ == "aux" for c in main.children)
        or (marks - {"if", "unless"} and _future_main(main))
    ):
        return None
    lemma = verb.lemma_.lower()
    bases = ("be",) if lemma == "be" else dictionary_forms(lemma, "VB", "VERB")
    return bases[0] if bases else None


# Verbs whose "will" in an if-clause can mean "be willing to" ("if you will follow me").
_VOLITIONAL = frozenset(
    {"accept", "agree", "help", "come", "follow", "wait", "listen", "excuse", "allow", "let", "give"}
    | {"tell", "sign", "stop", "join", "try", "do", "take", "pay", "send", "call", "answer"}
)


# Verbs whose "when / if" clause may be an embedded question, where "will" is English ("ask him
# when he will come", "let me know when you will arrive", "I'll see if it will rain"); spaCy
# attaches such a clause as an adverbial like any other.
_WH_CLAUSE_VERBS = frozenset(
    {"ask", "tell", "know", "find", "remember", "decide", "wonder", "explain", "show", "check"}
    | {"see", "forget", "learn", "say", "guess", "understand", "discover", "think", "imagine"}
    | {"predict", "inform", "notice", "consider", "doubt", "determine", "confirm", "worry"}
)


def _future_main(main: Token) -> bool:
    # A main clause about what is to come: a present modal ("we can talk") or an imperative.
    if any(c.dep_ == "aux" and c.lower_ in {"can", "shall", "must", "should", "'ll"} for c in main.children):
        return True
    return main.tag_ == "VB" and main.dep_ == "ROOT" and not _aux_children(main) and subject(main) is None


def _present_frame(head: Token) -> bool:
    """Return True when a clause anchored by "nowadays" cannot take the past: a main clause,
    or the complement of a present main verb ("I think that nowadays people are ..."), never
    reported after a past verb ("he said that nowadays people were ...") nor a verb with a
    clause of its own that the adverbial may belong to ("nowadays I think people are ..." ->
    "I thought people are" is English)."""
    if any(c.dep_ in {"ccomp", "parataxis"} for c in head.children):
        return False
    while head.dep_ == "conj" and head.head.i != head.i:
        head = head.head
    if head.dep_ == "ROOT":
        return True
    if head.dep_ != "ccomp" or head.head.dep_ != "ROOT":
        return False
    governor = _finite_of(head.head)
    return governor is not None and governor.tag_ in {"VBZ", "VBP"}


# The present of the modals a hypothetical clause takes: "I would" / "I could" -> "will", "can".
_HYPOTHETICAL_MODALS = {"would": "will", "could": "can"}


def _unreal_condition_will(verb: Token) -> Iterator[Candidate]:
    # "If I were rich, I would travel" -> "..., I will travel": "were" after a singular subject
    # is only ever the unreal (subjunctive) form, which the main clause must match with
    # "would". A plural "were" may be a real past ("if they were there, they will have seen
    # it"); "as if" conditions nothing ("he will act as if he were the boss").
    finite = _finite_of(verb)
    if finite is None or finite.lower_ not in _HYPOTHETICAL_MODALS or finite.tag_ != "MD":
        return
    for clause in verb.children:
        if clause.dep_ != "advcl" or not any(
            c.dep_ == "mark" and c.lower_ == "if" and (c.i == 0 or clause.doc[c.i - 1].lower_ != "as")
            for c in clause.children
        ):
            continue
        were = _finite_of(clause)
        number, clear = number_of(were) if were is not None else (None, False)
        if were is not None and were.lower_ == "were" and clear and number in {FIRST, SINGULAR}:
            yield _one(finite, _HYPOTHETICAL_MODALS[finite.lower_], "verb-tense-unreal-condition", True)
            return


def _wish_present(verb: Token) -> Iterator[Candidate]:
    # "I wish I had more time" -> "I wish I have": the clause after "wish" takes a past ("I
    # wish I knew", "I wish it were"), a past perfect or would / could, never a present.
    if verb.lemma_.lower() != "wish" or verb.pos_ != "VERB":
        return
    for clause in verb.children:
        # The clause must start right after "wish" ("I wish (that) I had"): a parse that hangs
        # a later clause on "wish" ("I wish you luck, we had fun") is no complement of it.
        finite = _finite_of(clause) if clause.dep_ == "ccomp" and clause.left_edge.i == verb.i + 1 else None
        if finite is None or not _alpha(finite) or subject(finite) is None:
            continue
        news: tuple[str, ...] = ()
        if finite.tag_ == "MD":
            news = (_HYPOTHETICAL_MODALS[finite.lower_],) if finite.lower_ in _HYPOTHETICAL_MODALS else ()
        elif finite.tag_ == "VBD":
            news = _past_to_present(finite, number_of(finite)[0])
        for new in news[:1]:
            yield _one(finite, new, "verb-tense-wish-present", True)


def _will_in_condition(verb: Token) -> Iterator[Candidate]:
    # "If it rains" -> "If it will rain" (a replacement); "if you visit" -> "if you will visit"
    # is an insertion, U:VERB:TENSE (`verb_forms`).
    base = conditional_present(verb)
    if base is not None and base != verb.lower_:
        yield Candidate(verb.i, verb.i + 1, ("will", base), "verb-tense-will-in-condition")


def tense(doc: Doc) -> Iterator[Candidate]:
    """Yield present <-> past swaps of finite verbs and auxiliaries (will <-> would, can <->
    could, is <-> was, has/have <-> had, does/do <-> did, VBZ/VBP <-> VBD). Strict only against
    a time adverbial (a past-anchored clause put into the present, a future-anchored "will go"
    into "went"), in a past-past coordination ("went home and cook"), a past temporal clause
    with its past main clause ("when I am young, I played"), a perfect with a period up to now
    ("I live here since 2010") or "will" in a conditional or temporal clause ("if it will rain,
    we will stay", "call me when he will come"); a present-time adverbial with the past
    ("nowadays people used"); "will" / "can" after an unreal "if I were" ("if I were rich, I
    will travel"); a present after "wish" ("I wish I have"); and a past made a participle with no
    auxiliary ("we saw it" -> "we seen it": after a personal pronoun, or a noun with a direct
    object, where no reduced relative reads). A coordinated state or habit ("visited Rome and
    love it") is never strict; the rest are not:
    a naive tense change is usually still grammatical."""
    found: list[Candidate] = []
    anchors = time_anchors(doc)
    for i, when in anchors.items():
        head = doc[i]
        finite = _finite_of(head)
        if finite is None or not _alpha(finite):
            continue
        if when == PAST and finite.tag_ == "VBD":
            number = number_of(finite)[0]
            for new in _past_to_present(finite, number)[:1]:
                found.append(_one(finite, new, "verb-tense-anchored-past", True))
        elif when == FUTURE and finite.lower_ == "will" and finite.i == head.i - 1 and head.tag_ == "VB":
            for new in dictionary_forms(head.lemma_.lower(), "VBD", "VERB")[:1]:
                found.append(
                    Candidate(finite.i, head.i + 1, (cased(new, finite.text),), "verb-tense-anchored-future")
                )
        elif (
            when == PRESENT
            and finite.tag_ in {"VBZ", "VBP"}
            and _present_frame(head)
            and not _after_negative(finite)  # "don´t had" would be no tense error
        ):
            for new in _present_to_past(finite)[:1]:
                found.append(_one(finite, new, "verb-tense-anchored-present", True))
    for token in doc:
        # Past-past coordination: "I went home and cooked" -> "... and cook".
        if (
            token.dep_ == "conj"
            and token.tag_ == "VBD"
            and token.head.tag_ == "VBD"
            and _alpha(token)
            and not _aux_children(token)
            and not _aux_children(token.head)
            and token.lower_ not in {"was", "were"}
            and token.lemma_.lower() not in _STATIVE
        ):
            for new in _past_to_present(token, number_of(token)[0])[:1]:
                found.append(_one(token, new, "verb-tense-coordination", True))
        # A past temporal clause and its past main clause anchor each other: "When I was
        # young, I played" -> "When I am young, I played" / "When I was young, I play".
        for verb in _past_temporal_pair(token):
            for new in _past_to_present(verb, number_of(verb)[0])[:1]:
                found.append(_one(verb, new, "verb-tense-when-clause", True))
        found.extend(_perfect_since(token))
        found.extend(_will_in_condition(token))
        found.extend(_unreal_condition_will(token))
        found.extend(_wish_present(token))
        found.extend(_participle_for_past(token))
    for token in doc:
        if not _alpha(token):
            continue
        if token.dep_ in _AUX_DEPS or token.tag_ == "MD":
            if token.i != getattr(_finite_of(clause_head(token)), "i", -1):
                continue
        elif _aux_children(token) or token.tag_ not in {"VBD", "VBZ", "VBP"}:
            continue
        for new in _tense_swaps(token)[:1]:
            found.append(_one(token, new, "verb-tense-swap", False))
    return iter(ordered(found))


# R:VERB:FORM --------------------------------------------------------------------------------


def _has_aux(verb: Token, lemmas: set[str], deps: tuple[str, ...] = ("aux",)) -> bool:
    return any(c.dep_ in deps and c.lemma_.lower() in lemmas and c.i < verb.i for c in verb.children)


def _infinitive_context(verb: Token) -> bool:
    for child in verb.children:
        if child.i > verb.i or child.dep_ != "aux":
            continue
        if child.tag_ == "TO" and child.lower_ == "to" and _after_used(child):
            return False  # "got used to put" is the annotator's slip: "putting" would repair it
        if (
            child.tag_ == "MD"
            or (child.tag_ == "TO" and child.lower_ == "to")
            or child.lemma_.lower() == "do"
        ):
            return True
    return False


def _after_used(to: Token) -> bool:
    """Return True for the "to" of "be / get used to", which a gerund follows."""
    doc = to.doc
    return to.i >= 2 and doc[to.i - 1].lower_ == "used" and doc[to.i - 2].lemma_.lower() in {"be", "get"}


# Verbs that take a gerund and never a to-infinitive ("enjoy swimming", *"enjoy to swim"), and
# the reverse ("want to go", *"want going").
_GERUND_VERBS = frozenset(
    {
        "enjoy",
        "avoid",
        "finish",
        "mind",
        "suggest",
        "recommend",
        "keep",
        "consider",
        "practise",
        "practice",
        "deny",
        "miss",
        "imagine",
        "risk",
        "quit",
        "postpone",
        "delay",
        "admit",
    }
)
_INFINITIVE_VERBS = frozenset(
    {
        "want",
        "decide",
        "hope",
        "plan",
        "agree",
        "promise",
        "refuse",
        "expect",
        "manage",
        "afford",
        "seem",
        "choose",
        "offer",
        "fail",
        "tend",
        "wish",
        "need",
        "learn",
        "pretend",
        "deserve",
    }
)


# Verbs that take a gerund or a to-infinitive but never a bare infinitive ("start reading",
# "start to read", *"start read"); help, let, make, see, go ... take a bare one.
_NO_BARE_INFINITIVE = _GERUND_VERBS | frozenset(
    {"start", "begin", "stop", "continue", "like", "love", "hate", "prefer", "try", "forget", "regret"}
)


def _compound_reading(gerund: Token, bases: tuple[str, ...]) -> bool:
    """Return True when the base form, a noun too, and the singular noun right after the gerund
    can read as a compound noun ("in programming language" -> "in program language")."""
    following = gerund.doc[gerund.i + 1] if gerund.i + 1 < len(gerund.doc) else None
    return bool(bases) and bool(lemmas(bases[0], "NOUN")) and following is not None and following.tag_ == "NN"


def _bare_base_wrong(gerund: Token, bases: tuple[str, ...]) -> bool:
    """Return True when the gerund's base form could not stand in its place as a noun either:
    it is no noun ("stop sing") or it keeps a direct object, which no noun takes ("learn
    languages brings", "started read a book"; but "I love work", "study abroad is", "play
    between the sides" are noun phrases); and the gerund has no subject of its own ("I saw him
    run")."""
    if not bases or any(c.dep_ in {"nsubj", "nsubjpass", "cc", "conj"} for c in gerund.children):
        return False
    return not lemmas(bases[0], "NOUN") or any(
        c.dep_ == "dobj"
        and (
            (c.i == gerund.i + 1 and c.tag_ in {"NNS", "NNP", "NNPS", "PRP"})
            or any(d.dep_ in {"det", "poss"} for d in c.children)
        )
        for c in gerund.children
    )


_NOMINATIVE = frozenset({"i", "we", "they", "he", "she"})


def _main_clause(clause: Token) -> bool:
    # A clause with its own subject and no subordinator ("when", "if", "because").
    return (
        clause.dep_ in {"ccomp", "parataxis", "conj", "advcl"}
        and any(c.dep_ in _SUBJECT_DEPS for c in clause.children)
        and not any(c.dep_ == "mark" or (c.dep_ == "advmod" and c.tag_ == "WRB") for c in clause.children)
    )


def _bare_progressive_slot(verb: Token) -> bool:
    """Return True when the -ing form of a finite present verb leaves its clause with no
    finite verb and no English reading: no auxiliary, a nominative pronoun subject, which no
    noun phrase or gerund clause starts ("people seeing it", "you knowing it hurts me" are
    English), in a clause that cannot be read as an absolute one ("we saw them, I carrying
    the bag"; "we knowing the way, they came"); not a verb of state ("I knowing"), which
    learners seldom make progressive."""
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    following = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    lemma = verb.lemma_.lower()
    if (
        subj is None
        or subj.i > verb.i
        or subj.tag_ != "PRP"
        or subj.lower_ not in _NOMINATIVE
        or verb.pos_ != "VERB"
        or lemma in _STATE_VERBS | {"be"}
        or _aux_children(verb)
        # "I don´t", "let's": a negative or clitic the parser reads as no auxiliary
        or any(c.dep_ == "neg" for c in verb.children)
        or (following is not None and not verb.whitespace_ and not following.is_punct)
        or _after_negative(verb)
        # "as well as I do": a pro-verb, no progressive a learner would make
        or (lemma == "do" and not any(c.dep_ == "dobj" for c in verb.children))
    ):
        return False
    return _introduced(verb, subj) or (
        verb.dep_ == "ROOT"
        and not any(_main_clause(c) for c in verb.children if c.i < subj.i)
        and not any(t.text in {",", ";", ":", "-", "--"} for t in verb.doc[verb.i + 1 : verb.sent.end])
    )


def _introduced(verb: Token, subj: Token) -> bool:
    # A clause that a subordinator ("because we go"), a relative ("the film we watch") or a
    # coordinator right before its subject ("... and we go") opens: never an absolute clause.
    doc = verb.doc
    before = doc[subj.i - 1] if subj.i > 0 else None
    if verb.dep_ == "relcl":
        return True
    if verb.dep_ in {"advcl", "ccomp"} and any(
        c.dep_ == "mark" or (c.dep_ == "advmod" and c.tag_ == "WRB") for c in verb.children if c.i < subj.i
    ):
        return True
    return (
        verb.dep_ == "conj"
        and before is not None
        and before.dep_ == "cc"
        and before.lower_ in {"and", "but", "or"}
    )


def verb_form(doc: Doc) -> Iterator[Candidate]:
    """Yield wrong non-finite forms in contexts that force the right one: a bare infinitive
    after a modal, "to" or do-support -> -ing or past ("can going", "to went"); a progressive
    -ing -> base form ("am go"); -ing after a preposition -> base ("interested in learn");
    a perfect participle -> past, -ing or base ("have went", "have seeing", "have see"); a
    passive participle -> past or base ("was wrote", "was build"); a gerund after
    enjoy/recommend... -> "to" + base ("recommend to do"), "to" + base after want/decide... ->
    gerund ("want going"); a gerund -> base after a verb that takes no bare infinitive
    ("stopped eat meat") or as a subject ("Learn English opens doors"), where the base cannot
    be read as a noun; a finite present after a nominative pronoun -> -ing, a progressive
    without its be ("we visiting them"). Any other gerund object -> base ("I love work") is
    not strict."""
    found: list[Candidate] = []
    for verb in doc:
        if (
            not _alpha(verb)
            or verb.pos_ not in {"VERB", "AUX"}
            or (verb.dep_ in _AUX_DEPS and verb.tag_ != "VB")
        ):
            continue
        lemma = verb.lemma_.lower()
        lower = verb.lower_
        to = verb.doc[verb.i - 1] if verb.i > 0 else None
        if (
            verb.tag_ == "VB"
            and to is not None
            and to.tag_ == "TO"
            and to.head.i == verb.i
            and verb.dep_ == "xcomp"
            and verb.head.lemma_.lower() in _INFINITIVE_VERBS
            and verb.head.i < to.i
        ):
            # "want to go" -> "want going": these verbs take no gerund.
            for new in dictionary_forms(lemma, "VBG", "VERB")[:1]:
                found.append(Candidate(to.i, verb.i + 1, (new,), "verb-form-infinitive-to-gerund"))
        if verb.tag_ == "VB" and _infinitive_context(verb):
            for tag, rule in (
                ("VBG", "verb-form-infinitive-ing"),
                ("VBD", "verb-form-infinitive-past"),
                ("VBN", "verb-form-infinitive-participle"),
            ):
                for new in dictionary_forms(lemma, tag, "VERB")[:1]:
                    if new != lower:
                        found.append(_one(verb, new, rule, True))
        elif verb.tag_ == "VBG":
            bases = tuple(f for f in dictionary_forms(lemma, "VB", "VERB") if f != lower)
            if _has_aux(verb, {"be"}):
                rule, strict = "verb-form-progressive-base", True
            elif verb.dep_ in {"pcomp", "pobj"} and verb.head.tag_ == "IN":
                # "look forward to see" is wrong, but "used to deal" is English with another sense;
                # "in program language" may read as a compound noun.
                rule, strict = (
                    "verb-form-preposition-base",
                    verb.head.lower_ != "to" and not _compound_reading(verb, bases),
                )
            elif (
                verb.dep_ in {"xcomp", "dobj"} and verb.head.pos_ == "VERB" and not _infinitive_context(verb)
            ):
                rule, strict = "verb-form-gerund-base", False
                if _bare_base_wrong(verb, bases) and verb.head.lemma_.lower() in _NO_BARE_INFINITIVE:
                    rule, strict = "verb-form-gerund-object-base", True  # "I stopped sing"
                if verb.head.lemma_.lower() in _GERUND_VERBS and verb.head.i < verb.i:
                    # "recommend doing" -> "recommend to do": these verbs take no infinitive.
                    for new in bases[:1]:
                        found.append(
                            Candidate(verb.i, verb.i + 1, ("to", new), "verb-form-gerund-to-infinitive")
                        )
            elif verb.dep_ == "csubj" and verb.head.i > verb.i and _bare_base_wrong(verb, bases):
                # "Learning languages brings ..." -> "Learn languages brings ...": a bare verb
                # cannot be a subject.
                rule, strict = "verb-form-gerund-subject-base", True
            else:
                continue
            for new in bases[:1]:
                found.append(_one(verb, new, rule, strict))
        elif verb.tag_ in {"VBZ", "VBP"} and _bare_progressive_slot(verb):
            # "We visit them" -> "We visiting them": a progressive without its be.
            for new in dictionary_forms(lemma, "VBG", "VERB")[:1]:
                found.append(_one(verb, new, "verb-form-finite-ing", True))
        elif verb.tag_ == "VBN":
            heard = lemma in _PAST_AFTER_HAVE_HEARD
            heard_forms = set(dictionary_forms(lemma, "VBD", "VERB")) if heard else set()
            bases = tuple(
                f for f in dictionary_forms(lemma, "VB", "VERB") if f != lower and f not in heard_forms
            )
            # "have gone" -> "have went", "was written" -> "was wrote": a past that is not also
            # the participle never follows have or a passive be ("have beat" is heard).
            pasts = (
                ()
                if lemma in {"be", "have"} or heard or lower not in participle_only(verb)
                else dictionary_forms(lemma, "VBD", "VERB")
            )
            passive = _has_aux(verb, {"be", "get"}, ("auxpass",))
            # "has been built" -> "has been building" is English: a passive is not a perfect here.
            if _has_aux(verb, {"have"}) and not passive:
                for new in pasts[:1]:
                    found.append(_one(verb, new, "verb-form-perfect-past", True))
                for new in dictionary_forms(lemma, "VBG", "VERB")[:1]:
                    found.append(_one(verb, new, "verb-form-perfect-ing", True))
                for new in bases[:1]:
                    found.append(_one(verb, new, "verb-form-perfect-base", True))
            elif passive:
                for new in pasts[:1]:
                    found.append(_one(verb, new, "verb-form-passive-past", True))
                for new in bases[:1]:
                    # "must be cleaned" -> "be clean" is English: the base is also an adjective.
                    found.append(_one(verb, new, "verb-form-passive-base", not lemmas(new, "ADJ")))
    return iter(ordered(found))


# R:VERB:INFL --------------------------------------------------------------------------------


def verb_inflection(doc: Doc) -> Iterator[Candidate]:
    """Yield irregular pasts and participles regularised into non-words ("goed", "telled",
    "buyed", "writed"): always wrong (the forms are never real words)."""
    for verb in doc:
        if verb.tag_ not in {"VBD", "VBN"} or not _alpha(verb) or verb.pos_ != "VERB":
            continue
        lemma = verb.lemma_.lower()
        if lemma in {"be", "have", "do"} or not lemma.isalpha():
            continue
        for new in rule_forms(lemma, verb.tag_, "VERB")[:1]:
            if new != verb.lower_:
                yield _one(verb, new, "verb-infl-regularised", True)


# R:VERB -------------------------------------------------------------------------------------

_CONFUSABLE: dict[str, tuple[str, ...]] = {
    "say": ("tell",),
    "tell": ("say",),
    "make": ("do",),
    "do": ("make",),
    "speak": ("talk",),
    "talk": ("speak",),
    "lend": ("borrow",),
    "borrow": ("lend",),
    "bring": ("take",),
    "take": ("bring",),
    "hear": ("listen",),
    "listen": ("hear",),
    "see": ("watch", "look"),
    "watch": ("see", "look"),
    "look": ("see",),
    "raise": ("rise",),
    "rise": ("raise",),
    "learn": ("teach",),
    "teach": ("learn",),
    "win": ("earn",),
    "earn": ("win",),
    "reach": ("arrive",),
    "arrive": ("reach",),
    "remind": ("remember",),
    "remember": ("remind",),
    "miss": ("lose",),
    "lose": ("miss",),
    "steal": ("rob",),
    "rob": ("steal",),
    "wait": ("expect",),
    "expect": ("wait",),
}
# Objects that fix make or do ("do homework", "make a mistake"): the other verb is wrong.
_DO_OBJECTS = frozenset(
    {
        "homework",
        "housework",
        "exercise",
        "exercises",
        "sport",
        "sports",
        "job",
        "work",
        "best",
        "shopping",
        "business",
        "favour",
        "favor",
        "research",
        "damage",
        "harm",
        "dishes",
        "course",
        "test",
        "exam",
    }
)
_MAKE_OBJECTS = frozenset(
    {
        "mistake",
        "mistakes",
        "decision",
        "decisions",
        "friends",
        "money",
        "noise",
        "effort",
        "progress",
        "plan",
        "plans",
        "call",
        "difference",
        "choice",
        "choices",
        "suggestion",
        "promise",
        "complaint",
        "cake",
        "dinner",
        "lunch",
        "breakfast",
        "sense",
        "fun",
        "appointment",
        "trouble",
        "mess",
    }
)
_LANGUAGES = frozenset(
    {
        "english",
        "french",
        "german",
        "spanish",
        "italian",
        "chinese",
        "japanese",
        "arabic",
        "russian",
        "portuguese",
        "polish",
        "turkish",
        "korean",
        "dutch",
        "greek",
        "hindi",
        "language",
        "languages",
    }
)
_WIN_OBJECTS = frozenset(
    {
        "game",
        "games",
        "match",
        "competition",
        "race",
        "war",
        "election",
        "prize",
        "medal",
        "championship",
        "cup",
        "lottery",
    }
)
_MISS_OBJECTS = frozenset(
    {"bus", "train", "plane", "flight", "class", "lesson", "lessons", "chance", "opportunity", "deadline"}
)
_WATCH_OBJECTS = frozenset({"tv", "television", "match", "game", "football"})


def _objects(verb: Token) -> tuple[list[Token], list[Token], list[Token]]:
    direct = [c for c in verb.children if c.dep_ == "dobj"]
    indirect = [c for c in verb.children if c.dep_ == "dative"]
    preps = [c for c in verb.children if c.dep_ == "prep"]
    return direct, indirect, preps


def _person(token: Token) -> bool:
    return token.tag_ in {"PRP", "NNP"} or token.lower_ in {
        "people",
        "friend",
        "friends",
        "teacher",
        "students",
        "children",
        "parents",
        "mother",
        "father",
    }


def _frame_forces(lemma: str, partner: str, verb: Token) -> bool:
    """True when `verb`'s frame makes the confusable partner ungrammatical."""
    direct, indirect, preps = _objects(verb)
    objects = {o.lower_ for o in direct}
    prep_words = {p.lower_ for p in preps}
    clause = any(c.dep_ in {"ccomp", "xcomp"} for c in verb.children)
    if partner == "look":  # intransitive: *"look a film"
        return bool(direct)
    if lemma == "look":  # "look at" / "look for" / "look happy" -> *"see at", *"see happy"
        return bool(prep_words & {"at", "for"}) or any(c.dep_ == "acomp" for c in verb.children)
    if lemma == "reach":  # "reach the station" -> *"arrive the station"
        return bool(direct)
    if lemma == "arrive":  # "arrive at/in" -> *"reach at"
        return bool(prep_words & {"at", "in"})
    if lemma == "remind":  # "remind me of" -> *"remember me of"
        return any(_person(o) for o in direct) and bool(prep_words & {"of", "about"} or clause)
    if lemma == "remember":  # "remember that ..." -> *"remind that ..." (remind needs a hearer)
        return clause and not direct
    if lemma == "miss":  # "miss the bus" -> *"lose the bus"
        return bool(objects & _MISS_OBJECTS)
    if lemma == "steal":  # "steal a phone" -> *"rob a phone" (rob takes the victim)
        return bool(direct) and not any(_person(o) for o in direct) and "from" not in prep_words
    if lemma == "rob":  # "rob me" / "rob a bank" -> *"steal me"
        return bool(direct)
    if lemma == "wait":  # "wait for" -> *"expect for"
        return "for" in prep_words
    if lemma == "expect":  # "expect a letter" -> *"wait a letter"
        return bool(direct)
    if lemma in {"lose", "see"}:
        return False
    if lemma == "tell":  # "tell me" -> *"say me"
        return bool(indirect) or any(_person(o) for o in direct)
    if lemma == "say":  # "said that..." / "said it" with no hearer -> *"told that..."
        return (clause or bool(direct)) and not indirect and "to" not in prep_words
    if lemma == "do":
        return bool(objects & _DO_OBJECTS)
    if lemma == "make":
        return bool(objects & _MAKE_OBJECTS)
    if lemma == "speak":
        return bool(objects & _LANGUAGES)
    if lemma == "lend":
        return bool(indirect) or any(_person(o) for o in direct)
    if lemma == "borrow":
        return "from" in prep_words
    if lemma == "hear":  # transitive: *"listen him"
        return bool(direct)
    if lemma == "listen":  # *"hear to music"
        return "to" in prep_words
    if lemma == "raise":  # transitive: *"rise my hand"
        return bool(direct)
    if lemma == "rise":  # intransitive: *"prices raise"
        return not direct and not indirect
    if lemma == "teach":  # "teach me English" -> *"learn me English"
        return bool(indirect) or any(_person(o) for o in direct)
    if lemma == "win":
        return bool(objects & _WIN_OBJECTS)
    if lemma == "watch":
        return bool(objects & _WATCH_OBJECTS)
    return False


def confusable_verb(doc: Doc) -> Iterator[Candidate]:
    """Yield a commonly confused verb in the same form (say/tell, make/do, speak/talk,
    lend/borrow, bring/take, hear/listen, see/watch/look, raise/rise, learn/teach, win/earn,
    reach/arrive, remind/remember, miss/lose, steal/rob, wait/expect);
    strict where the verb's frame rules the partner out ("told me" -> "said me", "did my
    homework" -> "made my homework", "listen to" -> "hear to")."""
    found = []
    for verb in doc:
        if verb.pos_ != "VERB" or not _alpha(verb) or verb.dep_ in _AUX_DEPS:
            continue
        lemma = verb.lemma_.lower()
        for partner in _CONFUSABLE.get(lemma, ()):
            forms = tuple(f for f in dictionary_forms(partner, verb.tag_, "VERB") if f != verb.lower_)
            strict = _frame_forces(lemma, partner, verb)
            for new in forms[:1]:
                found.append(_one(verb, new, f"verb-confusable-{lemma}-{partner}", strict))
    return iter(ordered(found))


RULES: dict[str, tuple[Generator, ...]] = {
    "R:VERB:SVA": (subject_verb_agreement,),
    "R:VERB:TENSE": (tense,),
    "R:VERB:FORM": (verb_form,),
    "R:VERB:INFL": (verb_inflection,),
    "R:VERB": (confusable_verb,),
}
