"""R:NOUN:NUM for a bare plural of a count-only noun made a bare singular (`nouns._bare_count_plural`,
`_nominal.count_only`): strict where the bare singular has no reading ("we need doctor"), not
strict after "as", a role verb, "kind of", "with" for "child", in a vocative, before a name, in
a headline, before a pointing word, for kinship words, adjectives and nouns with a mass use."""

from __future__ import annotations

import pytest

from tests.triplets.rules.conftest import check
from tests.triplets.rules.golden import assert_made as assert_made_of_type
from tests.triplets.rules.golden import made, strict_made
from triplets.rules._nominal import BARE_ABLE, COUNT_ONLY_THINGS, PERSON_NOUNS, count_only

TYPE = "R:NOUN:NUM"
RULE = "noun_number_bare_count"


def assert_made(corrected: str, artificial: str, rule: str, strict: bool) -> None:
    """Assert the rule makes `artificial` as an R:NOUN:NUM error with this strict flag."""
    assert_made_of_type(corrected, TYPE, artificial, rule, strict)


def made_by_rule(corrected: str) -> bool:
    """Return True when the bare-count rule makes any candidate on `corrected`."""
    return any(c.candidate.rule == RULE for c in made(corrected, TYPE).values())


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        # Objects of a verb.
        ("In our town we need doctors in every clinic.", "In our town we need doctor in every clinic."),
        ("My aunt bought computers for the office.", "My aunt bought computer for the office."),
        ("The company hires engineers from abroad.", "The company hires engineer from abroad."),
        # Objects of a preposition that takes no bare singular.
        (
            "The club organises trips for children every summer.",
            "The club organises trips for child every summer.",
        ),
        ("She read the letters of soldiers from the war.", "She read the letters of soldier from the war."),
        ("He spends his evenings with friends.", "He spends his evenings with friend."),
        # A subject whose verb shows no number, with an adjective before it.
        ("Young musicians will play in the square.", "Young musician will play in the square."),
        ("Modern robots can clean the floor.", "Modern robot can clean the floor."),
    ],
)
def test_bare_plural_of_a_count_only_noun_made_singular_is_strict(corrected: str, artificial: str) -> None:
    assert_made(corrected, artificial, RULE, True)


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        # A role after "as" or a role verb ("work as nurse", "play doctor").
        ("They worked as engineers in the city.", "They worked as engineer in the city."),
        ("The kids played doctors in the garden.", "The kids played doctor in the garden."),
        # A kind or a role takes a bare singular after "of".
        ("This kind of songs is popular.", "This kind of song is popular."),
        ("The role of teachers has changed.", "The role of teacher has changed."),
        # "with child" is pregnant.
        ("Women with children pay less.", "Women with child pay less."),
        # Vocatives.
        ("Thank you teachers for your help.", "Thank you teacher for your help."),
        ("Students, please sit down now.", "Student, please sit down now."),
        # A pointing word before it: "that student" is a noun phrase.
        ("We left early so that students could rest.", "We left early so that student could rest."),
        # A name or number after it: a title ("teacher Anna").
        ("We met teachers Anna and Tom yesterday.", "We met teacher Anna and Tom yesterday."),
        # Kinship words serve as names ("I visited mother").
        ("I visited mothers in the hospital ward.", "I visited mother in the hospital ward."),
        # A singular that is also a verb after "help" ("help parent").
        ("Our teachers help parents at home.", "Our teachers help parent at home."),
        # Nouns with a mass or medium use ("watch film", "I like theatre").
        ("We watched films at home.", "We watched film at home."),
        # A singular that is also an adjective ("vegetarian").
        ("The restaurant welcomes vegetarians on Sundays.", "The restaurant welcomes vegetarian on Sundays."),
        # "species / model of" takes a bare singular ("species of tree").
        ("How many species of trees grow here?", "How many species of tree grow here?"),
        ("There are many models of phones in the shop.", "There are many models of phone in the shop."),
        # "Doctor" is a title ("Doctor says I need rest").
        ("Doctors said I should rest.", "Doctor said I should rest."),
        # A coordinated noun ("mother and child").
        ("Doctors and nurses worked all night.", "Doctor and nurses worked all night."),
    ],
)
def test_bare_singular_with_a_reading_is_not_made_strict(corrected: str, artificial: str) -> None:
    assert artificial not in strict_made(corrected, TYPE)


def test_headline_and_determined_plurals_are_left_to_other_rules() -> None:
    # No finite verb: a headline.
    assert not made_by_rule("Computers for young learners")
    # A determiner or quantifier before the plural: the singular would not be bare.
    assert not made_by_rule("We need some doctors in the village.")
    assert not made_by_rule("She met my friends in town.")


def test_count_only_nouns_exclude_bare_able_and_name_like_words() -> None:
    assert count_only("doctor") and count_only("scientist") and count_only("computer")
    assert not count_only("mother") and not count_only("baby") and not count_only("nurse")
    assert not count_only("film") and not count_only("car") and not count_only("list")
    assert not (COUNT_ONLY_THINGS | PERSON_NOUNS) & BARE_ABLE


# --- R:DET: "every of" ------------------------------------------------------------------------


def test_each_of_made_every_of_is_strict() -> None:
    checked = {c.artificial: c for c in check("Each of the players got a medal.", "R:DET")}
    every = checked["Every of the players got a medal."]
    assert (every.candidate.rule, every.candidate.strict, every.reason) == ("det_every_of", True, None)


def test_each_without_of_is_not_made_every_of() -> None:
    # "every player" is English: only the partitive "each of" is changed.
    rules = {c.candidate.rule for c in check("Each player got a medal and they each smiled.", "R:DET")}
    assert "det_every_of" not in rules


def test_every_of_in_a_heading_in_capitals_stays_in_capitals() -> None:
    found = {
        c.artificial for c in check("EACH OF US WON A PRIZE.", "R:DET") if c.candidate.rule == "det_every_of"
    }
    assert found == {"EVERY OF US WON A PRIZE."}
