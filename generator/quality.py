"""The quality report of one paradigm's pairs: length, tokens, frequency bias, repetition, OOV.

The report answers the questions a reviewer asks of a minimal-pair paradigm before trusting it
(generation-anchors section 7 item 11): can a model tell good from bad by length alone, by a
unigram frequency difference of the critical words, or because a few words fill most pairs; and
how much of the text a given tokenizer does not know.

Input is a list of `QualityPair`: from the engine's JSONL records (`pair_from_record`: the
record's words and critical-region token spans) or from plain sentence pairs
(`pair_from_sentences`: the critical words are what a word-level diff leaves unmatched).

Definitions used throughout:

- A *word* is an element of the pair's word list (`words_good` / `words_bad`: for Chinese the
  jieba words). A *lexical word* is a word with at least one letter (CJK characters count as
  letters), so punctuation marks and numbers are left out of frequency, repetition and OOV.
- *Critical words* of a side are the lexical words inside that side's critical-region spans.
- Differences are always good minus bad.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from generator.word_diff import diff_critical_words, guess_language
from vocab.coverage import Tokenizer, unknown_token_id, word_token_ids
from vocab.errors import FrequencyError
from vocab.frequency import wordfreq_frequencies

# Given words, return word -> occurrences per million (0 or absent for unseen words).
FrequencyLookup = Callable[[Sequence[str]], Mapping[str, float]]

_LETTER = re.compile(r"[^\W\d_]")
# log10 of a probability for a word the frequency source does not list: 1 in 10**9 words,
# below the rarest word wordfreq lists (Zipf 1 = 1 in 10**8), so an unseen word is the least
# likely word but not impossible.
_UNSEEN_LOG10_P = -9.0
_EXAMPLES = 5


class QualityInputError(ValueError):
    """A record or pair the report cannot read; the message names where it is."""


@dataclass(frozen=True, slots=True)
class QualityPair:
    """One pair as the report sees it: both sentences, their words and the critical words.

    `critical_good` / `critical_bad` are indexes into `words_good` / `words_bad`.
    `region_from` is "template" (the engine's record) or "diff" (derived by a word diff).
    `fillers` are the vocabulary item ids the engine put into the pair's lexical positions
    (its provenance), each once; empty for plain pairs.
    """

    good: str
    bad: str
    words_good: tuple[str, ...]
    words_bad: tuple[str, ...]
    critical_good: tuple[int, ...]
    critical_bad: tuple[int, ...]
    region_from: str
    fillers: tuple[str, ...] = ()

    def critical_words(self, side: str) -> list[str]:
        """Return the lexical critical words of "good" or "bad", in sentence order."""
        words, indexes = (
            (self.words_good, self.critical_good) if side == "good" else (self.words_bad, self.critical_bad)
        )
        return [words[i] for i in indexes if is_lexical(words[i])]


@dataclass(frozen=True, slots=True)
class Difference:
    """Summary of a per-pair difference, good minus bad (characters, words or tokens)."""

    mean: float
    min: int
    max: int
    equal_share: float
    good_longer_share: float
    bad_longer_share: float


@dataclass(frozen=True, slots=True)
class FrequencyAsymmetry:
    """How frequent the critical words are on each side, in one frequency source.

    Means are over critical-word occurrences of a side; Zipf is log10 of occurrences per
    billion words (0 for a word the source does not list). A pair counts for
    `good_more_frequent_share` when the mean Zipf of its good critical words is higher than
    that of its bad ones; only pairs with critical words on both sides are compared
    (`pairs_compared`). The unigram shares cover every pair: a unigram model scores a side's
    critical words as the sum of log10 p(word) (unseen words 1 in 10**9), and everything
    outside the critical region is the same in both sentences, so this is exactly the side a
    unigram model prefers (ties when both sums are equal, e.g. a pure move).
    """

    source: str
    critical_words_good: int
    critical_words_bad: int
    mean_zipf_good: float | None
    mean_zipf_bad: float | None
    mean_per_million_good: float | None
    mean_per_million_bad: float | None
    pairs_compared: int
    good_more_frequent_share: float | None
    bad_more_frequent_share: float | None
    unigram_prefers_good_share: float
    unigram_prefers_bad_share: float
    unseen_words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WordUse:
    """A word and the number (and share) of pairs it occurs in."""

    word: str
    pairs: int
    share: float


@dataclass(frozen=True, slots=True)
class RepeatedWord:
    """A sentence in which a lexical word occurs more than once."""

    sentence: str
    word: str
    count: int


@dataclass(frozen=True, slots=True)
class Repetition:
    """Which lexical words (lowercased) fill the pairs, and sentences that repeat a word.

    A word occurs in a pair if it is in its good or its bad sentence. Words in every pair are
    the template's fixed words; `most_reused` lists the others, most pairs first. For engine
    records, `most_reused_items` ranks the vocabulary items that filled the lexical positions
    the same way (the words the sampler chose, without the template's fixed text).
    """

    distinct_words: int
    in_every_pair: tuple[str, ...]
    most_reused: tuple[WordUse, ...]
    sentences: int
    sentences_repeating_a_word: int
    sentences_repeating_share: float
    examples: tuple[RepeatedWord, ...]
    most_reused_items: tuple[WordUse, ...] = ()


@dataclass(frozen=True, slots=True)
class Duplicates:
    """Extra copies of sentences and pairs (0 everywhere in a clean paradigm but `bad`)."""

    repeated_good: int
    repeated_bad: int
    repeated_pairs: int
    good_equals_bad: int


@dataclass(frozen=True, slots=True)
class TokenizerQuality:
    """Token-count difference and out-of-vocabulary rate for one tokenizer.

    Token counts are of each whole sentence without special tokens. A lexical word is
    *out of vocabulary* (OOV) when the tokenizer, reading the word as it appears mid-sentence
    (see `vocab.coverage.word_token_ids`), maps it to its unknown token or splits it into more
    than one piece: a model with that tokenizer has no single embedding for it. Type rates
    count each distinct word form once; token rates count every occurrence in all good and
    bad sentences. The unknown-token part of the OOV rate is given on its own.
    """

    tokenizer: str
    tokens: Difference
    word_types: int
    word_tokens: int
    oov_types: int
    oov_tokens: int
    oov_type_rate: float
    oov_token_rate: float
    unknown_types: int
    unknown_tokens: int
    unknown_type_rate: float
    unknown_token_rate: float
    oov_examples: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class QualityReport:
    """The quality report of one paradigm (see the module docstring for the definitions)."""

    uid: str
    language: str
    pairs: int
    region_from: str
    characters: Difference
    words: Difference
    frequency: FrequencyAsymmetry | None
    repetition: Repetition
    duplicates: Duplicates
    tokenizer: TokenizerQuality | None
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """Return the report as plain JSON-able values (dicts, lists, numbers, strings)."""
        return asdict(self)

    def render_text(self) -> str:
        """Return the report as indented plain text for a terminal."""
        return render_text(self)


def is_lexical(word: str) -> bool:
    """Return whether a word has a letter (CJK characters count): not punctuation or a number."""
    return _LETTER.search(word) is not None


def pair_from_sentences(good: str, bad: str, language: str) -> QualityPair:
    """Return the pair with words split per language and critical words found by a word diff."""
    found = diff_critical_words(good, bad, language)
    return QualityPair(
        good, bad, found.words_good, found.words_bad, found.critical_good, found.critical_bad, "diff"
    )


def pair_from_record(record: Mapping[str, Any], language: str, where: str) -> QualityPair:
    """Return the pair of one JSONL record: the engine's words and critical region if present.

    A record without `words_good` / `words_bad` and `critical_region` (e.g. a BLiMP release
    line) gets its words and critical words from `pair_from_sentences`.

    Raises:
        QualityInputError: naming `where` if a sentence is missing or a span is out of range.
    """
    good, bad = record.get("sentence_good"), record.get("sentence_bad")
    if not isinstance(good, str) or not isinstance(bad, str):
        raise QualityInputError(f"{where}: needs the text fields 'sentence_good' and 'sentence_bad'")
    words_good, words_bad = record.get("words_good"), record.get("words_bad")
    region = record.get("critical_region")
    if not (isinstance(words_good, list) and isinstance(words_bad, list) and isinstance(region, list)):
        return pair_from_sentences(good, bad, language)
    critical: dict[str, list[int]] = {"good": [], "bad": []}
    lengths = {"good": len(words_good), "bad": len(words_bad)}
    for number, part in enumerate(region, start=1):
        for side in ("good", "bad"):
            span = part.get(side, {}).get("tokens") if isinstance(part, dict) else None
            if not (
                isinstance(span, list)
                and len(span) == 2
                and all(isinstance(x, int) for x in span)
                and 0 <= span[0] <= span[1] <= lengths[side]
            ):
                raise QualityInputError(
                    f"{where}: critical_region part {number} has no valid {side} token span "
                    f"(need [start, end] within the {lengths[side]} words of sentence_{side})"
                )
            critical[side].extend(range(span[0], span[1]))
    return QualityPair(
        good,
        bad,
        tuple(str(w) for w in words_good),
        tuple(str(w) for w in words_bad),
        tuple(sorted(set(critical["good"]))),
        tuple(sorted(set(critical["bad"]))),
        "template",
        _fillers(record),
    )


def _fillers(record: Mapping[str, Any]) -> tuple[str, ...]:
    """The distinct vocabulary item ids in a record's provenance (`fillers` of both sides)."""
    provenance = record.get("provenance")
    fillers = provenance.get("fillers") if isinstance(provenance, Mapping) else None
    if not isinstance(fillers, Mapping):
        return ()
    items: dict[str, None] = {}
    for side in fillers.values():
        if isinstance(side, Mapping):
            items.update((str(item), None) for item in side.values())
    return tuple(items)


def difference(values: Sequence[int]) -> Difference:
    """Return the summary of per-pair differences (good minus bad); all zero for no pairs."""
    if not values:
        return Difference(0.0, 0, 0, 0.0, 0.0, 0.0)
    n = len(values)
    return Difference(
        mean=sum(values) / n,
        min=min(values),
        max=max(values),
        equal_share=sum(1 for v in values if v == 0) / n,
        good_longer_share=sum(1 for v in values if v > 0) / n,
        bad_longer_share=sum(1 for v in values if v < 0) / n,
    )


def zipf(per_million: float) -> float:
    """Return the Zipf value (log10 of occurrences per billion) of a rate per million; 0 if 0."""
    return math.log10(per_million * 1e3) if per_million > 0 else 0.0


def frequency_asymmetry(
    pairs: Sequence[QualityPair], frequencies: Mapping[str, float], source: str
) -> FrequencyAsymmetry:
    """Return the frequency asymmetry of the pairs' critical words (see `FrequencyAsymmetry`).

    `frequencies` maps lowercased words to occurrences per million.
    """

    def rate(word: str) -> float:
        return float(frequencies.get(word.lower(), 0.0))

    sides: dict[str, list[float]] = {"good": [], "bad": []}
    zipfs: dict[str, list[float]] = {"good": [], "bad": []}
    compared = good_more = bad_more = prefers_good = prefers_bad = 0
    unseen: dict[str, None] = {}
    for pair in pairs:
        log_p: dict[str, float] = {}
        pair_zipf: dict[str, list[float]] = {}
        for side in ("good", "bad"):
            words = pair.critical_words(side)
            rates = [rate(w) for w in words]
            sides[side].extend(rates)
            pair_zipf[side] = [zipf(r) for r in rates]
            zipfs[side].extend(pair_zipf[side])
            log_p[side] = sum(math.log10(r / 1e6) if r > 0 else _UNSEEN_LOG10_P for r in rates)
            unseen.update((w.lower(), None) for w, r in zip(words, rates, strict=True) if r <= 0)
        if pair_zipf["good"] and pair_zipf["bad"]:
            compared += 1
            mean_good = sum(pair_zipf["good"]) / len(pair_zipf["good"])
            mean_bad = sum(pair_zipf["bad"]) / len(pair_zipf["bad"])
            good_more += mean_good > mean_bad
            bad_more += mean_bad > mean_good
        # Compare rounded sums: equal words in another order must tie despite float noise.
        good_score, bad_score = round(log_p["good"], 9), round(log_p["bad"], 9)
        prefers_good += good_score > bad_score
        prefers_bad += bad_score > good_score
    n = len(pairs) or 1

    def mean(values: list[float]) -> float | None:
        return sum(values) / len(values) if values else None

    return FrequencyAsymmetry(
        source=source,
        critical_words_good=len(sides["good"]),
        critical_words_bad=len(sides["bad"]),
        mean_zipf_good=mean(zipfs["good"]),
        mean_zipf_bad=mean(zipfs["bad"]),
        mean_per_million_good=mean(sides["good"]),
        mean_per_million_bad=mean(sides["bad"]),
        pairs_compared=compared,
        good_more_frequent_share=good_more / compared if compared else None,
        bad_more_frequent_share=bad_more / compared if compared else None,
        unigram_prefers_good_share=prefers_good / n if pairs else 0.0,
        unigram_prefers_bad_share=prefers_bad / n if pairs else 0.0,
        unseen_words=tuple(sorted(unseen))[:20],
    )


def repetition(pairs: Sequence[QualityPair], top: int = 10) -> Repetition:
    """Return which words fill the pairs and which sentences repeat a word (see `Repetition`)."""
    in_pairs: Counter[str] = Counter()
    items: Counter[str] = Counter()
    repeating = 0
    examples: list[RepeatedWord] = []
    for pair in pairs:
        in_pairs.update({w.lower() for w in (*pair.words_good, *pair.words_bad) if is_lexical(w)})
        items.update(set(pair.fillers))
        for sentence, words in ((pair.good, pair.words_good), (pair.bad, pair.words_bad)):
            counts = Counter(w.lower() for w in words if is_lexical(w))
            word, count = counts.most_common(1)[0] if counts else ("", 0)
            if count > 1:
                repeating += 1
                if len(examples) < _EXAMPLES:
                    examples.append(RepeatedWord(sentence, word, count))
    n = len(pairs)
    every = tuple(sorted(w for w, c in in_pairs.items() if c == n)) if n else ()
    others = sorted(((w, c) for w, c in in_pairs.items() if c < n), key=lambda wc: (-wc[1], wc[0]))
    sentences = 2 * n
    return Repetition(
        distinct_words=len(in_pairs),
        in_every_pair=every,
        most_reused=tuple(WordUse(w, c, c / n) for w, c in others[:top]),
        sentences=sentences,
        sentences_repeating_a_word=repeating,
        sentences_repeating_share=repeating / sentences if sentences else 0.0,
        examples=tuple(examples),
        most_reused_items=tuple(
            WordUse(item, c, c / n) for item, c in sorted(items.items(), key=lambda ic: (-ic[1], ic[0]))[:top]
        ),
    )


def duplicates(pairs: Sequence[QualityPair]) -> Duplicates:
    """Return the counts of repeated good sentences, bad sentences and pairs, and good == bad."""
    n = len(pairs)
    return Duplicates(
        repeated_good=n - len({p.good for p in pairs}),
        repeated_bad=n - len({p.bad for p in pairs}),
        repeated_pairs=n - len({(p.good, p.bad) for p in pairs}),
        good_equals_bad=sum(1 for p in pairs if p.good == p.bad),
    )


def tokenizer_quality(
    pairs: Sequence[QualityPair], tokenizer: Tokenizer, name: str, language: str
) -> TokenizerQuality:
    """Return the token-count difference and OOV rates for one tokenizer (see `TokenizerQuality`)."""
    token_diff = [
        len(tokenizer.encode(p.good, add_special_tokens=False))
        - len(tokenizer.encode(p.bad, add_special_tokens=False))
        for p in pairs
    ]
    occurrences: Counter[str] = Counter(
        w for p in pairs for w in (*p.words_good, *p.words_bad) if is_lexical(w)
    )
    ids = word_token_ids(occurrences, tokenizer, language=language)
    unk = unknown_token_id(tokenizer)
    unknown = {w for w, seq in ids.items() if unk is not None and unk in seq}
    oov = {w for w, seq in ids.items() if len(seq) != 1} | unknown
    types, tokens = len(occurrences), sum(occurrences.values())
    oov_tokens = sum(occurrences[w] for w in oov)
    unknown_tokens = sum(occurrences[w] for w in unknown)
    return TokenizerQuality(
        tokenizer=name,
        tokens=difference(token_diff),
        word_types=types,
        word_tokens=tokens,
        oov_types=len(oov),
        oov_tokens=oov_tokens,
        oov_type_rate=len(oov) / types if types else 0.0,
        oov_token_rate=oov_tokens / tokens if tokens else 0.0,
        unknown_types=len(unknown),
        unknown_tokens=unknown_tokens,
        unknown_type_rate=len(unknown) / types if types else 0.0,
        unknown_token_rate=unknown_tokens / tokens if tokens else 0.0,
        oov_examples=tuple(sorted(oov, key=lambda w: (-occurrences[w], w))[:10]),
    )


def quality_report(
    pairs: Sequence[QualityPair],
    *,
    uid: str,
    language: str,
    tokenizer: Tokenizer | None = None,
    tokenizer_name: str = "",
    frequencies: FrequencyLookup | None = None,
    frequency_source: str = "wordfreq",
    top: int = 10,
) -> QualityReport:
    """Return the quality report of one paradigm's pairs.

    `frequencies` looks words up (default: wordfreq for `language`); when the source has no
    data for the language the report has no frequency part and says why in `notes`. Without
    a tokenizer there is no token or OOV part.

    Raises:
        QualityInputError: if `pairs` is empty.
    """
    if not pairs:
        raise QualityInputError(f"{uid}: no pairs to report on")
    notes: list[str] = []
    critical = sorted({w.lower() for p in pairs for side in ("good", "bad") for w in p.critical_words(side)})
    lookup = frequencies or (lambda words: wordfreq_frequencies(words, language))
    asymmetry: FrequencyAsymmetry | None = None
    try:
        asymmetry = frequency_asymmetry(pairs, lookup(critical), frequency_source)
    except FrequencyError as exc:
        notes.append(f"no frequency asymmetry: {exc}")
    sources = sorted({p.region_from for p in pairs})
    if "diff" in sources:
        notes.append("critical words of some pairs were found by a word-level diff of the two sentences")
    return QualityReport(
        uid=uid,
        language=language,
        pairs=len(pairs),
        region_from=" and ".join(sources),
        characters=difference([len(p.good) - len(p.bad) for p in pairs]),
        words=difference([len(p.words_good) - len(p.words_bad) for p in pairs]),
        frequency=asymmetry,
        repetition=repetition(pairs, top),
        duplicates=duplicates(pairs),
        tokenizer=tokenizer_quality(pairs, tokenizer, tokenizer_name, language) if tokenizer else None,
        notes=tuple(notes),
    )


def group_records(
    records: Iterable[tuple[str, Mapping[str, Any]]], default_uid: str, default_language: str
) -> dict[str, tuple[str, list[QualityPair]]]:
    """Return UID -> (language, pairs) from (where, record) items, in first-seen order.

    A record without `UID` belongs to `default_uid`; one without `language` is in
    `default_language`, or, when that is "", in the language its good sentence looks like
    (`guess_language`: Han characters make it Chinese).

    Raises:
        QualityInputError: naming `where` for a record the report cannot read.
    """
    groups: dict[str, tuple[str, list[QualityPair]]] = {}
    for where, record in records:
        if not isinstance(record, Mapping):
            raise QualityInputError(f"{where}: a record must be a JSON object")
        uid = str(record.get("UID") or default_uid)
        language = str(record.get("language") or default_language)
        if not language:
            good = record.get("sentence_good")
            language = guess_language(good) if isinstance(good, str) else "en"
        group = groups.setdefault(uid, (language, []))
        group[1].append(pair_from_record(record, group[0], where))
    return groups


def render_text(report: QualityReport) -> str:
    """Return the report as indented plain text."""
    out = [
        f"== {report.uid} ({report.language}, {report.pairs:,} pairs; "
        f"critical region from the {report.region_from})",
        "length, good minus bad:",
        f"  characters  {_render_difference(report.characters)}",
        f"  words       {_render_difference(report.words)}",
    ]
    tok = report.tokenizer
    if tok is not None:
        out.append(f"  tokens      {_render_difference(tok.tokens)}  [{tok.tokenizer}]")
    freq = report.frequency
    if freq is not None:
        out.append(f"frequency of the critical words ({freq.source}):")
        for side, zipf_mean, rate_mean, count in (
            ("good", freq.mean_zipf_good, freq.mean_per_million_good, freq.critical_words_good),
            ("bad", freq.mean_zipf_bad, freq.mean_per_million_bad, freq.critical_words_bad),
        ):
            summary = (
                f"{_render_mean(zipf_mean, rate_mean)} over {count:,} words"
                if count
                else "no critical words (the edit leaves nothing on this side)"
            )
            out.append(f"  {side + ':':5} {summary}")
        if freq.pairs_compared:
            out.append(
                f"  good's critical words more frequent in {_pct(freq.good_more_frequent_share)}, "
                f"bad's in {_pct(freq.bad_more_frequent_share)} of {freq.pairs_compared:,} pairs "
                "with critical words on both sides"
            )
        out.append(
            f"  a unigram model prefers good in {_pct(freq.unigram_prefers_good_share)} of pairs, "
            f"bad in {_pct(freq.unigram_prefers_bad_share)}"
        )
        if freq.unseen_words:
            out.append(f"  not in {freq.source} (Zipf 0): {', '.join(freq.unseen_words)}")
    rep = report.repetition
    out.append(f"repeated words: {rep.distinct_words:,} distinct lexical words")
    if rep.in_every_pair:
        out.append(f"  in every pair: {', '.join(rep.in_every_pair)}")
    if rep.most_reused:
        out.append(
            "  most reused: " + ", ".join(f"{u.word} {_pct(u.share)} ({u.pairs:,})" for u in rep.most_reused)
        )
    if rep.most_reused_items:
        out.append(
            "  most reused vocabulary items: "
            + ", ".join(f"{u.word} {_pct(u.share)} ({u.pairs:,})" for u in rep.most_reused_items)
        )
    out.append(
        f"  sentences that repeat a word: {rep.sentences_repeating_a_word:,} of {rep.sentences:,} "
        f"({_pct(rep.sentences_repeating_share)})"
    )
    out.extend(f"    {e.sentence}  ({e.word} x{e.count})" for e in rep.examples)
    dup = report.duplicates
    out.append(
        f"duplicates: {dup.repeated_good:,} repeated good sentences, {dup.repeated_bad:,} repeated bad, "
        f"{dup.repeated_pairs:,} repeated pairs, {dup.good_equals_bad:,} with good = bad"
    )
    if tok is not None:
        out.append(
            f"out of vocabulary [{tok.tokenizer}]: {_pct(tok.oov_type_rate)} of "
            f"{tok.word_types:,} word types, {_pct(tok.oov_token_rate)} of {tok.word_tokens:,} "
            f"word tokens (unknown token: {_pct(tok.unknown_type_rate)} of types, "
            f"{_pct(tok.unknown_token_rate)} of tokens)"
        )
        if tok.oov_examples:
            out.append(f"  e.g. {', '.join(tok.oov_examples)}")
    out.extend(f"note: {note}" for note in report.notes)
    return "\n".join(out)


def _render_difference(d: Difference) -> str:
    return (
        f"mean {d.mean:+.2f} (min {d.min:+d}, max {d.max:+d}); equal in {_pct(d.equal_share)}, "
        f"good longer in {_pct(d.good_longer_share)}, bad longer in {_pct(d.bad_longer_share)}"
    )


def _render_mean(zipf_value: float | None, per_million: float | None) -> str:
    if zipf_value is None or per_million is None:
        return "no critical words"
    return f"mean Zipf {zipf_value:.2f}, mean {per_million:,.1f} per million"


def _pct(share: float | None) -> str:
    return "n/a" if share is None else f"{100 * share:.1f}%"
