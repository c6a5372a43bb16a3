"""More strict preposition candidates: dependent prepositions of adjectives and verbs ("thankful
of", "ready to the exam"), idioms the object fixes ("on fact", "on order to", "keep on touch", "by
my own"), adverbials the parser leaves without an object ("on general", "In first, ..."), fixed
openers that cannot lose their preposition ("The other hand, ...") and verbs that take no direct
object ("swim my friends", "slept the sofa"); and the English readings each must leave alone."""

from __future__ import annotations

import pytest

from tests.triplets.rules.conftest import check
from tests.triplets.rules.golden import assert_made
from tests.triplets.rules.golden import strict_made as strict

# --- R:PREP: collocations ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("I am thankful for your help.", "I am thankful of your help."),
        ("We are ready for the exam.", "We are ready to the exam."),
        ("Apart from the rain, it was fine.", "Apart of the rain, it was fine."),
        ("She fell in love with the city.", "She fell in love of the city."),
        ("He is jealous of his brother.", "He is jealous on his brother."),
        ("My son is allergic to nuts.", "My son is allergic of nuts."),
    ],
)
def test_wrong_dependent_preposition_is_strict(corrected: str, artificial: str) -> None:
    assert_made(corrected, "R:PREP", artificial, "prep_swap_collocation", True)


def test_no_to_before_a_bare_noun_that_may_be_a_verb() -> None:
    # "ready to work" and "wait to change" are English infinitives.
    assert "We are ready to work." not in strict("We are ready for work.", "R:PREP")
    assert "We waited to change." not in strict("We waited for change.", "R:PREP")


@pytest.mark.parametrize(
    ("corrected", "english"),
    [
        ("She is good at people.", "She is good to people."),
        ("I agree with the plan.", "I agree to the plan."),
        ("What happened to the party?", "What happened at the party?"),
        ("This book belongs to me.", "This book belongs with me."),
        ("He came to me.", "He came at me."),
        ("I am afraid of my children.", "I am afraid for my children."),
        ("I am tired of work.", "I am tired from work."),
        ("She graduated from Oxford.", "She graduated in Oxford."),
        ("He succeeded in school.", "He succeeded at school."),
        ("They have an interest in the bank.", "They have an interest on the bank."),
        ("It had an impact on customers.", "It had an impact to customers."),
    ],
)
def test_swaps_that_read_as_english_are_not_strict(corrected: str, english: str) -> None:
    assert english not in strict(corrected, "R:PREP")


# --- R:PREP: idioms the object fixes ----------------------------------------------------------


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("In fact, he was right.", "On fact, he was right."),
        ("We left early in order to see it.", "We left early on order to see it."),
        ("Let's keep in touch.", "Let's keep on touch."),
        ("They fell in love at once.", "They fell on love at once."),
        ("She lives on her own.", "She lives by her own."),
        ("We play tennis on weekends.", "We play tennis in weekends."),
        ("For instance, cats sleep a lot.", "In instance, cats sleep a lot."),
        ("For instance, cats sleep a lot.", "By instance, cats sleep a lot."),
        ("He sat in front of me.", "He sat at front of me."),
        ("In the future, cars will fly.", "At the future, cars will fly."),
        ("We have a lot in common.", "We have a lot on common."),
        ("She is in charge of the shop.", "She is on charge of the shop."),
        ("He was in a hurry.", "He was on a hurry."),
        ("Old people are at risk.", "Old people are in risk."),
    ],
)
def test_wrong_preposition_of_an_idiom_is_strict(corrected: str, artificial: str) -> None:
    assert_made(corrected, "R:PREP", artificial, "prep_swap_fixed_phrase", True)


