"""Preposition errors: M:PREP (a missing preposition), U:PREP (a preposition where none
belongs), R:PREP (the wrong preposition).

A preposition is mostly chosen by the word it depends on ("depend on", "interested in") or by its
object ("on Monday", "in 2010", "at night"); elsewhere another preposition is often still good
English with another meaning ("a book on / about / for music"). So strict candidates are only
those that small tables of fixed collocations and phrases, the time expressions or the phrase
structure force: "listen music", "five people my family", "depend of", "interested on", "in
TV", "with bus", "in Monday", "on 2010", "during three years", "discuss about the plan",
"bought about a car", "went to home", "in last week", "near of the sea", "most of people",
"because the rain", "most my friends", "since a long time", "in my point of view", "in the end
of the year", "in the age of 15", "the biggest city on the world", "By example, ...", "thankful
of your help", "on order to", "keep on touch", "by my own", "on general", "In first, ...", "The
other hand, ...", "swim my friends", "slept the sofa". Phrases that are fixed only in a frame (a
modifier, an "of" complement, a superlative head, the start of the sentence, the word after them)
are strict only in it. Every other candidate is marked not strict.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from triplets.candidates import Candidate, cased
from triplets.rules._nominal import (
    ADJECTIVE_QUANTIFIERS,
    DAYS,
    MONTHS,
    PARTITIVE_QUANTIFIERS,
    SEASONS,
    TIME_NOUNS,
    is_person_noun,
    words,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

PREPOSITIONS = ("in", "on", "at", "for", "of", "with", "from", "about", "by", "to")

# Head lemma (verb, adjective or noun) + preposition -> prepositions a learner puts instead that
# are wrong with that head whatever the meaning. Only fixed collocations are listed.
COLLOCATIONS: dict[tuple[str, str], tuple[str, ...]] = {
    ("depend", "on"): ("of", "from", "in"),
    ("dependent", "on"): ("of", "from"),
    ("rely", "on"): ("of", "in", "to"),
    ("focus", "on"): ("in", "at", "to"),
    ("insist", "on"): ("in", "at", "for"),
    ("concentrate", "on"): ("in", "at", "to"),
    ("congratulate", "on"): ("for", "to"),
    ("keen", "on"): ("in", "of", "at"),
    ("effect", "on"): ("at",),  # "give effect to", British "a different effect to"
    ("impact", "on"): ("at",),  # "the impact to customers"
    ("influence", "on"): ("at", "to"),
    ("interested", "in"): ("on", "at", "for", "about"),
    ("interest", "in"): ("about",),  # "interest on / at" a loan or a bank
    ("believe", "in"): ("on", "at"),
    ("succeed", "in"): ("on",),  # "succeed at school", "succeed to the throne"
    ("participate", "in"): ("on", "at", "to"),
    ("involved", "in"): ("on", "at"),
    ("increase", "in"): ("of", "at"),
    ("good", "at"): (),  # "good to / on / in" are English with other meanings
    ("bad", "at"): (),
    ("arrive", "at"): ("to",),
    ("arrive", "in"): ("to",),
    ("laugh", "at"): ("on", "to"),
    ("listen", "to"): ("at", "on"),
    ("belong", "to"): (),  # "belong with / on / at" a place or group
    ("similar", "to"): ("with", "at", "as"),
    ("married", "to"): ("with",),
    ("reply", "to"): ("at", "on"),
    ("access", "to"): ("at", "on"),
    ("attention", "to"): ("at", "on"),
    ("solution", "to"): ("at", "on", "from"),
    ("happen", "to"): (),  # "happened at the party", "happened on a shop"
    ("afraid", "of"): ("from",),  # "afraid for my children"
    ("proud", "of"): ("on", "from"),
    ("full", "of"): ("with", "from"),
    ("consist", "of"): ("from", "by"),  # "consists in"
    ("aware", "of"): ("about", "from", "on"),
    ("capable", "of"): ("for", "to", "in"),
    ("fond", "of"): ("with", "to", "about"),
    ("tired", "of"): (),  # "tired from the trip", British "tired with"
    ("example", "of"): ("about",),  # "an example for others"
    ("advantage", "of"): ("from",),  # "an advantage for students"
    ("lack", "of"): ("in", "from"),
    ("wait", "for"): ("to",),  # American "wait on someone"
    ("pay", "for"): (),  # "paid to my friend"
    ("search", "for"): ("to", "after"),
    ("apologise", "for"): ("about", "of"),
    ("apologize", "for"): ("about", "of"),
    ("responsible", "for"): ("of", "about"),
    ("famous", "for"): ("of", "by"),  # "famous with tourists"
    ("reason", "for"): ("of", "to"),
    ("thank", "for"): ("about", "of"),
    ("agree", "with"): ("at",),  # "agree to the plan"
    ("deal", "with"): ("about",),  # "deal in antiques"
    ("cope", "with"): ("to", "about", "for"),
    ("satisfied", "with"): ("from", "of", "on"),
    ("bored", "with"): ("from", "about"),
    ("different", "from"): ("of", "with"),
    ("suffer", "from"): ("of",),  # "suffers with back pain"
    ("graduate", "from"): (),  # "graduated in history", "a graduate of"
    ("worry", "about"): ("on", "of"),  # "worry for her safety"
    ("worried", "about"): ("on", "of"),
    ("complain", "about"): ("for", "on"),  # "complain of a headache"
    ("go", "to"): ("at",),
    ("come", "to"): ("at",),
    ("move", "to"): ("at",),
    ("return", "to"): ("at",),
    ("travel", "to"): ("at",),
    ("lot", "of"): ("from", "with"),
    ("part", "of"): ("from",),
    ("member", "of"): ("from",),
    ("invest", "in"): ("on", "at"),
    ("due", "to"): ("of", "for"),
    ("accord", "to"): ("of", "with"),  # "according to": spaCy's lemma of "according"
    ("addition", "to"): ("of", "with"),
    ("contribute", "to"): ("for", "at"),
    ("prepare", "for"): ("to", "at"),
    ("care", "of"): ("for", "about"),
    ("far", "from"): ("of",),  # "it is far to the station"
    ("addicted", "to"): ("of", "with"),
    ("trip", "to"): ("at",),
    ("one", "of"): ("from",),  # "one from my friends"
    ("relate", "to"): ("with",),  # "related with"
    ("care", "about"): ("of",),
    ("look forward", "to"): ("for", "at"),  # "look forward for your answer"
    ("take part", "in"): ("to",),  # "take part to the contest" (prendre part à)
    ("specialise", "in"): ("on",),
    ("specialize", "in"): ("on",),
    ("scared", "of"): ("from",),
    ("frightened", "of"): ("from",),
    ("rid", "of"): ("from",),  # "get rid from"
    ("protect", "from"): ("of",),
    ("prevent", "from"): ("of",),
    ("recover", "from"): ("of",),
    ("excited", "about"): ("of",),
    ("thankful", "for"): ("of",),  # "thankful to" someone is English
    ("grateful", "for"): ("with",),  # British "grateful of" is heard
    ("ready", "for"): ("to",),  # "ready to the exam"; never before a bare noun (`_to_infinitive`)
    ("accustomed", "to"): ("with",),
    ("accustom", "to"): ("with",),
    ("ashamed", "of"): ("from",),
    ("jealous", "of"): ("on",),
    ("allergic", "to"): ("of",),
    ("accuse", "of"): ("for",),
    ("differ", "from"): ("of",),
    ("apart", "from"): ("of",),
    ("away", "from"): ("of",),
    ("next", "to"): ("of",),
    ("react", "to"): (),  # "react on Facebook"
    ("respond", "to"): (),
    ("hope", "for"): (),  # "the hope of peace"
    ("interact", "with"): (),
    ("cooperate", "with"): (),
    ("collaborate", "with"): (),
    ("fall in love", "with"): ("of",),  # "fell in love of him"
}
# Heads of COLLOCATIONS that also take a bare object: deleting the preposition leaves English
# ("recovered from the loss" -> "recovered the loss", "paid for the bill" -> "paid the bill",
# British "agreed with the plan" -> "agreed the plan", "wait tables"). Their swaps stay strict.
# Particles and archaic prepositions too: "set apart others", "take away the fear", "next the sea".
_BARE_OBJECT_TOO = words(
    """recover protect prevent believe pay search return move travel graduate contribute deal
    suffer invest focus relate prepare concentrate succeed agree worry wait apart away next"""
)
# Verbs that take a direct object and no preposition -> the preposition learners add
# ("discuss about the plan", "reached to the station", "married with him").
NO_PREPOSITION: dict[str, str] = {
    "discuss": "about",
    "mention": "about",
    "describe": "about",
    "consider": "about",
    "emphasise": "on",
    "emphasize": "on",
    "stress": "on",
    "marry": "with",
    "resemble": "to",
    "reach": "to",
    "visit": "to",
    "obey": "to",
    "contact": "with",
    "accompany": "with",
    "lack": "of",
    "inform": "to",
    "phone": "to",
    "tell": "to",
    "enjoy": "with",
    "attend": "in",
    "join": "to",
    "like": "to",
    "love": "to",
    "hate": "to",
    "need": "of",
    "want": "to",
    "order": "for",
    "request": "for",
    "demand": "for",
}
# Verbs of physical action whose object cannot follow "about" ("bought about a car"); verbs of
# speech and thought ("read about"), phrasal "bring about" and measure verbs ("takes about an
# hour") are left out on purpose.
_CONCRETE_VERBS = words(
    """buy sell eat drink wear cook clean open close build carry watch use choose drive ride
    wash paint repair fix break kick throw catch"""
)
# A preposition fixed by its object ("on TV", "by bus", "in my opinion") -> wrong replacements.
FIXED_PHRASES: dict[tuple[str, str], tuple[str, ...]] = {
    ("on", "internet"): ("in", "at"),
    ("on", "tv"): ("in", "at"),
    ("on", "television"): ("in", "at"),
    ("on", "holiday"): ("in", "at", "to"),
    ("on", "vacation"): ("in", "at"),
    ("on", "foot"): ("in", "with"),
    ("on", "purpose"): ("with", "by"),
    ("on", "weekend"): ("in",),
    ("at", "weekend"): ("in",),
    ("at", "weekends"): ("in",),
    ("at", "home"): ("in", "on"),
    ("at", "moment"): ("on",),
    ("in", "morning"): ("at",),
    ("in", "afternoon"): ("at",),
    ("in", "evening"): ("at",),
    ("in", "opinion"): ("on", "at"),
    ("for", "example"): ("in",),
    ("by", "bus"): ("with", "in"),
    ("by", "car"): ("with", "in"),
    ("by", "train"): ("with", "in"),
    ("by", "plane"): ("with", "in"),
    ("by", "taxi"): ("with", "in"),
    ("by", "bike"): ("with", "in"),
    ("by", "bicycle"): ("with", "in"),
    ("by", "boat"): ("with", "in"),
    ("for", "reason"): ("by", "of"),
    ("on", "trip"): ("in",),
    ("in", "conclusion"): ("on", "at"),
    ("in", "place"): ("at",),
    ("on", "hand"): ("in", "at"),
    ("at", "time"): ("in", "on"),
    ("in", "mind"): ("on",),  # "keep on mind"
    ("from", "point"): ("in",),  # "in my point of view"
    ("at", "end"): ("in",),  # "in the end of the year"
    ("at", "age"): ("in",),  # "in the age of 15"
    ("in", "world"): ("on",),  # "the biggest city on the world"
    ("on", "weekends"): ("in",),
    ("in", "hurry"): ("on",),  # "in a hurry", "in no hurry"
    ("at", "risk"): ("in",),  # "at risk", "at high risk", "at the risk of"
    ("for", "instance"): ("in",),
    ("on", "own"): ("by",),  # "on my own": "in my own" may be ellipsis ("in my own [house]")
    ("in", "fact"): ("on",),
    ("in", "addition"): ("on",),
    ("in", "common"): ("on",),
    ("in", "advance"): ("on",),
    ("in", "public"): ("on",),
    ("in", "front"): ("at",),  # "in front of"; "at the front of" is English
    ("in", "order"): ("on",),  # "in order to / that / for"
    ("in", "charge"): ("on",),  # "in charge of"
    ("in", "love"): ("on",),  # "fall in love", "in love with"
    ("in", "touch"): ("on",),  # "keep / get / stay in touch"
    ("in", "future"): ("at",),  # "in (the) future"; "on the future" is a topic
}
# Fixed phrases that hold only with a given modifier of the object: "on the other hand" (not "on
# hand"), "at the same time" / "at that time" (not "at the time it takes"), "in the first place".
_FIXED_MODIFIER: dict[tuple[str, str], frozenset[str]] = {
    ("on", "hand"): frozenset({"other"}),
    ("at", "time"): frozenset({"same"}),
    ("in", "place"): frozenset({"first", "second"}),
}
# Fixed phrases that hold only in a frame around them: "from my point of view" (not "from this
# point"), "at the end of the year" (an event or a stretch of time: "in the end of the tube" is a
# place), "at the age of 15" ("in the age of machines" is English), and "in the world" after a
# superlative of a noun that never takes "on" ("the best book on the world" is about it).
_END_OF = (
    TIME_NOUNS
    | DAYS
    | MONTHS
    | SEASONS
    | words(
        """film movie story concert lesson class course game match trip holiday holidays party
    meeting journey show semester term war season programme program"""
    )
)
_WORLD_HEADS = words(
    """city cities country countries place places person people man men woman women thing things
    language languages team teams player players company companies food animal animals building
    buildings sport sports singer singers band bands university universities job jobs"""
)


# Fixed phrases whose object stands alone ("for example", "in fact", "in order to"): "for this
# example", "in the fact that", "in alphabetical order" are other phrases.
_BARE_OBJECT = frozenset(
    {
        ("for", "example"),
        ("for", "instance"),
        ("on", "weekends"),
        ("in", "fact"),
        ("in", "addition"),
        ("in", "common"),
        ("in", "advance"),
        ("in", "public"),
        ("in", "front"),
        ("in", "order"),
        ("in", "charge"),
        ("in", "love"),
        ("in", "touch"),
    }
)
# The word that must follow some of them ("in front of", "in order to", "in charge of").
_NEXT_WORD: dict[tuple[str, str], frozenset[str]] = {
    ("in", "front"): frozenset({"of"}),
    ("in", "order"): frozenset({"to", "that"}),  # "on order for the library" (ordered) is English
    ("in", "charge"): frozenset({"of"}),
}
# Verbs whose "at" would take "the future" ("look at the future").
_AT_VERBS = words("look glance stare gaze peer peek aim point laugh smile hint marvel shoot arrive")


def _opening(token: Token) -> bool:
    """Return True when `token` opens the sentence or a clause: first, after punctuation or
    after an auxiliary ("It is in fact ...")."""
    if token.i == 0:
        return True
    before = token.doc[token.i - 1]
    return before.is_punct or before.tag_ == "MD" or before.pos_ == "AUX"


def _next_word(obj: Token) -> str:
    """Return the word after `obj` in lower case, or "" at the end of the sentence."""
    return obj.doc[obj.i + 1].lower_ if obj.i + 1 < len(obj.doc) else ""


def _ends_phrase(obj: Token) -> bool:
    """Return True when punctuation or the end of the sentence follows `obj`."""
    return obj.i + 1 >= len(obj.doc) or obj.doc[obj.i + 1].is_punct


def _of_complement(obj: Token) -> Token | None:
    """Return the object of the "of" that follows `obj` ("the end of [the year]"), or None."""
    for child in obj.children:
        if child.dep_ == "prep" and child.lower_ == "of" and child.i == obj.i + 1:
            return _object(child)
    return None


def _superlative(head: Token) -> bool:
    """Return True for a superlative ("the best", "the richest people", "the most famous city")."""
    if head.tag_ == "JJS":
        return True
    return any(
        c.dep_ == "amod" and (c.tag_ == "JJS" or any(m.lower_ == "most" for m in c.children))
        for c in head.children
    )


def _in_frame(prep: Token, obj: Token) -> bool:
    """Return True when a fixed phrase that needs a frame (`_END_OF`, `_WORLD_HEADS`) has it."""
    key = (prep.lower_, obj.lower_)
    of = _of_complement(obj)
    the = any(c.lower_ == "the" and c.dep_ == "det" for c in obj.children)
    if key == ("from", "point"):
        return of is not None and of.lower_ == "view"
    if key == ("at", "end"):
        return the and of is not None and of.lower_ in _END_OF
    if key == ("at", "age"):
        return the and of is not None and of.like_num
    if key == ("in", "world"):
        head = prep.head
        return the and _superlative(head) and (head.tag_ == "JJS" or head.lower_ in _WORLD_HEADS)
    if key in _BARE_OBJECT and (obj.text != obj.lower_ or any(c.i < obj.i for c in obj.children)):
        return False
    return _idiom_frame(prep, obj)


def _idiom_frame(prep: Token, obj: Token) -> bool:
    """Return True when an idiom of `FIXED_PHRASES` stands in the frame it needs: "in fact" and
    "in addition" as sentence adverbs ("grounded in fact", "a test in addition and subtraction"
    are no idiom), "in common" / "in public" closing the phrase ("in public transport"), "fall in
    love" or "in love with" ("an expert in love"), "keep in touch", "on my own", and "in the
    future" opening or closing the clause after a verb that takes no "at"."""
    key, head = (prep.lower_, obj.lower_), prep.head
    nxt = _next_word(obj)
    if key in _NEXT_WORD:
        return nxt in _NEXT_WORD[key]
    if key == ("in", "fact"):
        return _opening(prep)
    if key == ("in", "addition"):
        return nxt == "to" or (_opening(prep) and nxt == ",")
    if key == ("in", "common"):
        return _ends_phrase(obj) or nxt == "with"
    if key == ("in", "public"):
        return _ends_phrase(obj)
    if key == ("in", "love"):
        return head.lemma_ == "fall" or nxt == "with"
    if key == ("in", "touch"):
        return head.lemma_ in {"keep", "get", "stay", "be"} or nxt == "with"
    if key == ("on", "own"):
        # "He was betrayed by his own (people)": after a passive, "by" reads as its agent.
        passive = head.tag_ == "VBN" and any(c.dep_ == "auxpass" for c in head.children)
        return any(c.dep_ == "poss" for c in obj.children) and _ends_phrase(obj) and not passive
    if key == ("in", "future"):
        others = [c for c in obj.children if c.lower_ != "the"]
        return not others and head.lemma_ not in _AT_VERBS and (_opening(prep) or _ends_phrase(obj))
    return True


