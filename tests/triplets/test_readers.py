"""Learner-corpus readers: M2, parallel tables, metadata tables and joining them, on small
hand-written files (data/) and byte-level variants written here (BOM, CRLF, bad UTF-8)."""

from __future__ import annotations

import dataclasses
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from formats.record import IssueList
from triplets.corpus import LearnerPair, M2Edit, ReadResult
from triplets.readers import (
    MetadataColumns,
    MetadataJoin,
    ParallelColumns,
    TableTooLarge,
    apply_edits,
    attach_metadata,
    essay_of,
    m2_pairs,
    metadata_table,
    parallel_pairs,
    parse_m2_edit,
    read_m2,
    read_metadata,
    read_parallel,
)

DATA = Path(__file__).parent / "data"


def _issues(result: ReadResult) -> list[tuple[int | None, str, str]]:
    return [(i.line, i.severity, i.message) for i in result.issues]


# --- M2 ---------------------------------------------------------------------------------------


def test_m2_annotator_zero_by_default() -> None:
    result = read_m2(DATA / "multi.m2", corpus="FCE")
    assert result.issues == []
    got = [(p.pair_id, p.line, p.learner, p.corrected) for p in result.pairs]
    assert got == [
        ("multi-1", 1, "This are gramamtical sentence .", "This is a grammatical sentence ."),
        ("multi-2", 7, "I like play football in the weekend .", "I like playing football at the weekend ."),
        ("multi-3", 13, "She go to school every days .", "She go to school every days ."),
        ("multi-4", 17, "The book is very very good .", "The book is very good ."),
        ("multi-5", 20, "Everything was fine .", "Everything was fine ."),
    ]
    first = result.pairs[0]
    assert first.edits == (
        M2Edit(1, 2, "R:VERB:SVA", "is", 0),
        M2Edit(2, 2, "M:DET", "a", 0),
        M2Edit(2, 3, "R:SPELL", "grammatical", 0),
    )
    assert {p.corpus for p in result.pairs} == {"FCE"}
    # A deletion has an empty correction; a noop is no edit.
    assert result.pairs[3].edits == (M2Edit(4, 5, "U:ADV", "", 0),)
    assert result.pairs[4].edits == ()


def test_m2_other_annotator() -> None:
    result = read_m2(DATA / "multi.m2", annotator=1)
    assert [p.corrected for p in result.pairs] == [
        "This are gramamtical sentence .",  # annotator 1's noop
        "I like to play football on the weekend .",
        "She goes to school every day .",
        "The book is very very good .",  # annotator 1 wrote nothing for this sentence
        "Everything was fine .",
    ]
    assert [len(p.edits or ()) for p in result.pairs] == [0, 2, 2, 0, 0]


def test_m2_annotator_absent_from_file_is_reported() -> None:
    result = read_m2(DATA / "multi.m2", annotator=4)
    assert len(result.pairs) == 5
    assert all(p.learner == p.corrected for p in result.pairs)
    assert _issues(result) == [
        (
            None,
            "warning",
            "annotator 4 has no edit in this file (annotators present: 0, 1); "
            "every sentence is its own correction",
        )
    ]


