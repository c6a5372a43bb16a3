"""What the determiner, preposition and noun rules share: the number a noun phrase shows, whether
a noun is countable, "a" or "an" before a word, and the small word classes (time nouns,
uncountable nouns, partitive quantifiers) that decide whether an error is forced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triplets.lexicon import dictionary_forms

if TYPE_CHECKING:
    from spacy.tokens import Token


def words(text: str) -> frozenset[str]:
    """Return the set of the whitespace-separated words of `text` (for word lists)."""
    return frozenset(text.split())


SINGULAR = "sg"
PLURAL = "pl"

# Determiners and quantifiers that fix the number of their noun.
SINGULAR_MARKERS = words("a an one this that every each another either neither")
PLURAL_MARKERS = words(
    """these those two three four five six seven eight nine ten eleven twelve twenty thirty
    forty fifty hundred many several both few various numerous"""
)
# Time nouns: their number and determiners follow idioms ("all day", "two years ago", "todays").
TIME_NOUNS = words(
    """time times day days week weeks month months year years hour hours minute minutes second
    seconds morning mornings afternoon evening evenings night nights weekend weekends today
    tomorrow yesterday tonight century decade moment while"""
)
# Time nouns that count ("for a week", "two years ago", "every day"): "a" cannot go before the
# singular and a count fixes the number. "time" counts only as an occasion ("three times"; mass as
# a duration: "have time"); "while" has no plural. The one list for determiners and nouns.
COUNTED_TIME_NOUNS = words(
    """time times day days week weeks month months year years hour hours minute minutes second
    seconds morning mornings afternoon afternoons evening evenings night nights weekend weekends
    century centuries decade decades moment moments while"""
)
DAYS = words("monday tuesday wednesday thursday friday saturday sunday")
MONTHS = words("january february march april may june july august september october november december")
SEASONS = words("spring summer autumn winter fall")
# Countability comes in two lists. UNCOUNTABLE: nouns never countable in standard English ("an
# information", "a homework", "advices"), whatever their modifiers (bar `_LOOSE_UNCOUNTABLE`).
UNCOUNTABLE = words(
    """advice information furniture homework housework luggage baggage equipment news research
    evidence progress traffic weather scenery machinery jewellery jewelry clothing software
    garbage rubbish pollution feedback accommodation knowledge"""
)
# LEARNER_COUNTED: mass nouns learners count ("a money", "have a fun", "a good health", "a music")
# that have a plural or a countable sense in a dictionary (so `is_countable` keeps them: "monies",
# "a music of its own"), but that take no "a" in their ordinary sense. Those of them that a type
# reading counts after an adjective ("a Chinese music", like "a French wine") are in `_TYPE_COUNTED`.
LEARNER_COUNTED = words("money health fun luck stuff music")
_TYPE_COUNTED = frozenset({"music"})
# Nouns that stand bare after a preposition or verb ("go to school", "in hospital", "by car",
# "at home", "watch TV", British "in future") or in a mass reading ("give you space", "have
# experience"): deleting their article can leave good English.
BARE_ABLE = words(
    """school hospital church prison college university bed home work class town court sea
    lunch breakfast dinner supper bus car train plane taxi foot bike bicycle boat ship tv
    television radio piano guitar violin office kindergarten camp hand time future space room
    experience use"""
)
# Kinship words that also serve as names ("Mother is kind", "I told mother"): a bare singular
# of them may be a name.
KIN_NAMES = words("mother father mum mom dad mummy daddy grandmother grandfather grandma grandpa granny")
# Nouns for people, which have no mass reading ("they are chicken", "these are paper", "they
# were murder" have one). An "-er / -or" ending is no test ("paper", "water", "murder", "copper",
# "powder"), so those are listed; the "-ist / -ian" endings of a longer word are kept ("artists",
# "musicians"; not "list", "mist": `is_person_noun`). Left out: nouns heard bare after "be"
# ("they were witness / victim / host / judge to ...").
PERSON_ENDINGS = ("ist", "ian")
PERSON_NOUNS = words(
    """friend student parent child neighbour neighbor colleague classmate member tourist
    teacher worker player doctor engineer nurse singer dancer writer driver manager farmer
    lawyer officer soldier leader owner customer passenger stranger foreigner beginner learner
    reader user visitor actor actress director author professor instructor sailor tailor
    brother sister mother father daughter son cousin uncle aunt husband wife grandparent
    grandmother grandfather partner volunteer researcher programmer designer photographer
    painter baker butcher banker builder trainer employer employee supporter fan follower
    winner runner swimmer climber traveller traveler explorer hunter fighter prisoner minister
    governor inventor creator editor translator interpreter waiter waitress cashier chef
    pilot lecturer supervisor counsellor counselor adviser advisor competitor spectator
    investor consumer buyer seller shopper villager teenager youngster pupil citizen resident
    guest athlete surgeon immigrant refugee neighbour kid baby boy girl housewife"""
)
# Concrete things that are only ever counted, with no mass sense ("film", "video", "email",
# "paper", "cinema", "theatre" have one: "shot on film", "I like theatre") and no bare idiom
# after a verb ("move house", "set up shop", "play ball"); words in `BARE_ABLE` ("by car",
# "go to school") stay out. With the people in `PERSON_NOUNS`, what `count_only` accepts.
COUNT_ONLY_THINGS = words(
    """computer laptop smartphone cellphone device gadget toy bag suitcase backpack umbrella
    wallet bottle ticket website app movie magazine museum restaurant hotel library
    supermarket city village tree mountain river lake island machine robot vehicle
    apartment phone book notebook dictionary photo poster gift"""
)
# People nouns a bare singular may use as a name or title ("Baby is asleep", "Nurse will see
# you now"), besides `KIN_NAMES`.
_NAME_LIKE = KIN_NAMES | words("baby nurse cook nanny")
# Person nouns that serve as a title in a subject ("Doctor says I need rest", "Professor told
# us"): a bare singular subject of them may be a name; as an object it is not ("we need doctor").
TITLE_NOUNS = words("doctor professor captain coach teacher")


# Uncountable nouns that still take "a" before an adjective or a complement ("a good knowledge
# of", "an accommodation" in American English): never a forcing context.
_LOOSE_UNCOUNTABLE = frozenset({"knowledge", "accommodation"})

# Vowel-letter words said with a consonant first ("a university", "a one-day trip"), and
# consonant-letter words said with a vowel first ("an hour").
_CONSONANT_SOUND_PREFIXES = (
    "eu",
    "ewe",
    "uni",
    "use",
    "usu",
    "uti",
    "uk",
    "ura",
    "ure",
    "uro",
    "one",
    "once",
    "ubiq",
    "ufo",
)
_VOWEL_SOUND_PREFIXES = ("hour", "honest", "honour", "honor", "heir")
_VOWEL_SOUND_LETTERS = frozenset("aefhilmnorsx")


def indefinite_for(word: str) -> str:
    """Return the indefinite article the word takes ("an" before a vowel sound, else "a")."""
    if not word:
        return "a"
    lower = word.lower()
    if word.isupper() and len(word) <= 5 and word.isalpha() and len(word) > 1:
        # An abbreviation read letter by letter: "an MP", "a UN report".
        return "an" if lower[0] in _VOWEL_SOUND_LETTERS else "a"
    if lower[0].isdigit():
        digits = lower.split(".")[0].replace(",", "")
        eighteen = len(digits) in {2, 5} and digits[:2] in {"11", "18"}
        return "an" if lower[0] == "8" or eighteen else "a"
    if lower.startswith(_VOWEL_SOUND_PREFIXES):
        return "an"
    if lower[0] in "aeiou" and not lower.startswith(_CONSONANT_SOUND_PREFIXES):
        return "an"
    return "a"


def is_countable(lemma: str) -> bool:
    """Return True when the noun has a plural that is a real word and differs from it, and is
    not one of the usually uncountable nouns."""
    lower = lemma.lower()
    if lower in UNCOUNTABLE:
        return False
    return any(f.lower() != lower for f in dictionary_forms(lower, "NNS", "NOUN"))


def strictly_uncountable(lemma: str) -> bool:
    """Return True for nouns that never take "a" or a plural in standard English."""
    return lemma.lower() in UNCOUNTABLE and lemma.lower() not in _LOOSE_UNCOUNTABLE


def takes_no_indefinite(lemma: str, modified: bool = False) -> bool:
    """Return True for a noun that "a"/"an" cannot precede, whatever the meaning: a never-countable
    noun ("an information", "a bad weather") or a mass noun learners count ("a money", "a good
    health"); `modified`: an adjective or noun stands before it ("a Chinese music" is English)."""
    lower = lemma.lower()
    if strictly_uncountable(lower):
        return True
    return lower in LEARNER_COUNTED and not (modified and lower in _TYPE_COUNTED)


def is_person_noun(lemma: str) -> bool:
    """Return True for a noun for people (`PERSON_NOUNS`, or a longer word ending in "-ist" or
    "-ian": "scientist", "musician")."""
    lower = lemma.lower()
    return lower in PERSON_NOUNS or (lower.endswith(PERSON_ENDINGS) and len(lower) > 5)


def count_only(lemma: str) -> bool:
    """Return True for a noun that has no mass, bare or name use, so that its bare singular
    ("we need doctor", "I like computer") is wrong whatever it means: a person noun that is no
    name or title (`KIN_NAMES`, "baby", "nurse") or a listed concrete thing
    (`COUNT_ONLY_THINGS`); never a `BARE_ABLE` noun."""
    lower = lemma.lower()
    if lower in BARE_ABLE or lower in _NAME_LIKE:
        return False
    return is_person_noun(lower) or lower in COUNT_ONLY_THINGS


def finite_number(verb: Token) -> str | None:
    """Return the number the finite verb of `verb`'s clause shows (SINGULAR for VBZ and "was",
    PLURAL for VBP and "were"), or None when it shows none (past tense, modal, non-finite)."""
    finite = next((c for c in verb.children if c.dep_ in {"aux", "auxpass"}), verb)
    if finite.tag_ == "VBZ":
        return SINGULAR
    if finite.tag_ == "VBP":
        return PLURAL
    if finite.lower_ == "was":
        return SINGULAR
    if finite.lower_ == "were":
        return PLURAL
    return None


def anchored_number(noun: Token) -> str | None:
    """Return the number the noun's context forces on it, or None when nothing does.

    The anchors: a singular or plural determiner, quantifier or numeral before it ("a", "this",
    "every", "these", "two", "many"), "one of the ___", or, for a subject that is not
    coordinated, the agreement its finite verb shows."""
    markers = [
        c for c in noun.children if c.i < noun.i and c.dep_ in {"det", "nummod", "amod", "quantmod", "predet"}
    ]
    # Plural first: "a few books" has both "a" and "few".
    if any(c.lower_ in PLURAL_MARKERS or (c.dep_ == "nummod" and plural_numeral(c)) for c in markers):
        return PLURAL
    if any(c.lower_ in SINGULAR_MARKERS for c in markers):
        return SINGULAR
    if noun.tag_ == "NNS" and _plural_by_all_or_other(noun):
        return PLURAL
    head = noun.head
    if noun.dep_ == "pobj" and head.lower_ == "of":
        quantifier = head.head
        if quantifier.lower_ in _COUNT_QUANTIFIERS or (quantifier.tag_ == "CD" and quantifier.i < head.i):
            return PLURAL  # "one of the students", "three of my colleagues"
        if quantifier.lower_ in _MASS_QUANTIFIERS and noun.tag_ == "NNS":
            return PLURAL  # "most of the students"; "most of the cake" is good English too
    coordinated = any(c.dep_ == "conj" for c in noun.children) or noun.dep_ == "conj"
    if noun.dep_ in {"nsubj", "nsubjpass"} and not coordinated and head.pos_ in {"VERB", "AUX"}:
        return finite_number(head)
    return None


def _plural_by_all_or_other(noun: Token) -> bool:
    """Return True for a plural that "all" or a bare "other" counts ("all the students", "other
    people": "all the student", "other student" are wrong); with a determiner, possessive or
    numeral before it "other" may count one ("the other book", "some other day", "my other
    friend", "one other student"), and a mass singular ("all the time") is never a plural here."""
    left = [c for c in noun.children if c.i < noun.i]
    if any(c.lower_ == "all" for c in left):
        return True
    return any(c.lower_ == "other" for c in left) and not any(
        c.dep_ in {"det", "poss", "nummod"} and c.lower_ != "other" for c in left
    )


# Quantifiers whose partitive "of" needs a determined noun phrase after it: "most of the people",
# "one of my friends", "much of the time" ("most of people", "one of friends" are wrong; so is a
# numeral's: "two of my friends"). "A lot of", "the rest of" and "half of" take a bare noun too.
# The adjective-like ones stand before a noun as "many"/"most" do ("most people"); the rest are
# determiners or pronouns.
ADJECTIVE_QUANTIFIERS = words("many much few little most several")
PARTITIVE_QUANTIFIERS = ADJECTIVE_QUANTIFIERS | words("one some any all both each either neither none")
# The number a partitive's noun shows: plural after the counting ones ("one of the students"),
# either after the others ("most of the cake", "most of the students").
_COUNT_QUANTIFIERS = frozenset({"one", "each", "either", "neither", "many", "several", "both", "few"})
_MASS_QUANTIFIERS = frozenset({"some", "most", "all", "none", "any", "lot", "lots", "plenty"})


def plural_numeral(token: Token) -> bool:
    """Return True for a numeral that counts more than one ("2", "three", "1,000"; not "one", "half")."""
    text = token.lower_.replace(",", "")
    if text.isdigit():
        return text != "1"
    return token.tag_ == "CD" and text not in {"one", "1", "half"}


def noun_number(token: Token) -> str | None:
    """Return the grammatical number of a common noun by its tag (None for other tokens)."""
    if token.tag_ == "NN":
        return SINGULAR
    if token.tag_ == "NNS":
        return PLURAL
    return None
