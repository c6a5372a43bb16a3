"""The plausibility check: good sentences ranked by mean log-prob per token with their weakest
token (hand-made scores), and `mpp plausibility` on a tiny causal model agreeing with the scorer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mpp.cli import main
from scoring.items import Sentence, SentenceScore
from scoring.plausibility import PLAUSIBILITY_WARNING, least_plausible, weakest_token
from scoring.registry import load_scorer
from scoring.settings import ScorerSettings


def hand_score(text: str, logprobs: list[float]) -> SentenceScore:
    """A score with one token per whitespace word of `text`."""
    words, spans, start = text.split(), [], 0
    for word in words:
        start = text.index(word, start)
        spans.append((start, start + len(word)))
        start += len(word)
    return SentenceScore(text, words, spans, logprobs)


def test_least_plausible_ranks_by_mean_not_sum() -> None:
    """The long sentence has the lowest sum but a higher mean than the short odd one."""
    scores = [
        ("long", hand_score("the cat saw the dog near the old house", [-1.0] * 9)),  # sum -9, mean -1
        ("odd", hand_score("the idea slept", [-1.0, -6.0, -2.0])),  # sum -9, mean -3
        ("fine", hand_score("the cat slept", [-1.0, -1.0, -1.0])),  # sum -3, mean -1
    ]
    ranked = least_plausible(scores, top=3)
    assert [r.key for r in ranked] == ["odd", "long", "fine"]  # equal means: by text
    odd = ranked[0]
    assert odd.mean_logprob == pytest.approx(-3.0) and odd.n_tokens == 3
    assert (odd.weakest.index, odd.weakest.text, odd.weakest.logprob) == (1, "idea", -6.0)


@pytest.mark.parametrize(("top", "expected"), [(1, ["b"]), (2, ["b", "a"]), (5, ["b", "a"])])
def test_least_plausible_keeps_the_top(top: int, expected: list[str]) -> None:
    """Only `top` rows come back; a repeated key and a sentence without tokens are skipped."""
    scores = [
        ("a", hand_score("a b", [-1.0, -2.0])),
        ("b", hand_score("c d", [-3.0, -3.0])),
        ("a", hand_score("e f", [-9.0, -9.0])),  # the same key again: skipped
        ("empty", SentenceScore("", [], [], [])),
    ]
    assert [r.key for r in least_plausible(scores, top=top)] == expected


def test_least_plausible_rejects_top_below_one() -> None:
    with pytest.raises(ValueError, match="top"):
        least_plausible([], top=0)


def test_weakest_token_takes_the_first_of_equal_lows_and_names_an_empty_span_by_its_token() -> None:
    """An end-of-sentence token covers no characters: it is named by its token string."""
    score = SentenceScore("a b", ["a", "b", "</s>"], [(0, 1), (2, 3), (3, 3)], [-2.0, -1.0, -2.0])
    weakest = weakest_token(score)
    assert weakest is not None and (weakest.index, weakest.text) == (0, "a")
    eos = weakest_token(SentenceScore("a", ["a", "</s>"], [(0, 1), (1, 1)], [-1.0, -5.0]))
    assert eos is not None and eos.text == "</s>"
    assert weakest_token(SentenceScore("", [], [], [])) is None


GOOD = [
    "The cat sleeps on the mat.",
    "The dogs chase a ball in the park.",
    "Whales whales whales whales mat mat mat.",
    "She has eaten the apple.",
    "There is a bird on the roof.",
]


def test_plausibility_command_lists_sentences_in_the_scorer_order(
    tmp_path: Path, tiny_gpt2: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`mpp plausibility` exits 0, warns, and lists good sentences lowest mean log-prob first,
    as the causal scorer scores them; a good sentence in two pairs is listed once."""
    records = [
        {"sentence_good": g, "sentence_bad": g.replace(".", " the."), "UID": "u", "phenomenon": "p"}
        for g in [*GOOD, GOOD[0]]
    ]
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    code = main(["plausibility", str(data), "--model", str(tiny_gpt2), "--top", "3", "--device", "cpu"])
    out, err = capsys.readouterr()
    assert code == 0
    assert PLAUSIBILITY_WARNING in err
    header, *rows = out.splitlines()
    assert header.startswith("mean_logprob\t")
    scorer = load_scorer(ScorerSettings(method="causal", model=str(tiny_gpt2), device="cpu"))
    means = {s.text: s.reduce("mean") for s in scorer.score([Sentence(g) for g in GOOD])}
    expected = sorted(GOOD, key=lambda g: (means[g], g))[:3]
    listed = [row.split("\t") for row in rows]
    assert [r[-1] for r in listed] == expected
    assert [float(r[0]) for r in listed] == [pytest.approx(means[g], abs=1e-3) for g in expected]
    pairs = {r[-1]: int(r[4]) for r in listed}
    assert pairs.get(GOOD[0], 2) == 2


def test_plausibility_command_without_pairs_ends_with_an_error_line(
    tmp_path: Path, tiny_gpt2: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An empty file is named, then the run stops with exit code 2 and no traceback."""
    data = tmp_path / "empty.jsonl"
    data.write_text("", encoding="utf-8")
    assert main(["plausibility", str(data), "--model", str(tiny_gpt2), "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("error: ") and "Traceback" not in err