# Place adverbs that take no preposition after a verb of motion ("go home", not "go to home").
_PLACE_ADVERBS = words("home abroad downtown overseas upstairs downstairs there here")
_MOTION_VERBS = words("go come return get walk drive run fly travel move hurry rush")
# "last week", "next year", "this morning", "every day": time expressions without preposition.
_TIME_DETERMINERS = frozenset({"last", "next", "this", "every"})
_TIME_WORDS = (
    words(
        """week month year morning afternoon evening night weekend summer winter spring autumn time
    day century term semester"""
    )
    | DAYS
    | MONTHS
)
_BARE_TIME = frozenset({"yesterday", "tomorrow", "tonight"})
# Heads whose "of" may go ("all of the students" = "all the students").
_OPTIONAL_OF = frozenset({"all", "both", "half", "outside", "inside", "off"})
# A learner's likely confusions for each preposition, most likely first (non-strict swaps).
_CONFUSIONS: dict[str, tuple[str, ...]] = {
    "in": ("on", "at"),
    "on": ("in", "at"),
    "at": ("in", "on"),
    "for": ("to", "of"),
    "of": ("from", "for"),
    "with": ("by", "of"),
    "from": ("of", "by"),
    "about": ("of", "on"),
    "by": ("with", "from"),
    "to": ("for", "at"),
}


