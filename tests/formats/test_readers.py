"""The BLiMP, ZhoBLiMP and Zorro readers on small files, good and malformed: every bad line is
reported with its file, line and field, skipped or kept, and the rest of the file is read."""

from __future__ import annotations

import io
from pathlib import Path

from formats.blimp import read_blimp
from formats.record import ImportIssue, ReadResult
from formats.sources import path_sources, read_sources, read_stream
from formats.zhoblimp import read_zhoblimp
from formats.zorro import read_zorro, zorro_name

DATA = Path(__file__).parent / "data"


def read(reader: object, name: str, **options: object) -> ReadResult:
    with (DATA / name).open("rb") as stream:
        return reader(stream, name, **options)  # type: ignore[operator,no-any-return]


def where(issues: list[ImportIssue]) -> list[tuple[int | None, str, str]]:
    return [(i.line, i.field, i.severity) for i in issues]


# -- BLiMP -----------------------------------------------------------------------------------


def test_blimp_keeps_every_field_and_the_optional_ones() -> None:
    result = read(read_blimp, "blimp_ok.jsonl")
    assert result.issues == []
    first, _, third = result.pairs
    assert (first.uid, first.pair_id, first.phenomenon, first.language) == (
        "determiner_noun_agreement_1",
        "0",
        "determiner_noun_agreement",
        "en",
    )
    assert first.sentence_bad == "Raymond is selling this sketches."
    assert first.fields["field"] == "morphology" and first.fields["one_prefix_word_bad"] == "sketches"
    assert first.fields["one_prefix_method"] is True and first.line == 1
    assert third.fields["crucial_item"] == "at most" and third.uid == "superlative_quantifiers_1"


def test_blimp_accepts_the_hugging_face_int_pair_id_and_dependency_length() -> None:
    result = read(read_blimp, "blimp_hf.jsonl")
    assert result.issues == []
    assert [p.pair_id for p in result.pairs] == ["0", "1"]
    assert result.pairs[1].fields["dependency_length"] == 2 and "pair_id" not in result.pairs[1].fields


def test_blimp_malformed_lines_are_reported_and_the_rest_read() -> None:
    result = read(read_blimp, "blimp_malformed.jsonl")
    assert where(result.issues) == [
        (2, "", "error"),  # not JSON
        (3, "sentence_bad", "error"),  # missing
        (4, "sentence_good", "error"),  # a number
        (5, "", "warning"),  # good == bad, kept
        (6, "", "error"),  # a list, not an object
        (7, "", "warning"),  # blank line
        (8, "simple_LM_method", "warning"),  # "yes": left out, pair kept
        (9, "pairID", "error"),  # true
        (10, "pairID", "warning"),  # pair 0 again, kept
    ]
    assert [p.line for p in result.pairs] == [1, 5, 8, 10]
    assert "not JSON" in result.issues[0].message
    assert "found a number" in result.issues[2].message
    assert "line 1" in result.issues[-1].message
    assert "simple_LM_method" not in result.pairs[2].fields
    assert result.files[0].pairs == 4 and result.files[0].errors == 5 and result.files[0].warnings == 4
    assert (
        str(result.issues[1])
        == "error: blimp_malformed.jsonl, line 3, field 'sentence_bad': the line lacks this field (skipped)"
    )


def test_blimp_line_in_another_encoding_is_skipped_alone() -> None:
    result = read(read_blimp, "blimp_latin1.jsonl")
    assert where(result.issues) == [(2, "", "error")]
    assert "not UTF-8" in result.issues[0].message and "0xeb" in result.issues[0].message
    assert [p.pair_id for p in result.pairs] == ["0", "2"]


def test_blimp_without_uid_takes_the_file_name_with_a_warning() -> None:
    line = b'{"sentence_good": "A cat sleeps.", "sentence_bad": "A cat sleep.", "pairID": "0"}\n'
    result = read_blimp(io.BytesIO(line), "anaphor_gender_agreement.jsonl")
    assert result.pairs[0].uid == "anaphor_gender_agreement"
    assert where(result.issues) == [(1, "UID", "warning")]


