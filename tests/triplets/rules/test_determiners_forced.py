"""Determiner rules for contexts that force the error whatever the noun: a determiner deleted
after a partitive "of" or in a fixed phrase, "a" deleted before a counted time noun, "a"/"an"
before mass nouns learners count, "the" before a name's possessive, "some" -> "a", "your" ->
"you". Each strict case, and each guard's English context that must not be strict."""

from __future__ import annotations

import pytest

from tests.triplets.rules.conftest import check
from tests.triplets.rules.test_determiners import assert_made, made


def rules_of(corrected: str, error_type: str) -> dict[str, tuple[str, bool]]:
    """Return (rule, strict) by artificial sentence."""
    return {c.artificial: (c.candidate.rule, c.candidate.strict) for c in check(corrected, error_type)}


# --- M:DET ------------------------------------------------------------------------------------


def test_determiner_deleted_after_a_partitive_of_is_strict() -> None:
    assert_made(
        "Most of the people in my town agree.",
        "M:DET",
        "Most of people in my town agree.",
        "det_delete_partitive",
        True,
    )
    assert_made(
        "I went there with two of my friends.",
        "M:DET",
        "I went there with two of friends.",
        "det_delete_partitive",
        True,
    )


def test_the_most_of_is_no_partitive() -> None:
    # "make the most of opportunities" is English: "the most" is a noun phrase of its own.
    found = rules_of("We should make the most of the opportunities we have.", "M:DET")
    assert found["We should make the most of opportunities we have."] == ("det_delete", False)
    # "a few of" and "much of" are partitives.
    assert_made(
        "I went with a few of my friends.",
        "M:DET",
        "I went with a few of friends.",
        "det_delete_partitive",
        True,
    )
    assert_made(
        "Much of the time was wasted.", "M:DET", "Much of time was wasted.", "det_delete_partitive", True
    )


def test_determiner_deleted_after_a_measure_of_is_not_strict() -> None:
    # "a lot of students" is English.
    assert rules_of("A lot of the students left early.", "M:DET")["A lot of students left early."] == (
        "det_delete",
        False,
    )


def test_the_deleted_in_a_fixed_phrase_is_strict() -> None:
    assert_made(
        "On the other hand, it is cheap.",
        "M:DET",
        "On other hand, it is cheap.",
        "det_delete_the_fixed",
        True,
    )
    assert_made("We study in the morning.", "M:DET", "We study in morning.", "det_delete_the_fixed", True)
    assert_made(
        "I saw snow for the first time.", "M:DET", "I saw snow for first time.", "det_delete_the_fixed", True
    )
    assert_made(
        "It was the first time I flew.", "M:DET", "It was first time I flew.", "det_delete_the_fixed", True
    )
    assert_made(
        "She talks about it all the time.",
        "M:DET",
        "She talks about it all time.",
        "det_delete_the_fixed",
        True,
    )


def test_the_last_time_is_fixed_only_after_for() -> None:
    assert_made(
        "I saw him for the last time.", "M:DET", "I saw him for last time.", "det_delete_the_fixed", True
    )
    # "was last time" is English ("last time" an adverbial).
    for corrected, bare in (
        ("The worst match was the last time.", "The worst match was last time."),
        ("The problem was the last time we met.", "The problem was last time we met."),
    ):
        assert rules_of(corrected, "M:DET")[bare] == ("det_delete", False)


def test_all_the_time_as_a_subject_is_not_a_fixed_phrase() -> None:
    found = rules_of("All the time we spent there was wasted.", "M:DET")
    assert all(rule != "det_delete_the_fixed" for rule, _ in found.values())


def test_a_deleted_before_a_counted_time_noun_is_strict() -> None:
    assert_made(
        "I stayed there for a week.", "M:DET", "I stayed there for week.", "det_delete_indefinite", True
    )
    assert_made("It was a long day.", "M:DET", "It was long day.", "det_delete_indefinite", True)


def test_a_deleted_before_a_time_noun_is_not_strict_after_what_or_before_a_compound() -> None:
    # "What day it was!" reads as a question word; "on Sunday morning" is English.
    assert rules_of("What a day it was!", "M:DET")["What day it was!"] == ("det_delete_indefinite", False)
    assert rules_of("We met on a Sunday morning.", "M:DET")["We met on Sunday morning."] == (
        "det_delete_indefinite",
        False,
    )


# --- U:DET ------------------------------------------------------------------------------------


def test_a_before_a_mass_noun_learners_count_is_strict() -> None:
    assert_made("We had fun at the party.", "U:DET", "We had a fun at the party.", "det_insert_a_bare", True)
    assert_made("I listen to music.", "U:DET", "I listen to a music.", "det_insert_a_bare", True)
    assert_made("I wish you good luck.", "U:DET", "I wish you a good luck.", "det_insert_a_bare", True)


def test_a_before_music_with_an_adjective_or_before_permission_is_not_strict() -> None:
    # "a Chinese music" (a kind of music), "a permission" (a licence) are English.
    assert rules_of("He likes Chinese music.", "U:DET")["He likes a Chinese music."] == (
        "det_insert_a_bare",
        False,
    )
    assert rules_of("I asked for permission.", "U:DET")["I asked for a permission."] == (
        "det_insert_a_bare",
        False,
    )
    assert rules_of("I like the Chinese music.", "R:DET")["I like a Chinese music."] == ("det_a_the", False)


