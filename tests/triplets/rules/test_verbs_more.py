"""More forced verb contexts (`rules/verbs.py`, `rules/verb_forms.py`): a present-time adverbial
("nowadays"), an unreal "if I were" clause, the clause after "wish", a nominative pronoun with
a bare -ing form, and "to" whose bare verb could be a noun object; each with the English
readings the rules must leave alone."""

from __future__ import annotations

import pytest

from tests.triplets.rules.golden import assert_made, made, strict_made
from triplets.annotate import nlp
from triplets.candidates import apply
from triplets.rules import generators_for, verbs

# R:VERB:TENSE: "nowadays", "these days", "at present" ------------------------------------------


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("Nowadays, most families own two cars.", "Nowadays, most families owned two cars."),
        ("These days my cousin is very busy.", "These days my cousin was very busy."),
        ("At present, the village has one shop.", "At present, the village had one shop."),
        ("Nowadays many young people have moved away.", "Nowadays many young people had moved away."),
    ],
)
def test_present_time_adverbial_forbids_the_past(corrected: str, artificial: str) -> None:
    assert_made(corrected, "R:VERB:TENSE", artificial, "verb-tense-anchored-present", True)


def test_present_anchor_in_the_complement_of_a_present_verb() -> None:
    assert_made(
        "I think that nowadays parents are stricter.",
        "R:VERB:TENSE",
        "I think that nowadays parents were stricter.",
        "verb-tense-anchored-present",
        True,
    )
    assert verbs.time_anchors(nlp()("Nowadays we travel by train.")) == {2: verbs.PRESENT}


@pytest.mark.parametrize(
    "corrected",
    [
        "He said that nowadays people were too busy.",  # reported: the past is backshifted
        "Nowadays I think people are too busy.",  # "nowadays" may belong to "are"
        "These days are the hardest of the year.",  # "these days" is the subject
        "Now the shop sells bread.",  # bare "now" is heard in a narrative past
        "Today she works from home.",  # "today" may be past
        "She is currently on holiday.",  # "was currently" is heard
        "At the moment he is asleep.",  # "at the moment" can mean "at that moment"
        "The people who live here nowadays are friendly.",  # a relative clause
        "In these days the roads are empty.",  # "in these days" may mean "in those days"
    ],
)
def test_no_present_anchor_where_the_past_reads(corrected: str) -> None:
    assert not strict_made(corrected, "R:VERB:TENSE", "verb-tense-anchored-present"), corrected


@pytest.mark.parametrize(
    "corrected", ["Nowadays, kids don´t have patience.", "Nowadays, kids don\\u00B4t have patience."]
)
def test_no_present_anchor_through_a_broken_negative(corrected: str) -> None:
    # "don´t" (acute accent, or its escape) not parsed as an auxiliary: "don´t had" would be no
    # tense error.
    assert not strict_made(corrected, "R:VERB:TENSE", "verb-tense-anchored-present")


# R:VERB:TENSE: "if I were ..., I would" ----------------------------------------------------------


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("If I were taller, I would play basketball.", "If I were taller, I will play basketball."),
        ("She would help us if she were here.", "She will help us if she were here."),
        ("If the room were bigger, we could stay longer.", "If the room were bigger, we can stay longer."),
        ("If I were you, I wouldn't sign it.", "If I were you, I won't sign it."),
    ],
)
def test_unreal_condition_needs_would(corrected: str, artificial: str) -> None:
    assert_made(corrected, "R:VERB:TENSE", artificial, "verb-tense-unreal-condition", True)


@pytest.mark.parametrize(
    "corrected",
    [
        "If they were at home, they would answer.",  # plural "were" may be a real past
        "If you were there, you would know.",  # "you were" too
        "He would talk as if he were the owner.",  # "as if" conditions nothing
        "If I had known, I would have called.",  # "will have" can be an epistemic future perfect
        "If I had more money, I would buy it.",  # "if I had" may be a real past
    ],
)
def test_no_will_forced_outside_a_singular_were(corrected: str) -> None:
    assert not strict_made(corrected, "R:VERB:TENSE", "verb-tense-unreal-condition"), corrected


