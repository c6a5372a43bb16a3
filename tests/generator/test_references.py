"""References between positions follow a renamed position (generator/references.py)."""

import pytest

from generator.references import bad_reference, position_references_renamed, reference_renamed


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("subj", "noun"),  # the position itself
        ("subj.head", "noun.head"),  # a path through the phrase placed there
        ("subj.head.det", "noun.head.det"),
        ("subject", "subject"),  # a longer name that starts alike is another position
        ("obj", "obj"),
        ("bad.subj", "bad.subj"),  # a bad position of that name is not the good one
        ("", ""),
    ],
)
def test_a_reference_follows_only_the_renamed_position(reference: str, expected: str) -> None:
    assert reference_renamed(reference, "subj", "noun") == expected


def test_a_bad_position_is_renamed_under_its_prefix() -> None:
    old, new = bad_reference("verb"), bad_reference("verb_bad")
    assert (old, new) == ("bad.verb", "bad.verb_bad")
    assert reference_renamed("bad.verb", old, new) == "bad.verb_bad"
    assert reference_renamed("verb", old, new) == "verb"


def test_every_rule_that_names_a_position_follows_and_nothing_else_changes() -> None:
    positions = [
        {"same": "subj", "form": "VBZ"},
        {"copy": "subj.head"},
        {"move": "subj"},
        {"delete": "subj"},
        {"id": "verb", "matched": "subj", "on": "number", "lexical": {"pos": "VB"}},
        {"mismatched": {"subj": "number", "obj": "animate"}, "lexical": {"pos": "DT"}},
        {"id": "subj_copy", "phrase": "NP", "where": {"subj": {"number": "pl"}}},
        {"direct": "subj"},
    ]
    renamed = [position_references_renamed(p, "subj", "noun") for p in positions]
    assert renamed == [
        {"same": "noun", "form": "VBZ"},
        {"copy": "noun.head"},
        {"move": "noun"},
        {"delete": "noun"},
        {"id": "verb", "matched": "noun", "on": "number", "lexical": {"pos": "VB"}},
        {"mismatched": {"noun": "number", "obj": "animate"}, "lexical": {"pos": "DT"}},
        # `where` names the phrase's own inner positions, a word is a word: neither is a reference.
        {"id": "subj_copy", "phrase": "NP", "where": {"subj": {"number": "pl"}}},
        {"direct": "subj"},
    ]
    assert positions[0] == {"same": "subj", "form": "VBZ"}  # the input is not changed


def test_what_is_not_a_position_comes_back_as_it_was() -> None:
    assert position_references_renamed("subj", "subj", "noun") == "subj"
    assert position_references_renamed(None, "subj", "noun") is None
    assert position_references_renamed({"same": 3}, "3", "noun") == {"same": 3}
