"""Noun errors: R:NOUN:NUM (singular for plural and back), R:NOUN:INFL (a regularised plural
that is no English word: "childs", "informations"), and the possessive types M:NOUN:POSS (a
missing 's), U:NOUN:POSS (an 's where none belongs) and R:NOUN:POSS (the wrong possessive form,
or a plural written as a possessive: "my friend's are kind").

Number changes use LemmInflect's dictionary forms only (real words). Strict candidates are those
whose context fixes the noun's number: a determiner, quantifier or numeral ("two brother", "this
books"), "one of the ___", the subject-verb agreement of a finite verb ("my parent are"), or
"there are / were" before a lone plural ("there are different approach"). Time nouns follow
idioms ("all the year", "some other day", "a 15 year old boy") and have their own rule: only a
plural numeral or quantifier ("for 15 year", "many time") or "every / each" ("every days")
fixes their number.
INFL forms are non-words and always wrong. What ERRANT calls NOUN:POSS (measured with errant
3.0.2): "John car" for "John's car" is M:NOUN:POSS, "the car's door" for "the car door"
U:NOUN:POSS; "friend's" for "friends'" or for a plain plural "friends", "my friends name" for
"my friend's name" and "parents's" for "parents'" are R:NOUN:POSS. A new "'s" before a verb is
often tagged as "is" by spaCy (ERRANT then says R:OTHER or U:CONTR): validation drops those.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from triplets.candidates import Candidate, cased
from triplets.lexicon import dictionary_forms, lemmas, rule_forms
from triplets.rules._nominal import (
    COUNTED_TIME_NOUNS,
    DAYS,
    MONTHS,
    PLURAL,
    PLURAL_MARKERS,
    SINGULAR,
    TIME_NOUNS,
    TITLE_NOUNS,
    anchored_number,
    count_only,
    finite_number,
    is_person_noun,
    plural_numeral,
    strictly_uncountable,
    words,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# Dependencies where a noun's number follows idiom rather than grammar ("a bus stop", "two
# years ago", "cats and dogs" may be singular generics).
_SKIPPED_DEPS = frozenset({"compound", "npadvmod", "poss", "appos", "nmod"})
# Nouns whose singular and plural are both idiomatic almost anywhere.
_EITHER_NUMBER = words("people police cattle clothes news data media series species staff")
# Possessive pronouns the tagger may read as nouns ("mine is little" -> "mines").
_PRONOUNS_AS_NOUNS = words("mine yours hers ours theirs")

# "nobody's", "someone's" before a verb read as "nobody is / has".
_INDEFINITE_ENDINGS = ("body", "one", "thing")


def _common_nouns(doc: Doc) -> Iterator[Token]:
    """Yield the common nouns whose number rules may change."""
    for token in doc:
        if token.tag_ not in {"NN", "NNS"} or token.pos_ != "NOUN" or not token.is_alpha or token.is_upper:
            continue
        if token.dep_ in _SKIPPED_DEPS or token.lower_ in TIME_NOUNS or token.lower_ in DAYS | MONTHS:
            continue
        if token.i + 1 < len(doc) and doc[token.i + 1].tag_ == "POS":
            continue
        yield token


def _other_number(noun: Token) -> tuple[str, ...]:
    """Return the noun's dictionary forms in the other number (real words only)."""
    tag = "NNS" if noun.tag_ == "NN" else "NN"
    lemma = noun.lemma_.lower()
    forms = dictionary_forms(lemma, tag, "NOUN")
    return tuple(f for f in forms if f.lower() != noun.lower_)


# --- R:NOUN:NUM -------------------------------------------------------------------------------


