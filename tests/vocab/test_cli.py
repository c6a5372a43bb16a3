"""The `vocab` command line, driven through a parser built here as the main CLI will."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tests.vocab.tiny_tokenizers import build_wordpiece
from vocab.cli import EXIT_BAD_INPUT, EXIT_NOT_MET, EXIT_OK, add_vocab_commands, main
from vocab.io import read_vocabulary

NOUNS = "form,pos,number,plural\ndog,NN,sg,dogs\ncat,NN,sg,cats\nbird,NN,sg,birds\nrun,VB,,\n"
SCHEMA = "language: en\nfeatures:\n  number: {values: [sg, pl]}\n  plural: text\n"


def run(argv: list[str]) -> int:
    """Parse with a fresh top-level parser (like `mpp`) and call the chosen handler."""
    parser = argparse.ArgumentParser(prog="mpp")
    subparsers = parser.add_subparsers(dest="command", required=True)
    add_vocab_commands(subparsers)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


@pytest.fixture
def nouns(tmp_path: Path) -> Path:
    """A four-item vocabulary with a sidecar schema, and two small corpora beside it."""
    (tmp_path / "nouns.schema.yaml").write_text(SCHEMA, encoding="utf-8")
    (tmp_path / "a.txt").write_text("the dog and the cat .\nbirds and dogs run .\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("a cat , a dog , a bird .\ncats and dogs .\n", encoding="utf-8")
    path = tmp_path / "nouns.csv"
    path.write_text(NOUNS, encoding="utf-8")
    return path


def test_vocab_check_summarises_items_and_features(nouns: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """check prints the item count, language, schema file and feature values."""
    assert run(["vocab", "check", str(nouns)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "nouns.csv: 4 items, language en, schema nouns.schema.yaml" in out
    assert "number (category): sg 3; declared but unused: pl; blank in 1 item" in out
    assert "pos: NN 3, VB 1" in out


def test_vocab_check_lists_problems_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Row problems go to stderr with file/line/column, with no traceback."""
    path = tmp_path / "bad.csv"
    path.write_text("form,number\ndog,sg\n,sg\ncat\n", encoding="utf-8")
    (tmp_path / "bad.schema.yaml").write_text("features:\n  number: {values: [sg]}\n", encoding="utf-8")
    assert run(["vocab", "check", str(path)]) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        "bad.csv, line 3, column 'form': the form is empty; every row needs a form "
        "(leave the whole row blank to skip it)",
        "bad.csv, line 4: this row has 1 cells but the header has 2 columns",
    ]
    assert "Traceback" not in captured.err and captured.out == ""


def test_vocab_check_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unreadable file is named on stderr."""
    assert run(["vocab", "check", str(tmp_path / "nope.csv")]) == EXIT_BAD_INPUT
    assert "cannot use" in capsys.readouterr().err


def test_vocab_export_tsv_round_trips(nouns: Path, tmp_path: Path) -> None:
    """export --tsv writes a TSV and its schema that read back to the same vocabulary."""
    out = tmp_path / "out" / "nouns_export.tsv"
    out.parent.mkdir()
    assert run(["vocab", "export", str(nouns), "--out", str(out), "--tsv"]) == EXIT_OK
    assert out.read_text(encoding="utf-8").startswith("id\tform\tlemma\tpos\tnumber\tplural\n")
    assert (out.parent / "nouns_export.schema.yaml").exists()
    assert read_vocabulary(out).items == read_vocabulary(nouns).items


def test_vocab_freq_attaches_wordfreq_and_corpus(
    nouns: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """freq adds freq_<name> from wordfreq or a corpus file."""
    out = tmp_path / "f.csv"
    assert run(["vocab", "freq", str(nouns), "--source", "wordfreq", "--out", str(out)]) == 0
    vocab = read_vocabulary(out)
    assert float(vocab.get("dog").features["freq_wordfreq"][0]) > 0
    out2 = tmp_path / "f2.csv"
    corpus = str(tmp_path / "a.txt")
    assert run(["vocab", "freq", str(out), "--source", corpus, "--out", str(out2)]) == 0
    vocab2 = read_vocabulary(out2)
    # a.txt has 9 tokens, one of them "dog"
    assert float(vocab2.get("dog").features["freq_a"][0]) == pytest.approx(1e6 / 9, abs=1e-5)
    assert "added freq_a to 4 items (1 not found: frequency 0)" in capsys.readouterr().out


def test_vocab_freq_needs_a_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without a language in schema or arguments, freq explains what to add."""
    path = tmp_path / "n.csv"
    path.write_text("form\ndog\n", encoding="utf-8")
    assert (
        run(["vocab", "freq", str(path), "--source", "wordfreq", "--out", str(tmp_path / "o.csv")])
        == EXIT_BAD_INPUT
    )
    assert "give --language" in capsys.readouterr().err