def test_binary_file_is_one_error_and_no_pairs() -> None:
    result = read(read_blimp, "binary.jsonl")
    assert result.pairs == [] and where(result.issues) == [(None, "", "error")]
    assert "binary" in result.issues[0].message


def test_utf16_file_is_named_as_such() -> None:
    data = '{"sentence_good": "a", "sentence_bad": "b", "UID": "x", "pairID": "0"}\n'.encode("utf-16")
    result = read_blimp(io.BytesIO(data), "x.jsonl")
    assert result.pairs == [] and "UTF-16" in result.issues[0].message


# -- ZhoBLiMP --------------------------------------------------------------------------------


def test_zhoblimp_reads_uid_phenomenon_and_int_pair_id() -> None:
    result = read(read_zhoblimp, "zhoblimp_ok.jsonl")
    assert result.issues == []
    assert [(p.uid, p.phenomenon, p.pair_id) for p in result.pairs] == [
        ("BA_basic", "BA", "0"),
        ("BA_basic", "BA", "1"),
        ("classifier_noun", "classifier", "0"),
    ]
    assert result.pairs[0].sentence_good == "他把书放在桌子上。" and result.pairs[0].language == "zh"


def test_zhoblimp_malformed_lines_are_reported_and_the_rest_read() -> None:
    result = read(read_zhoblimp, "zhoblimp_malformed.jsonl")
    assert where(result.issues) == [
        (1, "pairID", "warning"),  # "0" as text, kept
        (2, "pairID", "error"),  # 1.5
        (3, "UID", "error"),  # missing
        (4, "note", "warning"),  # unknown field, kept
        (5, "", "error"),  # not JSON
        (4, "phenomenon", "warning"),  # empty, kept (noted once the file is read)
    ]
    assert [(p.uid, p.pair_id) for p in result.pairs] == [("BA_basic", "0"), ("x_excluded", "0")]
    assert result.pairs[1].fields == {"note": "excluded"}


def _zhoblimp_lines(phenomena: list[str]) -> bytes:
    lines = [
        f'{{"UID":"x","phenomenon":"{p}","sentence_good":"他来了。","sentence_bad":"他来了了。","pairID":{i}}}'
        for i, p in enumerate(phenomena)
    ]
    return "\n".join(lines).encode() + b"\n"


def test_issue_17_an_empty_phenomenon_is_warned_about_once_per_file_with_its_count() -> None:
    """300 lines without a phenomenon give one warning, at the first such line, that counts them."""
    data = _zhoblimp_lines(["anaphor", *[""] * 300, "anaphor"])
    for result in (read_zhoblimp(io.BytesIO(data), "x.jsonl"), read_stream("x.jsonl", io.BytesIO(data))):
        assert len(result.pairs) == 302
        assert where(result.issues) == [(2, "phenomenon", "warning")]
        assert "300" in result.issues[0].message
        assert result.files[0].warnings == 1


# -- Zorro -----------------------------------------------------------------------------------


def test_zorro_bad_line_first_by_default() -> None:
    result = read(read_zorro, "filler-gap-wh_question_object.txt")
    assert result.issues == []
    first, second = result.pairs
    assert (first.uid, first.phenomenon) == ("filler-gap-wh_question_object", "filler-gap")
    assert first.fields == {"paradigm": "wh_question_object", "order": "bad-first"}
    assert first.sentence_good == "laura got the suit that the bird cut ."
    assert first.sentence_bad == "laura got what the suit cut the bird ."
    assert (first.line, second.line, second.pair_id) == (1, 3, "1")


def test_zorro_good_first_reads_the_unmasked_copy_to_the_same_pair() -> None:
    zorro = read(read_zorro, "filler-gap-wh_question_object.txt").pairs[0]
    with (DATA / "unmasked" / "filler-gap-wh_question_object.txt").open("rb") as stream:
        unmasked = read_zorro(stream, "filler-gap-wh_question_object.txt", "good-first").pairs[0]
    assert (unmasked.sentence_good, unmasked.sentence_bad) == (zorro.sentence_good, zorro.sentence_bad)


