"""Adjective errors: R:ADJ:FORM (degree of comparison), R:MORPH (adjective <-> adverb and other
derivations), R:ADJ (many/much, few/little, better/best with the wrong noun or anchor), M:ADJ
(a missing predicative adjective).

Every produced form is a dictionary form (`lexicon.dictionary_forms`) or a word-list word from a
small table: never a rule-made guess ("beautifuler"). A degree change is strict only where the
sentence anchors the degree: "than" after a comparative, "the ... of/in" (or "one of the") with
a superlative, very/too/so before a positive adjective.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from triplets import lexicon
from triplets.candidates import Candidate, cased

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# Modifiers that only take a positive adjective ("very bigger").
_POSITIVE_ONLY = frozenset({"very", "too", "so", "extremely", "quite", "really", "fairly"})
# Modifiers that only take a comparative ("much big", "far cheap").
_COMPARATIVE_ONLY = frozenset({"much", "far", "even", "lot"})
# Quantifiers: their degree forms (fewer, less, more) are R:ADJ / R:DET matters, see `quantifier`.
_QUANTIFIERS = frozenset({"few", "little", "many", "much", "fewer", "less", "more", "most", "least"})
# Copulas after which a bare predicative slot must be filled.
_COPULAS = frozenset({"be", "seem", "become", "remain"})
# -ly adverbs whose adjective means something else or is itself an adverb ("work hard").
_LY_EXCLUDED = frozenset(
    [
        "hardly",
        "lately",
        "nearly",
        "shortly",
        "highly",
        "directly",
        "fairly",
        "pretty",
        "only",
        "early",
        "likely",
        "daily",
        "weekly",
        "monthly",
        "yearly",
        "friendly",
        "lonely",
        "lovely",
        "ugly",
        "silly",
        "holy",
        "elderly",
        "costly",
        "deadly",
        "lively",
        "orderly",
        "curly",
        "jolly",
        "bully",
        "supply",
        "apply",
        "reply",
        "rely",
        "fly",
        "july",
        "italy",
        "family",
        "really",
        "mostly",
    ]
)
# Adverbs with a flat (adjective-form) variant: "drive slow", "speak loud" are heard.
_FLAT_ADVERBS = frozenset(
    [
        "quickly",
        "slowly",
        "loudly",
        "clearly",
        "easily",
        "cheaply",
        "wrongly",
        "tightly",
        "deeply",
        "sharply",
        "quietly",
        "firmly",
    ]
)
# Derivations ERRANT labels R:MORPH that no inflection table gives: adjective <-> noun.
_NOUN_OF_ADJECTIVE = {
    "dangerous": "danger",
    "successful": "success",
    "healthy": "health",
    "beautiful": "beauty",
    "crowded": "crowd",
    "detailed": "detail",
    "important": "importance",
    "different": "difference",
    "necessary": "necessity",
    "happy": "happiness",
    "sad": "sadness",
    "lonely": "loneliness",
    "useful": "use",
    "helpful": "help",
    "careful": "care",
    "confident": "confidence",
    "independent": "independence",
    "responsible": "responsibility",
    "possible": "possibility",
    "popular": "popularity",
    "comfortable": "comfort",
    "famous": "fame",
    "expensive": "expense",
    "stressful": "stress",
    "peaceful": "peace",
    "noisy": "noise",
    "sunny": "sun",
    "windy": "wind",
}
# -ed / -ing participial adjectives ("I am interesting in"), both real words.
_ED_ING = {
    "interested": "interesting",
    "bored": "boring",
    "excited": "exciting",
    "tired": "tiring",
    "surprised": "surprising",
    "worried": "worrying",
    "confused": "confusing",
    "amazed": "amazing",
    "embarrassed": "embarrassing",
    "frightened": "frightening",
    "disappointed": "disappointing",
    "annoyed": "annoying",
    "satisfied": "satisfying",
    "shocked": "shocking",
    "terrified": "terrifying",
    "relaxed": "relaxing",
    "exhausted": "exhausting",
}
_ING_ED = {v: k for k, v in _ED_ING.items()}


def _forms(lemma: str, tag: str) -> tuple[str, ...]:
    """Return the regular dictionary forms of `lemma` for `tag` ("oldest", not "eldest")."""
    forms = lexicon.dictionary_forms(lemma, tag, "ADJ")
    return tuple(f for f in forms if f.lower() != lemma.lower() and f.lower().startswith(lemma[:3].lower()))


def _positive(token: Token) -> str | None:
    """Return the positive form of a comparative/superlative adjective (None if unknown)."""
    lemma = token.lemma_.lower()
    if lemma == token.lower_ or not lexicon.is_word(lemma):
        return None
    if token.lower_ not in {f.lower() for f in lexicon.dictionary_forms(lemma, token.tag_, "ADJ")}:
        return None
    # Regular degrees only: spaCy gives "better" the lemma "well", and ERRANT calls
    # better/best R:ADJ (different lemmas), so suppletive forms are left to `quantifier`.
    return lemma if token.lower_.startswith(lemma[:3]) else None


def _has_than(token: Token) -> bool:
    return any(c.lower_ == "than" for c in token.children) or (
        token.i + 1 < len(token.doc) and token.doc[token.i + 1].lower_ == "than"
    )


def _superlative_anchor(token: Token) -> bool:
    """True when "the" + superlative is anchored by a following of/in phrase or "one of the"."""
    noun = token.head if token.dep_ == "amod" else token
    has_the = any(c.lower_ == "the" and c.dep_ == "det" for c in noun.children) or (
        token.i > 0 and token.doc[token.i - 1].lower_ == "the"
    )
    if not has_the:
        return False
    prep = any(c.dep_ == "prep" and c.lower_ in {"of", "in"} for c in (*noun.children, *token.children))
    one_of = noun.head.lower_ == "of" and noun.head.head.lower_ == "one"
    return prep or one_of


def degree(doc: Doc) -> Iterator[Candidate]:
    """Yield degree changes of adjectives (R:ADJ:FORM): comparative -> positive / superlative,
    superlative -> comparative, positive -> comparative, comparative -> "more" + positive."""
    for token in doc:
        if token.pos_ != "ADJ" or token.lemma_.lower() in _QUANTIFIERS or token.lower_ in _QUANTIFIERS:
            continue
        span = (token.i, token.i + 1)
        if token.tag_ == "JJR":
            positive = _positive(token)
            if positive is None:
                continue
            than = _has_than(token)
            intensified = any(c.lower_ in _COMPARATIVE_ONLY for c in token.children)
            yield Candidate(
                *span, (cased(positive, token.text),), "adj_comparative_to_positive", than or intensified
            )
            for form in _forms(positive, "JJS"):
                yield Candidate(*span, (cased(form, token.text),), "adj_comparative_to_superlative", than)
            # "more old than" is wrong; "more happy than" is heard: only short adjectives force it.
            short = len(positive) <= 5 and not positive.endswith("y")
            yield Candidate(
                *span, (cased("more", token.text), positive), "adj_analytic_comparative", than and short
            )
        elif token.tag_ == "JJS":
            positive = _positive(token)
            if positive is None:
                continue
            anchored = _superlative_anchor(token)
            for form in _forms(positive, "JJR"):
                yield Candidate(*span, (cased(form, token.text),), "adj_superlative_to_comparative", anchored)
            # "the most tall boy" (ERRANT merges "most tall" -> "tallest" into one R:ADJ:FORM).
            short = len(positive) <= 5 and not positive.endswith("y")
            yield Candidate(
                *span, (cased("most", token.text), positive), "adj_analytic_superlative", anchored and short
            )
        elif token.tag_ == "JJ" and token.dep_ in {"amod", "acomp"}:
            lemma = token.lower_
            intensified = any(c.lower_ in _POSITIVE_ONLY and c.dep_ == "advmod" for c in token.children)
            if any(c.dep_ in {"conj", "cc"} for c in token.children):
                continue
            for form in _forms(lemma, "JJR"):
                yield Candidate(*span, (cased(form, token.text),), "adj_positive_to_comparative", intensified)


def _adverb_of(adjective: str) -> str | None:
    if adjective.endswith("ly") or len(adjective) < 3:
        return None
    if adjective.endswith("y"):
        options = [adjective[:-1] + "ily"]
    elif adjective.endswith("le"):
        options = [adjective[:-1] + "y"]
    elif adjective.endswith("ic"):
        options = [adjective + "ally"]
    else:
        options = [adjective + "ly"]
    # "lowly", "kindly" are adjectives themselves: no adverb error.
    return next((o for o in options if lexicon.is_word(o) and not lexicon.lemmas(o, "ADJ")), None)


def _adjective_of(adverb: str) -> str | None:
    if not adverb.endswith("ly") or adverb in _LY_EXCLUDED:
        return None
    stem = adverb[:-2]
    options = [stem]
    if adverb.endswith("ily"):
        options = [stem[:-1] + "y"]
    elif adverb.endswith("ically"):
        options = [adverb[:-4]]
    elif adverb.endswith("bly") or adverb.endswith("ply") or (adverb.endswith("tly") and stem.endswith("t")):
        options = [stem + "le", stem]
    for option in options:
        if lexicon.is_word(option) and lexicon.lemmas(option, "ADJ"):
            return option
    return None


def adjective_adverb(doc: Doc) -> Iterator[Candidate]:
    """Yield -ly adverbs of verbs turned into adjectives ("think careful": strict) and
    attributive/predicative adjectives turned into -ly adverbs ("a quickly car", "is
    carefully": strict after be/seem/become)."""
    for token in doc:
        span = (token.i, token.i + 1)
        if token.tag_ == "RB" and token.dep_ == "advmod":
            adjective = _adjective_of(token.lower_)
            if adjective is None:
                continue
            strict = token.head.pos_ == "VERB" and token.lower_ not in _FLAT_ADVERBS
            yield Candidate(*span, (cased(adjective, token.text),), "morph_adverb_to_adjective", strict)
        elif token.tag_ == "JJ" and token.dep_ in {"amod", "acomp"}:
            adverb = _adverb_of(token.lower_)
            if adverb is None:
                continue
            strict = token.dep_ == "amod" or token.head.lemma_ in _COPULAS
            yield Candidate(*span, (cased(adverb, token.text),), "morph_adjective_to_adverb", strict)


def derivation(doc: Doc) -> Iterator[Candidate]:
    """Yield table derivations: a predicative adjective replaced by its noun ("very danger":
    strict after an intensifier) and -ed/-ing participial adjectives swapped ("I am
    interesting": a real word with another meaning, so never strict)."""
    for token in doc:
        if token.tag_ not in {"JJ", "VBN", "VBG"}:
            continue
        span = (token.i, token.i + 1)
        lower = token.lower_
        if token.tag_ == "JJ" and token.dep_ in {"acomp", "amod"} and lower in _NOUN_OF_ADJECTIVE:
            intensified = any(c.lower_ in _POSITIVE_ONLY for c in token.children)
            noun = _NOUN_OF_ADJECTIVE[lower]
            yield Candidate(*span, (cased(noun, token.text),), "morph_adjective_to_noun", intensified)
        swapped = _ED_ING.get(lower) or _ING_ED.get(lower)
        if swapped and token.dep_ in {"acomp", "amod"}:
            yield Candidate(*span, (cased(swapped, token.text),), "morph_participle", False)


def _head_noun(token: Token) -> Token | None:
    head = token.head
    if token.dep_ == "amod" and head.tag_ in {"NN", "NNS"} and head.i > token.i:
        return head
    return None


def quantifier(doc: Doc) -> Iterator[Candidate]:
    """Yield many/much, few/little, fewer/less with the wrong kind of noun (R:ADJ): "much
    people", "many money", "little friends", "few time", "fewer money" are strict; "less
    books" is common usage and not strict. Also better/best and worse/worst against their
    anchor ("the better day of the year")."""
    for token in doc:
        lower = token.lower_
        span = (token.i, token.i + 1)
        noun = _head_noun(token)
        if noun is not None:
            plural = noun.tag_ == "NNS"
            swap = {
                ("many", True): ("much", True),
                ("much", False): ("many", True),
                ("few", True): ("little", token.i > 0 and doc[token.i - 1].lower_ == "a"),
                ("little", False): ("few", True),
                ("fewer", True): ("less", False),
                ("less", False): ("fewer", True),
            }.get((lower, plural))
            small = lower == "little" and any(
                c.dep_ in {"poss", "det"} and c.lower_ not in {"a", "an"} for c in noun.children
            )
            if swap is not None and not small:
                yield Candidate(*span, (cased(swap[0], token.text),), "adj_quantifier", swap[1])
        if lower in {"best", "worst"} and token.tag_ == "JJS":
            new = {"best": "better", "worst": "worse"}[lower]
            yield Candidate(
                *span, (cased(new, token.text),), "adj_irregular_degree", _superlative_anchor(token)
            )
        if lower in {"better", "worse"} and token.tag_ == "JJR":
            new = {"better": "best", "worse": "worst"}[lower]
            yield Candidate(*span, (cased(new, token.text),), "adj_irregular_degree", _has_than(token))


def delete_predicative(doc: Doc) -> Iterator[Candidate]:
    """Yield a predicative adjective without dependents deleted ("She is ___."): strict after
    be/seem/become/remain, whose complement cannot be left out; never an attributive one, whose
    deletion leaves good English."""
    for token in doc:
        if token.pos_ != "ADJ" or token.dep_ != "acomp" or list(token.children):
            continue
        head = token.head
        # "it was (difficult) to understand", "where the houses are (cheaper)" stay English.
        extraposed = any(c.dep_ in {"xcomp", "ccomp"} and c.i > token.i for c in head.children)
        strict = head.lemma_ in _COPULAS and not extraposed and head.dep_ != "relcl"
        yield Candidate(token.i, token.i + 1, (), "adj_drop_predicative", strict)


def delete_quantifier(doc: Doc) -> Iterator[Candidate]:
    """Yield many/much/few deleted after too/so/how/very ("too many friends" -> "too
    friends"): the degree word then has nothing to modify, so it is strict."""
    for token in doc:
        if token.lower_ not in {"many", "much", "few"} or token.tag_ != "JJ" or token.dep_ != "amod":
            continue
        if token.i > 0 and doc[token.i - 1].lower_ in {"too", "so", "how", "very"}:
            yield Candidate(token.i, token.i + 1, (), "adj_drop_quantifier", True)


RULES = {
    "R:ADJ:FORM": (degree,),
    "R:MORPH": (adjective_adverb, derivation),
    "R:ADJ": (quantifier,),
    "M:ADJ": (delete_predicative, delete_quantifier),
}
