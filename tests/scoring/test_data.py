"""Reading items to score: generated JSONL with word spans, BLiMP, ZhoBLiMP and Zorro through the
generator's readers, BLiSS triplets, and every bad line reported by file and line."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from scoring.data import bliss_error_type, detect_scoring_format, read_items

GENERATED = {
    "sentence_good": "Will the happy tigers play?",
    "sentence_bad": "Will the happy tigers will play?",
    "UID": "aux_doubling",
    "phenomenon": "subject_aux_inversion",
    "pairID": "0",
    "item_id": "aa0ca4efbf10dcf7",
    "language": "en",
    "words_good": ["Will", "the", "happy", "tigers", "play", "?"],
    "words_bad": ["Will", "the", "happy", "tigers", "will", "play", "?"],
    "critical_region": [],
    "provenance": {"template": "aux_doubling"},
}

BLISS = {
    "learnerID": "8421",
    "L1": "Vietnamese",
    "cefr": "C1",
    "topic": "play sports",
    "corrected": "There are a lot of benefits when we play sports .",
    "learner_error": "There are a lot of benefits when we play the sports .",
    "artificial_error": "There are a lot of benefits when the we play sports .",
    "errant_edits": [{"type": "U:DET", "o_str": "the", "c_str": ""}],
    "all_error_types": ["U:DET"],
}


def _jsonl(path: Path, records: list[object]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_generated_jsonl_gives_pairs_with_word_spans(tmp_path: Path) -> None:
    data = read_items([_jsonl(tmp_path / "gen.jsonl", [GENERATED])])
    assert not data.issues
    (pair,) = data.pairs
    assert (pair.item_id, pair.uid, pair.phenomenon, pair.language) == (
        "aa0ca4efbf10dcf7",
        "aux_doubling",
        "subject_aux_inversion",
        "en",
    )
    assert pair.good.word_spans is not None
    assert [pair.good.text[a:b] for a, b in pair.good.word_spans] == GENERATED["words_good"]
    assert pair.bad.word_spans is not None and len(pair.bad.word_spans) == 7
    assert pair.source == f"{tmp_path / 'gen.jsonl'}:1"
    assert data.files[0].format == "mpp" and data.files[0].pairs == 1


def test_generated_words_that_do_not_fit_fall_back_with_a_warning(tmp_path: Path) -> None:
    record = dict(GENERATED, words_good=["Will", "the", "zebras"])
    data = read_items([_jsonl(tmp_path / "gen.jsonl", [record])])
    assert data.pairs[0].good.word_spans is None
    (issue,) = data.issues
    assert not issue.skipped and issue.line == 1 and issue.field == "words_good"


def test_malformed_lines_are_errors_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "gen.jsonl"
    path.write_text(
        json.dumps(GENERATED) + "\n{not json\n" + json.dumps(dict(GENERATED, sentence_bad="")) + "\n",
        encoding="utf-8",
    )
    data = read_items([path])
    assert len(data.pairs) == 1
    errors = data.errors
    assert [(e.line, e.skipped) for e in errors] == [(2, True), (3, True)]
    assert "not JSON" in str(errors[0]) and str(path) in str(errors[0])
    assert errors[1].field == "sentence_bad"


def test_blimp_zhoblimp_and_zorro_files_are_read_by_the_generator_readers(tmp_path: Path) -> None:
    blimp = _jsonl(
        tmp_path / "anaphor_gender_agreement.jsonl",
        [
            {
                "sentence_good": "Katherine can't help herself.",
                "sentence_bad": "Katherine can't help himself.",
                "field": "morphology",
                "linguistics_term": "anaphor_agreement",
                "UID": "anaphor_gender_agreement",
                "simple_LM_method": True,
                "one_prefix_method": True,
                "two_prefix_method": False,
                "lexically_identical": False,
                "pairID": "0",
            }
        ],
    )
    zho = _jsonl(
        tmp_path / "BA_object.jsonl",
        [
            {
                "UID": "BA_object",
                "phenomenon": "BA",
                "sentence_good": "他把书看完了。",
                "sentence_bad": "他把看完了书。",
                "pairID": 0,
            }
        ],
    )
    zorro = tmp_path / "agreement_subject_verb-across_prepositional_phrase.txt"
    zorro.write_text("the dog on the hills are tired .\nthe dog on the hills is tired .\n", encoding="utf-8")
    data = read_items([blimp, zho, zorro])
    assert not data.errors
    assert [(p.item_id, p.phenomenon, p.language) for p in data.pairs] == [
        ("anaphor_gender_agreement/0", "anaphor_agreement", "en"),
        ("BA_object/0", "BA", "zh"),
        ("agreement_subject_verb-across_prepositional_phrase/0", "agreement_subject_verb", "en"),
    ]
    # Zorro's files list the ungrammatical sentence first.
    assert data.pairs[2].good.text == "the dog on the hills is tired ."
    good_first = read_items([zorro], zorro_order="good-first")
    assert good_first.pairs[0].good.text == "the dog on the hills are tired ."


def test_bliss_triplets_with_metadata(tmp_path: Path) -> None:
    data = read_items([_jsonl(tmp_path / "bliss.jsonl", [BLISS, dict(BLISS, corpus="FCE", item_id="t2")])])
    assert not data.issues
    first, second = data.triplets
    assert first.item_id == "bliss/1" and second.item_id == "t2"
    assert (first.l1, first.cefr, first.error_type, first.learner_id) == ("Vietnamese", "C1", "U:DET", "8421")
    assert first.corpus == "" and second.corpus == "FCE"
    assert first.learner.text == BLISS["learner_error"]
    assert first.artificial.text == BLISS["artificial_error"]
    assert data.files[0].format == "bliss" and data.files[0].pairs == 2
    assert data.languages() == {"en"}


def test_bliss_accepts_the_short_sentence_names(tmp_path: Path) -> None:
    record = {"corrected": "He goes home .", "learner": "He go home .", "artificial": "He goes homes ."}
    data = read_items([_jsonl(tmp_path / "ours.jsonl", [record])])
    assert data.triplets[0].learner.text == "He go home ."
    assert [w.message for w in data.warnings] == [
        "no error type (error_type, errant_edits or all_error_types)"
    ]


def test_bliss_error_type_falls_back_to_all_error_types(tmp_path: Path) -> None:
    record = {k: v for k, v in BLISS.items() if k != "errant_edits"}
    record["all_error_types"] = ["R:PREP", "U:DET"]
    data = read_items([_jsonl(tmp_path / "b.jsonl", [record])])
    assert data.triplets[0].error_type == "R:PREP"


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"error_type": " M:DET ", "errant_edits": [{"type": "R:VERB"}]}, "M:DET"),
        ({"target_edit_type": "U:PREP"}, "U:PREP"),
        ({"errant_edits": [{"type": "R:VERB:SVA"}], "all_error_types": ["R:NOUN"]}, "R:VERB:SVA"),
        ({"errant_edits": [{"type": "  "}], "all_error_types": ["R:NOUN"]}, "R:NOUN"),
        ({"all_error_types": ["  "]}, ""),
        ({}, ""),
    ],
)
def test_bliss_error_type_is_the_first_of_the_given_type_the_edit_and_the_list(
    fields: dict[str, object], expected: str
) -> None:
    """One rule, also the platform's (evaluation.triplet_results.error_type_of adds the uid)."""
    assert bliss_error_type(fields) == expected


