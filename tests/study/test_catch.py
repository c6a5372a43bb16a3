"""Scrambled catch sentences: never the original, word order for English, characters for Chinese."""

from __future__ import annotations

import itertools
import random

import pytest

from study.catch import hand_written_catch, is_cjk, scramble
from study.errors import StudyError

SENTENCES = (
    "The dog saw the cat in the garden.",
    "She has never been to the old city.",
    "Who did you say that the teacher met?",
    "the the the dog",
    "A b a b a b.",
    "我昨天在图书馆看了三本书。",
    "他 把 书 放 在 桌子 上",
    "これは日本語の文です。",
)


@pytest.mark.parametrize("method", ["reverse", "shuffle"])
@pytest.mark.parametrize("sentence", SENTENCES)
def test_a_scramble_is_never_the_original(sentence: str, method: str) -> None:
    for seed in range(40):
        bad = scramble(sentence, random.Random(seed), method, min_units=2)  # type: ignore[arg-type]
        assert bad is not None
        assert bad != sentence
        assert bad.casefold().split() != sentence.casefold().split()
        # the same words (characters), only in another order
        assert sorted("".join(bad.casefold().split())) == sorted("".join(sentence.casefold().split()))


def test_english_scramble_moves_words_and_keeps_final_punctuation_and_capital() -> None:
    bad = scramble("The dog saw the cat in the garden.", random.Random(1), "reverse")
    assert bad == "Garden the in cat the saw dog the."
    shuffled = scramble("The dog saw the cat in the garden.", random.Random(1), "shuffle")
    assert shuffled is not None and shuffled.endswith(".") and shuffled[0].isupper()
    assert "The" not in shuffled.split()[1:]  # the old first word is not left capitalised mid-sentence


def test_shuffle_breaks_every_neighbouring_pair_when_it_can() -> None:
    words = ["the", "young", "farmer", "quickly", "sold", "seven", "fat", "brown", "cows"]
    bad = scramble(" ".join(words), random.Random(3), "shuffle")
    assert bad is not None
    out = bad.lower().split()
    pairs = set(itertools.pairwise(words))
    assert not pairs & set(itertools.pairwise(out))


def test_chinese_is_scrambled_by_characters_without_spaces() -> None:
    sentence = "我昨天在图书馆看了三本书。"
    bad = scramble(sentence, random.Random(0), "shuffle")
    assert bad is not None and " " not in bad and bad.endswith("。")
    assert sorted(bad) == sorted(sentence) and bad != sentence
    assert scramble(sentence, random.Random(0), "reverse") == "书本三了看馆书图在天昨我。"


def test_a_scramble_depends_only_on_the_seed() -> None:
    sentence = "She has never been to the old city."
    assert scramble(sentence, random.Random(5)) == scramble(sentence, random.Random(5))
    assert len({scramble(sentence, random.Random(s)) for s in range(10)}) > 1


def test_sentences_that_cannot_be_scrambled_give_none() -> None:
    rng = random.Random(0)
    assert scramble("It rains.", rng) is None  # fewer than 4 words
    assert scramble("no no no no no", rng) is None  # every order is the same
    assert scramble("下雨。", rng) is None


def test_cjk_detection() -> None:
    assert is_cjk("我喜欢猫")
    assert is_cjk("他 把 书 放 在 桌子 上")
    assert is_cjk("我喜欢用iPad")  # half Chinese characters
    assert not is_cjk("The cat sat on the mat.")
    assert not is_cjk("1234 !!")
    assert not is_cjk("Tokyo 東京 is big")


def test_unknown_method_is_refused() -> None:
    with pytest.raises(StudyError, match="catch-trial method"):
        scramble("The dog saw the cat.", random.Random(0), "rotate")  # type: ignore[arg-type]


def test_hand_written_pairs_have_their_known_answer() -> None:
    trials = hand_written_catch([("The cat sleeps.", "Cat the sleeps the.")])
    assert trials[0].good == "The cat sleeps." and trials[0].bad == "Cat the sleeps the."
    assert trials[0].method == "hand-written" and trials[0].catch_id == "catch-hw-1"
    with pytest.raises(StudyError, match="Catch pair 1 has an empty sentence"):
        hand_written_catch([("", "x")])
    with pytest.raises(StudyError, match="Catch pair 1 must have two sentences"):
        hand_written_catch([("a", "b", "c")])
