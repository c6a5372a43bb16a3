"""Preposition rules that need a frame around the phrase: "because of" / "instead of", a
quantifier's "of", "for a long time", "from my point of view", "at the end of", "at the age of",
a superlative's "in the world", a sentence-initial "For example," and the added collocations."""

from __future__ import annotations

import pytest

from tests.triplets.rules.conftest import check


def strict(corrected: str, error_type: str, rule: str) -> set[str]:
    """Return the artificial sentences a rule makes strict on `corrected` that ERRANT validates."""
    return {
        c.artificial
        for c in check(corrected, error_type)
        if c.candidate.strict and c.candidate.rule == rule and c.reason is None
    }


def any_strict(corrected: str, error_type: str) -> set[str]:
    """Return every strict artificial sentence of `corrected`, validated or not."""
    return {c.artificial for c in check(corrected, error_type) if c.candidate.strict}


# --- M:PREP -----------------------------------------------------------------------------------


def test_of_of_because_of_and_instead_of_deleted_is_strict() -> None:
    assert strict("We stayed in because of the storm.", "M:PREP", "prep_delete_complex") == {
        "We stayed in because the storm."
    }
    assert strict("She ordered juice instead of milk.", "M:PREP", "prep_delete_complex") == {
        "She ordered juice instead milk."
    }


def test_no_complex_of_deleted_where_a_clause_could_follow() -> None:
    # "because people like you" reads as a clause; "because of course" is no "because of".
    assert not strict("I came because of people like you.", "M:PREP", "prep_delete_complex")
    assert not strict("He left because of course it rained.", "M:PREP", "prep_delete_complex")
    assert not strict("I came because of the people at work.", "M:PREP", "prep_delete_complex")


def test_of_after_a_quantifier_before_a_determiner_deleted_is_strict() -> None:
    assert "I spent most my money on books." in strict(
        "I spent most of my money on books.", "M:PREP", "prep_delete_needed"
    )
    assert "Each the players won a medal." in strict(
        "Each of the players won a medal.", "M:PREP", "prep_delete_needed"
    )


def test_of_after_all_or_before_a_pronoun_deleted_is_not_strict() -> None:
    # "all the players" is English; "most them" is no determiner case.
    assert not any_strict("All of the players won.", "M:PREP")
    assert not any_strict("Most of them won.", "M:PREP")


def test_of_after_some_or_a_few_before_a_determiner_deleted_is_strict() -> None:
    # One list of partitive quantifiers (`_nominal.PARTITIVE_QUANTIFIERS`): "some" and "few" too.
    assert "Some the people agree." in strict("Some of the people agree.", "M:PREP", "prep_delete_needed")
    assert "I met a few my friends." in strict("I met a few of my friends.", "M:PREP", "prep_delete_needed")
    # "much the same", "either the bus or the train" are English.
    assert not any_strict("It is much of the same.", "M:PREP")


def test_take_part_in_deleted_is_strict() -> None:
    assert "We took part the race." in strict("We took part in the race.", "M:PREP", "prep_delete_needed")
    assert "She got rid the old car." in strict("She got rid of the old car.", "M:PREP", "prep_delete_needed")
    assert "He specialises law." in strict("He specialises in law.", "M:PREP", "prep_delete_needed")


def test_from_deleted_after_a_verb_that_also_takes_a_bare_object_is_not_strict() -> None:
    # "recovered the loss" (recouped it), "protects the sun": the object reads as the verb's own.
    assert not any_strict("We recovered from the loss quickly.", "M:PREP")
    assert not any_strict("This cream protects from the sun.", "M:PREP")
    assert not any_strict("Vaccines prevent people from getting ill.", "M:PREP")


# --- R:PREP -----------------------------------------------------------------------------------


def test_since_a_long_time_is_strict() -> None:
    assert strict("She has worked here for a long time.", "R:PREP", "prep_swap_duration") == {
        "She has worked here since a long time."
    }
    # "for a time", "for the first time" are no length of time that "since" could never take.
    assert not strict("She has worked here for a time.", "R:PREP", "prep_swap_duration")
    assert not strict("She came here for the first time.", "R:PREP", "prep_swap_duration")


def test_point_of_view_end_and_age_frames_are_strict() -> None:
    assert "In my point of view, the film is boring." in strict(
        "From my point of view, the film is boring.", "R:PREP", "prep_swap_fixed_phrase"
    )
    assert "We left in the end of the concert." in strict(
        "We left at the end of the concert.", "R:PREP", "prep_swap_fixed_phrase"
    )
    assert "He started school in the age of six." in strict(
        "He started school at the age of six.", "R:PREP", "prep_swap_fixed_phrase"
    )


def test_frames_missing_give_no_strict_swap() -> None:
    # "from this point", "in the end of the tube" (a place), "in the age of machines" are English.
    assert not any_strict("From this point, the road is steep.", "R:PREP")
    assert not any_strict("There is a hole at the end of the tube.", "R:PREP")
    assert not any_strict("We live at the age of machines.", "R:PREP")


def test_superlative_in_the_world_is_strict_elsewhere_not() -> None:
    assert "Tokyo is the biggest city on the world." in strict(
        "Tokyo is the biggest city in the world.", "R:PREP", "prep_swap_fixed_phrase"
    )
    # "the best book on the world" (about it), and "in the world" after no superlative, are English.
    assert not any_strict("It is the best book in the world.", "R:PREP")
    assert not any_strict("There are many cities in the world.", "R:PREP")


def test_by_example_only_opening_the_sentence() -> None:
    assert "By example, we walk to work." in strict(
        "For example, we walk to work.", "R:PREP", "prep_swap_fixed_phrase"
    )
    # Mid-sentence "by example" can be English ("children learn, by example, ...").
    assert not any(
        c.candidate.new == ("by",) for c in check("Children learn, for example, to share.", "R:PREP")
    )


def test_added_collocations_are_strict() -> None:
    for corrected, artificial in (
        ("We took part in the race.", "We took part to the race."),
        ("She got rid of the old car.", "She got rid from the old car."),
        ("My brother is scared of dogs.", "My brother is scared from dogs."),
        ("He recovered from the flu.", "He recovered of the flu."),
    ):
        assert artificial in strict(corrected, "R:PREP", "prep_swap_collocation"), corrected


def test_a_preposition_left_out_of_a_list_or_after_an_article_is_not_strict() -> None:
    """ "at work, (at) school or at home" is ellipsis; "of the of" was a stray word already."""
    made = {c.artificial: c.candidate.strict for c in check("I listen to music and to the radio.", "M:PREP")}
    assert made.get("I listen to music and the radio.") is not True
    made = {c.artificial: c.candidate.strict for c in check("Most of the of people agree.", "M:PREP")}
    assert made.get("Most of the people agree.") is not True


def test_talking_of_is_english() -> None:
    assert "We are talking of travel." not in {
        c.artificial for c in check("We are talking about travel.", "R:PREP") if c.candidate.strict
    }


@pytest.mark.parametrize(
    ("corrected", "english"),
    [
        ("We paid for the bill.", "We paid the bill."),
        ("They agreed with the plan.", "They agreed the plan."),
        ("She worried about her son.", "She worried her son."),
    ],
)
def test_no_strict_deletion_after_a_head_that_also_takes_a_bare_object(corrected: str, english: str) -> None:
    assert english not in strict(corrected, "M:PREP", "prep_delete_needed")