def test_a_before_a_never_countable_noun_with_an_adjective_is_strict() -> None:
    assert_made("It is bad weather today.", "U:DET", "It is a bad weather today.", "det_insert_a_bare", True)


def test_a_before_an_uncountable_noun_is_not_strict_after_a_measure_or_for_loose_nouns() -> None:
    found = rules_of("I have a lot of homework.", "U:DET")
    assert found["I have a lot of a homework."] == ("det_insert_a_bare", False)
    # "a good knowledge of history" is English.
    found = rules_of("He has good knowledge of history.", "U:DET")
    assert found["He has a good knowledge of history."] == ("det_insert_a_bare", False)


def test_the_before_a_names_possessive_is_strict_but_not_before_a_named_place() -> None:
    assert_made("I met John's sister.", "U:DET", "I met the John's sister.", "det_insert_the_possessor", True)
    assert "We ate at the McDonald's restaurant." not in made("We ate at McDonald's restaurant.", "U:DET")


def test_the_before_a_names_possessive_is_not_strict_before_a_compound() -> None:
    # A brand's product: "the Kellogg's cornflakes", "the Johnson's baby oil" are English.
    for corrected, artificial in (
        ("I bought Kellogg's cornflakes.", "I bought the Kellogg's cornflakes."),
        ("We use Johnson's baby oil.", "We use the Johnson's baby oil."),
    ):
        assert rules_of(corrected, "U:DET")[artificial] == ("det_insert_the_possessor", False)


# --- R:DET ------------------------------------------------------------------------------------


def test_a_for_the_or_some_before_a_mass_noun_is_strict() -> None:
    assert_made(
        "I like the music of this band.", "R:DET", "I like a music of this band.", "det_the_to_a", True
    )
    assert_made("She gave me some advice.", "R:DET", "She gave me an advice.", "det_some_to_a", True)
    # A plural after "some" takes no "a" either, but "a books" is not what learners write.
    assert all(rule != "det_some_to_a" for rule, _ in rules_of("I read some good books.", "R:DET").values())


def test_you_for_your_after_a_preposition_or_as_a_subject_is_strict() -> None:
    assert_made("I stayed with your brother.", "R:DET", "I stayed with you brother.", "det_your_you", True)
    assert_made(
        "I came, and your sister was there.",
        "R:DET",
        "I came, and you sister was there.",
        "det_your_you",
        True,
    )


def test_you_for_your_is_not_made_after_a_verb_or_before_a_verb_like_noun() -> None:
    # After a verb "you" may be an indirect object ("give you money"): not made even before a
    # countable noun that is made elsewhere ("with you sister"); "You answer was" (answer reads
    # as a verb).
    assert "I stayed with you sister." in made("I stayed with your sister.", "R:DET")
    assert "I saw you sister yesterday." not in made("I saw your sister yesterday.", "R:DET")
    assert "I will give you money back." not in made("I will give your money back.", "R:DET")
    assert "You answer was right." not in made("Your answer was right.", "R:DET")


def test_a_deleted_from_a_lot_or_a_bit_is_strict() -> None:
    assert_made("I have a lot of friends.", "M:DET", "I have lot of friends.", "det_delete_a_lot", True)
    assert_made("I am a little bit tired.", "M:DET", "I am little bit tired.", "det_delete_a_lot", True)


def test_a_lot_as_a_piece_of_land_is_the_ordinary_indefinite_rule() -> None:
    found = rules_of("We parked in a parking lot.", "M:DET")
    assert found["We parked in parking lot."] == ("det_delete_indefinite", True)


def test_a_before_lots_of_is_strict_and_made_once() -> None:
    found = [c for c in check("We had lots of fun.", "U:DET") if c.artificial == "We had a lots of fun."]
    assert [(c.candidate.rule, c.candidate.strict, c.reason) for c in found] == [
        ("det_insert_a_lots", True, None)
    ]


def test_the_before_a_name_that_may_keep_an_older_the_is_not_strict() -> None:
    assert rules_of("We visited Ukraine.", "U:DET")["We visited the Ukraine."] == (
        "det_insert_the_name",
        False,
    )


@pytest.mark.parametrize(
    ("corrected", "bare"),
    [
        ("It gives you a space to work.", "It gives you space to work."),
        ("Cars will fly in the future.", "Cars will fly in future."),
        ("They limit the use of phones.", "They limit use of phones."),
    ],
)
def test_no_strict_deletion_before_a_noun_that_may_stand_bare(corrected: str, bare: str) -> None:
    """A mass reading ("give you space") or British "in future": leaving the article out is English."""
    assert bare not in {c.artificial for c in check(corrected, "M:DET") if c.candidate.strict}


@pytest.mark.parametrize(
    ("corrected", "english"),
    [
        ("Each human emotion is stronger with music.", "All human emotion is stronger with music."),
        ("First, every one needs to sleep well.", "First, all one needs to sleep well."),
    ],
)
def test_all_for_every_is_not_made_where_all_reads_as_english(corrected: str, english: str) -> None:
    """A mass reading ("all human emotion") or "all one needs" (everything one needs)."""
    assert english not in {c.artificial for c in check(corrected, "R:DET")}
    assert "All student has a desk." in {
        c.artificial for c in check("Every student has a desk.", "R:DET") if c.candidate.strict
    }
