"""The writers: generated pairs written as BLiMP JSONL, ZhoBLiMP JSONL, CSV and Parquet read back
to the same pairs; an imported BLiMP file written as BLiMP gives its own lines back, byte for byte;
`lexically_identical` compares words, not punctuation."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest

from formats.blimp import BASE_FIELDS, blimp_lines, lexically_identical, read_blimp
from formats.hf import hf_folder_write
from formats.pair_id import pair_id_of_record
from formats.parquet import SCHEMA
from formats.table import CSV_COLUMNS, csv_text_lines
from formats.zhoblimp import read_zhoblimp, zhoblimp_lines
from formats.zorro import read_zorro
from tests.generator.builders import agreement_template, chinese_vocabulary, english_vocabulary, generator_for

DATA = Path(__file__).parent / "data"

EN_TEMPLATE = agreement_template("en_agreement")
ZH_TEMPLATE = """\
uid: zh_order
phenomenon: word_order
language: zh
good:
  - {id: subj, lexical: {pos: PN}}
  - {id: verb, lexical: {pos: VV}}
  - {id: obj, lexical: {pos: NN}}
bad:
  - {same: subj}
  - {move: obj}
  - {move: verb}
"""

Key = tuple[str, str, str, str, str]
ONE_PREFIX_KEYS = ["one_prefix_prefix", "one_prefix_word_good", "one_prefix_word_bad"]


@pytest.fixture(scope="module")
def records() -> list[dict[str, object]]:
    """12 English and 8 Chinese generated records, as the engine writes them."""
    out: list[dict[str, object]] = []
    for text, vocabulary, n in (
        (EN_TEMPLATE, english_vocabulary(), 12),
        (ZH_TEMPLATE, chinese_vocabulary(), 8),
    ):
        generator = generator_for(text, vocabulary)
        out += [generator.record(pair, 5) for pair in generator.pairs(n, 5)]
    return out


def keys(rows: Iterable[Mapping[str, object]]) -> list[Key]:
    return [
        (
            str(r["UID"]),
            str(r["phenomenon"]),
            str(r["pairID"]),
            str(r["sentence_good"]),
            str(r["sentence_bad"]),
        )
        for r in rows
    ]


def test_blimp_round_trip(records: list[dict[str, object]]) -> None:
    data = b"".join(blimp_lines(records))
    first = orjson.loads(data.splitlines()[0])
    assert tuple(first) == BASE_FIELDS and first["pairID"] == "0" and first["simple_LM_method"] is True
    assert first["linguistics_term"] == "subject_verb_agreement" and first["lexically_identical"] is False
    result = read_blimp(io.BytesIO(data), "out.jsonl")
    assert result.issues == []
    assert keys(p.record() for p in result.pairs) == keys(records)


def test_zhoblimp_round_trip(records: list[dict[str, object]]) -> None:
    data = b"".join(zhoblimp_lines(records))
    lines = data.splitlines()
    assert lines[-1].decode().startswith('{"UID":"zh_order","phenomenon":"word_order","sentence_good":"')
    assert "\\u" not in data.decode() and isinstance(orjson.loads(lines[0])["pairID"], int)
    result = read_zhoblimp(io.BytesIO(data), "out.jsonl")
    assert result.issues == []
    assert keys(p.record() for p in result.pairs) == keys(records)
    assert {p.language for p in result.pairs} == {"zh"}


def test_zh_word_order_move_is_lexically_identical_in_blimp(records: list[dict[str, object]]) -> None:
    zh = [orjson.loads(line) for line in blimp_lines(records[12:])]
    assert {line["lexically_identical"] for line in zh} == {True}


def test_csv_round_trip(records: list[dict[str, object]]) -> None:
    rows = list(csv.DictReader(io.StringIO("".join(csv_text_lines(records)))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert keys(rows) == keys(records)
    region = records[0]["critical_region"][0]  # type: ignore[index]
    assert rows[0]["critical_region_good"] == "{}:{}".format(*region["good"]["chars"])  # type: ignore[index]
    assert rows[0]["seed"] == "5"


def test_parquet_folder_round_trip(records: list[dict[str, object]], tmp_path: Path) -> None:
    files = hf_folder_write(records, tmp_path, "round-trip")
    assert [(f.uid, f.path, f.rows) for f in files] == [
        ("en_agreement", "data/en_agreement.parquet", 12),
        ("zh_order", "data/zh_order.parquet", 8),
    ]
    rows = []
    for f in files:
        table = pq.read_table(tmp_path / f.path)
        assert table.schema.equals(SCHEMA)
        rows += table.to_pylist()
    assert keys(rows) == keys(records)
    assert orjson.loads(rows[0]["provenance"]) == records[0]["provenance"]
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "config_name: all" in card and "config_name: zh_order" in card


def test_imported_blimp_written_as_blimp_gives_its_fields_back() -> None:
    original = [orjson.loads(line) for line in (DATA / "blimp_ok.jsonl").read_bytes().splitlines()]
    with (DATA / "blimp_ok.jsonl").open("rb") as stream:
        pairs = read_blimp(stream, "blimp_ok.jsonl").pairs
    written = [orjson.loads(line) for line in blimp_lines(p.record() for p in pairs)]
    assert written == original
    assert [list(line) for line in written] == [list(line) for line in original]  # BLiMP's own order


@pytest.mark.parametrize("name", ["blimp_released_layout.jsonl", "blimp_ok.jsonl"])
def test_issue_17_released_blimp_lines_are_written_back_byte_for_byte(name: str) -> None:
    """Lines in BLiMP's layout (each order of the pair's own fields its paradigms use, ", " and
    ": " between items, "Zoë" unescaped) come back the same bytes, hand-set flags included."""
    data = (DATA / name).read_bytes()
    result = read_blimp(io.BytesIO(data), name)
    assert result.issues == []
    assert b"".join(blimp_lines(p.record() for p in result.pairs)) == data


def test_blimp_fields_come_back_in_blimps_order_whatever_order_they_were_stored_in() -> None:
    """A store may give a record's keys back in its own order (PostgreSQL's jsonb sorts them by
    length): the line is still BLiMP's."""
    data = (DATA / "blimp_released_layout.jsonl").read_bytes()
    records = [p.record() for p in read_blimp(io.BytesIO(data), "layout.jsonl").pairs]
    for record in records:
        provenance = record["provenance"]
        fields = provenance["fields"]  # type: ignore[index]
        provenance["fields"] = dict(sorted(fields.items(), key=lambda kv: (len(kv[0]), kv[0])))  # type: ignore[index]
    assert b"".join(blimp_lines(records)) == data


