"""`mpp report`: templates generated in memory, JSONL records, a tokenizer, JSON output, bad input."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from mpp.cli import main
from tests.generator.test_cli import TEMPLATE, VOCABULARY  # the same small library
from tests.vocab.tiny_tokenizers import build_wordpiece

BLIMP_LINES = [
    {"sentence_good": "The dogs run.", "sentence_bad": "The dogs runs.", "UID": "blimp_agr"},
    {"sentence_good": "The cat runs.", "sentence_bad": "The cat run.", "UID": "blimp_agr"},
]


@pytest.fixture()
def template(tmp_path: Path) -> Path:
    (tmp_path / "vocab.csv").write_text(VOCABULARY, encoding="utf-8")
    path = tmp_path / "agreement.yaml"
    path.write_text(TEMPLATE.format(uid="report_agreement"), encoding="utf-8")
    return path


def test_report_on_a_template_with_tokenizer_and_json(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A template is generated in memory; the text and the JSON carry every part of the report."""
    tokenizer = build_wordpiece(tmp_path / "wp")
    out = tmp_path / "report.json"
    code = main(
        [
            "report",
            str(template),
            "--n",
            "20",
            "--seed",
            "1",
            "--tokenizer",
            str(tokenizer),
            "--json",
            str(out),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "== report_agreement (en, 20 pairs; critical region from the template)" in text
    assert "frequency of the critical words (wordfreq):" in text
    assert f"out of vocabulary [{tokenizer}]" in text
    (report,) = orjson.loads(out.read_bytes())
    assert report["uid"] == "report_agreement" and report["pairs"] == 20
    # Every pair differs only in the verb's ending: VBZ against VBP.
    assert report["words"]["equal_share"] == 1.0 and report["characters"]["mean"] == 1.0
    assert report["frequency"]["critical_words_good"] == 20
    assert report["repetition"]["in_every_pair"] == ["the"]
    assert report["tokenizer"]["word_tokens"] == 20 * 2 * 5


def test_report_on_blimp_jsonl_with_the_written_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSONL lines without the engine's fields are diffed; the frequency source can be chosen."""
    path = tmp_path / "blimp.jsonl"
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in BLIMP_LINES))
    out = tmp_path / "r.json"
    assert main(["report", str(path), "--frequency-source", "written", "--json", str(out)]) == 0
    assert "critical region from the diff" in capsys.readouterr().out
    (report,) = orjson.loads(out.read_bytes())
    assert report["uid"] == "blimp_agr" and report["frequency"]["source"] == "written"
    # "run" is more frequent than "runs" in Google Books: good wins in pair 1, loses in pair 2.
    assert report["frequency"]["good_more_frequent_share"] == 0.5


def test_report_names_the_bad_jsonl_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A line that is not JSON is reported with file and line; the exit code is 2."""
    path = tmp_path / "broken.jsonl"
    path.write_text(orjson.dumps(BLIMP_LINES[0]).decode() + "\n{not json\n", encoding="utf-8")
    assert main(["report", str(path)]) == 2
    assert "broken.jsonl, line 2: not JSON" in capsys.readouterr().err


def test_report_bad_tokenizer_and_missing_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder without a tokenizer and a path without templates are clear errors."""
    assert main(["report", str(tmp_path), "--tokenizer", str(tmp_path / "none")]) == 2
    assert "could not load a tokenizer from" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
    assert "no template files or .jsonl pairs found" in capsys.readouterr().err


def test_report_on_zorro_text_reports_skipped_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Zorro file (bad line first) is read with formats; its issues go to stderr."""
    path = tmp_path / "agreement-across_prepositional_phrase.txt"
    path.write_text(
        "the dogs near the tree runs .\nthe dogs near the tree run .\n"
        "the cat on the bed sleep .\nthe cat on the bed sleeps .\n"
        "a lonely last line .\n",
        encoding="utf-8",
    )
    out = tmp_path / "r.json"
    assert main(["report", str(path), "--json", str(out)]) == 0
    captured = capsys.readouterr()
    assert "line 5" in captured.err and "1 item(s) skipped; reporting on the 2 pairs read" in captured.err
    (report,) = orjson.loads(out.read_bytes())
    assert report["language"] == "en" and report["pairs"] == 2 and report["region_from"] == "diff"
    assert report["characters"]["mean"] == 0.0  # run/runs and sleeps/sleep cancel out


def test_report_guesses_chinese_for_lines_without_a_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ZhoBLiMP-style lines carry no language: Han characters make them Chinese (jieba words)."""
    path = tmp_path / "zh.jsonl"
    lines = [
        {
            "UID": "classifier",
            "phenomenon": "classifier",
            "sentence_good": "他买了一本杂志。",
            "sentence_bad": "他买了一张杂志。",
        },
        {
            "UID": "classifier",
            "phenomenon": "classifier",
            "sentence_good": "我有三个朋友。",
            "sentence_bad": "我有三张朋友。",
        },
    ]
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    out = tmp_path / "r.json"
    assert main(["report", str(path), "--json", str(out)]) == 0
    (report,) = orjson.loads(out.read_bytes())
    assert report["language"] == "zh" and report["frequency"]["critical_words_good"] == 2
    assert main(["report", str(path), "--language", "en", "--json", str(out)]) == 0
    assert orjson.loads(out.read_bytes())[0]["language"] == "en"
    capsys.readouterr()
