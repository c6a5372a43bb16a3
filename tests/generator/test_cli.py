"""The `mpp` command line: validate, preview and generate from files, with clear failures."""

from __future__ import annotations

import textwrap
from pathlib import Path

import orjson
import pytest

from mpp.cli import main

VOCABULARY = """\
form,lemma,pos,number,animate
dog,dog,NN,sg,1
cat,cat,NN,sg,1
teacher,teacher,NN,sg,1
book,book,NN,sg,0
see,see,VB,,
like,like,VB,,
help,help,VB,,
"""

TEMPLATE = """\
uid: {uid}
phenomenon: subject_verb_agreement
language: en
vocabulary: vocab.csv
good:
  - {{direct: the}}
  - {{id: subj, lexical: {{pos: NN, animate: "1"}}}}
  - {{id: verb, lexical: {{pos: VB}}, form: VBZ}}
  - {{direct: the}}
  - {{id: obj, lexical: {{pos: NN}}}}
  - {{direct: "."}}
bad:
  - {{same: "1"}}
  - {{same: subj}}
  - {{same: verb, form: VBP}}
  - {{same: "4"}}
  - {{same: obj}}
  - {{same: "6"}}
"""


@pytest.fixture()
def library(tmp_path: Path) -> Path:
    (tmp_path / "vocab.csv").write_text(VOCABULARY, encoding="utf-8")
    (tmp_path / "sva.yaml").write_text(TEMPLATE.format(uid="sva"), encoding="utf-8")
    return tmp_path


def test_cli_validate_prints_capacity(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(library)]) == 0
    out = capsys.readouterr().out
    # 3 animate subjects x 3 verbs x 3 objects other than the subject
    assert "ok   sva" in out and "capacity: 27 unique good sentences" in out


def test_cli_validate_reports_problem_with_place(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = TEMPLATE.format(uid="broken").replace("animate:", "animat:")
    (library / "broken.yaml").write_text(bad, encoding="utf-8")
    assert main(["validate", str(library / "broken.yaml")]) == 2
    err = capsys.readouterr().err
    assert "error [E_UNKNOWN_FEATURE] broken.yaml, line 7, good grammar, position 2 (subj)" in err
    assert "did you mean 'animate'" in err


def test_cli_generate_is_reproducible(library: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["generate", str(library / "sva.yaml"), "--n", "20", "--seed", "3", "--out", str(first)]) == 0
    assert (
        main(["generate", str(library / "sva.yaml"), "--n", "20", "--seed", "3", "--out", str(second)]) == 0
    )
    assert first.read_bytes() == second.read_bytes()
    records = [orjson.loads(line) for line in first.read_bytes().splitlines()]
    assert len(records) == 20 and len({r["sentence_good"] for r in records}) == 20
    assert records[0]["sentence_good"].startswith("The ") and records[0]["provenance"]["seed"] == 3


def test_cli_generate_keeps_finished_paradigms_when_one_falls_short(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = TEMPLATE.format(uid="tiny").replace('animate: "1"', 'animate: "0"')  # one subject: 3*3 pairs
    (library / "tiny.yaml").write_text(small, encoding="utf-8")
    out_dir = library / "out"
    assert main(["generate", str(library), "--n", "20", "--out-dir", str(out_dir)]) == 1
    err = capsys.readouterr().err
    assert "[E_SHORTFALL]" in err and "tiny can make at most 9 different good sentences" in err
    assert sorted(p.name for p in out_dir.iterdir()) == ["sva.jsonl"]
    assert len((out_dir / "sva.jsonl").read_bytes().splitlines()) == 20


def test_cli_generate_single_file_drops_only_the_failed_paradigm(library: Path) -> None:
    (library / "tiny.yaml").write_text(
        TEMPLATE.format(uid="tiny").replace('animate: "1"', 'animate: "0"'), encoding="utf-8"
    )
    out = library / "all.jsonl"
    assert main(["generate", str(library), "--n", "20", "--out", str(out)]) == 1
    uids = {orjson.loads(line)["UID"] for line in out.read_bytes().splitlines()}
    assert uids == {"sva"} and not (library / "all.jsonl.partial").exists()


def test_cli_missing_vocabulary_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "t.yaml").write_text(TEMPLATE.format(uid="t"), encoding="utf-8")
    assert main(["validate", str(tmp_path / "t.yaml")]) == 2
    assert "vocabulary file 'vocab.csv' does not exist" in capsys.readouterr().err


def test_cli_bad_vocabulary_rows_are_reported(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (library / "vocab.csv").write_text(VOCABULARY + "fish,fish,NN,sg,1,extra\n", encoding="utf-8")
    assert main(["validate", str(library / "sva.yaml")]) == 2
    err = capsys.readouterr().err
    assert "vocab.csv" in err and "line 9" in err


def test_cli_preview_marks_region(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["preview", str(library / "sva.yaml"), "--n", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("substitution") == 2 and "[" in out


def test_cli_no_templates_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path)]) == 2
    assert "no template files found" in capsys.readouterr().err


def test_cli_generate_needs_one_output(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", str(library), "--n", "3"]) == 2
    assert "exactly one of --out" in capsys.readouterr().err


def test_cli_documents_template_format_example() -> None:
    """The example in docs/template-format.md stays a valid template."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "template-format.md").read_text(encoding="utf-8")
    block = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    from generator.template import template_from_text

    template = template_from_text(
        textwrap.dedent(block).replace("phrase_files: [../phrases/en_phrases.yaml]", ""), file="doc.yaml"
    )
    assert template.uid == "regular_plural_subject_verb_agreement"


def test_cli_exclude_leaves_out_items_with_the_feature_value(
    library: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # animate=0 leaves "book" out: 3 subjects x 3 verbs x 2 objects other than the subject.
    assert main(["validate", str(library), "--exclude", "animate=0"]) == 0
    assert "capacity: 18 unique good sentences" in capsys.readouterr().out
    out = tmp_path / "x.jsonl"
    assert main(["generate", str(library), "--n", "18", "--exclude", "animate=0", "--out", str(out)]) == 0
    assert not any("book" in line for line in out.read_text(encoding="utf-8").splitlines())


def test_cli_exclude_needs_feature_equals_value(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["preview", str(library), "--exclude", "balanced"]) == 2
    assert "--exclude needs FEATURE=VALUE (for example balanced=0), not 'balanced'" in capsys.readouterr().err