def number_flip(doc: Doc) -> Iterator[Candidate]:
    """Yield a singular noun made plural or a plural one singular (dictionary forms only);
    strict when a determiner, numeral or the verb's agreement fixes the corrected number ("two
    brother", "this books", "my parent are"), by "there are" before a lone plural, by the verb
    of a relative clause on it ("the garden that are") or by "are" between a plural subject and
    a noun for people ("my parents are teacher"), and by a bare plural of a count-only noun
    made a bare singular ("we need doctor", "I like computer"); not strict elsewhere ("I like
    cat" can be read as a mass use). A plural after "a" ("a books") is marked unlikely: learners
    seldom write it."""
    for noun in _common_nouns(doc):
        if noun.lower_ in _EITHER_NUMBER or noun.lower_ in _PRONOUNS_AS_NOUNS:
            continue
        forms = _other_number(noun)
        if not forms:
            continue
        number = anchored_number(noun)
        current = SINGULAR if noun.tag_ == "NN" else PLURAL
        if number is not None and number != current:
            continue  # the corrected sentence disagrees with itself: leave it
        # An uncountable noun has no plural in standard English: "advices" is wrong anywhere.
        strict = number == current or (current == SINGULAR and strictly_uncountable(noun.lemma_))
        rule = "noun_number"
        if number is None:
            if current == PLURAL and _plural_by_existential(noun):
                rule, strict = "noun_number_there_are", True
            elif _relative_number(noun) == current:
                rule, strict = "noun_number_relative", True
            elif current == PLURAL and _plural_predicate(noun, forms[0]):
                rule, strict = "noun_number_predicate", True
            elif current == PLURAL and _bare_count_plural(noun, forms[0]):
                rule, strict = "noun_number_bare_count", True
        # "a things" is wrong but seldom what learners write: tried after the other strict ones.
        after_a = current == SINGULAR and any(
            c.dep_ == "det" and c.lower_ in {"a", "an", "another"} for c in noun.children
        )
        yield Candidate(noun.i, noun.i + 1, (cased(forms[0], noun.text),), rule, strict, likely=not after_a)


# Verbs with a person object and a question after it ("ask the teacher who is coming", "show
# the students which is best"): a who/which clause there may be the question, not a relative.
_QUESTION_VERBS = words("ask tell show teach inform remind advise warn")


def _relative_number(noun: Token) -> str | None:
    """Return the number that the verb of a relative clause on the noun shows through its
    relative subject ("the gardens that are": plural); None when there is none, when a
    "which" after a comma may stand for a whole clause ("I got flowers, which is nice"), or when
    a who/which clause after the object of "ask / tell / show" may be an indirect question ("I
    asked the teachers who was coming")."""
    if noun.dep_ == "pobj" and noun.head.head.pos_ in {"NOUN", "PROPN", "PRON"}:
        return None  # "the garden of the museums that is famous": the clause may be the garden's
    question = noun.dep_ in {"dobj", "dative"} and noun.head.lemma_.lower() in _QUESTION_VERBS
    for clause in noun.children:
        if clause.dep_ != "relcl" or clause.i < noun.i:
            continue
        relative = next((c for c in clause.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
        if relative is None or relative.lower_ not in {"that", "which", "who"}:
            continue
        if question and relative.lower_ != "that":
            continue  # "I asked the teacher who was coming": an indirect question, no relative
        if relative.lower_ == "which" and relative.i > 0 and noun.doc[relative.i - 1].is_punct:
            continue
        return finite_number(clause)
    return None


def _plural_predicate(noun: Token, singular: str) -> bool:
    """Return True for a plural noun for people after "are / were" with a plural subject
    ("my parents are teachers", "they were my friends"): the bare singular has no reading. A
    singular that is also an adjective ("they are adult", "expert") is English, as is "you are
    my friend"."""
    verb = noun.head
    if noun.dep_ != "attr" or verb.lower_ not in {"are", "were"} or lemmas(singular.lower(), "ADJ"):
        return False
    if not is_person_noun(noun.lemma_):
        return False
    if any(c.dep_ == "conj" for c in noun.children) or any(c.dep_ == "det" for c in noun.children):
        return False  # "they are the teachers" keeps the verb's number with "the"
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    if subj is None or any(c.dep_ == "conj" for c in subj.children):
        return False
    return subj.lower_ in {"we", "they", "these", "those"} or subj.tag_ == "NNS"


# Prepositions after which a bare singular of a count-only noun has no reading ("a group of
# student", "good for child"); "as", "by", "like", "from ... to", "on", "in" and "at" take role
# nouns and bare idioms ("work as doctor", "by phone", "from student to teacher", "on
# computer", "in person").
_BARE_COUNT_PREPOSITIONS = words("of for with without about among between against towards toward")
# Nouns whose "of" takes a bare singular: a kind ("this kind of book") or a role ("the role of
# teacher", "the post of manager").
_KIND_OR_ROLE = words(
    """kind kinds type types sort sorts form forms variety style brand genre category manner
    species breed make model models class generation choice
    role roles position post job title rank office status profession career duty duties"""
)
# Verbs after which a person noun may stand bare as a role ("play doctor", "turn traitor", "they
# made him captain", "elected president") or a thing in an idiom ("keep house").
_ROLE_VERBS = words(
    "become turn remain stay make elect appoint name call crown declare consider play act pose serve go keep"
)
# Verbs that take a bare infinitive, so that a singular that is also a verb may read as one ("help
# parent", "let partner"), as after "to" or a modal.
_MAY_PRECEDE_BARE_VERB = words("help make let see watch hear feel have notice bid dare")
# Person nouns that are also verbs ("to parent", "to friend someone") where LemmInflect lists none.
_ALSO_VERBS = words("parent friend")
# Words before a noun that count, point or address it ("some student", "no friend", "which
# book", "such book" are other errors or English; "dear friend" is a vocative).
_DETERMINER_LIKE = words(
    """some any no every each many much few little several more most less fewer enough all both
    other another such certain various numerous next last first second third only same own what
    which whose whatever whichever dear"""
)
# Words that point a singular after them, whatever they are in the corrected sentence ("so that
# students could" -> "so that student could").
_POINTING = _DETERMINER_LIKE | words("that this these those the a an")
_BARE_COUNT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "dative", "pobj"})
_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})