def test_m2_malformed_lines_reported_rest_read() -> None:
    result = read_m2(DATA / "malformed.m2")
    assert [(p.line, p.learner, p.corrected) for p in result.pairs] == [
        (6, "They was happy .", "They were happy ."),
        (20, "You is late .", "You are late ."),  # the bad edit was annotator 1's
        (26, "Cats sleeps .", "Cats sleep ."),
    ]
    assert result.pairs[2].pair_id == "malformed-8"
    assert sorted(_issues(result), key=lambda i: (i[0] or 0, i[2])) == [
        (1, "error", "an A line with no S line before it"),
        (2, "error", "sentence skipped: its edit on line 4 could not be read"),
        (
            4,
            "error",
            "bad A line: expected 6 fields separated by '|||' (span, type, correction, REQUIRED, "
            "-NONE-, annotator), found 5",
        ),
        (9, "error", "sentence skipped: its edit on line 10 is outside the sentence"),
        (10, "error", "bad A line: the span 1 9 is outside the sentence, which has 4 tokens"),
        (12, "error", "sentence skipped: its edit on line 14 could not be read"),
        (14, "error", "bad A line: the span '2 X' is not two whole numbers"),
        (16, "error", "sentence skipped: the edits 1 2 and 1 3 of annotator 0 overlap"),
        (21, "error", "bad A line: the span 1 7 is outside the sentence, which has 4 tokens"),
        (23, "error", "not an M2 line (expected 'S ...', 'A ...' or a blank line): 'X stray line'"),
        (24, "warning", "no blank line before this S line"),
        (24, "error", "sentence skipped: its edit on line 25 could not be read"),
        (25, "error", "bad A line: the annotator id 'zero' is not a whole number"),
        (26, "warning", "no blank line before this S line"),
    ]
    assert all(i.file == str(DATA / "malformed.m2") for i in result.issues)


def test_m2_bom_crlf_and_bad_utf8(tmp_path: Path) -> None:
    text = (
        "S He go .\r\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\r\n\r\n"
        "S Caf\xc3\xa9 are open .\r\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\r\n"
        "A 0 1|||R:SPELL|||Caf\xe9|||REQUIRED|||-NONE-|||1\r\n\r\n"
        "S It rain .\r\nA 1 2|||R:VERB:SVA|||rains|||REQUIRED|||-NONE-|||0\r\n"
    )
    path = tmp_path / "crlf.m2"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("latin-1"))
    result = read_m2(path)
    assert [(p.line, p.learner, p.corrected) for p in result.pairs] == [
        (1, "He go .", "He goes ."),
        (8, "It rain .", "It rains ."),
    ]
    assert _issues(result) == [
        (6, "error", "not UTF-8 text: byte 0xe9 at byte 22 of the line (save the file as UTF-8)"),
        (4, "error", "sentence skipped: line 6 could not be read"),
    ]


