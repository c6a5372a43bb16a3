"""Word spans from the generator's words, fallbacks, and per-word sums."""

from __future__ import annotations

from scoring.words import fallback_word_spans, spans_of_words, word_sums


def test_generator_words_are_found_in_the_rendered_sentence() -> None:
    text = "The cats sleep on the mat."
    spans = spans_of_words(text, ["the", "cats", "sleep", "on", "the", "mat", "."])
    assert spans is not None
    assert [text[a:b] for a, b in spans] == ["The", "cats", "sleep", "on", "the", "mat", "."]


def test_chinese_words_without_spaces() -> None:
    text = "老师把作业发给了学生。"
    spans = spans_of_words(text, ["老师", "把", "作业", "发给", "了", "学生", "。"])
    assert spans is not None
    assert [text[a:b] for a, b in spans] == ["老师", "把", "作业", "发给", "了", "学生", "。"]


def test_a_word_not_in_the_sentence_gives_none() -> None:
    assert spans_of_words("The cat sleeps.", ["the", "dog"]) is None


def test_fallback_spans_whitespace_and_jieba() -> None:
    text = "A dog  barks."
    assert [text[a:b] for a, b in fallback_word_spans(text, "en")] == ["A", "dog", "barks."]
    chinese = "我喜欢吃苹果。"
    words = [chinese[a:b] for a, b in fallback_word_spans(chinese, "zh")]
    assert "".join(words) == chinese
    assert "喜欢" in words and "苹果" in words


def test_word_sums_assign_each_token_to_its_first_characters_word() -> None:
    text = "The cat"
    # byte-level BPE style: the second token's span starts at the space
    token_spans = [(0, 0), (0, 3), (3, 5), (5, 7)]
    logprobs = [-9.0, -1.0, -2.0, -0.5]
    assert word_sums(token_spans, logprobs, [(0, 3), (4, 7)], len(text)) == [-1.0, -2.5]
