"""Quality report: length, critical words, frequency asymmetry, repetition, duplicates, tokenizers."""

from __future__ import annotations

import math
from pathlib import Path

import orjson
import pytest

from generator.quality import (
    QualityInputError,
    QualityPair,
    RepeatedWord,
    difference,
    duplicates,
    frequency_asymmetry,
    group_records,
    pair_from_record,
    pair_from_sentences,
    quality_report,
    repetition,
    tokenizer_quality,
    zipf,
)
from generator.word_diff import sentence_words
from tests.generator.builders import agreement_template, generator_for
from tests.vocab.tiny_tokenizers import build_byte_level_bpe, build_wordpiece
from vocab.coverage import Tokenizer, load_tokenizer
from vocab.lexicon import Vocabulary

AGREEMENT = agreement_template("quality_agreement")

# Two plain pairs whose OOV words differ by tokenizer: "zebra" has letters the tiny tokenizers
# never saw, "sleeps" is split by both; every other word is one known token.
OOV_PAIRS = [
    ("the dog sees the zebra .", "the dog see the zebra ."),
    ("the cats sleep .", "the cats sleeps ."),
]


@pytest.fixture(scope="module")
def wordpiece(tmp_path_factory: pytest.TempPathFactory) -> Tokenizer:
    return load_tokenizer(build_wordpiece(tmp_path_factory.mktemp("wp")))


@pytest.fixture(scope="module")
def bpe(tmp_path_factory: pytest.TempPathFactory) -> Tokenizer:
    return load_tokenizer(build_byte_level_bpe(tmp_path_factory.mktemp("bpe")))


def plain(pairs: list[tuple[str, str]], language: str = "en") -> list[QualityPair]:
    return [pair_from_sentences(good, bad, language) for good, bad in pairs]


def test_sentence_words_split_punctuation_and_keep_contractions() -> None:
    """English words and punctuation marks are separate words; "don't" stays one word."""
    assert sentence_words("Who don't you see?", "en") == ("Who", "don't", "you", "see", "?")


def test_diff_finds_substitution_insertion_and_move() -> None:
    """A word diff marks the replaced, inserted and moved words of each side."""
    sub = pair_from_sentences("The dog runs.", "The dog run.", "en")
    assert sub.critical_words("good") == ["runs"] and sub.critical_words("bad") == ["run"]
    ins = pair_from_sentences("Will the cat swim?", "Will the cat will swim?", "en")
    assert ins.critical_words("good") == [] and ins.critical_words("bad") == ["will"]
    moved = pair_from_sentences("What did you see?", "What you did see?", "en")
    assert sorted(moved.critical_words("good")) == sorted(moved.critical_words("bad"))
    assert len(moved.critical_words("good")) == 1 and moved.region_from == "diff"


def test_diff_uses_jieba_words_for_chinese() -> None:
    """Chinese sentences are split into jieba words before the diff."""
    pair = pair_from_sentences("他买了一本杂志。", "他买了一张杂志。", "zh")
    assert pair.words_good == ("他", "买", "了", "一本", "杂志", "。")
    assert pair.critical_words("good") == ["一本"] and pair.critical_words("bad") == ["一张"]


def test_record_critical_words_come_from_the_template(en_vocab: Vocabulary) -> None:
    """Engine records give the verb as the critical word, as the diff of the sentences does."""
    generator = generator_for(AGREEMENT, en_vocab)
    records = [generator.record(p, 3) for p in generator.pairs(20, 3)]
    for number, record in enumerate(records):
        pair = pair_from_record(record, "en", f"pair {number}")
        assert pair.region_from == "template"
        assert pair.critical_words("good") == [record["words_good"][2]]
        assert pair.critical_words("bad") == [record["words_bad"][2]]
        diffed = pair_from_sentences(record["sentence_good"], record["sentence_bad"], "en")
        assert diffed.critical_words("good") == pair.critical_words("good")


def test_record_with_out_of_range_span_names_where() -> None:
    """A critical-region span outside the sentence's words is an error naming the line."""
    record = {
        "sentence_good": "The dog runs.",
        "sentence_bad": "The dog run.",
        "words_good": ["The", "dog", "runs", "."],
        "words_bad": ["The", "dog", "run", "."],
        "critical_region": [{"type": "substitution", "good": {"tokens": [2, 9]}, "bad": {"tokens": [2, 3]}}],
    }
    with pytest.raises(QualityInputError, match=r"x\.jsonl, line 4: critical_region part 1 .*good"):
        pair_from_record(record, "en", "x.jsonl, line 4")
    with pytest.raises(QualityInputError, match="sentence_bad"):
        pair_from_record({"sentence_good": "A."}, "en", "x.jsonl, line 5")