def _object(prep: Token) -> Token | None:
    """Return the preposition's object (pobj), or None."""
    return next((c for c in prep.children if c.dep_ == "pobj"), None)


def _prepositions(doc: Doc) -> Iterator[tuple[Token, Token]]:
    """Yield (preposition, its object) for the prepositions rules may change."""
    for token in doc:
        if token.tag_ != "IN" or token.lower_ not in PREPOSITIONS or token.dep_ not in {"prep", "dative"}:
            continue
        obj = _object(token)
        if obj is None:
            continue
        yield token, obj


_LIST_JOINERS = frozenset({",", "and", "or", "but", "&"})


def leaving_out_forces_an_error(prep: Token) -> bool:
    """Return False where leaving the preposition out may read as English, or repair a stray
    word: ellipsis in a list ("at work, (at) school or at home", "in Paris and (in) London")
    and a preposition after an article or possessive ("the 85 % of the of population")."""
    doc, i = prep.doc, prep.i
    if i == 0:
        return True
    before = doc[i - 1]
    if before.lower_ in {"a", "an", "the"} or before.tag_ == "PRP$":
        return False
    return not (before.lower_ in _LIST_JOINERS and any(t.lower_ == prep.lower_ for t in doc[: i - 1]))


def _time_preposition(obj: Token) -> str | None:
    """Return the preposition a time expression needs ("on" for days and dates, "in" for months,
    years and seasons, "at" for night, noon and clock times), or None when it is not one."""
    lower = obj.lower_
    if lower in DAYS or (lower.endswith("s") and lower[:-1] in DAYS):
        return "on"
    has_det = any(c.dep_ in {"det", "poss"} for c in obj.children)
    if lower in MONTHS or (lower in SEASONS and not has_det):
        return "in"
    if lower.isdigit() and len(lower) == 4 and lower[:2] in {"18", "19", "20"}:
        return "in"
    if lower in {"night", "noon", "midnight", "dawn"} and not has_det:
        return "at"
    if lower in {"o'clock", "pm", "am", "p.m.", "a.m."}:
        return "at"
    return None