def _bare_count_plural(noun: Token, singular: str) -> bool:
    """Return True for a bare plural of a count-only noun (`count_only`: "doctors", "children",
    "computers") that a subject, object or the object of a listed preposition holds in a clause
    with a finite verb, where the bare singular has no reading ("we need doctor everywhere",
    "universities help child", "a group of student"). Left alone: a determiner, possessive,
    numeral or quantifier before it, a coordinated noun ("mother and child"), a role after
    "as" or a role verb ("work as doctor", "play doctor"), "kind of book", "role of teacher",
    "with child", a vocative ("thank you teacher", "Dear students,"), a title before a name
    ("teacher Anna"), a singular that is also an adjective ("adult", "novel") or, after "to", a
    modal or "help / make / let", a verb ("help parent"), and a sentence with no finite verb (a
    headline)."""
    lemma = noun.lemma_.lower()
    if not count_only(lemma) or lemmas(singular.lower(), "ADJ") or noun.dep_ not in _BARE_COUNT_DEPS:
        return False
    if any(c.dep_ in {"conj", "cc", "preconj", "appos"} for c in noun.children) or noun.dep_ == "conj":
        return False
    doc, head = noun.doc, noun.head
    for left in doc[noun.left_edge.i : noun.i]:
        if (
            left.tag_ not in {"JJ", "JJR", "NN", "HYPH", "RB", "VBN", "VBG"}
            or left.lower_ in _DETERMINER_LIKE
        ):
            return False
        if left.ent_type_ in {"ORDINAL", "CARDINAL"}:
            return False
    if noun.dep_ == "pobj":
        if head.lower_ not in _BARE_COUNT_PREPOSITIONS or (head.lower_ == "with" and lemma == "child"):
            return False
        if head.lower_ == "of" and (
            head.head.lemma_.lower() in _KIND_OR_ROLE or head.head.lower_ in _KIND_OR_ROLE
        ):
            return False
    elif head.pos_ not in {"VERB", "AUX"} or (
        noun.dep_ in {"dobj", "dative"} and head.lemma_.lower() in _ROLE_VERBS
    ):
        return False
    if noun.dep_ in {"nsubj", "nsubjpass"} and lemma in TITLE_NOUNS:
        return False  # "Doctor said I should rest": a title used as a name
    before = doc[noun.i - 1] if noun.i > 0 else None
    after = doc[noun.i + 1] if noun.i + 1 < len(doc) else None
    if before is not None and (before.is_punct or before.lower_ == "you" or before.pos_ == "INTJ"):
        return False  # "Thank you, teachers", "thank you teachers", "Hi friends"
    # "so that students could" -> "so that student could" reads as "that student"; a name before
    # it may make one compound with it.
    if before is not None and (
        before.lower_ in _POINTING or before.tag_ in {"DT", "PDT", "WDT", "PRP$", "CD", "NNP", "NNPS"}
    ):
        return False
    if after is not None and (after.pos_ in {"NOUN", "PROPN", "NUM"} or after.tag_ == "VBG"):
        return False  # "teacher Anna", "room 12", a compound with the next word
    if after is not None and after.lower_ == "," and noun.i - noun.sent.start < 3:
        return False  # "Students, please sit down."
    if (lemmas(singular.lower(), "VERB") or lemma in _ALSO_VERBS) and (
        (
            before is not None
            and (before.tag_ in {"TO", "MD"} or before.lemma_.lower() in _MAY_PRECEDE_BARE_VERB)
        )
        or head.lemma_.lower() in _MAY_PRECEDE_BARE_VERB
    ):
        return False
    if any(t.lemma_.lower() == lemma and t.i != noun.i for t in doc[max(noun.i - 3, 0) : noun.i + 4]):
        return False  # "student after student", "from door to door"
    return any(t.tag_ in _FINITE_TAGS for t in noun.sent)


