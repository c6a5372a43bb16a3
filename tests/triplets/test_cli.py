"""`mpp triplets`: JSONL and yield report written, metadata joined, M2 and parallel input, and
unreadable input answered with exit code 2 and the reason."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from mpp.cli import main
from triplets import rules
from triplets.candidates import Candidate

LEARNER_DIR = Path(__file__).resolve().parents[2] / "templates" / "learner"


def _swap_is_are(doc) -> Iterator[Candidate]:  # type: ignore[no-untyped-def]
    for token in doc:
        if token.text in ("is", "are"):
            yield Candidate(token.i, token.i + 1, ("are" if token.text == "is" else "is",), "is_are")


@pytest.fixture(autouse=True)
def _sva_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rules.GENERATORS, "R:VERB:SVA", (_swap_is_are,))


def _table(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.tsv"
    path.write_text(
        "sentence_id\tessay_id\tlearner\tcorrected\n"
        "s1\te1\tThe cat is hungry and the dogs is tired.\tThe cat is hungry and the dogs are tired.\n"
        "s2\te1\tI am fine.\tI am fine.\n"
        "s3\te2\tMy sisters is tall but my brother is short.\tMy sisters are tall but my brother is short.\n",
        encoding="utf-8",
    )
    meta = tmp_path / "meta.tsv"
    meta.write_text(
        "essay_id\tlearner_id\tl1\tcefr\ne1\tL1\tSpanish\tB1\ne2\tL2\tChinese\tA2\n", encoding="utf-8"
    )
    return path


def test_parallel_with_metadata(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "triplets.jsonl"
    code = main(
        [
            "triplets",
            "--parallel",
            str(_table(tmp_path)),
            "--meta",
            str(tmp_path / "meta.tsv"),
            "--id-column",
            "sentence_id",
            "--corpus",
            "toy",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["sentence_id"], r["L1"], r["cefr"], r["corpus"]) for r in records] == [
        ("s1", "Spanish", "B1", "toy"),
        ("s3", "Chinese", "A2", "toy"),
    ]
    assert records[1]["artificial_error"] == "My sisters are tall but my brother are short."
    report = json.loads((tmp_path / "triplets.report.json").read_text(encoding="utf-8"))
    assert report["pairs_in"] == 3
    assert report["triplets"] == {"R:VERB:SVA": 2}
    assert report["settings"] == {"seed": 0, "strict": True, "max_tries": 20}
    assert "triplets: 2" in capsys.readouterr().err


def test_m2_input(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    assert main(["triplets", "--m2", str(LEARNER_DIR / "mpp_learner_corpus.m2"), "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    report = json.loads(out.with_suffix(".report.json").read_text(encoding="utf-8"))
    assert report["pairs_in"] == 351
    assert len(records) == sum(report["triplets"].values())
    assert report["triplets"]["R:VERB:SVA"] > 0
    # M2 tokens are rendered as running text, not "do n't".
    assert all(" n't" not in r["artificial_error"] and " ." not in r["corrected"] for r in records)


def test_unreadable_input_exits_2_with_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "t.jsonl")
    assert main(["triplets", "--parallel", str(tmp_path / "missing.tsv"), "--out", out]) == 2
    assert "missing.tsv: no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.tsv"
    bad.write_text("text\tfixed\na\tb\n", encoding="utf-8")
    assert main(["triplets", "--parallel", str(bad), "--out", out]) == 2
    err = capsys.readouterr().err
    assert "bad.tsv" in err and "learner" in err
    assert "no sentence pair could be read" in err


def test_metadata_columns_can_be_renamed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = _table(tmp_path)
    meta = tmp_path / "info.tsv"
    meta.write_text("public_essay_id\tL1\thuman_cefr\ne1\tArabic\tB2+\ne2\tCzech\tC1\n", encoding="utf-8")
    out = tmp_path / "t.jsonl"
    args = ["triplets", "--parallel", str(table), "--id-column", "sentence_id", "--meta", str(meta)]
    args += ["--meta-key", "public_essay_id", "--column", "cefr=human_cefr", "--out", str(out)]
    assert main(args) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["L1"], r["cefr"]) for r in records] == [("Arabic", "B2+"), ("Czech", "C1")]
    with pytest.raises(SystemExit):
        main(["triplets", "--parallel", str(table), "--column", "colour=red", "--out", str(out)])
    assert "FIELD=COLUMN" in capsys.readouterr().err


def test_corpus_column_names_are_recognised_and_other_columns_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Write & Improve-style table needs no --column: its names are recognised (and said), and
    columns that are no metadata field (auto_cefr) travel with each triplet."""
    table = _table(tmp_path)
    meta = tmp_path / "wi.tsv"
    meta.write_text(
        "public_essay_id\tpublic_user_id\tl1\thuman_cefr\tauto_cefr\n"
        "e1\tU1\tArabic\tB2\tB1\ne2\tU2\tCzech\tC1\tC2\n",
        encoding="utf-8",
    )
    out = tmp_path / "t.jsonl"
    args = ["triplets", "--parallel", str(table), "--id-column", "sentence_id", "--meta", str(meta)]
    assert main([*args, "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["learnerID"], r["L1"], r["cefr"], r["extra"]) for r in records] == [
        ("U1", "Arabic", "B2", {"auto_cefr": "B1"}),
        ("U2", "Czech", "C1", {"auto_cefr": "C2"}),
    ]
    err = capsys.readouterr().err
    assert "'human_cefr' is read as cefr" in err and "'public_user_id' is read as learner_id" in err
    # A column the reader names is used as named, never replaced by a recognised one.
    assert main([*args, "--column", "cefr=auto_cefr", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["cefr"] for r in records] == ["B1", "C2"]
    assert records[0]["extra"] == {"human_cefr": "B2"}


def test_an_output_folder_that_does_not_exist_is_said_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _table(tmp_path)
    missing = tmp_path / "no" / "such" / "t.jsonl"
    assert main(["triplets", "--parallel", str(table), "--out", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"the folder {missing.parent} does not exist" in err and "Traceback" not in err
    assert main(["triplets", "--parallel", str(table), "--out", str(tmp_path)]) == 2
    assert "that is a folder" in capsys.readouterr().err
    assert not missing.parent.exists()


def test_a_small_corpus_reports_its_progress_often() -> None:
    from triplets.cli import progress_chunk

    assert progress_chunk(1_000, 2_000) == 50  # 20 progress lines, not one at the end
    assert progress_chunk(10_000, 2_000) == 500
    assert progress_chunk(100_000, 2_000) == 2_000  # memory still bounds it
    assert progress_chunk(3, 2_000) == 50


def test_a_metadata_table_without_a_known_column_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _table(tmp_path)
    meta = tmp_path / "odd.tsv"
    meta.write_text("essay_id\tmuttersprache\tniveau\ne1\tDeutsch\tB1\n", encoding="utf-8")
    out = tmp_path / "t.jsonl"
    args = ["triplets", "--parallel", str(table), "--id-column", "sentence_id", "--meta", str(meta)]
    assert main([*args, "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "no column gives a metadata field" in err and "muttersprache" in err
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records[0]["L1"] == "" and records[0]["extra"] == {"muttersprache": "Deutsch", "niveau": "B1"}


def test_naming_the_essay_column_as_the_warning_says_keeps_the_join(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _table(tmp_path)
    # --column names a column of both tables: here both call the essay id "essay".
    table.write_text(table.read_text(encoding="utf-8").replace("essay_id", "essay", 1), encoding="utf-8")
    meta = tmp_path / "docs.tsv"
    meta.write_text("essay\tl1\tlevel\ne1\tArabic\t3\ne2\tCzech\t4\n", encoding="utf-8")
    out = tmp_path / "t.jsonl"
    args = ["triplets", "--parallel", str(table), "--id-column", "sentence_id", "--meta", str(meta)]
    # "essay" (the text?) and "level" (of what?) are never guessed: the table has no key column.
    main([*args, "--out", str(out)])
    assert "no key column 'essay_id'" in capsys.readouterr().err
    # --column names the essay column: the join key follows it; "level" stays an extra column.
    assert main([*args, "--column", "essay_id=essay", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["L1"], r["cefr"], r["extra"]) for r in records] == [
        ("Arabic", "", {"level": "3"}),
        ("Czech", "", {"level": "4"}),
    ]
    # Joining by sentence needs the sentence id column named.
    assert main([*args, "--join", "sentence", "--out", str(out)]) == 2
    assert "--meta-key" in capsys.readouterr().err