def _head_lemma(prep: Token) -> str:
    """Return the lemma of the word the preposition depends on ("look forward" for the "to" of
    "look forward to", whose head is "look"; "take part", "fall in love")."""
    head = prep.head
    lemma = head.lemma_.lower()
    if lemma == "look" and any(c.lower_ == "forward" for c in head.children):
        return "look forward"
    if lemma == "take" and any(
        c.lower_ == "part" and c.dep_ == "dobj" and not any(c.children) for c in head.children
    ):
        return "take part"
    if prep.lower_ == "with" and _fell_in_love(head):
        return "fall in love"
    return lemma


def _fell_in_love(head: Token) -> bool:
    """Return True when `head` is the "fall" of "fall in love" or its "love" (the parser hangs
    the "with" of "fell in love with" on either)."""
    if head.lower_ == "love" and _is_phrase(head.head, "in", "love"):
        head = head.head.head
    return head.lemma_ == "fall" and any(_is_phrase(c, "in", "love") for c in head.children)


def _is_phrase(prep: Token, lower: str, obj_lower: str) -> bool:
    """Return True when `prep` is the preposition `lower` with the object `obj_lower`."""
    obj = _object(prep)
    return prep.lower_ == lower and obj is not None and obj.lower_ == obj_lower


# --- M:PREP -----------------------------------------------------------------------------------