def test_blimp_lines_are_written_as_blimp_writes_them(records: list[dict[str, object]]) -> None:
    """A generated pair gets the sentences, its prefix fields, then the paradigm's fields, with
    BLiMP's separators and its Chinese characters as they are."""
    text = EN_TEMPLATE.replace("language: en\n", "language: en\nblimp: {one_prefix_method: true}\n")
    generator = generator_for(text, english_vocabulary())
    line = next(blimp_lines([generator.record(next(generator.pairs(1, 3)), 3)])).decode()
    keys = list(orjson.loads(line))
    assert keys[:5] == ["sentence_good", "sentence_bad", *ONE_PREFIX_KEYS]
    assert tuple(keys[5:]) == BASE_FIELDS[2:]
    assert line.startswith('{"sentence_good": "') and line.endswith('"pairID": "0"}\n')
    zh = next(blimp_lines(records[12:])).decode()
    assert "\\u" not in zh and any("\u4e00" <= ch <= "\u9fff" for ch in zh)


def test_a_blimp_field_blimp_does_not_have_is_written_back_with_the_pair_fields() -> None:
    line = (
        b'{"sentence_good": "A b.", "sentence_bad": "B a.", "note": "checked", "field": "syntax", '
        b'"linguistics_term": "t", "UID": "u", "simple_LM_method": true, "one_prefix_method": false, '
        b'"two_prefix_method": false, "lexically_identical": true, "pairID": "0"}\n'
    )
    result = read_blimp(io.BytesIO(line), "u.jsonl")
    assert [i.field for i in result.issues] == ["note"]  # kept, with a warning
    assert next(blimp_lines([result.pairs[0].record()])) == line