def test_bliss_line_missing_a_sentence_is_an_error(tmp_path: Path) -> None:
    record = {k: v for k, v in BLISS.items() if k != "artificial_error"}
    path = _jsonl(tmp_path / "c.jsonl", [BLISS, record])
    data = read_items([path], fmt="bliss")
    assert len(data.triplets) == 1
    (error,) = data.errors
    assert (error.line, error.field) == (2, "artificial_error")


def test_missing_files_and_unknown_formats_are_reported(tmp_path: Path) -> None:
    odd = tmp_path / "odd.jsonl"
    odd.write_text('{"a": 1}\n', encoding="utf-8")
    data = read_items([tmp_path / "nope.jsonl", odd])
    messages = [str(e) for e in data.errors]
    assert any("nope.jsonl" in m and "no such file" in m for m in messages)
    assert any("odd.jsonl" in m and "format not recognised" in m for m in messages)


def test_repeated_item_ids_are_made_unique_with_a_warning(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "gen.jsonl", [GENERATED, GENERATED])
    data = read_items([path])
    assert [p.item_id for p in data.pairs] == ["aa0ca4efbf10dcf7", f"aa0ca4efbf10dcf7@{path}:2"]
    assert any("already read" in str(w) and w.line == 2 for w in data.warnings)


def test_zip_archives_are_opened(tmp_path: Path) -> None:
    archive = tmp_path / "data.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("gen.jsonl", json.dumps(GENERATED) + "\n")
        zf.writestr("bliss.jsonl", json.dumps(BLISS) + "\n")
    data = read_items([archive])
    assert len(data.pairs) == 1 and len(data.triplets) == 1


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (GENERATED, "mpp"),
        ({"sentence_good": "a b", "sentence_bad": "b a"}, "mpp"),
        (BLISS, "bliss"),
        ({"UID": "x", "phenomenon": "p", "sentence_good": "a", "sentence_bad": "b", "pairID": 0}, "zhoblimp"),
        ({"UID": "x", "phenomenon": "p", "sentence_good": "a", "sentence_bad": "b", "pairID": "0"}, "mpp"),
        ({"UID": "x", "phenomenon": "p", "sentence_good": "a", "sentence_bad": "b"}, "mpp"),
    ],
)
def test_detect_scoring_format(record: dict[str, object], expected: str) -> None:
    assert detect_scoring_format("f.jsonl", (json.dumps(record) + "\n").encode())[0] == expected


def test_unknown_format_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown format 'csv'"):
        read_items([], fmt="csv")