def delete_collocation(doc: Doc) -> Iterator[Candidate]:
    """Yield a preposition its head needs deleted ("listen music", "interested music", "a lot
    people", "went school", "most my friends"): strict unless it may read as ellipsis or was a
    stray word (`leaving_out_forces_an_error`) or its head also takes a bare object
    (`_BARE_OBJECT_TOO`: "recovered the loss")."""
    for prep, obj in _prepositions(doc):
        lower, head = prep.lower_, prep.head
        head_lemma = _head_lemma(prep)
        needed = (
            (head_lemma, lower) in COLLOCATIONS and lower != "about" and not _go_plus_verb(prep, head_lemma)
        )
        of_noun = (
            lower == "of"
            and head.pos_ in {"NOUN", "PRON", "NUM"}
            and head.lower_ not in _OPTIONAL_OF
            and head.i < prep.i
        )
        if needed or of_noun or _quantifier_of(prep) or _needed_by_verb(prep):
            strict = (
                leaving_out_forces_an_error(prep)
                and not (needed and head_lemma in _BARE_OBJECT_TOO)
                and not _reads_bare(obj)
            )
            yield Candidate(prep.i, prep.i + 1, (), "prep_delete_needed", strict)


# Objects that stand without a preposition anyway: a place adverb ("arrived home", "stay
# home") or what opens a clause ("afraid that ...", "it depends what you mean").
_CLAUSE_OBJECTS = words("that what whether if how why where when who which")
# Degree words that stand bare after a verb ("hope for more" -> "hope more", "listen to more").
_DEGREE_OBJECTS = words("more less much little")


def _reads_bare(obj: Token) -> bool:
    """Return True when the object without its preposition may still be English: a place
    adverb, a word that opens a clause (`_CLAUSE_OBJECTS`) or a degree word (`_DEGREE_OBJECTS`)."""
    lower = obj.lower_
    if lower in _PLACE_ADVERBS or lower in _CLAUSE_OBJECTS or lower in _DEGREE_OBJECTS:
        return True
    return obj.tag_ in {"WP", "WDT", "WRB"}


# Partitive quantifiers whose "of" cannot go before a determiner ("most of the time", not "most
# the time"); "all" and "both" do without it (`_OPTIONAL_OF`), "much the same" is English, and
# "either the ... or" / "neither the ... nor" are.
_OF_BEFORE_DET = PARTITIVE_QUANTIFIERS - _OPTIONAL_OF - {"much", "either", "neither"}


def _quantifier_of(prep: Token) -> bool:
    """Return True for the "of" of "most of the people", "each of my friends" (a quantifier
    right before it, a determiner or possessive on its object)."""
    head, obj = prep.head, _object(prep)
    if prep.lower_ != "of" or head.lower_ not in _OF_BEFORE_DET or head.i != prep.i - 1 or obj is None:
        return False
    return any(c.dep_ in {"det", "poss"} and c.i < obj.i for c in obj.children)


def _needed_by_verb(prep: Token) -> bool:
    """Return True for "go to", "come from", "live in/at", "swim with my friends", "slept on the
    sofa", "stay at a hotel": verbs that cannot take the object directly."""
    lemma, lower = prep.head.lemma_, prep.lower_
    return (
        (lower == "to" and lemma in _MOTION_VERBS and not _go_plus_verb(prep, lemma))
        or (lower == "from" and lemma == "come")
        or (lower in {"in", "at"} and lemma == "live")
        or _intransitive_with(prep)
        or _place_after(prep)
    )


# Verbs with no direct object for a person: "swim with my friends" -> "swim my friends". Not
# "play / fight / meet / walk / run / dance (with) him" (he is then the object), not "stay / remain
# (with) friends" (a predicate noun), not "talk (with) my boss" ("talk my boss into it");
# "cooperate / interact with" are COLLOCATIONS.
_WITH_PERSON_VERBS = words("swim sleep travel live arrive laugh chat go come")
_GROUPS = words("family families class team group")


def _intransitive_with(prep: Token) -> bool:
    """Return True for "with" and a person (`_person`, or a group: "my family") after a verb of
    `_WITH_PERSON_VERBS`."""
    head, obj = prep.head, _object(prep)
    if prep.lower_ != "with" or head.pos_ != "VERB" or head.lemma_ not in _WITH_PERSON_VERBS or obj is None:
        return False
    return head.i < prep.i and (_person(obj) or obj.lower_ in _GROUPS)


# Places to sleep or stay in: "stay" and "sleep" take other nouns bare ("stay the course / the
# holidays / the night", "slept the whole flight"), so only these are listed.
_LODGINGS = words(
    """sofa couch floor ground tent bed bench hammock mattress hotel hostel motel room flat
    apartment house cottage villa campsite"""
)


def _place_after(prep: Token) -> bool:
    """Return True for the "in/on/at" of a place to sleep after "sleep" and the "in/at" after
    "stay" ("slept on the sofa", "stay at a hotel": `_LODGINGS`); "stay the course", "slept
    the flight" are English."""
    head, obj, lower = prep.head, _object(prep), prep.lower_
    if obj is None or head.pos_ != "VERB" or head.i > prep.i or obj.lower_ not in _LODGINGS:
        return False
    if any(c.lower_ == "same" for c in obj.children):
        return False  # "stayed the same room" may read as "stay the same"
    return (head.lemma_ == "sleep" and lower in {"in", "on", "at"}) or (
        head.lemma_ == "stay" and lower in {"in", "at"}
    )


# Verbs American English puts bare after go/come ("go work", "come play"); "go school" is no
# such verb, so its deletion still forces an error.
_GO_PLUS_VERBS = words(
    "work play see get eat sleep shop swim visit watch help fish camp hunt dance walk run check look "
    "find buy stay talk cook study read sit drink live"
)


def _go_plus_verb(prep: Token, lemma: str) -> bool:
    """Return True when deleting "to" after go/come leaves go + a bare verb, which American
    English says ("go to work" -> "go work", "come to play" -> "come play")."""
    objects = [c for c in prep.children if c.dep_ == "pobj"]
    if lemma not in {"go", "come"} or len(objects) != 1:
        return False
    obj = objects[0]
    return not any(True for _ in obj.children) and obj.lower_ in _GO_PLUS_VERBS


