"""Rendering of vocabulary problems for linguists."""

from __future__ import annotations

import pytest

from vocab.errors import MAX_LISTED_PROBLEMS, RowError, VocabularyError


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (
            RowError("nouns.csv", 7, "number", "'plurl' is not one of the declared values (sg, pl)"),
            "nouns.csv, line 7, column 'number': 'plurl' is not one of the declared values (sg, pl)",
        ),
        (RowError("nouns.csv", 3, None, "this row has 2 cells"), "nouns.csv, line 3: this row has 2 cells"),
        (RowError("nouns.csv", None, "form", "missing"), "nouns.csv, column 'form': missing"),
        (RowError("nouns.csv", None, None, "empty"), "nouns.csv: empty"),
    ],
)
def test_row_error_names_file_line_and_column(error: RowError, text: str) -> None:
    """A problem reads as 'file, line N, column 'c': message', leaving out unknown parts."""
    assert str(error) == text


def test_vocabulary_error_lists_every_problem_in_order() -> None:
    """The exception keeps all problems and renders one per line."""
    problems = [RowError("a.csv", n, "x", f"problem {n}") for n in (2, 5)]
    exc = VocabularyError(problems)
    assert exc.errors == tuple(problems)
    assert str(exc).splitlines() == [
        "a.csv, line 2, column 'x': problem 2",
        "a.csv, line 5, column 'x': problem 5",
    ]


def test_vocabulary_error_shortens_long_lists_but_keeps_all_errors() -> None:
    """Past MAX_LISTED_PROBLEMS the message says how many more there are."""
    problems = [RowError("a.csv", n, None, "bad") for n in range(MAX_LISTED_PROBLEMS + 3)]
    exc = VocabularyError(problems)
    lines = str(exc).splitlines()
    assert len(lines) == MAX_LISTED_PROBLEMS + 1
    assert lines[-1] == "... and 3 more problems"
    assert len(exc.errors) == MAX_LISTED_PROBLEMS + 3
