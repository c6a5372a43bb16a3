"""Chinese segmentation, set up in one place (vocab.segment): the words and spans every engine
uses, the same as jieba's."""

import logging

import jieba

from vocab.segment import chinese_word_spans, chinese_words, jieba_ready


def test_words_and_spans_agree_and_leave_out_blanks() -> None:
    text = "他 喜欢吃苹果。"
    words = chinese_words(text)
    spans = chinese_word_spans(text)
    assert words == [w for w in jieba.lcut(text) if w.strip()] and " " not in words
    assert [text[a:b] for a, b in spans] == words


def test_jieba_is_set_up_quiet_once() -> None:
    assert jieba_ready() is jieba_ready() is jieba
    assert jieba.default_logger.level == logging.WARNING