def _after_noun(prep: Token, obj: Token) -> bool:
    """Return True when the preposition joins two noun phrases ("people in my family"): without
    it two noun phrases stand side by side. Time and measure objects are left out ("a meeting
    Monday", "a teacher forty years" can be English)."""
    head = prep.head
    if head.pos_ not in {"NOUN", "PROPN"} or head.i > prep.i or head.dep_ == "npadvmod":
        return False
    lower = obj.lower_
    if lower in TIME_NOUNS or lower in DAYS or lower in MONTHS:
        return False
    return not any(c.dep_ == "nummod" for c in obj.children) and obj.pos_ in {"NOUN", "PROPN", "PRON"}


# Words whose "of" makes a preposition of them: "because of the rain", "instead of coffee".
_OF_PREPOSITIONS = frozenset({"because", "instead"})
# What may stand in the noun phrase after them: without "of" a longer one could read as a clause
# ("because people like you": they like you).
_PLAIN_NP = frozenset({"det", "poss", "amod", "compound", "nummod"})


def delete_complex_of(doc: Doc) -> Iterator[Candidate]:
    """Yield the "of" of "because of" / "instead of" deleted before a plain noun phrase that
    ends the clause ("because the rain.", "tea instead coffee,"): strict."""
    for token in doc:
        i = token.i
        if token.lower_ != "of" or i == 0 or doc[i - 1].lower_ not in _OF_PREPOSITIONS:
            continue
        noun = next((t for t in doc[i + 1 :] if t.left_edge.i == i + 1 and t.pos_ in {"NOUN", "PROPN"}), None)
        if noun is None or noun.lower_ == "course" or noun.head.i not in {i - 1, i}:
            continue
        if any(t.dep_ not in _PLAIN_NP for t in noun.subtree if t is not noun) or noun.right_edge.i != noun.i:
            continue
        if noun.i + 1 < len(doc) and not doc[noun.i + 1].is_punct:
            continue
        yield Candidate(i, i + 1, (), "prep_delete_complex")


def delete_after_noun(doc: Doc) -> Iterator[Candidate]:
    """Yield a preposition between two noun phrases deleted ("five people my family", "stories
    his life"): strict unless it may read as ellipsis (`leaving_out_forces_an_error`)."""
    for prep, obj in _prepositions(doc):
        if prep.lower_ == "of" or (_head_lemma(prep), prep.lower_) in COLLOCATIONS:
            continue  # "of" after a noun is delete_collocation's
        if _time_preposition(obj) is None and _after_noun(prep, obj):
            yield Candidate(
                prep.i, prep.i + 1, (), "prep_delete_after_noun", leaving_out_forces_an_error(prep)
            )


def delete_time(doc: Doc) -> Iterator[Candidate]:
    """Yield the preposition of a time expression deleted: strict for "at night", "in 2010",
    "in the morning"; not for days ("Monday" stands bare in American English) or durations."""
    for prep, obj in _prepositions(doc):
        needed = _time_preposition(obj)
        if needed == prep.lower_ and needed in {"in", "at"}:
            strict = obj.lower_ not in MONTHS and leaving_out_forces_an_error(prep)
            yield Candidate(prep.i, prep.i + 1, (), "prep_delete_time", strict)


# Fixed phrases that open a sentence with a comma and cannot lose their preposition there:
# "The other hand, ...", "My opinion, ...", "Fact, ..." (each with the modifier it needs).
# Left out: "At first," / "At last," ("First, ..." and "Last, ..." are English) and "At the same
# time," ("The same time" is a fragment in dialogue: "Same time tomorrow?").
_OPENERS: dict[tuple[str, str], frozenset[str] | None] = {
    ("on", "hand"): frozenset({"other", "one"}),
    ("in", "opinion"): frozenset({"my", "our"}),
    ("on", "contrary"): frozenset({"the"}),
    ("in", "fact"): None,
    ("in", "addition"): None,
    ("in", "conclusion"): None,
}


def _opener(prep: Token, obj: Token) -> bool:
    """Return True for a phrase of `_OPENERS` that opens the sentence and ends before a comma."""
    key = (prep.lower_, obj.lower_)
    if prep.i != 0 or key not in _OPENERS or _next_word(obj) != ",":
        return False
    modifiers = {c.lower_ for c in obj.children if c.i < obj.i}
    needed = _OPENERS[key]
    if needed is None:
        return not modifiers
    return bool(modifiers & needed) and obj.left_edge.i == 1


def delete_opener(doc: Doc) -> Iterator[Candidate]:
    """Yield the preposition of a fixed phrase that opens the sentence deleted ("On the other
    hand, ..." -> "The other hand, ...", "In my opinion, ..." -> "My opinion, ..."): strict."""
    for prep, obj in _prepositions(doc):
        if _opener(prep, obj):
            yield Candidate(prep.i, prep.i + 1, (), "prep_delete_opener")


def delete_any(doc: Doc) -> Iterator[Candidate]:
    """Yield any other preposition with an object deleted: never strict ("for two years",
    "wrote to him", "all of them" stay English)."""
    for prep, obj in _prepositions(doc):
        lower, head = prep.lower_, prep.head
        head_lemma = _head_lemma(prep)
        collocation = (head_lemma, lower) in COLLOCATIONS and not _go_plus_verb(prep, head_lemma)
        if collocation or _time_preposition(obj) is not None:
            continue
        if lower == "of" and head.pos_ in {"NOUN", "PRON", "NUM"} and head.lower_ not in _OPTIONAL_OF:
            continue
        if _needed_by_verb(prep) or _after_noun(prep, obj) or _quantifier_of(prep) or _opener(prep, obj):
            continue
        yield Candidate(prep.i, prep.i + 1, (), "prep_delete", False)


# --- U:PREP -----------------------------------------------------------------------------------