def _plural_by_existential(noun: Token) -> bool:
    """Return True for the lone plural noun after "there are / were" ("there are different
    approaches": "there are different approach" has no reading); a coordinated noun is left
    alone ("there are a park, shops and cafes")."""
    verb = noun.head
    return (
        noun.dep_ == "attr"
        and verb.lower_ in {"are", "were"}
        and any(c.dep_ == "expl" for c in verb.children)
        and not any(c.dep_ == "conj" for c in noun.children)
        and noun.dep_ != "conj"
    )


# Time nouns whose number a count fixes like any other noun's ("for 15 year", "three time a
# week", "every days"); "while", "today" and the like have no number to change.
# Words after a time noun that make it a measure modifying an adjective or noun, where the
# singular is English ("a 15 year old boy", "a two hour drive"): never changed.
_MEASURE_FOLLOWERS = words("old long -")
_COUNT_DEPS = frozenset({"det", "nummod", "amod", "quantmod"})


def time_noun_number(doc: Doc) -> Iterator[Candidate]:
    """Yield the number of a counted time noun changed against its count: a plural made
    singular after a plural numeral or quantifier ("for 15 years" -> "for 15 year", "two years
    ago" -> "two year ago", "many times" -> "many time"), a singular made plural after "every"
    or "each" ("every days"); always strict. A time noun that measures an adjective or a noun
    ("15 years old", "a two-hour drive") is left alone, as is one with no counting word."""
    for noun in doc:
        if noun.lower_ not in COUNTED_TIME_NOUNS or noun.tag_ not in {"NN", "NNS"} or not noun.is_alpha:
            continue
        if noun.dep_ in {"compound", "poss", "amod"} or noun.head.pos_ == "ADJ":
            continue
        following = doc[noun.i + 1] if noun.i + 1 < len(doc) else None
        if following is not None and (following.lower_ in _MEASURE_FOLLOWERS or following.tag_ == "POS"):
            continue
        forms = _other_number(noun)
        if not forms:
            continue
        markers = [c for c in noun.children if c.i < noun.i and c.dep_ in _COUNT_DEPS]
        plural_counted = noun.tag_ == "NNS" and _counted(noun, markers)
        every = noun.tag_ == "NN" and any(m.lower_ in {"every", "each"} for m in markers)
        if plural_counted or every:
            yield Candidate(noun.i, noun.i + 1, (cased(forms[0], noun.text),), "noun_number_time", True)


def _counted(noun: Token, markers: list[Token]) -> bool:
    """Return True when a plural numeral or quantifier counts the plural noun ("15 years",
    "many times", "these days", "one of the best days"); "all the year" and "some other day"
    are English, so "all" and "other" count nothing here."""
    if any(m.lower_ in PLURAL_MARKERS or (m.dep_ == "nummod" and plural_numeral(m)) for m in markers):
        return True
    head = noun.head
    return noun.dep_ == "pobj" and head.lower_ == "of" and head.head.lower_ == "one" and head.head.i < head.i


