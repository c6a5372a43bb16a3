"""Word-order rules (R:WO): golden artificial sentences that ERRANT validates, strict flags
where the swap breaks a fixed order and not where the result may be good English, robustness,
and the validated share on the demo learner corpus."""

from __future__ import annotations

import re

from tests.triplets.rules.corpus_check import corrected_docs, tally
from tests.triplets.rules.golden import assert_made, assert_not_made, made, run_on_odd_input
from triplets.candidates import apply, render
from triplets.rules import candidates, word_order


def test_module_exports_its_type() -> None:
    assert set(word_order.RULES) == {"R:WO"}


def test_adjective_after_its_noun_is_strict() -> None:
    assert_made("We need clean air.", "R:WO", "We need air clean.", "wo_adjective_noun", True)


def test_swap_at_the_start_moves_the_capital() -> None:
    assert_made("Clean air is important.", "R:WO", "Air clean is important.", "wo_adjective_noun", True)


def test_article_after_the_adjective_is_strict() -> None:
    assert_made(
        "They live in a big house.", "R:WO", "They live in big a house.", "wo_determiner_adjective", True
    )


def test_swaps_that_would_break_a_an_are_not_made() -> None:
    # "an pace unprecedented", "great a opportunity": a second error besides the order.
    assert_not_made("It grows at an unprecedented pace.", "R:WO", "It grows at an pace unprecedented.")
    assert_not_made("It is a great opportunity.", "R:WO", "It is great a opportunity.")


def test_adverb_between_verb_and_object_is_strict() -> None:
    assert_made("I like it very much.", "R:WO", "I like very much it.", "wo_adverb_before_object", True)
    assert_made("I also like jazz.", "R:WO", "I like also jazz.", "wo_adverb_after_verb", True)


def test_inversion_in_an_embedded_question_is_strict() -> None:
    assert_made(
        "The doctor asked me what my problem was.",
        "R:WO",
        "The doctor asked me what was my problem.",
        "wo_embedded_question",
        True,
    )
    assert_made(
        "I know where the station is.", "R:WO", "I know where is the station.", "wo_embedded_question", True
    )


def test_adverb_moved_around_an_auxiliary_or_a_verb_without_object_is_not_strict() -> None:
    # "always is", "come often" can be good English.
    assert_made("The bus is always full.", "R:WO", "The bus always is full.", "wo_adverb_auxiliary", False)
    assert_made("They often come late.", "R:WO", "They come often late.", "wo_adverb_verb", False)


def test_no_swap_without_a_fixed_order() -> None:
    assert not made("It rains.", "R:WO")


def test_glued_tokens_are_never_moved() -> None:
    # "my brother's car" moved as a whole would render "my brother 's car".
    assert not [a for a in made("I like my brother's car very much.", "R:WO") if "very much my" in a]


def test_swaps_keep_the_words_and_their_spacing_on_the_demo_corpus() -> None:
    def words(text: str) -> list[str]:
        return sorted(re.findall(r"[\w']+", text.lower()))

    for doc in corrected_docs():
        for candidate in candidates(doc, "R:WO"):
            text = render(*apply(doc, candidate))
            assert words(text) == words(doc.text), text
            assert " 's" not in text and "  " not in text, text


def test_odd_input_never_raises() -> None:
    assert run_on_odd_input(["R:WO"]) > 0


def test_demo_corpus_candidates_validate() -> None:
    result = tally(["R:WO"])
    # Measured: all 188 strict and 21 non-strict candidates validate.
    assert result.made[("R:WO", True)] >= 150
    assert result.share("R:WO", True) >= 0.95
    assert result.share("R:WO", False) >= 0.9