def test_zorro_blank_line_identical_pair_and_odd_count_are_reported_by_line() -> None:
    result = read(read_zorro, "binding-principle_a.txt")
    assert where(result.issues) == [(3, "", "warning"), (4, "", "warning"), (6, "", "error")]
    assert "lines 4 and 5 are the same sentence" in result.issues[1].message
    assert "odd number" in result.issues[2].message
    assert len(result.pairs) == 2 and result.pairs[1].sentence_good == result.pairs[1].sentence_bad


def test_zorro_names_resolve_against_the_13_phenomena() -> None:
    island = zorro_name("island-effects-coordinate_structure_constraint.txt")
    assert (island.paradigm, island.phenomenon, island.problem) == (
        "coordinate_structure_constraint",
        "island-effects",
        "",
    )
    assert (
        zorro_name("agreement_subject_verb-in_question_with_aux.txt").phenomenon == "agreement_subject_verb"
    )
    unknown = zorro_name("agreement_demonstrative_subject-between_neighbors.txt")
    assert (
        unknown.phenomenon == "agreement_demonstrative_subject" and "not one of Zorro's 13" in unknown.problem
    )
    flat = zorro_name("agreement_across_RC.txt")
    assert flat.phenomenon == "" and "not 'phenomenon-paradigm'" in flat.problem


def test_zorro_ambiguous_name_is_reported_never_guessed() -> None:
    result = read(read_zorro, "foo-bar-baz.txt")
    pair = result.pairs[0]
    assert (pair.uid, pair.phenomenon) == ("foo-bar-baz", "")
    assert where(result.issues) == [(None, "", "warning")]
    assert "ambiguous" in result.issues[0].message and "'foo-bar' + 'baz'" in result.issues[0].message


# -- Several files, detection ----------------------------------------------------------------


def test_folder_is_read_file_by_file_with_formats_detected() -> None:
    sources, missing = path_sources([DATA])
    result = read_sources(sources)
    assert missing == []
    formats = {Path(f.file).name: f.format for f in result.files}
    assert formats["blimp_ok.jsonl"] == "blimp" and formats["blimp_hf.jsonl"] == "blimp"
    assert formats["zhoblimp_ok.jsonl"] == "zhoblimp"
    assert formats["island-effects-adjunct_island.txt"] == "zorro"
    assert formats["binary.jsonl"] == ""
    assert len(result.pairs) == sum(f.pairs for f in result.files) > 0


def test_zip_archive_members_are_read_and_junk_reported(tmp_path: Path) -> None:
    import zipfile

    archive = tmp_path / "upload.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(DATA / "blimp_ok.jsonl", "blimp/blimp_ok.jsonl")
        zf.write(DATA / "island-effects-adjunct_island.txt", "zorro/island-effects-adjunct_island.txt")
        zf.writestr("__MACOSX/._blimp_ok.jsonl", b"\x00\x05")
    with archive.open("rb") as stream:
        result = read_stream("upload.zip", stream)
    assert len(result.pairs) == 4
    assert [f.file for f in result.files] == [
        "upload.zip/blimp/blimp_ok.jsonl",
        "upload.zip/zorro/island-effects-adjunct_island.txt",
    ]
    assert [(i.file, i.severity) for i in result.issues] == [
        ("upload.zip/__MACOSX/._blimp_ok.jsonl", "warning")
    ]


def test_a_broken_zip_is_an_error_not_a_traceback() -> None:
    result = read_stream("broken.zip", io.BytesIO(b"PK\x03\x04 not really a zip"))
    assert result.pairs == [] and "not a readable zip" in result.issues[0].message


def test_json_without_either_format_s_fields_asks_for_the_format() -> None:
    line = b'{"sentence_good": "a b", "sentence_bad": "b a"}\n'
    result = read_stream("pairs.jsonl", io.BytesIO(line))
    assert result.pairs == [] and "choose the format" in result.issues[0].message
    forced = read_stream("pairs.jsonl", io.BytesIO(line), "blimp")
    assert forced.pairs[0].uid == "pairs"