# --- R:NOUN:INFL ------------------------------------------------------------------------------


def regular_plural(doc: Doc) -> Iterator[Candidate]:
    """Yield an irregular plural regularised ("childs", "womans") or an uncountable noun given
    a rule-made plural ("informations", "furnitures"): non-words, so always strict."""
    for noun in _common_nouns(doc):
        lemma = noun.lemma_.lower()
        if noun.tag_ == "NNS":
            if noun.lower_.endswith("s") and noun.lower_[:-1] == lemma:
                continue  # a regular plural has no other regular form
        elif any(f.lower() != lemma for f in dictionary_forms(lemma, "NNS", "NOUN")):
            continue  # a countable singular: "bookes" would be a spelling error, not inflection
        elif noun.lower_.endswith("ing"):
            continue  # a gerund ("smokings") is no learner's plural
        for form in rule_forms(lemma, "NNS", "NOUN"):
            yield Candidate(noun.i, noun.i + 1, (cased(form, noun.text),), "noun_regular_plural")
            break


# --- NOUN:POSS --------------------------------------------------------------------------------


def _possessives(doc: Doc) -> Iterator[tuple[Token, Token]]:
    """Yield (possessor noun, its 's or ' token) for nouns that modify a following noun."""
    for token in doc:
        if token.tag_ != "POS" or token.i == 0:
            continue
        owner = doc[token.i - 1]
        if owner.tag_ in {"NN", "NNS", "NNP", "NNPS"} and owner.dep_ == "poss" and owner.head.i > token.i:
            yield owner, token


def delete_possessive(doc: Doc) -> Iterator[Candidate]:
    """Yield the possessive 's or ' deleted ("John car", "my friend house"); strict for a name
    or a possessor with a possessive determiner ("my friend"), not for a common noun that can
    modify as a compound ("the car door")."""
    for owner, mark in _possessives(doc):
        named = owner.tag_ in {"NNP", "NNPS"}
        owned = any(c.tag_ == "PRP$" for c in owner.children)
        yield Candidate(mark.i, mark.i + 1, (), "poss_delete", named or owned)


def insert_possessive(doc: Doc) -> Iterator[Candidate]:
    """Yield 's inserted after a noun modifying another noun ("the car's door"): not strict,
    many such compounds have a possessive twin ("the school's library")."""
    for token in doc:
        if token.dep_ != "compound" or token.tag_ not in {"NN", "NNP"} or not token.is_alpha:
            continue
        head = token.head
        if head.i != token.i + 1 or head.tag_ not in {"NN", "NNS"}:
            continue
        yield Candidate(token.i + 1, token.i + 1, ("'s",), "poss_insert_compound", False)


def insert_before_verb(doc: Doc) -> Iterator[Candidate]:
    """Yield 's inserted after a singular subject right before its verb ("The teacher's gave
    us homework"); strict when the verb cannot be read as a noun (with "cooks", "likes" the
    result is a possessive noun phrase: "my mother's cooks") and is not "be" ("John's is red"
    can mean John's car)."""
    for token in doc:
        if token.dep_ != "nsubj" or token.tag_ not in {"NN", "NNP"} or not token.is_alpha:
            continue
        if token.lower_.endswith(_INDEFINITE_ENDINGS):
            continue  # "nobody's" reads as "nobody is / has"
        verb = token.head
        if verb.i != token.i + 1 or verb.tag_ not in {"VBD", "VBZ"} or verb.pos_ not in {"VERB", "AUX"}:
            continue
        # "My brother's lost" reads as "has lost" where the past form is also the participle.
        has_reading = verb.tag_ == "VBD" and verb.lower_ in dictionary_forms(verb.lemma_, "VBN", "VERB")
        noun_reading = bool(lemmas(verb.lower_, "NOUN")) or verb.lower_ in {"likes", "dislikes"}
        strict = verb.lemma_ != "be" and not noun_reading and not has_reading
        yield Candidate(verb.i, verb.i, ("'s",), "poss_insert_subject", strict)