def before_object(doc: Doc) -> Iterator[Candidate]:
    """Yield a preposition inserted before the direct object of a verb that takes none
    ("discussed about the plan", "reached to the station"); strict for the verbs of the table
    (a pronoun or noun phrase object) and for "about" after verbs of physical action ("bought
    about a car"), not strict after other verbs ("learned about English", "brought about a
    change", "takes about an hour" can be English)."""
    for token in doc:
        if token.dep_ != "dobj" or token.pos_ not in {"NOUN", "PROPN", "PRON"}:
            continue
        verb = token.head
        if verb.pos_ != "VERB" or token.i < verb.i:
            continue
        start = token.left_edge.i
        if start != verb.i + 1:
            continue  # a particle or an indirect object stands between verb and object
        if token.lower_ in {"what", "which", "who", "whom", "that"} or doc[start].tag_ in {"WDT", "WP", "CD"}:
            continue
        lemma = verb.lemma_.lower()
        if lemma in NO_PREPOSITION:
            yield Candidate(start, start, (NO_PREPOSITION[lemma],), "prep_insert_object")
        elif token.lower_ not in TIME_NOUNS:
            strict = lemma in _CONCRETE_VERBS and token.pos_ != "PRON"
            yield Candidate(start, start, ("about",), "prep_insert_object_about", strict)


def of_after_quantifier(doc: Doc) -> Iterator[Candidate]:
    """Yield "of" inserted after "near" and after an adjective-like partitive quantifier
    (`ADJECTIVE_QUANTIFIERS`: "most", "many", "a little") before a noun phrase with no determiner
    ("near of the sea", "most of people", "a little of Spanish"): strict ("most of the people" is
    English, so a determiner after the quantifier stops the rule)."""
    for token in doc:
        lower = token.lower_
        if token.i + 1 >= len(doc) or doc[token.i + 1].lower_ == "of":
            continue
        nxt = doc[token.i + 1]
        if lower == "near" and token.pos_ == "ADP" and nxt.pos_ in {"DET", "PROPN", "NOUN", "PRON"}:
            yield Candidate(token.i + 1, token.i + 1, ("of",), "prep_insert_of")
        elif lower in ADJECTIVE_QUANTIFIERS and token.head.i > token.i and _nominal(token.head):
            noun = token.head
            if any(c.dep_ in {"det", "poss"} and c.i > token.i for c in noun.children):
                continue
            if lower in {"little", "few"} and (token.i == 0 or doc[token.i - 1].lower_ != "a"):
                continue  # "little money" and "few people" are quantifiers without "of"
            yield Candidate(token.i + 1, token.i + 1, ("of",), "prep_insert_of")


def _nominal(token: Token) -> bool:
    """Return True for a noun, or an adjective the parser made the head of a noun phrase ("a
    little Spanish")."""
    if token.tag_ in {"NN", "NNS"}:
        return True
    return token.pos_ == "ADJ" and token.dep_ in {"dobj", "pobj", "nsubj", "attr"}


def before_adverb(doc: Doc) -> Iterator[Candidate]:
    """Yield "to" before a place adverb after a verb of motion ("went to home") and "in"/"on"
    before a time expression that takes none ("in last week", "on yesterday"): strict."""
    for token in doc:
        lower = token.lower_
        head = token.head
        if lower in _PLACE_ADVERBS and token.dep_ == "advmod" and head.lemma_ in _MOTION_VERBS:
            if token.i > 0 and doc[token.i - 1].lower_ not in PREPOSITIONS:
                yield Candidate(token.i, token.i, ("to",), "prep_insert_place_adverb")
        elif token.dep_ == "npadvmod" and token.pos_ in {"NOUN", "PROPN"}:
            start = token.left_edge.i
            first = doc[start].lower_
            if lower in _BARE_TIME and start == token.i:
                new = "on" if lower != "tonight" else "in"
            elif first in _TIME_DETERMINERS and lower in _TIME_WORDS and start == token.i - 1:
                new = "on" if lower in DAYS else "in"
            elif first == "the" and doc[start + 1].lower_ in {"next", "following"} and start == token.i - 2:
                new = "on" if lower in DAYS else "in"  # "in the next morning"
            else:
                continue
            if start > 0 and doc[start - 1].lower_ in PREPOSITIONS:
                continue
            new = cased(new, doc[start].text) if start == 0 else new
            # "in every day" is rare but heard; "in last week", "on yesterday" are not.
            yield Candidate(start, start, (new,), "prep_insert_time", first != "every")


# --- R:PREP -----------------------------------------------------------------------------------


def swap_collocation(doc: Doc) -> Iterator[Candidate]:
    """Yield the preposition of a fixed collocation replaced by one that is wrong with its head
    ("depend of", "interested on", "listen at"): strict. No "to" before a bare noun that may be
    a verb ("ready for work" -> "ready to work") and no "at" before a person after a verb ("came
    at me")."""
    for prep, obj in _prepositions(doc):
        for new in COLLOCATIONS.get((_head_lemma(prep), prep.lower_), ()):
            if (new == "to" and _to_infinitive(obj)) or (
                new == "at" and prep.head.pos_ == "VERB" and _person(obj)
            ):
                continue
            yield Candidate(prep.i, prep.i + 1, (cased(new, prep.text),), "prep_swap_collocation")


def _to_infinitive(obj: Token) -> bool:
    """Return True when "to" before `obj` may read as an infinitive: a bare singular noun with
    no word before it ("work", "use", "change")."""
    return obj.tag_ == "NN" and not any(c.i < obj.i for c in obj.children)


_PERSONAL = words("me you him her us them")


def _person(obj: Token) -> bool:
    """Return True for a personal pronoun or a noun for people (`is_person_noun`)."""
    return obj.lower_ in _PERSONAL or (obj.pos_ == "NOUN" and is_person_noun(obj.lemma_))


def _fixed_phrase(prep: Token, obj: Token) -> bool:
    """Return True when the preposition and its object are a fixed phrase (`FIXED_PHRASES`), with
    the modifier some of them need ("on the other hand", not "on hand")."""
    key = (prep.lower_, obj.lower_)
    if key not in FIXED_PHRASES or not _in_frame(prep, obj):
        return False
    return key not in _FIXED_MODIFIER or any(c.lower_ in _FIXED_MODIFIER[key] for c in obj.children)


