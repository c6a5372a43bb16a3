"""`mpp convert`: files, folders and zips in, each output format out, the import report printed."""

from __future__ import annotations

from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest

from mpp.cli import main

DATA = Path(__file__).parent / "data"


def test_convert_zorro_to_zhoblimp_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    code = main(
        ["convert", str(DATA / "filler-gap-wh_question_object.txt"), "--to", "zhoblimp", "--out", str(out)]
    )
    assert code == 0
    lines = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert lines[0] == {
        "UID": "filler-gap-wh_question_object",
        "phenomenon": "filler-gap",
        "sentence_good": "laura got the suit that the bird cut .",
        "sentence_bad": "laura got what the suit cut the bird .",
        "pairID": 0,
    }
    assert "read 2 pairs from 1 file(s)" in capsys.readouterr().err


def test_convert_good_first_order(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    source = DATA / "unmasked" / "filler-gap-wh_question_object.txt"
    assert (
        main(["convert", str(source), "--zorro-order", "good-first", "--to", "blimp", "--out", str(out)]) == 0
    )
    line = orjson.loads(out.read_bytes().splitlines()[0])
    assert line["sentence_good"] == "laura got the suit that the bird cut ." and line["pairID"] == "0"


def test_convert_prints_every_skipped_line_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.csv"
    code = main(["convert", str(DATA / "blimp_malformed.jsonl"), "--to", "csv", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert "blimp_malformed.jsonl, line 2: not JSON" in err
    assert "blimp_malformed.jsonl, line 3, field 'sentence_bad': the line lacks this field (skipped)" in err
    assert "4 pair(s), 5 error(s), 4 warning(s)" in err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 5  # header + 4 pairs


def test_convert_of_nothing_usable_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    code = main(
        [
            "convert",
            str(DATA / "binary.jsonl"),
            str(tmp_path / "missing.jsonl"),
            "--to",
            "blimp",
            "--out",
            str(out),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert "binary data" in err and "missing.jsonl: no such file or folder" in err
    assert "Traceback" not in err


def test_convert_to_hf_folder(tmp_path: Path) -> None:
    out = tmp_path / "hf"
    sources = [str(DATA / "zhoblimp_ok.jsonl"), str(DATA / "blimp_hf.jsonl"), "--from", "auto"]
    assert main(["convert", *sources, "--to", "hf", "--out", str(out)]) == 0
    assert sorted(p.name for p in (out / "data").iterdir()) == [
        "BA_basic.parquet",
        "classifier_noun.parquet",
        "regular_plural_subject_verb_agreement_1.parquet",
    ]
    assert (out / "README.md").exists()


def test_convert_forced_format_reports_lines_of_the_wrong_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    code = main(
        ["convert", str(DATA / "blimp_ok.jsonl"), "--from", "zhoblimp", "--to", "blimp", "--out", str(out)]
    )
    assert code == 2
    assert "field 'phenomenon': the line lacks this field (skipped)" in capsys.readouterr().err


@pytest.mark.parametrize("existing", [False, True])
def test_issue_17_convert_to_blimp_folder_writes_one_file_per_uid(tmp_path: Path, existing: bool) -> None:
    """A folder (one that exists, or a path ending in /) gets BLiMP's layout: <UID>.jsonl each,
    holding that paradigm's lines as they were read."""
    out = tmp_path / "blimp"
    if existing:
        out.mkdir()
    target = str(out) if existing else f"{out}/"
    assert main(["convert", str(DATA / "blimp_ok.jsonl"), "--to", "blimp", "--out", target]) == 0
    lines = (DATA / "blimp_ok.jsonl").read_bytes().splitlines(keepends=True)
    assert sorted(p.name for p in out.iterdir()) == [
        "determiner_noun_agreement_1.jsonl",
        "superlative_quantifiers_1.jsonl",
    ]
    assert (out / "determiner_noun_agreement_1.jsonl").read_bytes() == b"".join(lines[:2])
    assert (out / "superlative_quantifiers_1.jsonl").read_bytes() == lines[2]


def test_convert_to_zhoblimp_folder_splits_the_single_file_by_uid(tmp_path: Path) -> None:
    source = str(DATA / "zhoblimp_ok.jsonl")
    assert main(["convert", source, "--to", "zhoblimp", "--out", str(tmp_path / "one.jsonl")]) == 0
    assert main(["convert", source, "--to", "zhoblimp", "--out", f"{tmp_path / 'zho'}/"]) == 0
    lines = (tmp_path / "one.jsonl").read_bytes().splitlines(keepends=True)
    folder = tmp_path / "zho"
    assert sorted(p.name for p in folder.iterdir()) == ["BA_basic.jsonl", "classifier_noun.jsonl"]
    assert (folder / "BA_basic.jsonl").read_bytes() == b"".join(lines[:2])
    assert (folder / "classifier_noun.jsonl").read_bytes() == lines[2]


def test_convert_to_csv_refuses_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["convert", str(DATA / "blimp_ok.jsonl"), "--to", "csv", "--out", str(tmp_path)])
    assert code == 2 and list(tmp_path.iterdir()) == []
    assert "--to csv writes one file" in capsys.readouterr().err


def test_convert_records_no_local_path(tmp_path: Path) -> None:
    """Issue 17: the Hugging Face export's provenance names a file given by its name, and a file
    found in a folder by the folder's name and its path inside it, never by an absolute path."""
    folder = tmp_path / "released"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "zho.jsonl").write_bytes((DATA / "zhoblimp_ok.jsonl").read_bytes())
    out = tmp_path / "hf"
    sources = [str(DATA / "blimp_ok.jsonl"), str(folder.resolve())]
    assert main(["convert", *sources, "--to", "hf", "--out", str(out)]) == 0
    names = {
        orjson.loads(row["provenance"])["source_file"]
        for path in (out / "data").iterdir()
        for row in pq.read_table(path).to_pylist()
    }
    assert names == {"blimp_ok.jsonl", "released/sub/zho.jsonl"}
