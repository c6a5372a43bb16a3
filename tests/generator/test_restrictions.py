"""Selectional restrictions (`satisfies:`): checked by validation, enforced in sampling and capacity."""

from __future__ import annotations

import pytest

from generator import errors as E
from generator.errors import TemplateError
from generator.generate import Generator
from generator.template import Lexical, Satisfies
from tests.generator.builders import build
from vocab.lexicon import FeatureSchema, FeatureSpec, LexicalItem, Vocabulary, make_item

SCHEMA = FeatureSchema(
    {
        "verb": FeatureSpec("verb", type="bool"),
        "noun": FeatureSpec("noun", type="bool"),
        "animate": FeatureSpec("animate", type="bool"),
        "edible": FeatureSpec("edible", type="bool"),
        "institution": FeatureSpec("institution", type="bool"),
        "sg": FeatureSpec("sg", type="bool"),
        "arg_1": FeatureSpec("arg_1", type="restriction"),
        "arg_2": FeatureSpec("arg_2", type="restriction"),
        "note": FeatureSpec("note", type="text"),
    }
)

VERBS = {
    # verb: (arg_1, arg_2)
    "ate": ("animate=1", "edible=1"),
    "bothered": ("", "animate=1"),
    "greeted": ("animate=1", "animate=1^sg=1;institution=1"),
    "saw": ("animate=1;institution=1", ""),  # a blank restriction allows every noun
    "admired": ("animate=1", "animate=1;edible=1"),
}
NOUNS = {
    "dog": {"animate": "1", "sg": "1"},
    "dogs": {"animate": "1", "sg": "0"},
    "apple": {"edible": "1", "animate": "0", "sg": "1"},
    "bread": {"edible": "1", "animate": "0"},
    "plate": {"animate": "0", "sg": "1"},
    "bank": {"institution": "1", "animate": "0", "sg": "1"},
}
# The objects each verb allows, worked out by hand from the table above.
ALLOWED_OBJECTS = {
    "ate": {"apple", "bread"},
    "bothered": {"dog", "dogs"},
    "greeted": {"dog", "bank"},
    "saw": set(NOUNS),
    "admired": {"dog", "dogs", "apple", "bread"},
}
ALLOWED_SUBJECTS = {
    "ate": {"dog", "dogs"},
    "bothered": set(NOUNS),
    "greeted": {"dog", "dogs"},
    "saw": {"dog", "dogs", "bank"},
    "admired": {"dog", "dogs"},
}


def restricted_vocabulary() -> Vocabulary:
    """Return five verbs with arg_1/arg_2 restrictions and six nouns with the features they name."""
    items = [
        make_item(
            id=verb,
            form=verb,
            features={"verb": "1", "arg_1": arg_1, "arg_2": arg_2},
            schema=SCHEMA,
        )
        for verb, (arg_1, arg_2) in VERBS.items()
    ]
    items += [
        make_item(id=noun, form=noun, features={"noun": "1", **features}, schema=SCHEMA)
        for noun, features in NOUNS.items()
    ]
    return Vocabulary(items, SCHEMA, name="restricted", language="en")


HEAD = "uid: restricted\nphenomenon: selection\nlanguage: en\n"

OBJECT_TEMPLATE = (
    HEAD
    + """\
good:
  - {direct: Walter}
  - {id: verb, lexical: {verb: "1"}}
  - {direct: the}
  - {id: obj, lexical: {noun: "1"}, satisfies: {verb: arg_2}}
bad:
  - {same: "1"}
  - {same: verb}
  - {delete: "3"}
  - {same: obj}
"""
)

# The subject refers forwards to the verb, the object backwards to it.
SUBJECT_AND_OBJECT_TEMPLATE = (
    HEAD
    + """\
good:
  - {direct: the}
  - {id: subj, lexical: {noun: "1"}, satisfies: {verb: arg_1}}
  - {id: verb, lexical: {verb: "1"}}
  - {id: obj, lexical: {noun: "1"}, satisfies: {verb: arg_2}}
bad:
  - {delete: "1"}
  - {same: subj}
  - {same: verb}
  - {same: obj}
"""
)


def test_satisfies_generates_only_objects_the_verb_allows_over_many_seeds() -> None:
    """Every pair made, whatever the seed, has an object its verb's arg_2 allows, and together
    the seeds make every allowed combination."""
    generator = Generator(build(OBJECT_TEMPLATE), restricted_vocabulary())
    expected = {(verb, obj) for verb, objs in ALLOWED_OBJECTS.items() for obj in objs}
    made: set[tuple[str, str]] = set()
    for seed in range(25):
        for pair in generator.pairs(10, seed):
            words = pair.good.rstrip(".").split()
            made.add((words[1], words[3]))
    assert made <= expected
    assert made == expected


def test_satisfies_holds_under_zhoblimp_sampling() -> None:
    """`sampling: zhoblimp` draws words its own way, and still only objects the verb allows."""
    text = OBJECT_TEMPLATE.replace("good:\n", "options: {sampling: zhoblimp}\ngood:\n")
    generator = Generator(build(text), restricted_vocabulary())
    expected = {(verb, obj) for verb, objs in ALLOWED_OBJECTS.items() for obj in objs}
    made = {tuple(p.good.rstrip(".").split()[1::2]) for seed in range(10) for p in generator.pairs(8, seed)}
    assert made <= expected and len(made) > len(VERBS)


