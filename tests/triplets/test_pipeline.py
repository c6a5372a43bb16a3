"""The triplet pipeline with rules the tests control: validation, exclusion of the learner's
position, strict filtering, seeded order, chunk independence and the yield report's sums."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from triplets import rules
from triplets.annotate import annotator
from triplets.atomise import NO_EDIT
from triplets.candidates import Candidate
from triplets.corpus import LearnerPair
from triplets.pipeline import TripletSettings, run_pipeline
from triplets.readers import ParallelColumns, read_parallel
from triplets.report import (
    NO_CANDIDATE,
    NO_CORRECTION,
    NO_GENERATOR,
    NO_VALID_CANDIDATE,
    ONLY_LEARNER_POSITION,
    RULE_FAILED,
    YieldReport,
)
from triplets.validate import ERRANT_EDIT_COUNT, NOT_A_WORD, REAL_WORD

CORPUS = Path(__file__).resolve().parents[2] / "templates" / "learner" / "mpp_learner_corpus.tsv"
SVA = "R:VERB:SVA"


@pytest.fixture(scope="module", autouse=True)
def _loaded() -> None:
    annotator()


def _pair(learner: str, corrected: str | None, pair_id: str = "p1") -> LearnerPair:
    return LearnerPair(pair_id, "t.tsv", 2, learner, corrected, l1="Spanish", cefr="B1", learner_id="L7")


def _swap_is_are(doc) -> Iterator[Candidate]:  # type: ignore[no-untyped-def]
    for token in doc:
        if token.text in ("is", "are"):
            yield Candidate(token.i, token.i + 1, ("are" if token.text == "is" else "is",), "is_are")


@pytest.fixture
def sva_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rules.GENERATORS, SVA, (_swap_is_are,))


# "The cat is hungry and the dogs is tired." -> learner error at the second "is".
LEARNER = "The cat is hungry and the dogs is tired."
CORRECTED = "The cat is hungry and the dogs are tired."


def test_a_validated_triplet_in_the_bliss_layout(sva_rule: None) -> None:
    result = run_pipeline([_pair(LEARNER, CORRECTED)])
    assert len(result.triplets) == 1
    record = result.triplets[0].record()
    assert record["corrected"] == CORRECTED
    assert record["learner_error"] == LEARNER
    assert record["artificial_error"] == "The cat are hungry and the dogs are tired."
    assert record["error_type"] == SVA
    assert record["errant_edits"] == [
        {"type": SVA, "o_start": 7, "o_end": 8, "c_start": 7, "c_end": 8, "o_str": "is", "c_str": "are"}
    ]
    assert record["artificial_edit"]["o_str"] == "are"
    assert record["artificial_edit"]["rule"] == "is_are"
    assert record["learner_error_position"] == [7, 8]
    assert record["artificial_error_position"] == [2, 3]
    assert (record["learnerID"], record["L1"], record["cefr"]) == ("L7", "Spanish", "B1")
    assert record["all_error_types"] == [SVA]
    assert record["source"] == {"file": "t.tsv", "line": 2}
    assert result.report.triplets[SVA] == 1
    assert result.report.rules["is_are"] == 1


def test_the_learner_position_is_never_used(sva_rule: None) -> None:
    # Only one "is": the rule can act only where the learner's error is.
    result = run_pipeline([_pair("The dogs is tired.", "The dogs are tired.")])
    assert result.triplets == []
    assert result.report.dropped[SVA][ONLY_LEARNER_POSITION] == 1


def test_a_candidate_errant_reads_as_two_edits_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def two_words(doc) -> Iterator[Candidate]:  # type: ignore[no-untyped-def]
        yield Candidate(0, 2, ("A", "dog"), "two_words")

    monkeypatch.setitem(rules.GENERATORS, SVA, (two_words,))
    result = run_pipeline([_pair(LEARNER, CORRECTED)])
    assert result.triplets == []
    assert result.report.refused[SVA][ERRANT_EDIT_COUNT] == 1
    assert result.report.dropped[SVA][NO_VALID_CANDIDATE] == 1


def test_non_words_are_refused_but_infl_types_need_them(monkeypatch: pytest.MonkeyPatch) -> None:
    def guessed(doc) -> Iterator[Candidate]:  # type: ignore[no-untyped-def]
        yield Candidate(1, 2, ("catz",), "guess")

    def real(doc) -> Iterator[Candidate]:  # type: ignore[no-untyped-def]
        yield Candidate(1, 2, ("cats",), "real")

    monkeypatch.setitem(rules.GENERATORS, SVA, (guessed,))
    assert run_pipeline([_pair(LEARNER, CORRECTED)]).report.refused[SVA][NOT_A_WORD] == 1
    infl = "R:NOUN:INFL"
    monkeypatch.setitem(rules.GENERATORS, infl, (real,))
    result = run_pipeline([_pair("I have two childs and a cat.", "I have two children and a cat.")])
    assert result.report.single_edit_pairs[infl] == 1
    assert result.report.refused[infl][REAL_WORD] == 1


def test_strict_settings_leave_out_rules_whose_context_does_not_force_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def loose(doc) -> Iterator[Candidate]:  # type: ignore[no-untyped-def]
        for candidate in _swap_is_are(doc):
            yield Candidate(candidate.start, candidate.end, candidate.new, "loose", strict=False)

    monkeypatch.setitem(rules.GENERATORS, SVA, (loose,))
    assert run_pipeline([_pair(LEARNER, CORRECTED)]).triplets == []
    relaxed = run_pipeline([_pair(LEARNER, CORRECTED)], TripletSettings(strict=False))
    assert [t.strict for t in relaxed.triplets] == [False]


def test_pairs_without_correction_or_change_are_counted_not_parsed() -> None:
    result = run_pipeline([_pair("I am here.", None, "a"), _pair("I am here.", "I am here.", "b")])
    assert result.report.pairs_in == 2
    assert result.report.pairs_dropped == {NO_CORRECTION: 1, NO_EDIT: 1}
    # Each count can be read pair by pair (the page's drill-down).
    assert result.report.examples_of(YieldReport.SOURCE_PAIRS, NO_CORRECTION) == ["a"]
    assert result.report.examples_of(YieldReport.SOURCE_PAIRS, NO_EDIT) == ["b"]


def test_types_without_rules_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rules.GENERATORS, SVA, ())
    result = run_pipeline([_pair(LEARNER, CORRECTED)])
    assert result.report.dropped[SVA][NO_GENERATOR] == 1
    (example,) = result.report.examples_of(SVA, NO_GENERATOR)
    assert example.endswith("#1")  # the single-edit pair: the source pair's id and its edit


def test_examples_are_kept_per_cell_up_to_a_cap_through_merges_and_json() -> None:
    from triplets.report import EXAMPLES_PER_CELL

    first, second = YieldReport(), YieldReport()
    for n in range(EXAMPLES_PER_CELL - 1):
        first.drop(SVA, NO_CANDIDATE, f"a{n}")
    for n in range(5):
        second.drop(SVA, NO_CANDIDATE, f"b{n}")
    first.merge(second)
    kept = first.examples_of(SVA, NO_CANDIDATE)
    assert len(kept) == EXAMPLES_PER_CELL and kept[-1] == "b0"  # the first met, in order
    assert first.dropped[SVA][NO_CANDIDATE] == EXAMPLES_PER_CELL + 4  # counts are never capped
    again = YieldReport.from_dict(first.to_dict())
    assert again.examples_of(SVA, NO_CANDIDATE) == kept
    assert YieldReport.from_dict({}).examples == {}


def _demo_pairs() -> list[LearnerPair]:
    return read_parallel(CORPUS, columns=ParallelColumns(pair_id="sentence_id")).pairs


def test_every_single_edit_pair_is_accounted_for_on_the_demo_corpus() -> None:
    report = run_pipeline(_demo_pairs()).report
    assert report.pairs_in == 351
    assert report.total_single_edit_pairs > 300
    for error_type, n in report.single_edit_pairs.items():
        dropped = sum(report.dropped.get(error_type, {}).values())
        assert report.triplets[error_type] + dropped == n, error_type


def test_chunks_and_seeds(sva_rule: None) -> None:
    pairs = [
        _pair(LEARNER, CORRECTED, "a"),
        _pair(
            "My sisters is tall but my brother is short.", "My sisters are tall but my brother is short.", "b"
        ),
        _pair("He is here and they is there.", "He is here and they are there.", "c"),
    ]
    whole = run_pipeline(pairs)
    parts = [run_pipeline(pairs[:1]), run_pipeline(pairs[1:])]
    merged = YieldReport()
    for part in parts:
        merged.merge(part.report)
    assert [t.record() for t in whole.triplets] == [t.record() for p in parts for t in p.triplets]
    assert merged.to_dict() == whole.report.to_dict()
    assert YieldReport.from_dict(merged.to_dict()).to_dict() == merged.to_dict()
    again = run_pipeline(pairs, TripletSettings(seed=0))
    assert [t.record() for t in again.triplets] == [t.record() for t in whole.triplets]


def test_a_rule_that_fails_costs_one_pair_not_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(doc) -> Iterator[Candidate]:  # type: ignore[no-untyped-def]
        raise IndexError("a parse nobody foresaw")
        yield  # pragma: no cover

    monkeypatch.setitem(rules.GENERATORS, SVA, (broken,))
    monkeypatch.setitem(rules.GENERATORS, "R:NOUN:NUM", (lambda doc: iter(()),))
    result = run_pipeline([_pair(LEARNER, CORRECTED, "a"), _pair("I have two cat.", "I have two cats.", "b")])
    assert result.report.dropped[SVA][RULE_FAILED] == 1
    assert result.report.dropped["R:NOUN:NUM"] == {"no_candidate": 1}


def test_every_reason_has_plain_words() -> None:
    from triplets import report, validate
    from triplets.atomise import NO_GRAMMATICAL_EDIT

    codes = {NO_CORRECTION, NO_EDIT, NO_GRAMMATICAL_EDIT, *validate.REASONS}
    codes |= {v for k, v in vars(report).items() if k.isupper() and isinstance(v, str)}
    assert all(report.reason_label(code) != code for code in codes)


def test_m2_tokens_the_tokeniser_splits_otherwise_keep_their_positions(tmp_path: Path) -> None:
    """An M2 token the tokeniser splits when it reads the written text ("e-mail") must not shift
    the learner's position: the written sentences are checked for one edit of the type, the
    position on the tokens it was counted on."""
    from triplets.readers import read_m2

    m2 = tmp_path / "hyphen.m2"
    m2.write_text(
        "S After the e-mail came I answer it .\nA 5 6|||R:VERB:TENSE|||answered|||REQUIRED|||-NONE-|||0\n\n"
        "S After the email came I answer it .\nA 5 6|||R:VERB:TENSE|||answered|||REQUIRED|||-NONE-|||0\n",
        encoding="utf-8",
    )
    result = run_pipeline(read_m2(m2).pairs)
    assert [t.artificial_error for t in result.triplets] == [
        "After the e-mail comes I answered it.",
        "After the email comes I answered it.",
    ]