def test_blimp_lines_without_words_are_diffed_and_grouped_by_uid() -> None:
    """BLiMP-style records (sentences and UID only) get diff-based critical words, per UID."""
    records = [
        ("l1", {"sentence_good": "Dogs run.", "sentence_bad": "Dogs runs.", "UID": "a"}),
        ("l2", {"sentence_good": "Cats run.", "sentence_bad": "Cats runs.", "UID": "b"}),
        ("l3", {"sentence_good": "Cows run.", "sentence_bad": "Cows runs.", "UID": "a"}),
    ]
    groups = group_records(records, "file", "en")
    assert list(groups) == ["a", "b"]
    language, pairs = groups["a"]
    assert language == "en" and len(pairs) == 2 and pairs[0].critical_words("bad") == ["runs"]


def test_difference_summary() -> None:
    """Mean, extremes and the shares of equal, longer-good and longer-bad pairs."""
    d = difference([0, -2, 1, 0])
    assert (d.mean, d.min, d.max) == (-0.25, -2, 1)
    assert (d.equal_share, d.good_longer_share, d.bad_longer_share) == (0.5, 0.25, 0.25)


def test_frequency_asymmetry_and_unigram_preference() -> None:
    """Means per side, the more-frequent share over pairs with both sides, and the unigram choice."""
    pairs = plain([("the dog runs .", "the dog run ."), ("the cat sleeps .", "the cat sleeps sleeps .")])
    freq = frequency_asymmetry(pairs, {"runs": 10.0, "run": 100.0, "sleeps": 1.0}, "test")
    assert freq.critical_words_good == 1 and freq.critical_words_bad == 2
    assert freq.mean_zipf_good == pytest.approx(4.0)  # 10 per million = 10,000 per billion
    assert freq.mean_zipf_bad == pytest.approx((5.0 + 3.0) / 2)
    assert freq.mean_per_million_bad == pytest.approx(50.5)
    # Only the first pair has critical words on both sides; there bad's "run" is more frequent.
    assert freq.pairs_compared == 1
    assert (freq.good_more_frequent_share, freq.bad_more_frequent_share) == (0.0, 1.0)
    # Pair 1: log p(runs) < log p(run): bad. Pair 2: the inserted word makes bad less likely.
    assert (freq.unigram_prefers_good_share, freq.unigram_prefers_bad_share) == (0.5, 0.5)


def test_frequency_unseen_words_and_ties() -> None:
    """Words the source lacks have Zipf 0 and are listed; a pure move is a unigram tie."""
    pairs = plain([("what did you see ?", "what you did see ?"), ("a dog runs .", "a dog runz .")])
    freq = frequency_asymmetry(pairs, {"did": 500.0, "you": 5000.0, "runs": 10.0}, "test")
    assert freq.unseen_words == ("runz",)
    assert freq.unigram_prefers_good_share == 0.5 and freq.unigram_prefers_bad_share == 0.0
    assert zipf(0.0) == 0.0 and zipf(1.0) == pytest.approx(3.0)


def test_repetition_lists_fixed_and_most_reused_words() -> None:
    """Words in every pair are set apart; the others are ranked by the pairs they fill."""
    pairs = plain([("the dog sees the cat .", "the dog see the cat ."), ("a dog runs .", "a dog run .")])
    rep = repetition(pairs, top=3)
    assert rep.in_every_pair == ("dog",)
    assert [(u.word, u.pairs, u.share) for u in rep.most_reused] == [
        ("a", 1, 0.5),
        ("cat", 1, 0.5),
        ("run", 1, 0.5),
    ]
    assert rep.distinct_words == 8  # the dog sees see cat a runs run
    assert (rep.sentences, rep.sentences_repeating_a_word, rep.sentences_repeating_share) == (4, 2, 0.5)
    assert rep.examples[0] == RepeatedWord("the dog sees the cat .", "the", 2)


def test_duplicates_count_extra_copies() -> None:
    """Repeated good sentences, bad sentences, pairs, and pairs whose sentences are equal."""
    pairs = plain([("a b .", "b a ."), ("a b .", "a a ."), ("c .", "c .")])
    dup = duplicates(pairs)
    assert (dup.repeated_good, dup.repeated_bad, dup.repeated_pairs, dup.good_equals_bad) == (1, 0, 0, 1)


def test_tokenizer_quality_wordpiece_unknown_and_split(wordpiece: Tokenizer) -> None:
    """WordPiece maps 'zebra' to [UNK] and splits 'sleeps': both are OOV, only one is unknown."""
    quality = tokenizer_quality(plain(OOV_PAIRS), wordpiece, "wp", "en")
    assert (quality.word_types, quality.word_tokens) == (8, 16)
    assert (quality.oov_types, quality.oov_tokens) == (2, 3)
    assert (quality.unknown_types, quality.unknown_tokens) == (1, 2)
    assert quality.oov_type_rate == 2 / 8 and quality.oov_token_rate == 3 / 16
    assert quality.unknown_token_rate == 2 / 16
    assert quality.oov_examples == ("zebra", "sleeps")
    # "sees"/"see" are one token each; "sleeps" is two tokens against "sleep"'s one.
    assert (quality.tokens.mean, quality.tokens.min, quality.tokens.max) == (-0.5, -1, 0)