def test_a_non_blimp_source_field_stays_out_of_the_blimp_layout() -> None:
    with (DATA / "filler-gap-wh_question_object.txt").open("rb") as stream:
        pair = read_zorro(stream, "filler-gap-wh_question_object.txt").pairs[0]
    assert set(pair.fields) == {"paradigm", "order"}
    assert tuple(orjson.loads(next(blimp_lines([pair.record()])))) == BASE_FIELDS


@pytest.mark.parametrize(
    ("good", "bad", "identical"),
    [
        # Punctuation next to a word does not make two sentences differ (issue 17).
        (
            "Who should Derek hug after shocking Richard?",
            "Who should Derek hug Richard after shocking?",
            True,
        ),
        # Nor does the capital of a word moved to or from the start.
        ("Had Bruce ever played?", "Bruce had ever played.", True),
        ("The dog barks.", "The dog bark.", False),
        ("The dog barks.", "The dog barks barks.", False),  # a multiset: each word counted
        ("Bo can't sing.", "Bo cant sing.", False),  # an apostrophe inside a word is the word's
        ("我们吃了苹果。", "苹果我们吃了。", True),  # Chinese: characters, "。" left out
        ("我们吃了苹果。", "我们吃了香蕉。", False),
    ],
)
def test_lexically_identical_compares_words_without_punctuation(good: str, bad: str, identical: bool) -> None:
    assert lexically_identical({"sentence_good": good, "sentence_bad": bad}) is identical


def test_lexically_identical_takes_the_records_words() -> None:
    record = {
        "sentence_good": "x",
        "sentence_bad": "y",
        "words_good": ["Is", "it", "?"],
        "words_bad": ["it", "is"],
    }
    assert lexically_identical(record) is True


def test_issue_17_lexically_identical_is_computed_from_words_through_the_zhoblimp_layout() -> None:
    """BLiMP written as ZhoBLiMP loses the field; written as BLiMP again, it is computed from the
    words, so a word-order move with its question mark on another word is lexically identical."""
    blimp = (
        b'{"sentence_good": "Who should Derek hug after shocking Richard?", '
        b'"sentence_bad": "Who should Derek hug Richard after shocking?", "field": "syntax", '
        b'"linguistics_term": "island_effects", "UID": "adjunct_island", "simple_LM_method": true, '
        b'"one_prefix_method": false, "two_prefix_method": false, "lexically_identical": true, '
        b'"pairID": "0"}\n'
    )
    pairs = read_blimp(io.BytesIO(blimp), "adjunct_island.jsonl").pairs
    zho = b"".join(zhoblimp_lines(p.record() for p in pairs))
    assert b"lexically_identical" not in zho
    again = read_zhoblimp(io.BytesIO(zho), "adjunct_island.jsonl").pairs
    assert orjson.loads(next(blimp_lines(p.record() for p in again)))["lexically_identical"] is True


def test_imported_records_fill_csv_and_parquet_without_a_region(tmp_path: Path) -> None:
    with (DATA / "zhoblimp_ok.jsonl").open("rb") as stream:
        records = [p.record() for p in read_zhoblimp(stream, "zhoblimp_ok.jsonl").pairs]
    rows = list(csv.DictReader(io.StringIO("".join(csv_text_lines(records)))))
    assert rows[0]["language"] == "zh" and rows[0]["critical_region_type"] == "" and rows[0]["seed"] == ""
    hf_folder_write(records, tmp_path, "zh")
    table = pq.read_table(tmp_path / "data" / "BA_basic.parquet").to_pylist()
    assert table[0]["critical_region"] == [] and table[0]["words_good"] is None
    assert orjson.loads(table[0]["provenance"])["source_file"] == "zhoblimp_ok.jsonl"


def test_blimp_fields_set_by_the_template_reach_the_blimp_export() -> None:
    text = ZH_TEMPLATE.replace(
        "language: zh\n", "language: zh\nblimp: {field: syntax, linguistics_term: word order}\n"
    )
    generator = generator_for(text, chinese_vocabulary())
    record = generator.record(next(generator.pairs(1, 0)), 0)
    assert record["blimp"] == {"field": "syntax", "linguistics_term": "word order"}
    line = orjson.loads(next(blimp_lines([record])))
    assert (line["field"], line["linguistics_term"]) == ("syntax", "word order")
    # Without the key: the phenomenon, a blank field, and no extra key in the record.
    plain = generator_for(ZH_TEMPLATE, chinese_vocabulary())
    plain_record = plain.record(next(plain.pairs(1, 0)), 0)
    assert "blimp" not in plain_record
    line = orjson.loads(next(blimp_lines([plain_record])))
    assert (line["field"], line["linguistics_term"]) == ("", "word_order")


