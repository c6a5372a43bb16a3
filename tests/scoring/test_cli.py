"""`mpp score` end to end: the unigram baseline on pairs and BLiSS triplets, the per-item file and
the metrics summary agreeing with each other, and every user error a one-line message."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

from mpp.cli import main
from scoring.metrics import pair_outcome

PAIRS = [
    # Frequent vs rare words: the unigram baseline prefers the frequent one.
    {
        "sentence_good": "the dog is here .",
        "sentence_bad": "the dingo is here .",
        "UID": "freq",
        "phenomenon": "lex",
    },
    {
        "sentence_good": "she has a cat .",
        "sentence_bad": "she has a cats .",
        "UID": "freq",
        "phenomenon": "lex",
    },
    # Same words in another order: a tie for a unigram model.
    {
        "sentence_good": "the cat sleeps .",
        "sentence_bad": "cat the sleeps .",
        "UID": "order",
        "phenomenon": "syn",
    },
    {
        "sentence_good": "the dog is here .",
        "sentence_bad": "dog the is here .",
        "UID": "order",
        "phenomenon": "syn",
    },
]

TRIPLETS = [
    {
        "learnerID": f"u{i % 3}",
        "L1": "Spanish" if i % 2 else "Arabic",
        "cefr": "B1",
        "corrected": "we play sports .",
        "learner_error": "we play the sports .",
        "artificial_error": "the we play sports .",
        "errant_edits": [{"type": "U:DET", "o_str": "the", "c_str": ""}],
        "all_error_types": ["U:DET"],
        "item_id": f"t{i}",
    }
    for i in range(4)
]


def _write(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_score_pairs_with_unigram_writes_items_and_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each pair gets a line with its sentences' token scores, reductions and outcomes; the
    summary's accuracy is the mean of those outcomes; repeated sentences are scored once."""
    data = _write(tmp_path / "pairs.jsonl", PAIRS)
    out = tmp_path / "res" / "scores.jsonl"
    code = main(
        ["score", "--scorer", "unigram", "--data", str(data), "--out", str(out), "--bootstrap", "200"]
    )
    assert code == 0
    items = _lines(out)
    assert [i["UID"] for i in items] == ["freq", "freq", "order", "order"]
    first = items[0]
    good = first["good"]
    assert isinstance(good, dict)
    assert good["tokens"] == ["the", "dog", "is", "here"]
    assert good["scores"]["sum"] == pytest.approx(sum(good["logprobs"]))
    assert first["outcome"] == {"sum": 1.0, "mean": 1.0, "bpt": 1.0}
    assert items[2]["outcome"]["sum"] == 0.5  # same words, other order
    for item in items:
        g, b = item["good"]["scores"]["sum"], item["bad"]["scores"]["sum"]  # type: ignore[index]
        assert item["outcome"]["sum"] == pair_outcome(g, b, higher_is_better=True)  # type: ignore[index]

    summary = json.loads((tmp_path / "res" / "scores.metrics.json").read_text(encoding="utf-8"))
    overall = summary["pairs"]["overall"]
    assert overall["n"] == 4 and overall["ties"] == 2
    assert overall["accuracy"] == pytest.approx(sum(i["outcome"]["sum"] for i in items) / 4)  # type: ignore[index]
    assert set(summary["pairs"]["by_paradigm"]) == {"freq", "order"}
    assert summary["scorer"]["method"] == "unigram"
    assert summary["settings"]["language"] == "en"
    assert summary["counts"]["sentences"] == 8
    assert summary["counts"]["distinct_sentences"] == 7  # "the dog is here ." twice
    assert set(summary["pairs_overall_by_reduction"]) == {"sum", "mean", "bpt"}
    err = capsys.readouterr().err
    assert "scored 7 / 7 sentences" in err and "accuracy" in err