def plural_as_possessive(doc: Doc) -> Iterator[Candidate]:
    """Yield a regular plural written as a singular possessive ("my friend's are kind" for
    "my friends are kind"); strict when a plural determiner, numeral or the verb's agreement
    fixes the plural."""
    for noun in _common_nouns(doc):
        if noun.tag_ != "NNS" or not noun.lower_.endswith("s"):
            continue
        singular = noun.text[:-1]
        if singular.lower() not in {f.lower() for f in dictionary_forms(noun.lemma_.lower(), "NN", "NOUN")}:
            continue
        strict = anchored_number(noun) == PLURAL
        yield Candidate(noun.i, noun.i + 1, (singular, "'s"), "poss_plural_apostrophe", strict)


def possessive_without_apostrophe(doc: Doc) -> Iterator[Candidate]:
    """Yield a singular possessive written as a plural ("my friends birthday" for "my friend's
    birthday"); strict when a determiner or possessive stands before the possessor (the plural
    cannot then be a compound modifier), not strict otherwise."""
    for owner, mark in _possessives(doc):
        if owner.tag_ != "NN" or owner.pos_ != "NOUN" or mark.text != "'s" or owner.lower_ in TIME_NOUNS:
            continue
        plural = owner.text + "s"
        if plural.lower() not in {f.lower() for f in dictionary_forms(owner.lemma_.lower(), "NNS", "NOUN")}:
            continue
        strict = any(c.i < owner.i and c.dep_ in {"det", "poss"} for c in owner.children)
        yield Candidate(owner.i, mark.i + 1, (plural,), "poss_apostrophe_dropped", strict)


def plural_possessive_s(doc: Doc) -> Iterator[Candidate]:
    """Yield "'s" for the apostrophe of a plural possessive ("my parents's friends"): strict."""
    for owner, mark in _possessives(doc):
        if mark.text == "'" and owner.tag_ in {"NNS", "NNPS"} and owner.lower_.endswith("s"):
            yield Candidate(mark.i, mark.i + 1, ("'s",), "poss_plural_s")


def possessive_number(doc: Doc) -> Iterator[Candidate]:
    """Yield a singular possessive made plural ("my friends' house") and a plural one singular
    ("these friend's house"); strict only when a plural determiner or numeral before the
    possessor cannot belong to the possessed noun."""
    for owner, mark in _possessives(doc):
        if owner.tag_ not in {"NN", "NNS"} or owner.pos_ != "NOUN" or owner.lower_ in TIME_NOUNS:
            continue
        forms = _other_number(owner)
        if not forms:
            continue
        new = forms[0]
        current = SINGULAR if owner.tag_ == "NN" else PLURAL
        # "a friends' house" can be "a [friends'] house" like "a girls' school"; "these friend's
        # house" has no reading, "two teacher's salaries" has one (two salaries): only a plural
        # marker before a plural possessor of a singular noun forces the error.
        strict = (
            current == PLURAL
            and anchored_number(owner) == PLURAL
            and _has_marker(owner)
            and owner.head.tag_ == "NN"
        )
        if owner.tag_ == "NN" and mark.text == "'s" and new.lower().endswith("s"):
            yield Candidate(owner.i, mark.i + 1, (cased(new, owner.text), "'"), "poss_number", strict)
        elif owner.tag_ == "NNS" and mark.text == "'":
            yield Candidate(owner.i, mark.i + 1, (cased(new, owner.text), "'s"), "poss_number", strict)


def _has_marker(noun: Token) -> bool:
    """Return True when the noun's number is shown by a word before it (not only by a verb,
    which agrees with the possessed noun, not the possessor)."""
    return any(c.i < noun.i and c.dep_ in {"det", "nummod", "amod", "predet"} for c in noun.children)


RULES = {
    "R:NOUN:NUM": (number_flip, time_noun_number),
    "R:NOUN:INFL": (regular_plural,),
    "M:NOUN:POSS": (delete_possessive,),
    "U:NOUN:POSS": (insert_before_verb, insert_possessive),
    "R:NOUN:POSS": (
        possessive_without_apostrophe,
        plural_possessive_s,
        plural_as_possessive,
        possessive_number,
    ),
}