def test_satisfies_capacity_matches_the_allowed_combinations() -> None:
    """The capacity counts exactly the verb-object combinations the restrictions allow, and
    generating that many pairs makes each of them once."""
    generator = Generator(build(OBJECT_TEMPLATE), restricted_vocabulary())
    expected = {(verb, obj) for verb, objs in ALLOWED_OBJECTS.items() for obj in objs}
    capacity = generator.capacity()
    assert (capacity.count, capacity.exact) == (len(expected), True)
    pairs = list(generator.pairs(capacity.count, 3))
    assert {tuple(p.good.rstrip(".").split()[1::2]) for p in pairs} == expected


def test_satisfies_refers_forwards_and_backwards_and_capacity_counts_both() -> None:
    """A subject restricted by the verb after it and an object by the verb before it are both
    enforced, and the capacity is the sum over verbs of allowed subjects times objects."""
    generator = Generator(build(SUBJECT_AND_OBJECT_TEMPLATE), restricted_vocabulary())
    expected = {
        (subj, verb, obj)
        for verb in VERBS
        for subj in ALLOWED_SUBJECTS[verb]
        for obj in ALLOWED_OBJECTS[verb]
        if subj != obj  # the repeated-word rule
    }
    capacity = generator.capacity()
    assert (capacity.count, capacity.exact) == (len(expected), True)
    made = {tuple(p.good.rstrip(".").split()[1:]) for p in generator.pairs(capacity.count, 5)}
    assert made == expected


def test_satisfies_generation_is_reproducible() -> None:
    """The same seed gives the same pairs."""
    first = [p.good for p in Generator(build(OBJECT_TEMPLATE), restricted_vocabulary()).pairs(12, 9)]
    second = [p.good for p in Generator(build(OBJECT_TEMPLATE), restricted_vocabulary()).pairs(12, 9)]
    assert first == second


def test_satisfies_with_no_satisfying_word_is_unsatisfiable() -> None:
    """A verb whose restriction no noun meets leaves the template without a sentence."""
    vocabulary = Vocabulary(
        [
            make_item(id="ate", form="ate", features={"verb": "1", "arg_2": "edible=1"}, schema=SCHEMA),
            make_item(id="dog", form="dog", features={"noun": "1", "animate": "1"}, schema=SCHEMA),
        ],
        SCHEMA,
        name="restricted",
    )
    with pytest.raises(TemplateError) as caught:
        Generator(build(OBJECT_TEMPLATE), vocabulary)
    assert caught.value.codes == [E.E_UNSATISFIABLE]


@pytest.mark.parametrize(
    ("satisfies", "code"),
    [
        ("{verbb: arg_2}", E.E_DANGLING_REF),
        ("{verb: arg_9}", E.E_UNKNOWN_FEATURE),
        ("{verb: note}", E.E_RESTRICTION),
        ("{verb: animate}", E.E_RESTRICTION),
    ],
)
def test_satisfies_naming_no_position_or_no_restriction_column_is_reported_with_its_line(
    satisfies: str, code: str
) -> None:
    """A `satisfies` naming an unknown position, an unknown column or a column that holds no
    restrictions is a problem of that position, on its line."""
    text = OBJECT_TEMPLATE.replace("satisfies: {verb: arg_2}", f"satisfies: {satisfies}")
    with pytest.raises(TemplateError) as caught:
        Generator(build(text), restricted_vocabulary())
    assert [(p.code, p.line, p.position) for p in caught.value.problems] == [(code, 8, "4 (obj)")]


def test_satisfies_reports_an_item_whose_restriction_cannot_be_read() -> None:
    """A restriction cell that is not `f=v^f=v;f=v` (in a vocabulary built without its schema's
    check) is reported naming the item and column."""
    items = [
        LexicalItem("ate", "ate", "ate", "", {"verb": ("1",), "arg_2": ("edible",)}),
        make_item(id="apple", form="apple", features={"noun": "1", "edible": "1"}, schema=SCHEMA),
    ]
    with pytest.raises(TemplateError) as caught:
        Generator(build(OBJECT_TEMPLATE), Vocabulary(items, SCHEMA, name="restricted"))
    [problem] = caught.value.problems
    assert (problem.code, problem.line) == (E.E_RESTRICTION, 8)
    assert "'ate'" in problem.message and "'arg_2'" in problem.message


@pytest.mark.parametrize(
    "position",
    [
        "{id: obj, lexical: {noun: '1'}, satisfies: verb}",
        "{id: obj, lexical: {noun: '1'}, satisfies: {verb: [arg_1, arg_2]}}",
        "{id: obj, direct: it, satisfies: {verb: arg_2}}",
    ],
)
def test_satisfies_that_is_not_a_position_to_column_mapping_on_a_word_is_a_field_error(
    position: str,
) -> None:
    """`satisfies` must map positions to one column each, on a vocabulary position."""
    text = OBJECT_TEMPLATE.replace('{id: obj, lexical: {noun: "1"}, satisfies: {verb: arg_2}}', position)
    with pytest.raises(TemplateError) as caught:
        build(text)
    assert [(p.code, p.line) for p in caught.value.problems] == [(E.E_FIELD, 8)]


def test_satisfies_parses_to_target_and_column() -> None:
    """The parsed position holds each (position, column) it must satisfy."""
    template = build(SUBJECT_AND_OBJECT_TEMPLATE)
    found = [p.rule.satisfies if isinstance(p.rule, Lexical) else () for p in template.good]
    assert found == [(), (Satisfies("verb", "arg_1"),), (), (Satisfies("verb", "arg_2"),)]
