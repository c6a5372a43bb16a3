"""Applying a candidate edit to the parsed corrected sentence: whitespace kept token by token,
capitalisation following the sentence start, spans and their overlap."""

from __future__ import annotations

import pytest

from triplets.annotate import nlp
from triplets.candidates import Candidate, apply, cased, render, spans_overlap, widened


def _apply(text: str, candidate: Candidate) -> str:
    return render(*apply(nlp()(text), candidate))


@pytest.mark.parametrize(
    ("text", "candidate", "expected"),
    [
        ("The dogs are tired.", Candidate(2, 3, ("is",), "r"), "The dogs is tired."),
        ("The dogs are tired.", Candidate(0, 1, (), "m"), "Dogs are tired."),
        ("Dogs are tired.", Candidate(0, 0, ("a",), "u"), "A dogs are tired."),
        ("I like it, and you like it.", Candidate(3, 4, (), "m"), "I like it and you like it."),
        ("I like it, and you like it.", Candidate(4, 5, (), "m"), "I like it, you like it."),
        ("He don't know.", Candidate(2, 3, (), "m"), "He do know."),
        ("I saw a cat.", Candidate(2, 2, ("the",), "u"), "I saw the a cat."),
        ("Paris is big.", Candidate(0, 0, ("The",), "u"), "The Paris is big."),
        ("I am here.", Candidate(0, 0, ("So",), "u"), "So I am here."),
        ("The cat sat.", Candidate(1, 2, ("old", "cat"), "r"), "The old cat sat."),
        ("She gave them.", Candidate(3, 3, ("up",), "u"), "She gave them up."),
        ("I like it.", Candidate(1, 1, ("very",), "u"), "I very like it."),
        ("Yes, I do.", Candidate(1, 1, ("and",), "u"), "Yes and, I do."),
        ("The teacher gave us homework.", Candidate(2, 2, ("'s",), "u"), "The teacher's gave us homework."),
        ("John's car is red.", Candidate(1, 2, ("is",), "r"), "John is car is red."),
        ("My friends' house", Candidate(2, 3, ("'s",), "r"), "My friends's house"),
        ("They are friends.", Candidate(2, 3, ("friend", "'s"), "r"), "They are friend's."),
        # A word inserted after a token written against the next word stays against that token
        # and is followed by a space: never glued to the next word (W&I: "( afruits").
        ("I like (fruits) a lot.", Candidate(3, 3, ("a",), "u"), "I like (a fruits) a lot."),
        (
            'He said "Eva is here" loudly.',
            Candidate(3, 3, ("the",), "u"),
            'He said "the Eva is here" loudly.',
        ),
        (
            "They sold guns,bullets and knives.",
            Candidate(4, 4, ("a",), "u"),
            "They sold guns,a bullets and knives.",
        ),
        # ... but a word at the end, before closing punctuation or a line break keeps its space.
        ("I picked them", Candidate(3, 3, ("up",), "u"), "I picked them up"),
        ("I like “fruits” a lot.", Candidate(4, 4, ("too",), "u"), "I like “fruits too” a lot."),
        ("I went home\nand slept.", Candidate(3, 3, ("again",), "u"), "I went home again\nand slept."),
    ],
)
def test_apply_renders_the_edit(text: str, candidate: Candidate, expected: str) -> None:
    assert _apply(text, candidate) == expected


def test_spans_widen_insertion_points() -> None:
    assert Candidate(3, 3, ("a",), "u").span() == (3, 4)
    assert widened(2, 2) == (2, 3)
    assert spans_overlap((3, 4), widened(3, 3))
    assert not spans_overlap((1, 2), (2, 3))


@pytest.mark.parametrize(
    ("word", "model", "expected"),
    [
        ("every", "each", "every"),
        ("every", "Each", "Every"),
        ("every", "EACH", "EVERY"),  # a heading in capitals stays in capitals
        ("an", "A", "An"),  # one capital letter is an initial, not capitals
        ("since", "For", "Since"),
    ],
)
def test_a_replacement_is_written_as_the_word_it_replaces(word: str, model: str, expected: str) -> None:
    assert cased(word, model) == expected