def test_m2_missing_file_and_empty_sentence(tmp_path: Path) -> None:
    missing = read_m2(tmp_path / "nope.m2")
    assert missing.pairs == []
    assert len(missing.issues) == 1 and missing.issues[0].line is None
    assert missing.issues[0].message.startswith("cannot open the file")
    path = tmp_path / "empty_s.m2"
    path.write_text("S \nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\nS Fine .\n", encoding="utf-8")
    result = read_m2(path)
    assert [p.learner for p in result.pairs] == ["Fine ."]
    assert _issues(result) == [(1, "error", "sentence skipped: the S line has no tokens")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("1 2|||R:DET|||a|||REQUIRED|||-NONE-", "expected 6 fields"),
        ("1|||R:DET|||a|||REQUIRED|||-NONE-|||0", "is not two token offsets"),
        ("3 1|||R:DET|||a|||REQUIRED|||-NONE-|||0", "is not a valid token range"),
        ("1 2||||||a|||REQUIRED|||-NONE-|||0", "the error type is empty"),
        ("1 2|||R:DET|||a|||REQUIRED|||-NONE-|||x", "is not a whole number"),
    ],
)
def test_parse_m2_edit_rejects(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_m2_edit(line)


def test_parse_m2_edit_noop_and_deletion() -> None:
    assert parse_m2_edit("-1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||2").is_noop
    assert parse_m2_edit("3 4|||U:DET||||||REQUIRED|||-NONE-|||0") == M2Edit(3, 4, "U:DET", "", 0)
    assert parse_m2_edit("0 1|||R:OTHER|||a  lot|||REQUIRED|||-NONE-|||0").correction == "a lot"


def test_apply_edits_right_to_left_keeps_insertion_order() -> None:
    tokens = ["a", "b", "c", "d"]
    edits = [M2Edit(3, 4, "R:X", "D E", 0), M2Edit(1, 1, "M:X", "x", 0), M2Edit(1, 1, "M:X", "y", 0)]
    assert apply_edits(tokens, edits) == ["a", "x", "y", "b", "c", "D", "E"]
    # An insertion at a replaced span's start goes before it.
    assert apply_edits(tokens, [M2Edit(1, 3, "R:X", "z", 0), M2Edit(1, 1, "M:X", "w", 0)]) == [
        "a",
        "w",
        "z",
        "d",
    ]
    with pytest.raises(ValueError, match="outside the sentence"):
        apply_edits(tokens, [M2Edit(2, 5, "R:X", "z", 0)])
    with pytest.raises(ValueError, match="overlap"):
        apply_edits(tokens, [M2Edit(0, 2, "R:X", "z", 0), M2Edit(1, 2, "R:X", "y", 0)])


# --- parallel tables --------------------------------------------------------------------------


def test_parallel_tsv_with_ids_and_metadata_column() -> None:
    result = read_parallel(DATA / "pairs.tsv", columns=ParallelColumns(pair_id="id", essay_id="essay"))
    assert result.issues == []
    assert [(p.pair_id, p.line, p.learner, p.corrected, p.essay_id, p.extra) for p in result.pairs] == [
        ("s1", 2, 'He go to "school" .', 'He goes to "school" .', "e1", {"prompt": "p9"}),
        ("s2", 3, "I has a cat .", "I have a cat .", "e1", {"prompt": "p9"}),
        ("s3", 4, "She like it .", "She likes it .", "e2", {"prompt": "p3"}),
    ]
    assert all(p.edits is None for p in result.pairs)


def test_parallel_csv_quoting_and_multiline_cells() -> None:
    result = read_parallel(DATA / "pairs.csv", corpus="EFCAMDAT")
    assert result.issues == []
    assert [(p.pair_id, p.line, p.learner, p.corrected) for p in result.pairs] == [
        ("pairs-1", 2, 'He said "hello" , and go .', 'He said "hello" , and went .'),
        ("pairs-2", 3, "A sentence\nover two lines .", "A sentence\nover two lines !"),
        ("pairs-3", 6, "They is here .", "They are here ."),
    ]
    assert {p.corpus for p in result.pairs} == {"EFCAMDAT"}


def test_parallel_malformed_rows() -> None:
    result = read_parallel(DATA / "malformed.csv", columns=ParallelColumns(pair_id="id"))
    assert [p.pair_id for p in result.pairs] == ["a1"]
    assert [(i.line, i.field, i.message) for i in result.issues] == [
        (3, "", "missing column(s): 2 cells, the header has 3"),
        (4, "", "extra column(s): 4 cells, the header has 3"),
        (5, "learner", "the cell is empty"),
        (6, "corrected", "the cell is empty"),
        (7, "id", "the id is empty"),
        (8, "id", "the id 'a1' was already used on line 2"),
        (9, "", "cannot split the row into cells: unexpected end of data"),
    ]


def test_parallel_header_problems(tmp_path: Path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_text("\n\n", encoding="utf-8")
    assert _issues(read_parallel(empty)) == [(None, "error", "the file has no header row")]
    result = read_parallel(DATA / "pairs.tsv", columns=ParallelColumns(learner="orig", corrected="corr"))
    assert result.pairs == []
    assert _issues(result) == [
        (
            1,
            "error",
            "the header has no column 'orig', 'corr' (columns: id, learner, corrected, essay, prompt)",
        )
    ]


def test_parallel_bom_crlf_bad_utf8_and_delimiter(tmp_path: Path) -> None:
    path = tmp_path / "pairs.txt"
    body = "orig;corr\r\nHe go .;He goes .\r\nCaf\xe9 are .;Caf\xe9 is .\r\nIt rain .;It rains .\r\n"
    path.write_bytes(b"\xef\xbb\xbf" + body.encode("latin-1"))
    result = read_parallel(path, columns=ParallelColumns(learner="orig", corrected="corr"), delimiter=";")
    assert [(p.line, p.learner, p.corrected) for p in result.pairs] == [
        (2, "He go .", "He goes ."),
        (4, "It rain .", "It rains ."),
    ]
    assert [i.line for i in result.issues] == [3]
    assert "not UTF-8" in result.issues[0].message


# --- metadata ---------------------------------------------------------------------------------


def test_metadata_rows_and_bad_rows() -> None:
    meta = read_metadata(DATA / "meta.csv")
    assert meta.key_column == "essay_id"
    assert sorted(meta.rows) == ["e1", "e2", "e9"]
    e1 = meta.rows["e1"]
    assert (e1.line, e1.values["l1"], e1.values["cefr"], e1.extra) == (2, "Spanish", "B1", {"age": "21-25"})
    assert [(i.line, i.message) for i in meta.issues] == [
        (5, "the key 'e1' was already given on line 2"),
        (6, "the key is empty"),
        (7, "missing column(s): 3 cells, the header has 7"),
    ]


def test_metadata_missing_key_column() -> None:
    meta = read_metadata(DATA / "meta.csv", columns=MetadataColumns(key="sentence_id"))
    assert meta.rows == {}
    assert [i.line for i in meta.issues] == [1]
    assert "no key column 'sentence_id'" in meta.issues[0].message


def test_attach_by_essay_reports_unmatched_and_unused() -> None:
    pairs = read_parallel(DATA / "pairs.tsv", columns=ParallelColumns(pair_id="id", essay_id="essay")).pairs
    orphan = LearnerPair("x1", "other.tsv", 7, "a", "b", essay_id="e5")
    attached = attach_metadata([*pairs, orphan], read_metadata(DATA / "meta.csv"), key="essay_id")
    assert attached.key == "essay_id"
    assert [(p.pair_id, p.learner_id, p.l1, p.cefr, p.topic, p.corpus) for p in attached.pairs] == [
        ("s1", "u1", "Spanish", "B1", "holidays", "W&I"),
        ("s2", "u1", "Spanish", "B1", "holidays", "W&I"),
        ("s3", "u2", "Korean", "C1", "work", "W&I"),
        ("x1", "", "", "", "", ""),
    ]
    assert attached.pairs[0].extra == {"age": "21-25", "prompt": "p9"}
    assert (attached.unmatched_pairs, attached.unused_rows) == (1, 1)
    assert [(i.file, i.line, i.severity) for i in attached.issues] == [
        ("other.tsv", 7, "warning"),
        (str(DATA / "meta.csv"), 4, "warning"),
    ]
    assert "no row with essay_id 'e5'" in attached.issues[0].message
    assert "no pair has essay_id 'e9'" in attached.issues[1].message


def test_attach_by_sentence_id_and_conflicts(tmp_path: Path) -> None:
    path = tmp_path / "sentences.tsv"
    path.write_text("sentence_id\tL1\tessay_id\nmulti-1\tGreek\tE7\nmulti-2\tThai\tE8\n", encoding="utf-8")
    meta = read_metadata(path, columns=MetadataColumns(key="sentence_id", l1="L1"))
    pairs = read_m2(DATA / "multi.m2").pairs
    pairs[1] = dataclasses.replace(pairs[1], l1="Lao")
    attached = attach_metadata(pairs, meta, key="pair_id")
    assert [(p.pair_id, p.l1, p.essay_id) for p in attached.pairs[:3]] == [
        ("multi-1", "Greek", "E7"),
        ("multi-2", "Lao", "E8"),
        ("multi-3", "", ""),
    ]
    assert attached.unmatched_pairs == 3 and attached.unused_rows == 0
    conflict = attached.issues[0]
    assert conflict.line == 7 and "its l1 'Lao' differs from 'Thai'" in conflict.message
    assert "no pair_id" not in conflict.message


def test_attach_rejects_unknown_key() -> None:
    with pytest.raises(ValueError, match="unknown join key 'l1'"):
        attach_metadata([], read_metadata(DATA / "meta.csv"), key="l1")


def test_m2_sentence_ids_file(tmp_path: Path) -> None:
    ids = tmp_path / "multi.ids"
    ids.write_text(
        "\ufeffessay_a_sentence_1\r\nessay_a_sentence_2\r\nessay_b_sentence_1\nb2\nb3\n", encoding="utf-8"
    )
    result = read_m2(DATA / "multi.m2", ids=ids)
    assert result.issues == []
    assert [p.pair_id for p in result.pairs] == [
        "essay_a_sentence_1",
        "essay_a_sentence_2",
        "essay_b_sentence_1",
        "b2",
        "b3",
    ]
    # The essay is read off W&I-style ids, so metadata keyed by essay can be joined.
    assert [p.essay_id for p in result.pairs] == ["essay_a", "essay_a", "essay_b", "", ""]


@pytest.mark.parametrize(
    ("sentence_id", "essay"),
    [("essay_3f2a_sentence_12", "essay_3f2a"), ("doc7\t3", "doc7"), ("e9-sentence-1", "e9"), ("s14", "")],
)
def test_essay_of_sentence_ids(sentence_id: str, essay: str) -> None:
    assert essay_of(sentence_id) == essay


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("s1\ns2\ns3\n", "3 ids for 5 sentences; the ids are not used"),
        ("s1\ns2\ns1\ns4\ns5\n", "repeated id(s) s1; the ids are not used"),
    ],
)
def test_m2_sentence_ids_not_matching(tmp_path: Path, content: str, message: str) -> None:
    ids = tmp_path / "multi.ids"
    ids.write_text(content, encoding="utf-8")
    result = read_m2(DATA / "multi.m2", ids=ids)
    assert [p.pair_id for p in result.pairs] == [f"multi-{n}" for n in range(1, 6)]
    assert [(i.file, i.line, i.message) for i in result.issues] == [(str(ids), None, message)]


