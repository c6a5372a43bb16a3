"""The word-frequency baseline (Zorro's unigram baseline): a sentence's score is the sum of its
words' log frequencies in `wordfreq`'s list for the language. No model, no torch.

Each word of the sentence (the generator's words where recorded, else whitespace words, or
jieba's for Chinese) is one token, scored ln(wordfreq.word_frequency(word, language)).
wordfreq lower-cases and normalises the word itself. A word wordfreq does not list counts as
the rarest word it lists (the floor, about 1e-8 for the large lists): absence means "at most
this frequent". A word with nothing wordfreq counts as a word (punctuation, symbols) is not a
token: it stays in the word spans with a score of 0, so sentences differing only in
punctuation tie, as they should for a lexical baseline.
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib.metadata import version
from pathlib import PurePath

import wordfreq
from wordfreq.tokens import tokenize

from scoring.errors import ModelLoadError
from scoring.items import Sentence, SentenceScore, Span
from scoring.registry import ProgressCallback
from scoring.settings import ScorerSettings
from scoring.words import fallback_word_spans

WORDLIST = "best"  # wordfreq's largest list for the language ("large" for English and Chinese)
PROGRESS_EVERY = 1000  # sentences between progress calls (scoring is ~50k words/s)


@lru_cache(maxsize=16)
def frequency_floor(language: str) -> float:
    """Return the smallest frequency in wordfreq's list for `language`: what an unlisted word
    counts as.

    Raises:
        ModelLoadError: if wordfreq has no list for the language.
    """
    try:
        frequencies = wordfreq.get_frequency_dict(language, wordlist=WORDLIST)
    except LookupError as exc:
        raise ModelLoadError(
            f"the unigram scorer has no word list for language '{language}': {exc} "
            "(wordfreq covers en, zh, de, fr, es, ja and about 40 more)"
        ) from None
    return float(min(frequencies.values()))


class UnigramScorer:
    """Scores sentences by summed word log-frequency (`settings.language` picks the list)."""

    def __init__(self, settings: ScorerSettings) -> None:
        self.settings = settings
        self.language = settings.language
        self.floor = frequency_floor(self.language)
        self.log_floor = math.log(self.floor)

    def word_logprob(self, word: str) -> float | None:
        """Return ln(frequency) of `word` (floored), or None when wordfreq sees no word in it."""
        if not tokenize(word, self.language):
            return None
        frequency = wordfreq.word_frequency(word, self.language, wordlist=WORDLIST)
        return math.log(frequency) if frequency > self.floor else self.log_floor

    def score_one(self, sentence: Sentence) -> SentenceScore:
        """Return the SentenceScore of one sentence: its words as tokens."""
        text = sentence.text
        spans: tuple[Span, ...] = (
            sentence.word_spans
            if sentence.word_spans is not None
            else fallback_word_spans(text, self.language)
        )
        tokens: list[str] = []
        token_spans: list[Span] = []
        logprobs: list[float] = []
        word_logprobs: list[float] = []
        for start, end in spans:
            value = self.word_logprob(text[start:end])
            word_logprobs.append(0.0 if value is None else value)
            if value is not None:
                tokens.append(text[start:end])
                token_spans.append((start, end))
                logprobs.append(value)
        return SentenceScore(
            text=text,
            tokens=tokens,
            token_spans=token_spans,
            logprobs=logprobs,
            word_spans=list(spans),
            word_logprobs=word_logprobs,
        )

    def score(
        self, sentences: list[Sentence], progress: ProgressCallback | None = None
    ) -> list[SentenceScore]:
        """Return one score per sentence, in order; `progress(done)` every PROGRESS_EVERY
        sentences and at the end."""
        out: list[SentenceScore] = []
        for index, sentence in enumerate(sentences, 1):
            out.append(self.score_one(sentence))
            if progress is not None and (index % PROGRESS_EVERY == 0 or index == len(sentences)):
                progress(index)
        return out

    def describe(self) -> dict[str, object]:
        """Return the word list, its version and the conventions behind the numbers."""
        lists = wordfreq.available_languages(wordlist=WORDLIST)
        list_file = lists.get(self.language)
        return {
            "method": "unigram",
            "library": "wordfreq",
            "wordfreq_version": version("wordfreq"),
            "language": self.language,
            "wordlist": WORDLIST,
            "wordlist_file": PurePath(str(list_file)).name if list_file else "",
            "floor_frequency": self.floor,
            "unit": "natural log of the word's frequency; tokens are words",
            "unknown_words": "scored as the rarest listed word (the floor)",
            "non_words": "words wordfreq finds no word in (punctuation) are not tokens",
            "word_segmentation": "the generator's words, else whitespace words (jieba for Chinese)",
        }