def test_vocab_balance_with_corpora_writes_words(
    nouns: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """balance prints the report and writes the chosen words, one per line."""
    words = tmp_path / "words.txt"
    argv = [
        "vocab",
        "balance",
        str(nouns),
        "--corpora",
        f"a={tmp_path / 'a.txt'}",
        f"b={tmp_path / 'b.txt'}",
        "--pos",
        "NN",
        "--size",
        "2",
        "--seed",
        "4",
        "--tolerance",
        "0.5",
        "--pair-feature",
        "plural",
        "--out",
        str(words),
    ]
    assert run(argv) == EXIT_OK
    out = capsys.readouterr().out
    assert "Counterbalanced subset: 2 of 3 candidate words (seed 4" in out
    assert "paired form" in out
    chosen = words.read_text(encoding="utf-8").split()
    assert len(chosen) == 2 and set(chosen) <= {"dog", "cat", "bird"}


def test_vocab_balance_wordfreq_vs_corpus_and_freq_features(
    nouns: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--wordfreq-vs compares wordfreq with corpora; --freq-features uses attached columns."""
    argv = [
        "vocab",
        "balance",
        str(nouns),
        "--wordfreq-vs",
        str(tmp_path / "a.txt"),
        "--pos",
        "NN",
        "--size",
        "1",
        "--tolerance",
        "2",
    ]
    assert run(argv) == EXIT_OK
    assert "wordfreq" in capsys.readouterr().out
    out = tmp_path / "f.csv"
    run(["vocab", "freq", str(nouns), "--source", str(tmp_path / "a.txt"), "--out", str(out)])
    run(["vocab", "freq", str(out), "--source", str(tmp_path / "b.txt"), "--out", str(out)])
    argv = [
        "vocab",
        "balance",
        str(out),
        "--freq-features",
        "freq_a",
        "freq_b",
        "--size",
        "3",
        "--tolerance",
        "2",
    ]
    assert run(argv) == EXIT_OK
    assert "freq_a" in capsys.readouterr().out


def test_vocab_balance_unreachable_tolerance_exits_1(
    nouns: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unmet tolerance prints the closest subset and an error; --best-effort keeps it."""
    (tmp_path / "z.txt").write_text("nothing here\n", encoding="utf-8")
    argv = [
        "vocab",
        "balance",
        str(nouns),
        "--corpora",
        f"a={tmp_path / 'a.txt'}",
        f"z={tmp_path / 'z.txt'}",
        "--size",
        "2",
        "--tolerance",
        "0.1",
    ]
    assert run(argv) == EXIT_NOT_MET
    captured = capsys.readouterr()
    assert "NOT met" in captured.out and "error: no subset of 2 words" in captured.err
    assert run([*argv, "--best-effort"]) == EXIT_OK
    assert "warning: the tolerance 0.1 was not met" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--size", "9"], "only 4 candidate words for a subset of 9"),
        (["--size", "1", "--pos", "JJ"], "no items with part of speech 'JJ'"),
    ],
)
def test_vocab_balance_bad_request_exits_2(
    nouns: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    needle: str,
) -> None:
    """Requests that cannot work are input errors with a reason."""
    argv = [
        "vocab",
        "balance",
        str(nouns),
        "--corpora",
        f"a={tmp_path / 'a.txt'}",
        f"b={tmp_path / 'b.txt'}",
        *extra,
    ]
    assert run(argv) == EXIT_BAD_INPUT
    assert needle in capsys.readouterr().err


def test_vocab_balance_corpora_need_names(
    nouns: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--corpora entries must be NAME=PATH."""
    argv = [
        "vocab",
        "balance",
        str(nouns),
        "--corpora",
        str(tmp_path / "a.txt"),
        f"b={tmp_path / 'b.txt'}",
        "--size",
        "1",
    ]
    assert run(argv) == EXIT_BAD_INPUT
    assert "should be NAME=PATH" in capsys.readouterr().err


def test_vocab_coverage_writes_kept_and_reports_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """coverage keeps covered items, writes them, and lists dropped ones with their tokens."""
    tokenizer = build_wordpiece(tmp_path / "tok")
    path = tmp_path / "n.csv"
    path.write_text("form\ndog\nelephant\n猫\n", encoding="utf-8")
    out = tmp_path / "kept.csv"
    argv = [
        "vocab",
        "coverage",
        str(path),
        "--tokenizer",
        str(tokenizer),
        "--max-tokens",
        "1",
        "--out",
        str(out),
    ]
    assert run(argv) == EXIT_OK
    printed = capsys.readouterr().out
    assert [i.form for i in read_vocabulary(out)] == ["dog"]
    assert "kept 1 of 3 items" in printed
    assert "elephant: e + ##l" in printed
    assert "猫: [UNK] (1 tokens) (unknown to the tokenizer)" in printed


def test_vocab_coverage_bad_tokenizer_path_exits_2(
    nouns: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder without a tokenizer is reported, not raised."""
    argv = [
        "vocab",
        "coverage",
        str(nouns),
        "--tokenizer",
        str(tmp_path / "none"),
        "--out",
        str(tmp_path / "o.csv"),
    ]
    assert run(argv) == EXIT_BAD_INPUT
    assert "could not load a tokenizer" in capsys.readouterr().err


def test_main_runs_vocab_commands(nouns: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """main() builds its own `mpp` parser for `python -m vocab.cli`."""
    assert main(["vocab", "check", str(nouns)]) == EXIT_OK
    assert "4 items" in capsys.readouterr().out


def test_vocab_requires_a_subcommand() -> None:
    """`mpp vocab` alone is a usage error from argparse (exit 2)."""
    with pytest.raises(SystemExit) as info:
        run(["vocab"])
    assert info.value.code == 2
