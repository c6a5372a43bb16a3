"""Balance report of a vocabulary's content-word lists, what to drop, and the balanced column."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from vocab.balance_report import (
    DEFAULT_CLASSES,
    SourceLookup,
    balance_report,
    class_forms,
    mark_balanced,
)
from vocab.cli import main
from vocab.errors import BalanceError
from vocab.io import read_vocabulary, read_vocabulary_text, write_vocabulary
from vocab.lexicon import Vocabulary

TABLE = """\
id,form,lemma,pos,number
n_a,apple,apple,NN,sg
n_as,apples,apple,NN,pl
n_b,ball,ball,NN,sg
n_c,cup,cup,NN,sg
n_d,duck,duck,NN,sg
v_run,run,run,VB,
v_eat,eat,eat,VB,
j_red,red,red,JJ,
j_big,big,big,JJ,
d_the,the,the,DT,
"""

# "duck" is only in the first source: the nouns are balanced once it is dropped.
SPOKEN = {"apple": 5.0, "apples": 5.0, "ball": 10.0, "cup": 10.0, "duck": 30.0, "red": 4.0, "big": 4.0}
WRITTEN = {"apple": 6.0, "apples": 4.0, "ball": 10.0, "cup": 10.0, "red": 4.0, "big": 4.2}
SPOKEN |= {"run": 1.0, "ran": 9.0, "eat": 10.0}
WRITTEN |= {"run": 10.0, "eat": 10.0}


def lookup(table: Mapping[str, float]) -> SourceLookup:
    def find(words: Sequence[str]) -> Mapping[str, float]:
        return {w: table.get(w, 0.0) for w in words}

    return find


@pytest.fixture()
def vocab() -> Vocabulary:
    return read_vocabulary_text(TABLE, file_name="kids.csv", language="en")


def test_class_forms_group_nouns_by_lemma_and_inflect_verbs(vocab: Vocabulary) -> None:
    nouns, verbs, _ = (class_forms(vocab, c) for c in DEFAULT_CLASSES)
    assert nouns["apple"] == ("apple", "apples") and list(nouns) == ["apple", "ball", "cup", "duck"]
    assert {"run", "runs", "ran", "running"} <= set(verbs["run"])


def test_report_totals_bias_and_the_one_word_to_drop(vocab: Vocabulary) -> None:
    report = balance_report(
        vocab, {"spoken": lookup(SPOKEN), "written": lookup(WRITTEN)}, tolerance=0.05, seed=1
    )
    nouns, verbs, adjectives = report.classes
    assert nouns.totals == {"spoken": 60.0, "written": 30.0}
    assert nouns.bias == pytest.approx(30 / 45)
    assert nouns.dropped == ("duck",) and nouns.met and nouns.kept_bias == 0.0
    assert nouns.unseen == {"spoken": (), "written": ("duck",)}
    # The verb "run" counts its past form "ran": 10 per million in both sources.
    assert verbs.frequencies["run"] == {"spoken": 10.0, "written": 10.0} and verbs.dropped == ()
    # 8 against 8.2 is a bias of 0.0247: within tolerance, nothing dropped.
    assert adjectives.dropped == () and adjectives.bias == pytest.approx(0.2 / 8.1)


def test_report_says_when_no_subset_is_within_tolerance(vocab: Vocabulary) -> None:
    skewed = {word: 2 * value for word, value in WRITTEN.items()}
    report = balance_report(
        vocab, {"spoken": lookup(WRITTEN), "written": lookup(skewed)}, tolerance=0.05, seed=1
    )
    assert not any(c.met for c in report.classes)
    assert "| NO |" in report.markdown()


def test_markdown_has_the_summary_and_the_words_to_drop(vocab: Vocabulary) -> None:
    report = balance_report(
        vocab,
        {"spoken": lookup(SPOKEN), "written": lookup(WRITTEN)},
        tolerance=0.05,
        descriptions={"spoken": "subtitles"},
    )
    text = report.markdown()
    assert "| nouns (NN) | 4 | 60.0 | 30.0 | 0.6667 | 3 | 30.0 | 30.0 | 0.0000 | yes |" in text
    assert "Drop 1 to reach relative bias 0.0000 (within the tolerance): `duck`." in text
    assert "- **spoken**: subtitles" in text and "Not in written (frequency 0): duck." in text


def test_mark_balanced_sets_one_zero_or_blank(vocab: Vocabulary, tmp_path: Path) -> None:
    report = balance_report(vocab, {"s": lookup(SPOKEN), "w": lookup(WRITTEN)}, tolerance=0.05)
    marked = mark_balanced(vocab, report)
    values = {item.id: item.features.get("balanced") for item in marked.items}
    assert values["n_a"] == values["n_as"] == ("1",) and values["n_d"] == ("0",)
    assert values["d_the"] is None and values["v_run"] == ("1",)
    write_vocabulary(marked, tmp_path / "marked.csv")
    again = read_vocabulary(tmp_path / "marked.csv")
    assert again.schema.features["balanced"].type == "bool"
    assert [i.features.get("balanced") for i in again.items] == [
        i.features.get("balanced") for i in marked.items
    ]


def test_report_needs_two_sources_and_content_words(vocab: Vocabulary) -> None:
    with pytest.raises(BalanceError, match="two or more frequency sources"):
        balance_report(vocab, {"s": lookup(SPOKEN)}, tolerance=0.05)
    only_dt = read_vocabulary_text("form,pos\nthe,DT\n", file_name="dt.csv", language="en")
    with pytest.raises(BalanceError, match="has no words of the classes nouns"):
        balance_report(only_dt, {"s": lookup(SPOKEN), "w": lookup(WRITTEN)}, tolerance=0.05)


def test_cli_balance_report_with_the_packaged_sources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`mpp vocab balance-report` writes the Markdown report and the marked vocabulary."""
    src = tmp_path / "kids.csv"
    src.write_text(TABLE, encoding="utf-8")
    out, marked = tmp_path / "report.md", tmp_path / "marked.csv"
    base = ["vocab", "balance-report", str(src), "--language", "en", "--sources", "spoken", "written"]
    # Every list is within a relative bias of 0.8 as it is: nothing to drop, exit 0.
    assert main([*base, "--tolerance", "0.8", "--out", str(out), "--mark-out", str(marked)]) == 0
    report_text = out.read_text(encoding="utf-8")
    assert report_text.startswith("# Frequency balance of `kids` (spoken vs written)")
    assert "OpenSubtitles" in report_text and "Google Books" in report_text
    balanced = {i.id: i.features.get("balanced") for i in read_vocabulary(marked).items}
    assert balanced["d_the"] is None
    assert {v for k, v in balanced.items() if k != "d_the"} == {("1",)}
    capsys.readouterr()
    # Two nouns cannot balance subtitles against books within 0.2: exit 1, and it says so.
    assert main([*base, "--tolerance", "0.2"]) == 1
    assert "NOT within 0.2" in capsys.readouterr().out


def test_cli_balance_with_named_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`mpp vocab balance --sources spoken written` counterbalances with the packaged lists."""
    src = tmp_path / "kids.csv"
    src.write_text(TABLE, encoding="utf-8")
    args = ["vocab", "balance", str(src), "--language", "en", "--pos", "NN", "--size", "2"]
    assert main([*args, "--sources", "spoken", "written", "--tolerance", "1.9"]) == 0
    assert "spoken" in capsys.readouterr().out
    assert main([*args, "--sources", "spoken", "spoken"]) == 2
    assert "two or more different sources" in capsys.readouterr().err
