"""The learner's other errors in a sentence (a table with one row per edit): found from the rows
that share the learner sentence, mapped onto each row's corrected sentence, and kept free of
artificial errors by the pipeline, in one run and across chunks."""

from __future__ import annotations

from pathlib import Path

from mpp.cli import main
from triplets.annotate import nlp
from triplets.corpus import LearnerPair, M2Edit
from triplets.other_errors import (
    at_other_errors,
    corrections_by_sentence,
    other_error_ranges,
    sentence_key,
)
from triplets.pipeline import run_pipeline
from triplets.report import ONLY_AT_OTHER_ERRORS

# One learner sentence, two errors, one row per correction (as the BLiSS toolkit's W&I files).
LEARNER = "We talk about life on earth and a nature."
FIRST = "We talk about life on the earth and a nature."  # M:DET: "the" missing
SECOND = "We talk about life on earth and nature."  # U:DET: "a" where none belongs


def _pair(
    n: int, learner: str, corrected: str | None, edits: tuple[M2Edit, ...] | None = None
) -> LearnerPair:
    return LearnerPair(
        pair_id=f"p{n}", source_file="t.tsv", line=n, learner=learner, corrected=corrected, edits=edits
    )


def _text(corrected: str, ranges: list[tuple[int, int]]) -> list[str]:
    return [corrected[s:e] for s, e in ranges]


def test_sentences_with_several_corrections_are_grouped() -> None:
    pairs = [
        _pair(1, LEARNER, FIRST),
        _pair(2, LEARNER, SECOND),
        _pair(3, LEARNER, FIRST),  # the same correction twice counts once
        _pair(4, "He go home.", "He goes home."),  # one correction only: nothing to avoid
        _pair(5, "She like tea.", None),
    ]
    assert corrections_by_sentence(pairs) == {LEARNER: (FIRST, SECOND)}


def test_m2_sentences_are_not_grouped() -> None:
    """An M2 sentence is corrected in full: its rows are never single edits of one sentence."""
    edit = M2Edit(5, 5, "M:DET", "the", 0)
    pairs = [_pair(1, LEARNER, FIRST, (edit,)), _pair(2, LEARNER, SECOND, (edit,))]
    assert corrections_by_sentence(pairs) == {}


def test_a_changed_word_is_found_where_this_rows_correction_moved_it() -> None:
    # FIRST inserts "the" before the other error: its offsets shift by four characters.
    ranges = other_error_ranges(LEARNER, FIRST, [SECOND])
    assert _text(FIRST, ranges) == ["a"]
    assert ranges == [(FIRST.index(" a ") + 1, FIRST.index(" a ") + 2)]


def test_an_insertion_is_found_as_the_words_on_either_side() -> None:
    learner = "I would like participate in it and they helps us."
    corrected = "I would like participate in it and they help us."
    other = "I would like to participate in it and they helps us."
    assert _text(corrected, other_error_ranges(learner, corrected, [other])) == ["like participate"]


def test_a_change_inside_this_rows_own_correction_is_left_out() -> None:
    learner = "He go to school."
    assert other_error_ranges(learner, "He goes to school.", ["He went to school."]) == []


def test_the_corrected_row_itself_is_not_another_error() -> None:
    assert other_error_ranges(LEARNER, FIRST, [FIRST]) == []


def test_tokens_at_the_other_errors() -> None:
    doc = nlp()(FIRST)
    taken = at_other_errors(doc, other_error_ranges(LEARNER, FIRST, [SECOND]))
    assert [doc[i].text for i in sorted(taken)] == ["a"]


def test_the_sentence_key_tells_sentences_apart_and_fits_its_column() -> None:
    assert sentence_key(LEARNER) != sentence_key(LEARNER + " ")
    assert len(sentence_key(LEARNER)) == 40


def test_no_artificial_error_at_another_error_of_the_sentence() -> None:
    """Alone, the M:DET row's only place is the other row's error, and deleting that "a" repairs
    it; with both rows, the pipeline leaves it and says why."""
    alone = run_pipeline([_pair(1, LEARNER, FIRST)], other_corrections={})
    assert [t.artificial_error for t in alone.triplets] == [SECOND.replace("on earth", "on the earth")]

    both = run_pipeline([_pair(1, LEARNER, FIRST), _pair(2, LEARNER, SECOND)])
    assert [t for t in both.triplets if t.error_type == "M:DET"] == []
    assert both.report.dropped["M:DET"][ONLY_AT_OTHER_ERRORS] == 1
    assert both.report.examples_of("M:DET", ONLY_AT_OTHER_ERRORS) == ["p1#1"]


def test_the_corpus_wide_corrections_reach_a_chunk_without_the_other_row() -> None:
    chunk = [_pair(1, LEARNER, FIRST)]
    result = run_pipeline(
        chunk, other_corrections=corrections_by_sentence([*chunk, _pair(2, LEARNER, SECOND)])
    )
    assert result.triplets == []
    assert result.report.dropped["M:DET"][ONLY_AT_OTHER_ERRORS] == 1


def test_the_cli_keeps_the_rows_of_one_sentence_together_across_chunks(tmp_path: Path) -> None:
    table = tmp_path / "edits.tsv"
    table.write_text(f"learner\tcorrected\n{LEARNER}\t{FIRST}\n{LEARNER}\t{SECOND}\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["triplets", "--parallel", str(table), "--out", str(out), "--chunk", "1"]) == 0
    assert [line for line in out.read_text(encoding="utf-8").splitlines() if '"M:DET"' in line] == []
