"""The word-frequency baseline: each word scored ln(wordfreq frequency), unknown words floored,
punctuation not a token, generator word spans respected, no torch."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from importlib.metadata import version

import pytest
import wordfreq

from scoring import ScorerSettings, Sentence, load_scorer
from scoring.errors import ModelLoadError
from scoring.unigram import UnigramScorer, frequency_floor


@pytest.fixture(scope="module")
def english() -> UnigramScorer:
    return UnigramScorer(ScorerSettings(method="unigram", language="en"))


def test_unigram_scores_are_word_log_frequencies(english: UnigramScorer) -> None:
    """Tokens are the words; each log-prob is ln of wordfreq's frequency; the sum is their sum."""
    (score,) = english.score([Sentence("The cat sleeps")])
    assert score.tokens == ["The", "cat", "sleeps"]
    assert score.token_spans == [(0, 3), (4, 7), (8, 14)]
    expected = [math.log(wordfreq.word_frequency(w, "en")) for w in ("the", "cat", "sleeps")]
    assert score.logprobs == pytest.approx(expected)
    assert score.reduce("sum") == pytest.approx(sum(expected))
    assert score.word_logprobs == pytest.approx(expected)


def test_frequent_words_beat_rare_ones(english: UnigramScorer) -> None:
    common, rare = english.score([Sentence("the dog ran"), Sentence("the dingo ambled")])
    assert common.reduce("sum") > rare.reduce("sum")


def test_unknown_words_get_the_floor(english: UnigramScorer) -> None:
    """A word missing from the list counts as the rarest listed word, not as minus infinity."""
    (score,) = english.score([Sentence("the blorptangle")])
    floor = frequency_floor("en")
    assert 0 < floor < 1e-7
    assert score.logprobs[1] == pytest.approx(math.log(floor))
    assert math.isfinite(score.reduce("sum"))


def test_punctuation_is_not_a_token(english: UnigramScorer) -> None:
    """Zorro's space-separated punctuation stays a word (scored 0) but is no token, so two
    sentences differing only in punctuation tie."""
    with_dot, without = english.score([Sentence("the cat sleeps ."), Sentence("the cat sleeps")])
    assert with_dot.tokens == ["the", "cat", "sleeps"]
    assert len(with_dot.word_spans) == 4 and with_dot.word_logprobs[3] == 0.0
    assert with_dot.reduce("sum") == pytest.approx(without.reduce("sum"))


def test_generator_word_spans_are_used(english: UnigramScorer) -> None:
    """A multi-word unit the generator recorded as one word is looked up as one word."""
    text = "ice cream melts"
    (score,) = english.score([Sentence(text, word_spans=((0, 9), (10, 15)))])
    assert score.tokens == ["ice cream", "melts"]
    assert score.logprobs[0] == pytest.approx(math.log(wordfreq.word_frequency("ice cream", "en")))


def test_chinese_falls_back_to_jieba_words() -> None:
    scorer = UnigramScorer(ScorerSettings(method="unigram", language="zh"))
    (score,) = scorer.score([Sentence("我喜欢吃苹果")])
    assert score.tokens == ["我", "喜欢", "吃", "苹果"]
    assert score.logprobs[3] == pytest.approx(math.log(wordfreq.word_frequency("苹果", "zh")))


def test_progress_is_reported(english: UnigramScorer) -> None:
    seen: list[int] = []
    english.score([Sentence("a cat")] * 3, progress=seen.append)
    assert seen == [3]


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ModelLoadError, match="no word list for language 'xx'"):
        UnigramScorer(ScorerSettings(method="unigram", language="xx"))


def test_registry_loads_the_unigram_scorer_and_it_describes_itself() -> None:
    scorer = load_scorer(ScorerSettings(method="unigram", language="en"))
    description = scorer.describe()
    assert description["wordfreq_version"] == version("wordfreq")
    assert description["wordlist_file"] == "large_en.msgpack.gz"
    assert description["floor_frequency"] == frequency_floor("en")


def test_unigram_scoring_never_imports_torch() -> None:
    code = (
        "import sys\n"
        "from scoring import ScorerSettings, Sentence, load_scorer\n"
        "load_scorer(ScorerSettings(method='unigram')).score([Sentence('the cat')])\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