# R:VERB:TENSE: "I wish I had" -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("I wish I had a bigger garden.", "I wish I have a bigger garden."),
        ("She wishes she knew the answer.", "She wishes she knows the answer."),
        ("I wish my brother lived closer.", "I wish my brother lives closer."),
        ("I wish you could stay longer.", "I wish you can stay longer."),
        ("We wish it would stop snowing.", "We wish it will stop snowing."),
        ("I wish that I was braver.", "I wish that I am braver."),
    ],
)
def test_wish_takes_no_present(corrected: str, artificial: str) -> None:
    assert_made(corrected, "R:VERB:TENSE", artificial, "verb-tense-wish-present", True)


@pytest.mark.parametrize(
    "corrected",
    [
        "I wish to speak to the manager.",  # an infinitive, no clause
        "If you wish, we could leave now.",  # no complement at all
        "I wish you luck, and we had fun.",  # a later clause the parser may hang on "wish"
        "My wish was that he stayed.",  # the noun
    ],
)
def test_no_wish_rule_without_a_wish_clause(corrected: str) -> None:
    assert not strict_made(corrected, "R:VERB:TENSE", "verb-tense-wish-present"), corrected


# R:VERB:FORM: a progressive without its be ------------------------------------------------------


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("We visit our aunt every summer.", "We visiting our aunt every summer."),
        ("He often cooks for his friends.", "He often cooking for his friends."),
        ("I take the train because they drive too fast.", "I take the train because they driving too fast."),
        ("She opens the shop and we clean the windows.", "She opens the shop and we cleaning the windows."),
        ("This is the bus we take to school.", "This is the bus we taking to school."),
    ],
)
def test_finite_verb_made_a_bare_progressive(corrected: str, artificial: str) -> None:
    assert_made(corrected, "R:VERB:FORM", artificial, "verb-form-finite-ing", True)


@pytest.mark.parametrize(
    "corrected",
    [
        "People see the problem.",  # "people seeing the problem" is a noun phrase
        "You know it hurts me.",  # "you knowing it hurts me": a gerund subject
        "I know the answer.",  # a verb of state: "I knowing" is no likely error
        "We saw the lake, they climb the hill.",  # "they climbing the hill": an absolute clause
        "I cook, she washes up.",  # "I cooking, she washes up" too
        "I do my best, as you do.",  # "as you doing": a pro-verb
        "I don't eat meat.",  # an auxiliary
        "We sometimes don´t go out.",  # a clitic would be left ("don´t" parsed as a noun)
    ],
)
def test_no_bare_progressive_where_a_reading_or_an_auxiliary_remains(corrected: str) -> None:
    assert not strict_made(corrected, "R:VERB:FORM", "verb-form-finite-ing"), corrected


# M:VERB:FORM: "to" before a verb that is also a noun ------------------------------------------


def test_to_deletion_is_strict_when_the_bare_verb_keeps_an_object() -> None:
    assert_made(
        "They decided to sell the car.", "M:VERB:FORM", "They decided sell the car.", "verb-delete-to", True
    )
    assert_made("I want to go home.", "M:VERB:FORM", "I want go home.", "verb-delete-to", True)


@pytest.mark.parametrize(
    ("corrected", "artificial"),
    [
        ("I just want to rest.", "I just want rest."),  # "want rest": a noun object
        ("They started to work in May.", "They started work in May."),  # "started work" is English
        ("It is hard to work here.", "It is hard work here."),  # "hard work"
        ("I would like to help with the party.", "I would like help with the party."),
    ],
)
def test_to_deletion_is_not_strict_where_the_bare_verb_reads_as_a_noun(
    corrected: str, artificial: str
) -> None:
    found = made(corrected, "M:VERB:FORM")
    assert artificial in found, sorted(found)
    assert found[artificial].candidate.strict is False


@pytest.mark.parametrize(
    "text", ["", "wish", "Nowadays.", "If were, would.", "I wish that.", "We these days at present nowadays"]
)
def test_odd_input_never_raises(text: str) -> None:
    doc = nlp()(text)
    for error_type in ("R:VERB:TENSE", "R:VERB:FORM", "M:VERB:FORM"):
        for generator in generators_for(error_type):
            for candidate in generator(doc):
                assert 0 <= candidate.start <= candidate.end <= len(doc)
                apply(doc, candidate)