def test_score_triplets_with_unigram(tmp_path: Path) -> None:
    data = _write(tmp_path / "bliss.jsonl", TRIPLETS)
    out = tmp_path / "bliss_scores.jsonl"
    summary_path = tmp_path / "m.json"
    args = [
        "score",
        "--scorer",
        "unigram",
        "--data",
        str(data),
        "--out",
        str(out),
        "--summary",
        str(summary_path),
    ]
    assert main([*args, "--min-slice", "2", "--tau", "0.05"]) == 0
    items = _lines(out)
    assert [i["item_id"] for i in items] == ["t0", "t1", "t2", "t3"]
    assert set(items[0]["outcome"]) == {"LP", "HAP", "HAP_tau", "SO"}  # type: ignore[arg-type]
    corrected = items[0]["corrected"]["scores"]["bpt"]  # type: ignore[index]
    learner = items[0]["learner"]["scores"]["bpt"]  # type: ignore[index]
    assert items[0]["outcome"]["LP"] == (1.0 if learner < corrected else 0.0)  # type: ignore[index]
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    triplets = summary["triplets"]
    assert triplets["n"] == 4 and triplets["tau"] == 0.05
    assert set(triplets["slices"]["l1"]) == {"Arabic", "Spanish"}
    assert triplets["slices"]["error_type"]["U:DET"]["n"] == 4
    assert "cluster bootstrap" in triplets["ci"]
    assert "pairs" not in summary


def test_pairs_and_triplets_together(tmp_path: Path) -> None:
    out = tmp_path / "both.jsonl"
    args = ["score", "--scorer", "unigram", "--out", str(out), "--bootstrap", "0"]
    data = [
        "--data",
        str(_write(tmp_path / "p.jsonl", PAIRS)),
        "--data",
        str(_write(tmp_path / "t.jsonl", TRIPLETS)),
    ]
    assert main([*args, *data]) == 0
    assert [i["kind"] for i in _lines(out)] == ["pair"] * 4 + ["triplet"] * 4