def swap_fixed_phrase(doc: Doc) -> Iterator[Candidate]:
    """Yield the preposition of a phrase its object fixes replaced by a wrong one ("in TV",
    "with bus", "on my opinion", "in the weekend", "in my point of view", "in the end of the
    year", "in the age of 15", "the biggest city on the world", "By example, ..."): strict.
    Transport nouns count only without a determiner ("in the car" is English)."""
    for prep, obj in _prepositions(doc):
        if not _fixed_phrase(prep, obj) or (_head_lemma(prep), prep.lower_) in COLLOCATIONS:
            continue
        key = (prep.lower_, obj.lower_)
        if prep.lower_ == "by" and any(c.dep_ in {"det", "poss"} for c in obj.children):
            continue
        news = FIXED_PHRASES[key]
        if key in {("for", "example"), ("for", "instance")} and prep.i == 0 and _next_word(obj) == ",":
            news += ("by",)  # "By example, ..." (par exemple); "learn by example" is English mid-sentence
        for new in news:
            if (_head_lemma(prep), new) not in COLLOCATIONS:  # "believe in love"
                yield Candidate(prep.i, prep.i + 1, (cased(new, prep.text),), "prep_swap_fixed_phrase")


def _a_long_time(obj: Token) -> bool:
    """Return True for the object of "for a long time" (nothing else before it)."""
    before = sorted((c.lower_ for c in obj.children if c.i < obj.i), key=len)
    return obj.lower_ == "time" and before == ["a", "long"]


def swap_duration(doc: Doc) -> Iterator[Candidate]:
    """Yield "for" before a length of time replaced by "during" or "since" ("during three
    years", "since two weeks", as in French or German), and "for a long time" by "since a long
    time" ("during a long time" can be English): strict."""
    for prep, obj in _prepositions(doc):
        if prep.lower_ != "for":
            continue
        if _a_long_time(obj):
            yield Candidate(prep.i, prep.i + 1, (cased("since", prep.text),), "prep_swap_duration")
            continue
        if obj.tag_ != "NNS" or obj.lower_ not in TIME_NOUNS:
            continue
        if not any(c.dep_ in {"nummod", "amod"} and c.i < obj.i for c in obj.children):
            continue
        for new in ("during", "since"):
            yield Candidate(prep.i, prep.i + 1, (cased(new, prep.text),), "prep_swap_duration")


def swap_time(doc: Doc) -> Iterator[Candidate]:
    """Yield the preposition of a day, month, year, season or clock time replaced by another
    of in/on/at ("in Monday", "on 2010", "in night"): strict."""
    for prep, obj in _prepositions(doc):
        needed = _time_preposition(obj)
        if needed is None or needed != prep.lower_ or (_head_lemma(prep), prep.lower_) in COLLOCATIONS:
            continue
        for new in ("in", "on", "at"):
            if new != needed:
                yield Candidate(prep.i, prep.i + 1, (cased(new, prep.text),), "prep_swap_time")


# Adverbial phrases that the parser often leaves without an object ("at least", "in general",
# "on average"), matched on their words -> wrong replacements of the preposition. Those marked
# True must open the sentence ("In first, ..."; "came in first" is English mid-sentence).
ADVERBIALS: dict[tuple[str, str], tuple[tuple[str, ...], bool]] = {
    ("at", "least"): (("in",), False),
    ("in", "general"): (("on",), False),
    ("in", "particular"): (("on",), False),
    ("on", "average"): (("in",), False),
    ("at", "first"): (("in",), True),
}


def _adverbial(doc: Doc, i: int) -> tuple[str, ...]:
    """Return the wrong replacements of the preposition at `i` when it starts one of
    `ADVERBIALS` standing alone, else (). Only "at least" may go before a noun or adjective ("in
    general terms", "on average salaries", "at first sight" are other phrases)."""
    if i + 1 >= len(doc) or doc[i + 1].text != doc[i + 1].lower_:
        return ()
    key = (doc[i].lower_, doc[i + 1].text)
    if key not in ADVERBIALS:
        return ()
    news, opening = ADVERBIALS[key]
    if opening and i != 0:
        return ()
    after = doc[i + 2] if i + 2 < len(doc) else None
    if key != ("at", "least") and after is not None and after.pos_ in {"NOUN", "PROPN", "ADJ", "NUM"}:
        return ()
    return news


def swap_adverbial(doc: Doc) -> Iterator[Candidate]:
    """Yield the preposition of a fixed adverbial phrase (`ADVERBIALS`) replaced by a wrong one
    ("in least ten", "on general", "in average", "In first, ..."): strict."""
    for token in doc:
        i = token.i
        for new in _adverbial(doc, i):
            yield Candidate(i, i + 1, (cased(new, token.text),), "prep_swap_adverbial")


def swap_any(doc: Doc) -> Iterator[Candidate]:
    """Yield any other preposition replaced by its likely confusions (in/on/at, for/to, of/from):
    never strict, another preposition often makes another good sentence."""
    for prep, obj in _prepositions(doc):
        key = (_head_lemma(prep), prep.lower_)
        if key in COLLOCATIONS or _time_preposition(obj) == prep.lower_:
            continue
        if _fixed_phrase(prep, obj) or _adverbial(doc, prep.i):
            continue
        for new in _CONFUSIONS[prep.lower_]:
            yield Candidate(prep.i, prep.i + 1, (cased(new, prep.text),), "prep_swap", False)


RULES = {
    "M:PREP": (
        delete_collocation,
        delete_complex_of,
        delete_after_noun,
        delete_time,
        delete_opener,
        delete_any,
    ),
    "U:PREP": (before_object, before_adverb, of_after_quantifier),
    "R:PREP": (swap_collocation, swap_fixed_phrase, swap_adverbial, swap_time, swap_duration, swap_any),
}