@pytest.mark.parametrize(
    ("corrected", "english"),
    [
        ("The story is grounded in fact.", "The story is grounded on fact."),
        ("Put the names in alphabetical order.", "Put the names on alphabetical order."),
        ("For this example, we use a cat.", "In this example, we use a cat."),
        ("She is an expert in love.", "She is an expert on love."),
        ("We sat in front.", "We sat at front."),
        ("They travel in public transport.", "They travel on public transport."),
        ("We had a test in addition and subtraction.", "We had a test on addition and subtraction."),
        ("We looked in the future of Europe.", "We looked at the future of Europe."),
        ("They met on the weekends.", "They met in the weekends."),
        # "on order" (ordered, not yet delivered) is English before "for".
        ("Everything is in order for the trip.", "Everything is on order for the trip."),
        # After a passive, "by his own" reads as its agent ("betrayed by his own").
        ("The boy was left on his own.", "The boy was left by his own."),
    ],
)
def test_idioms_out_of_their_frame_are_not_strict(corrected: str, english: str) -> None:
    assert english not in strict(corrected, "R:PREP")


# --- R:PREP: adverbials -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("People in general like it.", "People on general like it."),
        ("On average, people sleep less.", "In average, people sleep less."),
        ("At first, I hated it.", "In first, I hated it."),
        ("I liked the colours in particular.", "I liked the colours on particular."),
    ],
)
def test_wrong_preposition_of_an_adverbial_is_strict(corrected: str, artificial: str) -> None:
    assert_made(corrected, "R:PREP", artificial, "prep_swap_adverbial", True)


@pytest.mark.parametrize(
    "corrected",
    [
        "We spoke in general terms.",
        "Prices rose on average salaries.",
        "He saw her at first light.",
        "I liked it at first, but not now.",
    ],
)
def test_adverbials_before_a_noun_or_inside_the_sentence_are_left_alone(corrected: str) -> None:
    assert not any(c.candidate.rule == "prep_swap_adverbial" for c in check(corrected, "R:PREP"))


# --- M:PREP -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("On the other hand, it is cheap.", "The other hand, it is cheap."),
        ("In my opinion, it is too long.", "My opinion, it is too long."),
        ("In conclusion, we should go.", "Conclusion, we should go."),
    ],
)
def test_preposition_of_a_fixed_opener_deleted_is_strict(corrected: str, artificial: str) -> None:
    assert_made(corrected, "M:PREP", artificial, "prep_delete_opener", True)


@pytest.mark.parametrize(
    "corrected",
    ["At first, I hated it.", "At the same time, we learned a lot.", "On the other hand it is cheap."],
)
def test_openers_that_may_stand_without_it_are_not_strict(corrected: str) -> None:
    # "First, ..." is English; "The same time" is a fragment of dialogue; no comma, no frame.
    assert not any(c.candidate.rule == "prep_delete_opener" for c in check(corrected, "M:PREP"))
    assert not strict(corrected, "M:PREP") & {"First, I hated it.", "The same time, we learned a lot."}


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("I swim with my friends.", "I swim my friends."),
        ("We travelled with our family.", "We travelled our family."),
        ("We slept on the sofa.", "We slept the sofa."),
        ("They stayed at a small hotel.", "They stayed a small hotel."),
        ("I am thankful for your help.", "I am thankful your help."),
        ("She fell in love with him.", "She fell in love him."),
    ],
)
def test_preposition_a_verb_or_adjective_needs_deleted_is_strict(corrected: str, artificial: str) -> None:
    assert_made(corrected, "M:PREP", artificial, "prep_delete_needed", True)


@pytest.mark.parametrize(
    ("corrected", "english"),
    [
        ("I play with my friends.", "I play my friends."),
        ("We stayed with friends.", "We stayed friends."),
        ("I walk with my dog.", "I walk my dog."),
        ("We stayed at home.", "We stayed home."),
        ("We arrived at home late.", "We arrived home late."),
        ("We stayed in the same room.", "We stayed the same room."),
        ("I slept in the morning.", "I slept the morning."),
        ("I was afraid of that.", "I was afraid that."),
        ("Set it apart from others.", "Set it apart others."),
        # "stay" and "sleep" take a course, a stretch of time or a journey bare.
        ("Stay in the course, and you will pass.", "Stay the course, and you will pass."),
        ("I slept on the flight.", "I slept the flight."),
        # A degree word stands bare: "hope more".
        ("We hope for more.", "We hope more."),
    ],
)
def test_deletions_that_read_as_english_are_not_strict(corrected: str, english: str) -> None:
    assert english not in strict(corrected, "M:PREP")