def test_prefix_methods_asked_by_the_template_are_derived_from_the_words() -> None:
    # The agreement template: "the cat sleeps ." / "the cat sleep ." differ in the verb alone.
    text = EN_TEMPLATE.replace(
        "language: en\n", "language: en\nblimp: {one_prefix_method: true, two_prefix_method: true}\n"
    )
    generator = generator_for(text, english_vocabulary())
    record = generator.record(next(generator.pairs(1, 3)), 3)
    good, bad = list(record["words_good"]), list(record["words_bad"])  # type: ignore[call-overload]
    line = orjson.loads(next(blimp_lines([record])))
    at = next(i for i, (g, b) in enumerate(zip(good, bad, strict=True)) if g != b)
    assert line["one_prefix_method"] is True
    assert line["one_prefix_prefix"] == " ".join(good[:at])
    assert (line["one_prefix_word_good"], line["one_prefix_word_bad"]) == (good[at], bad[at])
    # Two prefixes need a shared word after them; the shared tail here is the full stop alone.
    assert good[at + 1 :] == ["."] and line["two_prefix_method"] is False
    assert "two_prefix_word" not in line


def test_prefix_fields_of_words() -> None:
    from formats.blimp import one_prefix_fields, two_prefix_fields

    good = ["Many", "girls", "insulted", "themselves", "."]
    bad = ["Many", "girls", "insulted", "herself", "."]
    assert one_prefix_fields(good, bad, " ") == {
        "one_prefix_prefix": "Many girls insulted",
        "one_prefix_word_good": "themselves",
        "one_prefix_word_bad": "herself",
    }
    assert two_prefix_fields(good, bad, " ") is None  # only "." is shared after the difference
    good = ["The", "boys", "are", "tall", "."]
    bad = ["The", "boy", "are", "tall", "."]
    assert two_prefix_fields(good, bad, " ") == {
        "two_prefix_prefix_good": "The boys",
        "two_prefix_prefix_bad": "The boy",
        "two_prefix_word": "are",
    }
    # Differing from the first word: no shared prefix for the one-prefix method.
    assert one_prefix_fields(["Cats", "sleep", "."], ["Cat", "sleep", "."], " ") is None
    # Chinese words are joined without spaces.
    assert two_prefix_fields(["他", "把", "书", "看"], ["他", "被", "书", "看"], "") == {
        "two_prefix_prefix_good": "他把",
        "two_prefix_prefix_bad": "他被",
        "two_prefix_word": "书",
    }
    assert one_prefix_fields(["他", "把", "书", "看"], ["他", "被", "书", "看"], "") == {
        "one_prefix_prefix": "他",
        "one_prefix_word_good": "把",
        "one_prefix_word_bad": "被",
    }


def test_a_prefix_flag_must_be_true_or_false() -> None:
    from generator.errors import TemplateError

    text = EN_TEMPLATE.replace("language: en\n", "language: en\nblimp: {one_prefix_method: yes please}\n")
    with pytest.raises(TemplateError) as refused:
        generator_for(text, english_vocabulary())
    [problem] = refused.value.problems
    assert problem.code == "E_FIELD" and "one_prefix_method" in problem.message


def test_csv_and_parquet_give_each_pair_its_stable_id(
    records: list[dict[str, object]], tmp_path: Path
) -> None:
    """`pair_id` is `UID/pairID`, the id scores and study analyses name the pair by."""
    rows = list(csv.DictReader(io.StringIO("".join(csv_text_lines(records)))))
    assert [row["pair_id"] for row in rows] == [f"{r['UID']}/{r['pairID']}" for r in records]
    hf_folder_write(records, tmp_path, "ids")
    table = pq.read_table(next((tmp_path / "data").glob("*.parquet")))
    assert table.column("pair_id").to_pylist()[0] == f"{records[0]['UID']}/{records[0]['pairID']}"
    assert pair_id_of_record({"UID": "x"}) == "" and pair_id_of_record({"UID": "x", "pairID": 0}) == "x/0"