def test_missing_data_file_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["score", "--scorer", "unigram", "--data", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "o")]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "nope.jsonl" in err and "no such file" in err
    assert "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_malformed_line_stops_the_run_unless_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "pairs.jsonl"
    data.write_text(json.dumps(PAIRS[0]) + "\n{oops\n" + json.dumps(PAIRS[1]) + "\n", encoding="utf-8")
    out = tmp_path / "o.jsonl"
    args = ["score", "--scorer", "unigram", "--data", str(data), "--out", str(out), "--bootstrap", "0"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{data}, line 2" in err and "--skip-bad-lines" in err
    assert not out.exists()
    assert main([*args, "--skip-bad-lines"]) == 1
    assert len(_lines(out)) == 2
    summary = json.loads(out.with_name("o.metrics.json").read_text(encoding="utf-8"))
    assert summary["counts"]["skipped_items"] == 1
    assert summary["data"]["issues"][0]["line"] == 2


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--scorer", "causal"], "--model is required for the causal scorer"),
        (["--scorer", "unigram", "--language", "xx"], "no word list for language 'xx'"),
        (["--scorer", "unigram", "--tau", "-1"], "--tau must be"),
    ],
)
def test_user_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    data = _write(tmp_path / "pairs.jsonl", PAIRS)
    code = main(["score", "--data", str(data), "--out", str(tmp_path / "o.jsonl"), *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_mixed_languages_need_a_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    en = _write(tmp_path / "en.jsonl", [dict(PAIRS[0], language="en")])
    zh = _write(
        tmp_path / "zh.jsonl", [{"sentence_good": "我吃苹果", "sentence_bad": "苹果吃我", "language": "zh"}]
    )
    out = tmp_path / "o.jsonl"
    base = ["score", "--scorer", "unigram", "--data", str(en), "--data", str(zh), "--out", str(out)]
    assert main(base) == 2
    assert "mixes languages (en, zh)" in capsys.readouterr().err
    assert main([*base, "--language", "zh", "--bootstrap", "0"]) == 0


def test_bad_model_path_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _write(tmp_path / "pairs.jsonl", PAIRS)
    code = main(
        [
            "score",
            "--scorer",
            "pll",
            "--model",
            str(tmp_path / "no-model"),
            "--data",
            str(data),
            "--out",
            str(tmp_path / "o"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines()[-1].startswith("error:")
    assert "no-model" in err
    assert "Traceback" not in err


@pytest.mark.skipif(
    importlib.util.find_spec("scoring.causal") is None, reason="scoring/causal.py not written yet"
)
def test_score_with_the_tiny_causal_model(tmp_path: Path, tiny_gpt2: Path) -> None:
    """The causal scorer runs end to end: every content token scored, sums consistent."""
    data = _write(tmp_path / "pairs.jsonl", PAIRS)
    out = tmp_path / "gpt2.jsonl"
    args = ["score", "--scorer", "causal", "--model", str(tiny_gpt2), "--data", str(data), "--out", str(out)]
    assert main([*args, "--device", "cpu", "--bootstrap", "100"]) == 0
    items = _lines(out)
    assert len(items) == 4
    for item in items:
        for side in ("good", "bad"):
            sentence = item[side]
            assert isinstance(sentence, dict)
            assert sentence["n_tokens"] >= 1
            assert sentence["scores"]["sum"] == pytest.approx(sum(sentence["logprobs"]))
            assert all(lp <= 0 for lp in sentence["logprobs"])
    summary = json.loads(out.with_name("gpt2.metrics.json").read_text(encoding="utf-8"))
    assert summary["scorer"]
    assert summary["settings"]["fingerprint"]
    assert summary["pairs"]["overall"]["n"] == 4


def test_linking_functions_are_reported_from_the_stored_token_scores(tmp_path: Path) -> None:
    """Each `--linking` function gets a pairs report whose outcomes are those of the per-item
    file's token scores reduced by hand (nothing is scored again)."""
    data = _write(tmp_path / "pairs.jsonl", PAIRS)
    out = tmp_path / "scores.jsonl"
    args = ["score", "--scorer", "unigram", "--data", str(data), "--out", str(out), "--bootstrap", "0"]
    assert main([*args, "--linking", "slln:alpha=0.5", "--linking", "penlp", "--linking", "slln"]) == 0
    summary = json.loads((tmp_path / "scores.metrics.json").read_text(encoding="utf-8"))
    reports = summary["pairs_by_linking"]
    assert list(reports) == ["slln:alpha=0.5", "penlp:alpha=0.8"]  # the repeated slln once
    assert reports["slln:alpha=0.5"]["label"] == "SLLN-LP (alpha 0.5)"
    expected = []
    for item in _lines(out):
        good, bad = item["good"], item["bad"]
        assert isinstance(good, dict) and isinstance(bad, dict)
        g = sum(good["logprobs"]) / len(good["logprobs"]) ** 0.5
        b = sum(bad["logprobs"]) / len(bad["logprobs"]) ** 0.5
        expected.append(pair_outcome(g, b, higher_is_better=True))
    overall = reports["slln:alpha=0.5"]["overall"]
    assert overall["accuracy"] == pytest.approx(sum(expected) / len(expected))
    assert overall["ties"] == expected.count(0.5)


@pytest.mark.parametrize(
    ("linking", "message"),
    [
        ("slln:alpha=2", "--linking slln:alpha=2: slln: alpha must lie strictly between 0 and 1"),
        ("median", "--linking median: unknown linking function 'median'"),
        ("slor", "--linking slor: SLOR needs the token unigram frequencies"),
    ],
)
def test_a_linking_function_that_cannot_be_computed_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], linking: str, message: str
) -> None:
    data = _write(tmp_path / "pairs.jsonl", PAIRS)
    args = ["score", "--scorer", "unigram", "--data", str(data), "--out", str(tmp_path / "o.jsonl")]
    assert main([*args, "--linking", linking]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_slor_and_morcela_use_the_given_token_frequencies(tmp_path: Path, tiny_gpt2: Path) -> None:
    """With --unigram-frequencies, SLOR and MORCELA are reported, each outcome the one a hand
    computation gives from the per-item file's tokens and the frequencies file."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_gpt2))
    size = len(tokenizer)
    # a made-up frequency per id, falling with the id; ids past the list get the floor
    frequencies = {str(i): (size - i) / (size * (size + 1) / 2) for i in range(size // 2)}
    freq_file = tmp_path / "gpt2.json"
    freq_file.write_text(json.dumps(frequencies), encoding="utf-8")
    floor = min(frequencies.values())
    data = _write(tmp_path / "pairs.jsonl", PAIRS)
    out = tmp_path / "gpt2.jsonl"
    args = ["score", "--scorer", "causal", "--model", str(tiny_gpt2), "--data", str(data), "--out", str(out)]
    extra = ["--linking", "slor", "--linking", "morcela:beta=0.5,gamma=1"]
    extra += ["--unigram-frequencies", str(freq_file)]
    assert main([*args, *extra, "--device", "cpu", "--bootstrap", "0"]) == 0
    summary = json.loads(out.with_name("gpt2.metrics.json").read_text(encoding="utf-8"))
    assert "gpt2.json" in summary["unigram_frequencies"]

    def unigram(sentence: dict[str, object]) -> float:
        ids = tokenizer.convert_tokens_to_ids(sentence["tokens"])
        return sum(math.log(frequencies.get(str(i), floor)) for i in ids)

    slor, morcela = [], []
    for item in _lines(out):
        good, bad = item["good"], item["bad"]
        assert isinstance(good, dict) and isinstance(bad, dict)
        g_lp, b_lp = sum(good["logprobs"]), sum(bad["logprobs"])
        g_n, b_n = len(good["logprobs"]), len(bad["logprobs"])
        slor.append(
            pair_outcome((g_lp - unigram(good)) / g_n, (b_lp - unigram(bad)) / b_n, higher_is_better=True)
        )
        morcela.append(
            pair_outcome(
                (g_lp - 0.5 * unigram(good) + 1) / g_n,
                (b_lp - 0.5 * unigram(bad) + 1) / b_n,
                higher_is_better=True,
            )
        )
    reports = summary["pairs_by_linking"]
    assert reports["slor"]["overall"]["accuracy"] == pytest.approx(sum(slor) / len(slor))
    morcela_report = reports["morcela:beta=0.5,gamma=1"]["overall"]
    assert morcela_report["accuracy"] == pytest.approx(sum(morcela) / len(morcela))


def test_slor_is_refused_for_a_scorer_without_model_tokens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _write(tmp_path / "pairs.jsonl", PAIRS)
    freq_file = tmp_path / "f.json"
    freq_file.write_text('{"1": 0.5}', encoding="utf-8")
    args = ["score", "--scorer", "unigram", "--data", str(data), "--out", str(tmp_path / "o.jsonl")]
    assert main([*args, "--linking", "slor", "--unigram-frequencies", str(freq_file)]) == 2
    assert "computed over a causal LM's tokens" in capsys.readouterr().err


def test_unusable_token_frequencies_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _write(tmp_path / "pairs.jsonl", PAIRS)
    freq_file = tmp_path / "f.json"
    freq_file.write_text('{"one": 0.5}', encoding="utf-8")
    args = ["score", "--scorer", "unigram", "--data", str(data), "--out", str(tmp_path / "o.jsonl")]
    assert main([*args, "--linking", "slor", "--unigram-frequencies", str(freq_file)]) == 2
    err = capsys.readouterr().err
    assert "--unigram-frequencies" in err and "'one' is not a token id" in err
    assert "Traceback" not in err