def test_m2_sentence_ids_file_missing(tmp_path: Path) -> None:
    result = read_m2(DATA / "multi.m2", ids=tmp_path / "none.ids")
    assert len(result.pairs) == 5 and result.pairs[0].pair_id == "multi-1"
    assert len(result.issues) == 1 and result.issues[0].file == str(tmp_path / "none.ids")
    assert result.issues[0].message.startswith("cannot open the file")


def test_column_names_match_whatever_their_case(tmp_path: Path) -> None:
    table = tmp_path / "pairs.tsv"
    table.write_text("Essay_ID\tLearner\tCorrected\ne1\tHe go home.\tHe goes home.\n", encoding="utf-8")
    meta = tmp_path / "meta.tsv"
    meta.write_text("essay_id\tL1\tCEFR\ne1\tTurkish\tB2\n", encoding="utf-8")
    pairs = read_parallel(table).pairs
    attached = attach_metadata(pairs, read_metadata(meta))
    assert [(p.essay_id, p.l1, p.cefr) for p in attached.pairs] == [("e1", "Turkish", "B2")]


# --- streaming: memory does not grow with the file ---------------------------------------------


def _peak_bytes(work: Callable[[], object]) -> int:
    """Return the most memory Python allocated (beyond what it held before) while `work` ran."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        work()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


def _big_table(path: Path, rows: int, *, ids: bool) -> Path:
    with path.open("w", encoding="utf-8") as out:
        out.write(("sentence_id\t" if ids else "") + "essay_id\tlearner\tcorrected\n")
        for n in range(rows):
            first = f"s{n}\t" if ids else ""
            out.write(f"{first}e{n // 20}\tShe go to school on day {n} .\tShe goes to school on day {n} .\n")
    return path


ROWS = 20_000


def test_streaming_a_table_holds_one_row_at_a_time(tmp_path: Path) -> None:
    """Reading 20,000 rows one pair at a time takes what a few rows take; collecting them
    (`read_parallel`) takes memory in proportion to the rows: the streaming readers never hold
    the corpus whatever its size."""
    path = _big_table(tmp_path / "big.tsv", ROWS, ids=False)
    counted = {"pairs": 0}

    def stream() -> None:
        issues = IssueList(path.name)
        with path.open("rb") as source:
            for _ in parallel_pairs(source, path.name, issues):
                counted["pairs"] += 1

    streamed = _peak_bytes(stream)
    collected = _peak_bytes(lambda: read_parallel(path))
    assert counted["pairs"] == ROWS
    assert streamed < 1024 * 1024  # a few rows and the reader's 64 KiB buffer
    assert streamed * 20 < collected


def test_streaming_with_ids_holds_only_the_ids_seen(tmp_path: Path) -> None:
    """With an id column the reader keeps the ids seen (to report a repeated one): far less than
    the pairs themselves."""
    path = _big_table(tmp_path / "ids.tsv", ROWS, ids=True)
    columns = ParallelColumns(pair_id="sentence_id")

    def stream() -> None:
        with path.open("rb") as source:
            for _ in parallel_pairs(source, path.name, IssueList(path.name), columns=columns):
                pass

    streamed = _peak_bytes(stream)
    collected = _peak_bytes(lambda: read_parallel(path, columns=columns))
    assert streamed * 3 < collected


def test_streaming_an_m2_file_holds_one_sentence_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "big.m2"
    block = "S She go to school on day {n} .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
    path.write_text("".join(block.format(n=n) for n in range(ROWS)), encoding="utf-8")
    counted = {"pairs": 0}

    def stream() -> None:
        with path.open("rb") as source:
            for _ in m2_pairs(source, path.name, IssueList(path.name)):
                counted["pairs"] += 1

    streamed = _peak_bytes(stream)
    assert counted["pairs"] == ROWS
    assert streamed < 1024 * 1024
    assert streamed * 20 < _peak_bytes(lambda: read_m2(path))


def test_a_streamed_join_lists_a_bounded_number_of_notes(tmp_path: Path) -> None:
    """Pairs without metadata are noted one by one up to the limit, then counted in one note."""
    meta = tmp_path / "meta.tsv"
    meta.write_text("essay_id\tl1\ne0\tGreek\nunused\tThai\n", encoding="utf-8")
    table = read_metadata(meta)
    join = MetadataJoin(table, key="essay_id", max_issues=5)
    pairs = [LearnerPair(f"p{n}", "c.tsv", n + 2, "a", "b", essay_id=f"e{n}") for n in range(30)]
    attached = [join.attach(pair) for pair in pairs]
    issues = join.finish()
    assert attached[0].l1 == "Greek" and attached[1].l1 == ""
    assert (join.unmatched, join.unused) == (29, 1)
    assert [(i.file, i.line) for i in issues[:5]] == [("c.tsv", n + 2) for n in range(1, 6)]
    assert issues[5].line is None and issues[5].message.startswith("24 more note(s)")
    assert (issues[6].file, issues[6].line) == (str(meta), 3) and len(issues) == 7


def test_a_metadata_table_over_its_row_limit_stops_at_the_first_row_over(tmp_path: Path) -> None:
    meta = tmp_path / "meta.tsv"
    meta.write_text("essay_id\tl1\n" + "".join(f"e{n}\tGreek\n\n" for n in range(6)), encoding="utf-8")
    with meta.open("rb") as source:
        assert len(metadata_table(source, meta.name, max_rows=6).rows) == 6
    with meta.open("rb") as source, pytest.raises(TableTooLarge) as caught:
        metadata_table(source, meta.name, max_rows=5)
    assert (caught.value.file, caught.value.line, caught.value.limit) == ("meta.tsv", 12, 5)