def test_tokenizer_quality_byte_level_bpe_has_no_unknown_token(bpe: Tokenizer) -> None:
    """A byte-level BPE never produces an unknown token: its OOV words are split ones."""
    quality = tokenizer_quality(plain(OOV_PAIRS), bpe, "bpe", "en")
    assert quality.unknown_types == 0
    assert set(quality.oov_examples) == {"zebra", "sleeps"}


def test_quality_report_with_wordfreq_and_tokenizer_is_json_able(wordpiece: Tokenizer) -> None:
    """The full report uses wordfreq by default and turns into JSON and text."""
    report = quality_report(
        plain(OOV_PAIRS), uid="oov", language="en", tokenizer=wordpiece, tokenizer_name="wp"
    )
    assert report.frequency is not None and report.frequency.source == "wordfreq"
    # wordfreq: "see" is more frequent than "sees", "sleep" than "sleeps": good loses once, wins once.
    assert report.frequency.good_more_frequent_share == 0.5
    data = orjson.loads(orjson.dumps(report.to_dict()))
    assert data["tokenizer"]["oov_types"] == 2 and data["characters"]["mean"] == 0.0
    text = report.render_text()
    assert "== oov (en, 2 pairs; critical region from the diff)" in text
    assert "out of vocabulary [wp]: 25.0% of 8 word types, 18.8% of 16 word tokens" in text


def test_quality_report_chinese_frequencies_from_wordfreq() -> None:
    """Chinese critical words are looked up in wordfreq's zh data: 三个 is more frequent than 三张."""
    pairs = plain([("我有三个朋友。", "我有三张朋友。")], "zh")
    report = quality_report(pairs, uid="zh", language="zh")
    assert report.frequency is not None and report.frequency.mean_zipf_good is not None
    assert report.frequency.mean_zipf_bad is not None
    assert report.frequency.mean_zipf_good > report.frequency.mean_zipf_bad
    assert math.isclose(report.frequency.unigram_prefers_good_share, 1.0)


def test_quality_report_language_without_frequencies_notes_it() -> None:
    """A language wordfreq lacks leaves the frequency part out and says why."""
    report = quality_report(plain([("a b .", "b a .")], "xx"), uid="xx", language="xx")
    assert report.frequency is None
    assert any("wordfreq has no frequencies for language 'xx'" in note for note in report.notes)


def test_quality_report_needs_pairs() -> None:
    with pytest.raises(QualityInputError, match="empty: no pairs"):
        quality_report([], uid="empty", language="en")


def test_tiny_tokenizer_folder_is_reused(tmp_path: Path) -> None:
    """The report loads a saved tokenizer folder like any other (no model hub)."""
    tokenizer = load_tokenizer(build_wordpiece(tmp_path / "wp"))
    assert tokenizer_quality(plain(OOV_PAIRS), tokenizer, str(tmp_path), "en").unknown_types == 1


def test_most_reused_items_come_from_the_provenance_fillers() -> None:
    """Engine records rank the vocabulary items that filled them; an item counts once per pair."""

    def record(good: str, bad: str, fillers: dict[str, dict[str, str]]) -> dict[str, object]:
        words_good, words_bad = good.split(), bad.split()
        return {
            "sentence_good": good,
            "sentence_bad": bad,
            "words_good": words_good,
            "words_bad": words_bad,
            "critical_region": [{"good": {"tokens": [2, 3]}, "bad": {"tokens": [2, 3]}}],
            "provenance": {"fillers": fillers},
        }

    pairs = [
        pair_from_record(
            record(
                "the dog runs .",
                "the dog run .",
                {"good": {"n": "n_dog", "v": "v_run"}, "bad": {"v": "v_run"}},
            ),
            "en",
            "1",
        ),
        pair_from_record(
            record("the dog sees .", "the dog see .", {"good": {"n": "n_dog", "v": "v_see"}}), "en", "2"
        ),
    ]
    assert pairs[0].fillers == ("n_dog", "v_run")
    rep = repetition(pairs)
    assert [(u.word, u.pairs, u.share) for u in rep.most_reused_items] == [
        ("n_dog", 2, 1.0),
        ("v_run", 1, 0.5),
        ("v_see", 1, 0.5),
    ]
    assert repetition(plain([("a b .", "b a .")])).most_reused_items == ()


def test_tokenizer_quality_reads_chinese_words_bare(bpe: Tokenizer) -> None:
    """Chinese words are tokenized without a leading space; unseen characters become byte pieces."""
    quality = tokenizer_quality(plain([("我有猫。", "我有狗。")], "zh"), bpe, "bpe", "zh")
    assert (quality.word_types, quality.word_tokens) == (4, 6)  # 我 有 猫 狗; 我 and 有 twice
    assert quality.oov_types == 4 and quality.unknown_types == 0
    assert quality.tokens.mean == 0.0  # 猫 and 狗 are three UTF-8 bytes each
