"""Determiner errors: M:DET (a missing determiner), U:DET (an article where none belongs), R:DET
(the wrong determiner).

Strict candidates are those whose context forces the error: a deleted article or determiner before
a singular countable noun ("He is teacher") or a counted time noun ("for week", "it was long day"),
"a" deleted from "a lot" and "a bit" ("lot of friends"), "the" deleted before a superlative or
"same", a determiner deleted after a partitive "of" ("most of people", "one of friends") or in a
phrase that always has "the" ("on other hand", "in morning", "for first time", "all time"), "a"
before a plural ("a cats") or a noun that never takes it, adjectives or not ("an information", "a
bad weather", "a good health", "have a fun", "a music") or "lots of" ("a lots of"), "the" before a
one-word personal or place name ("the Paris"; not a name that may keep an older "the", "the
Ukraine"), before a name's "'s" ("the John's car") or before a possessive determiner ("the my
friend"), "a"/"an" swapped against the next word's sound ("an car"), this/that, another/other and
every/all against the noun's number ("this books", "another books", "every students"), "every"
for the "each" of "each of" ("every of us"), "a" for "the" or "some" before a plural, a
superlative or a noun that takes no "a" ("a books", "a best", "an advice"), and "you" for "your"
after a preposition or in a subject ("with you brother").
Articles deleted before bare-able nouns ("to school", "Mother is kind", "this summer was hottest")
and "a" <-> "the" are not strict.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from triplets.candidates import Candidate, cased
from triplets.lexicon import dictionary_forms
from triplets.rules._nominal import (
    BARE_ABLE,
    COUNTED_TIME_NOUNS,
    DAYS,
    KIN_NAMES,
    LEARNER_COUNTED,
    MONTHS,
    PARTITIVE_QUANTIFIERS,
    PLURAL,
    SEASONS,
    SINGULAR,
    TIME_NOUNS,
    finite_number,
    indefinite_for,
    is_countable,
    takes_no_indefinite,
    words,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# Determiners whose deletion before a singular countable noun leaves the noun phrase incomplete.
_CENTRAL = frozenset({"a", "an", "the", "this", "that", "every", "each", "another", "no"})
_POSSESSIVES = frozenset({"my", "your", "his", "her", "its", "our", "their"})
# "a few", "a little", "a lot": the article is part of a quantifier.
_QUANTIFIER_NEXT = frozenset({"few", "little", "lot", "bit", "couple", "number", "great", "good"})
_NATIONALITY_ENDINGS = ("ish", "ese", "ian", "ean", "ican", "ic", "ch", "i")
_NATIONALITIES = words("german greek thai swiss welsh dutch czech")
_SWAP_PLURAL = {"this": "these", "that": "those", "these": "this", "those": "that"}
_NOT_SUPERLATIVE = frozenset({"most", "least", "more", "less"})


def _noun_head(det: Token) -> Token | None:
    """Return the common noun the determiner belongs to, or None."""
    head = det.head
    if det.dep_ in {"det", "poss"} and head.i > det.i and head.pos_ in {"NOUN", "PROPN", "ADJ", "NUM"}:
        return head
    return None


def singular_countable(noun: Token) -> bool:
    """Return True for a singular noun that cannot stand bare: countable, with no bare use after
    a preposition or mass reading (`BARE_ABLE`), no time noun or season ("He is teacher")."""
    return (
        noun.tag_ == "NN"
        and is_countable(noun.lemma_)
        and noun.lower_ not in BARE_ABLE
        and noun.lower_ not in TIME_NOUNS
        and noun.lower_ not in SEASONS
    )


def _superlative_or_same(det: Token) -> bool:
    """Return True when the word after the determiner is a superlative adjective or "same"."""
    nxt = det.nbor(1) if det.i + 1 < len(det.doc) else None
    if nxt is None:
        return False
    if nxt.lower_ == "same":
        return True
    return nxt.tag_ == "JJS" and nxt.lower_ not in _NOT_SUPERLATIVE


def _next_word(det: Token) -> Token | None:
    return det.doc[det.i + 1] if det.i + 1 < len(det.doc) else None


def _in_quantifier(det: Token) -> bool:
    nxt = _next_word(det)
    return nxt is not None and nxt.lower_ in _QUANTIFIER_NEXT


def _determiners(doc: Doc) -> Iterator[tuple[Token, Token]]:
    """Yield (determiner, its noun) for articles, demonstratives and possessive determiners."""
    for token in doc:
        lower = token.lower_
        if token.tag_ not in {"DT", "PRP$"} or lower not in _CENTRAL | _POSSESSIVES:
            continue
        noun = _noun_head(token)
        if noun is None or _in_quantifier(token):
            continue
        yield token, noun


# --- M:DET ------------------------------------------------------------------------------------


# Time nouns that count: "a" before them cannot go ("for week", "once day", "it was long day");
# "time" is mass as a duration ("have time").
_COUNT_TIME_NOUNS = COUNTED_TIME_NOUNS - {"time"}


def delete_indefinite(doc: Doc) -> Iterator[Candidate]:
    """Yield "a"/"an" deleted; strict before a singular countable noun ("He is teacher"), and
    before a countable time noun with at most adjectives between ("for week", "long day"; not
    "what a day", a question once "a" is gone, nor "a Sunday morning")."""
    for det, noun in _determiners(doc):
        if det.lower_ in {"a", "an"}:
            strict = singular_countable(noun) or _counted_time(det, noun)
            yield Candidate(det.i, det.i + 1, (), "det_delete_indefinite", strict)


def _counted_time(det: Token, noun: Token) -> bool:
    if noun.tag_ != "NN" or noun.lower_ not in _COUNT_TIME_NOUNS:
        return False
    if det.i > 0 and det.doc[det.i - 1].lower_ in {"what", "half", "many"}:
        return False
    return all(t.tag_ == "JJ" for t in det.doc[det.i + 1 : noun.i])


def delete_quantifier_article(doc: Doc) -> Iterator[Candidate]:
    """Yield the "a" of "a lot" and "a (little) bit" deleted ("I have lot of friends", "I am bit
    tired"): strict, "lot" and "bit" are countable nouns that cannot stand bare."""
    for token in doc:
        if token.lower_ != "a" or token.tag_ != "DT":
            continue
        nxt = _next_word(token)
        if nxt is not None and nxt.lower_ == "little" and token.i + 2 < len(doc):
            nxt = doc[token.i + 2]
        if nxt is not None and nxt.lower_ in {"lot", "bit"} and nxt.tag_ == "NN" and token.head.i == nxt.i:
            yield Candidate(token.i, token.i + 1, (), "det_delete_a_lot")


def delete_the_superlative(doc: Doc) -> Iterator[Candidate]:
    """Yield "the" deleted before a superlative or "same" ("at same time"); strict when the
    superlative modifies a noun."""
    for token in doc:
        attached = token.dep_ == "det" or token.head.i > token.i
        if token.lower_ == "the" and token.tag_ == "DT" and attached and _superlative_or_same(token):
            yield Candidate(token.i, token.i + 1, (), "det_delete_the_superlative", _attributive(token))


def _attributive(det: Token) -> bool:
    """Return True when the superlative after `det` modifies a noun ("the best student"), or is
    "same": a predicative superlative can stand bare ("this summer was hottest")."""
    adjective = det.doc[det.i + 1]
    return adjective.lower_ == "same" or (adjective.dep_ == "amod" and adjective.head.pos_ == "NOUN")


_PARTITIVE_DETERMINERS = _POSSESSIVES | words("the this that these those")
_DAYPARTS = words("morning afternoon evening mornings afternoons evenings")
# "for the first/last time"; "it was the first time" (not "the last time": "was last time" is
# English, "last time" an adverbial).
_ORDINAL_TIMES = words("first second third fourth fifth")


def _partitive(det: Token) -> bool:
    """Return True for the determiner of a common noun after a quantifier's partitive "of"
    ("most of the people", "two of my friends"; `PARTITIVE_QUANTIFIERS`); not when the
    quantifier has a determiner of its own other than "a" ("make the most of the chances":
    "make the most of chances" is English; "a few of my friends" still counts)."""
    noun, doc = det.head, det.doc
    if det.lower_ not in _PARTITIVE_DETERMINERS or det.i == 0 or det.dep_ not in {"det", "poss"}:
        return False
    of = doc[det.i - 1]
    if of.lower_ != "of" or noun.pos_ != "NOUN" or noun.dep_ != "pobj" or noun.head.i != of.i:
        return False
    quantifier = of.head
    if quantifier.i > of.i or not (quantifier.lower_ in PARTITIVE_QUANTIFIERS or quantifier.tag_ == "CD"):
        return False
    return not any(c.dep_ in {"det", "poss"} and c.lower_ not in {"a", "an"} for c in quantifier.children)


def _fixed_the(det: Token) -> bool:
    """Return True for "the" in a phrase that never drops it: "on/in the other hand", "in the
    morning", "for the first/last time", "it was the first time", "all the time" (not "of all
    time"; not "it was the last time": "it was last time" is English)."""
    doc = det.doc
    if det.lower_ != "the" or det.i == 0 or det.i + 1 >= len(doc):
        return False
    before, after = doc[det.i - 1].lower_, doc[det.i + 1]
    noun = det.head
    if before in {"on", "in"} and after.lower_ == "other" and det.i + 2 < len(doc):
        return doc[det.i + 2].lower_ == "hand"
    if before == "in" and after.lower_ in _DAYPARTS:
        return after.dep_ == "pobj" and after.head.i == det.i - 1
    if det.i + 2 < len(doc) and doc[det.i + 2].lower_ == "time" and noun.i == det.i + 2:
        if before == "for":
            return after.lower_ in _ORDINAL_TIMES or after.lower_ == "last"
        return after.lower_ in _ORDINAL_TIMES and noun.dep_ == "attr"
    if before == "all" and after.lower_ == "time" and noun.i == after.i:
        earlier = doc[det.i - 2].lower_ if det.i > 1 else ""
        return earlier != "of" and after.dep_ not in {"nsubj", "nsubjpass"} and not list(after.rights)
    return False


def delete_forced_the(doc: Doc) -> Iterator[Candidate]:
    """Yield a determiner deleted where English always needs it whatever the noun: after a
    partitive "of" ("most of people", "one of friends") and "the" in fixed phrases ("on other
    hand", "in morning", "for first time", "all time"): strict."""
    for token in doc:
        if token.tag_ not in {"DT", "PRP$"}:
            continue
        if _partitive(token):
            yield Candidate(token.i, token.i + 1, (), "det_delete_partitive")
        elif _fixed_the(token):
            yield Candidate(token.i, token.i + 1, (), "det_delete_the_fixed")


def delete_determiner(doc: Doc) -> Iterator[Candidate]:
    """Yield "the", a demonstrative, "every"/"each"/"no" or a possessive determiner deleted;
    strict before a singular countable noun that cannot stand bare ("in the hospital" may lose
    its article in British English, "my father" may not lose "my")."""
    for det, noun in _determiners(doc):
        if det.lower_ in {"a", "an"} or _superlative_or_same(det) or _partitive(det) or _fixed_the(det):
            continue
        # "My mother is kind" -> "Mother is kind": kinship words also serve as names.
        named = det.tag_ == "PRP$" and noun.lower_ in KIN_NAMES
        # Learners drop articles; a dropped "my" or "this" ("In opinion") they seldom write.
        likely = det.lower_ == "the"
        yield Candidate(det.i, det.i + 1, (), "det_delete", singular_countable(noun) and not named, likely)


# --- U:DET ------------------------------------------------------------------------------------


def _bare_noun_phrases(doc: Doc) -> Iterator[Token]:
    """Yield nouns heading a noun phrase with no determiner, possessive, numeral or quantifier."""
    blocking = {"det", "poss", "nummod", "predet", "quantmod", "compound", "nmod"}
    for token in doc:
        if token.tag_ not in {"NN", "NNS", "NNP"} or token.dep_ in {"compound", "npadvmod", "poss", "appos"}:
            continue
        if token.lower_ in DAYS | MONTHS or token.lower_.removesuffix("s") in DAYS:
            continue
        left = [c for c in token.children if c.i < token.i]
        if any(c.dep_ in blocking or c.tag_ in {"DT", "PRP$", "CD", "WDT", "WP$"} for c in left):
            continue
        if any(c.lower_ in _QUANTIFIERS for c in left):
            continue
        if token.i > 0 and doc[token.i - 1].tag_ in {"POS", "DT", "PRP$", "CD"}:
            continue
        yield token


_QUANTIFIERS = words(
    """many much few little several more most less fewer enough all both some any other such"""
)


def _insert_point(noun: Token) -> int:
    """Return where an article goes before the noun phrase (before its leftmost modifier)."""
    start = noun.i
    for child in noun.lefts:
        if child.dep_ in {"amod", "compound", "advmod", "nmod"}:
            start = min(start, child.left_edge.i)
    return start


def _article_before(doc: Doc, start: int, article: str) -> tuple[str, ...]:
    return (cased(article, doc[start].text) if start == 0 else article,)


def a_before_plural(doc: Doc) -> Iterator[Candidate]:
    """Yield "a"/"an" inserted before a plural noun phrase ("I like a cats"): always strict."""
    for noun in _bare_noun_phrases(doc):
        if noun.tag_ != "NNS" or noun.lower_ in {"people", "police", "cattle", "lots"}:
            continue
        if not dictionary_forms(noun.lemma_, "NN", "NOUN") or noun.lower_ == noun.lemma_.lower():
            continue
        start = _insert_point(noun)
        article = indefinite_for(doc[start].text)
        # Learners seldom write "a things": tried only when nothing more learner-like validates.
        yield Candidate(
            start, start, _article_before(doc, start, article), "det_insert_a_plural", likely=False
        )


# Names that may keep an older "the" ("the Ukraine", "the Sudan", "the Hague").
_OPTIONAL_THE = words("ukraine sudan gambia congo lebanon yemen hague sahara crimea punjab argentine")


def the_before_name(doc: Doc) -> Iterator[Candidate]:
    """Yield "the" inserted before a proper noun ("the Paris"); strict for a one-word name that
    is not also a common noun or an adjective ("the English", "the Mum" can be English)."""
    for noun in _bare_noun_phrases(doc):
        if noun.tag_ != "NNP" or not noun.text[:1].isupper() or not noun.is_alpha:
            continue
        one_word = not any(True for _ in noun.children)
        common = (
            bool(dictionary_forms(noun.lower_, "NN", "NOUN"))
            or bool(dictionary_forms(noun.lower_, "JJ", "ADJ"))
            or _nationality(noun.lower_)
            or noun.lower_ in _OPTIONAL_THE
        )
        start = noun.left_edge.i
        word = "The" if start == 0 else "the"
        yield Candidate(start, start, (word,), "det_insert_the_name", one_word and not common)


# Places whose name can be "X's" ("St John's College", "McDonald's restaurant"), and which then
# take "the".
_NAMED_PLACES = words(
    """restaurant restaurants store stores shop shops cafe café bar pub hotel church cathedral
    hospital school college university park square street road bridge theatre gallery museum
    day"""
)


def the_before_possessor(doc: Doc) -> Iterator[Candidate]:
    """Yield "the" inserted before a one-word name with a possessive "'s" ("the John's car",
    "the Taiwan's largest market", as in Romance languages and Greek): strict, except before a
    place that a name's "'s" can name ("the St John's College", "the McDonald's restaurant"),
    and not strict before a compound, which may be a brand's product ("the Kellogg's
    cornflakes", "the Johnson's baby oil")."""
    for token in doc:
        if token.tag_ != "NNP" or token.dep_ != "poss" or token.head.lower_ in _NAMED_PLACES:
            continue
        if token.i + 1 >= len(doc) or doc[token.i + 1].tag_ != "POS" or token.head.i <= token.i:
            continue
        if any(True for _ in token.children if _.i < token.i) or not token.is_alpha:
            continue
        if token.i > 0 and doc[token.i - 1].tag_ in {"DT", "PDT", "PRP$", "POS", "NNP", "NNPS"}:
            continue
        if dictionary_forms(token.lower_, "NN", "NOUN") or _nationality(token.lower_):
            continue
        word = "The" if token.i == 0 else "the"
        yield Candidate(token.i, token.i, (word,), "det_insert_the_possessor", not _compound(token.head))


def _compound(noun: Token) -> bool:
    """Return True for a noun with a noun before it ("baby oil") or one written as two nouns
    ("cornflakes", "toothpaste"; kinship words such as "grandmother" aside)."""
    if any(c.dep_ == "compound" and c.i < noun.i for c in noun.children):
        return True
    lemma = noun.lemma_.lower()
    if lemma in KIN_NAMES:
        return False
    return any(
        dictionary_forms(lemma[:k], "NN", "NOUN") and dictionary_forms(lemma[k:], "NN", "NOUN")
        for k in range(3, len(lemma) - 2)
    )


def _nationality(word: str) -> bool:
    """Return True for words that look like a nationality or language ("the English", "the
    Chinese" are English noun phrases); LemmInflect does not list them."""
    return word.endswith(_NATIONALITY_ENDINGS) or word in _NATIONALITIES


def the_before_possessive(doc: Doc) -> Iterator[Candidate]:
    """Yield "the" inserted before a possessive determiner ("I met the my friend", as in
    Romance languages): always strict."""
    for token in doc:
        if token.tag_ != "PRP$" or token.dep_ != "poss" or token.lower_ not in _POSSESSIVES:
            continue
        if token.head.pos_ != "NOUN" or token.head.i < token.i:
            continue
        if token.i > 0 and doc[token.i - 1].tag_ in {"DT", "PDT", "PRP$", "POS"}:
            continue  # "all my friends", "both my parents"
        word = "The" if token.i == 0 else "the"
        # "the my friend" is rare in learner essays: tried only when nothing else validates.
        yield Candidate(token.i, token.i, (word,), "det_insert_the_possessive", likely=False)


# Nouns that stand bare after the verbs that take them ("play football", "speak English", "have
# lunch", "study maths"); learners whose languages put an article there write "play the football".
_BARE_ACTIVITIES = words(
    """football soccer tennis basketball volleyball baseball golf chess rugby hockey cricket
    breakfast lunch dinner supper english spanish french german italian portuguese chinese
    japanese korean russian arabic turkish greek polish dutch mathematics maths math physics
    chemistry biology history geography music"""
)
_ACTIVITY_VERBS = words("play speak learn study teach practise practice have eat cook skip")


def the_before_activity(doc: Doc) -> Iterator[Candidate]:
    """Yield "the" inserted before a bare language, sport, meal or school subject that is the
    object of a verb taking it bare ("I play the football", "she speaks the English", "we have
    the lunch at noon"), and before "most" in "most of" ("the most of the people"): strict, and
    what learners whose languages use an article there write."""
    for token in doc:
        if token.lower_ == "most" and token.i + 1 < len(doc) and doc[token.i + 1].lower_ == "of":
            if token.i == 0 or doc[token.i - 1].tag_ not in {"DT", "PRP$", "POS"}:
                yield Candidate(
                    token.i, token.i, ("The" if token.i == 0 else "the",), "det_insert_the_most_of"
                )
            continue
        if (
            token.lower_ not in _BARE_ACTIVITIES
            or token.dep_ != "dobj"
            or token.tag_ not in {"NN", "NNP", "NNS"}
        ):
            continue
        verb = token.head
        if (
            verb.lemma_.lower() not in _ACTIVITY_VERBS
            or verb.i > token.i
            or any(True for _ in token.children)
        ):
            continue
        if token.i > 0 and doc[token.i - 1].i == verb.i:
            yield Candidate(token.i, token.i, ("the",), "det_insert_the_activity")


_ADVERBIAL_TIME = words("week weekend month year summer winter spring autumn night")


def the_in_time_adverbial(doc: Doc) -> Iterator[Candidate]:
    """Yield "the" inserted in a bare time adverbial learners give an article ("the last weekend
    I watched", "I worked all the day"): strict, "last weekend" and "all day" as adverbials take
    none ("the last week of May", with its complement, is left alone)."""
    for token in doc:
        if (
            token.dep_ != "npadvmod"
            or token.lower_ not in _ADVERBIAL_TIME | {"day"}
            or any(c.dep_ == "prep" for c in token.children)
        ):
            continue
        previous = doc[token.i - 1] if token.i > 0 else None
        if previous is None:
            continue
        if previous.lower_ == "last" and token.lower_ in _ADVERBIAL_TIME:
            before = doc[previous.i - 1] if previous.i > 0 else None
            if before is None or before.tag_ not in {"DT", "PRP$", "IN", "POS"}:
                word = "The" if previous.i == 0 else "the"
                yield Candidate(previous.i, previous.i, (word,), "det_insert_the_time")
        elif previous.lower_ == "all" and token.lower_ in {"day", "night", "week", "year"}:
            yield Candidate(token.i, token.i, ("the",), "det_insert_the_time")


def _never_indefinite(noun: Token) -> bool:
    """Return True for a singular noun that takes no "a"/"an" with the modifiers it has ("an
    important information", "a good health", "a music"; not "a Chinese music", nor "a good
    knowledge of": `takes_no_indefinite`)."""
    modified = any(c.dep_ in {"amod", "compound", "nmod"} and c.i < noun.i for c in noun.children)
    return noun.tag_ == "NN" and takes_no_indefinite(noun.lemma_, modified)


_MEASURES = words("lot lots amount deal bit piece plenty lack")


def _measured(noun: Token) -> bool:
    """Return True for a noun after a measure's "of" ("a lot of homework"): "a lot of a homework"
    is not what learners write."""
    head = noun.head
    return noun.dep_ == "pobj" and head.lower_ == "of" and head.head.lower_ in _MEASURES


def a_before_lots(doc: Doc) -> Iterator[Candidate]:
    """Yield "a" inserted before "lots of" ("a lots of people", a blend of "a lot of" and "lots
    of"): strict."""
    for token in doc:
        if token.lower_ != "lots" or token.i + 1 >= len(doc) or doc[token.i + 1].lower_ != "of":
            continue
        if token.i > 0 and doc[token.i - 1].tag_ in {"DT", "PDT", "PRP$", "POS", "JJ", "CD"}:
            continue
        yield Candidate(token.i, token.i, ("A" if token.i == 0 else "a",), "det_insert_a_lots")


def a_before_uncountable(doc: Doc) -> Iterator[Candidate]:
    """Yield "a"/"an" inserted before a bare singular noun phrase; strict only for nouns that
    are never countable, with or without adjectives ("an information", "a bad weather", "a good
    health"), else not ("a love of music", "a school" are English)."""
    for noun in _bare_noun_phrases(doc):
        if noun.tag_ != "NN":
            continue
        start = _insert_point(noun)
        article = indefinite_for(doc[start].text)
        strict = (
            _never_indefinite(noun)
            and all(t.tag_ in {"JJ", "RB", "NN", "HYPH"} for t in doc[start : noun.i])
            and not _measured(noun)
        )
        yield Candidate(start, start, _article_before(doc, start, article), "det_insert_a_bare", strict)


# --- R:DET ------------------------------------------------------------------------------------


def a_an_swap(doc: Doc) -> Iterator[Candidate]:
    """Yield "a" and "an" swapped; strict when the corrected article fits the next word's sound
    (so the swapped one does not)."""
    for token in doc:
        if token.lower_ not in {"a", "an"} or token.tag_ != "DT":
            continue
        nxt = _next_word(token)
        if nxt is None or not nxt.text[:1].isalnum():
            continue
        other = "an" if token.lower_ == "a" else "a"
        strict = indefinite_for(nxt.text) == token.lower_
        # Learners write "a apple" (the article they learnt first); "an tour" looks machine-made
        # and is tried last.
        likely = other == "a"
        yield Candidate(token.i, token.i + 1, (cased(other, token.text),), "det_a_an", strict, likely)


def demonstrative_number(doc: Doc) -> Iterator[Candidate]:
    """Yield this/that and these/those swapped against the number their noun or verb shows
    ("this books", "these is"): strict when a noun or a finite verb shows the number."""
    for token in doc:
        lower = token.lower_
        if lower not in _SWAP_PLURAL or token.tag_ != "DT":
            continue
        plural = lower in {"these", "those"}
        number = None
        head = token.head
        if token.dep_ == "det" and head.i > token.i and head.tag_ in {"NN", "NNS"}:
            number = PLURAL if head.tag_ == "NNS" else SINGULAR
        elif token.dep_ in {"nsubj", "nsubjpass"}:
            number = finite_number(head)
        if number is None:
            continue
        if (number == PLURAL) != plural:
            continue  # the corrected sentence itself disagrees: leave it
        new = cased(_SWAP_PLURAL[lower], token.text)
        yield Candidate(token.i, token.i + 1, (new,), "det_demonstrative_number")


def the_to_a(doc: Doc) -> Iterator[Candidate]:
    """Yield "the" replaced by "a"/"an" where an indefinite cannot stand: before a plural noun,
    a superlative, "same" or an uncountable noun ("a books", "a best", "an information")."""
    for det, noun in _determiners(doc):
        if det.lower_ != "the":
            continue
        nxt = _next_word(det)
        if nxt is None:
            continue
        forced = (
            _superlative_or_same(det)
            or (noun.tag_ == "NNS" and dictionary_forms(noun.lemma_, "NN", "NOUN") != ())
            or _never_indefinite(noun)
        )
        if forced and noun.lower_ not in {"people", "police"}:
            yield Candidate(det.i, det.i + 1, (cased(indefinite_for(nxt.text), det.text),), "det_the_to_a")


def some_to_a(doc: Doc) -> Iterator[Candidate]:
    """Yield "some" replaced by "a"/"an" before a noun that takes no indefinite article ("some
    advice" -> "an advice", "some money" -> "a money"): strict."""
    for token in doc:
        noun = token.head
        if token.lower_ != "some" or token.dep_ != "det" or noun.i <= token.i or not _never_indefinite(noun):
            continue
        if _measured(noun) or any(
            t.tag_ not in {"JJ", "RB", "NN", "HYPH"} for t in doc[token.i + 1 : noun.i]
        ):
            continue
        new = cased(indefinite_for(doc[token.i + 1].text), token.text)
        yield Candidate(token.i, token.i + 1, (new,), "det_some_to_a")


def your_to_you(doc: Doc) -> Iterator[Candidate]:
    """Yield "your" replaced by "you" before a singular countable noun that is a preposition's
    object or a subject ("with you family", "You car is new"): strict. Never after a verb ("give
    you money" is English), nor where a word after it may read as a verb ("you answer")."""
    for token in doc:
        noun = token.head
        if token.lower_ != "your" or token.dep_ != "poss" or noun.i <= token.i:
            continue
        if not singular_countable(noun) or noun.lower_ in LEARNER_COUNTED:
            continue
        between = doc[token.i + 1 : noun.i + 1]
        if any(t.tag_ not in {"JJ", "NN"} or dictionary_forms(t.lower_, "VB", "VERB") for t in between):
            continue
        before = doc[token.i - 1] if token.i > 0 else None
        after_preposition = before is not None and noun.dep_ == "pobj" and noun.head.i == before.i
        subject = noun.dep_ in {"nsubj", "nsubjpass"} and (before is None or before.tag_ in {",", "CC", "IN"})
        if after_preposition or subject:
            yield Candidate(token.i, token.i + 1, (cased("you", token.text),), "det_your_you")


def each_of_to_every(doc: Doc) -> Iterator[Candidate]:
    """Yield "each" replaced by "every" before a partitive "of" ("every of the students", "every
    of us", what learners whose languages use one word for both write): strict, "every" is no
    pronoun and takes no "of" ("every one of" is another phrase)."""
    for token in doc:
        if token.lower_ != "each" or token.i + 1 >= len(doc) or doc[token.i + 1].lower_ != "of":
            continue
        yield Candidate(token.i, token.i + 1, (cased("every", token.text),), "det_every_of")


# Countable nouns "all" also takes in a mass reading ("all human emotion", "all life").
_ALL_MASS = words("emotion life art science nature culture society love")


def quantifier_number(doc: Doc) -> Iterator[Candidate]:
    """Yield a determiner swapped for its partner of the other number: "another" <-> "other",
    "every"/"each" -> "all", "all" -> "every" ("another books", "other book", "all student",
    "every students"): strict, the noun's number shows the error."""
    for token in doc:
        lower, noun = token.lower_, token.head
        if noun.i <= token.i or noun.tag_ not in {"NN", "NNS"} or token.dep_ not in {"det", "amod", "predet"}:
            continue
        if noun.lower_ in TIME_NOUNS or (noun.tag_ == "NN" and not is_countable(noun.lemma_)):
            continue  # "all day", "all the time", "all information" are English
        if noun.tag_ == "NN" and (noun.lower_ in BARE_ABLE | _ALL_MASS or noun.lower_ == "one"):
            continue  # a mass reading ("all human emotion"); "all one needs" is "everything"
        between = [t for t in doc[token.i + 1 : noun.i] if t.tag_ in {"DT", "PRP$", "POS", "CD"}]
        if between or (token.i > 0 and doc[token.i - 1].tag_ in {"DT", "PRP$"}):
            continue  # "the other book", "all the students"
        if lower == "another" and noun.tag_ == "NN":
            new = "other"
        elif lower == "other" and noun.tag_ == "NNS":
            new = "another"
        elif lower in {"every", "each"} and noun.tag_ == "NN":
            new = "all"
        elif lower == "all" and noun.tag_ == "NNS":
            new = "every"
        else:
            continue
        yield Candidate(token.i, token.i + 1, (cased(new, token.text),), "det_quantifier_number")


def a_the_swap(doc: Doc) -> Iterator[Candidate]:
    """Yield "a"/"an" replaced by "the" and "the" by "a"/"an" before a singular noun: never
    strict (both are usually English, with another meaning)."""
    for det, noun in _determiners(doc):
        nxt = _next_word(det)
        if nxt is None or noun.tag_ not in {"NN", "JJ"}:
            continue
        if det.lower_ in {"a", "an"}:
            yield Candidate(det.i, det.i + 1, (cased("the", det.text),), "det_a_the", False)
        elif det.lower_ == "the" and not _superlative_or_same(det) and not _never_indefinite(noun):
            new = cased(indefinite_for(nxt.text), det.text)
            yield Candidate(det.i, det.i + 1, (new,), "det_a_the", False)


RULES = {
    "M:DET": (
        delete_indefinite,
        delete_quantifier_article,
        delete_the_superlative,
        delete_forced_the,
        delete_determiner,
    ),
    "U:DET": (
        the_before_activity,
        the_in_time_adverbial,
        a_before_plural,
        the_before_name,
        the_before_possessive,
        the_before_possessor,
        a_before_lots,
        a_before_uncountable,
    ),
    "R:DET": (
        a_an_swap,
        demonstrative_number,
        the_to_a,
        some_to_a,
        quantifier_number,
        each_of_to_every,
        your_to_you,
        a_the_swap,
    ),
}
