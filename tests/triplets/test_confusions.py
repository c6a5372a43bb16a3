"""What a corpus' learners do: the one-word confusions read off its pairs, their contexts, and
the table's sums (a corpus learnt in parts gives the table learnt whole)."""

from __future__ import annotations

import json

from triplets.confusions import (
    Confusion,
    ConfusionTable,
    context_lemma,
    learn,
    observations,
)
from triplets.corpus import LearnerPair, M2Edit


def _pair(learner: str, corrected: str | None, pair_id: str = "p") -> LearnerPair:
    return LearnerPair(pair_id, "t.tsv", 2, learner, corrected)


def _words(text: str) -> list[str]:
    return text.lower().split()


def test_a_swapped_preposition_is_counted_with_its_head_and_its_object() -> None:
    found = observations(_words("she is interested on the music"), _words("she is interested in the music"))
    assert len(found) == 1
    observation = found[0]
    assert observation.confusion == Confusion("R", "in", "on")
    # The head as a lemma (LemmInflect reads "interested" as the verb's); the object past its
    # determiner.
    assert (observation.before, observation.after) == ("interest", "music")


def test_forms_of_one_lemma_are_counted_as_penn_tags() -> None:
    # "go" is both the base form and the present: both readings are counted.
    found = observations(_words("i want to going home"), _words("i want to go home"))
    assert {o.confusion for o in found} == {
        Confusion("F", "VERB:VB", "VERB:VBG"),
        Confusion("F", "VERB:VBP", "VERB:VBG"),
    }
    assert {o.before for o in found} == {"to"}
    (noun,) = observations(_words("i have many book"), _words("i have many books"))
    assert noun.confusion == Confusion("F", "NOUN:NNS", "NOUN:NN")
    assert noun.before == "many"


def test_a_word_left_out_and_a_word_added() -> None:
    (missing,) = observations(_words("i listen music"), _words("i listen to music"))
    assert missing.confusion == Confusion("M", "to", "")
    assert (missing.before, missing.after) == ("listen", "music")
    (added,) = observations(_words("we discussed about the plan"), _words("we discussed the plan"))
    assert added.confusion == Confusion("U", "", "about")
    assert (added.before, added.after) == ("discuss", "plan")


def test_open_class_words_and_longer_rewrites_teach_nothing() -> None:
    assert observations(_words("a big house"), _words("a large house")) == []
    assert observations(_words("he go to there"), _words("he went there")) == []  # two tokens for one
    # Two one-word differences: the verbs (two lemmas) teach nothing, the prepositions do.
    found = observations(_words("i made it by my own"), _words("i did it on my own"))
    assert [o.confusion for o in found] == [Confusion("R", "on", "by")]


def test_context_lemmas_join_inflected_heads() -> None:
    assert context_lemma("depends") == context_lemma("depending") == "depend"
    assert context_lemma("the") == "the"
    assert context_lemma(",") == ","


def test_learn_reads_m2_tokens_and_running_text_and_skips_pairs_without_a_change() -> None:
    pairs = [
        _pair("He is interested on music .", "He is interested in music .", "a"),
        LearnerPair(
            "b",
            "t.m2",
            1,
            "She depends of him .",
            "She depends on him .",
            edits=(M2Edit(2, 3, "R:PREP", "on", 0),),
        ),
        _pair("Same.", "Same.", "c"),
        _pair("No correction.", None, "d"),
    ]
    table = learn(pairs)
    assert table.pairs == 4
    assert table.count(Confusion("R", "in", "on")) == 1
    assert table.count(Confusion("R", "on", "of")) == 1
    assert table.in_context(Confusion("R", "on", "of"), "depend", None) == 1
    assert table.in_context(Confusion("R", "on", "of"), None, "him") == 1


def test_uninformative_neighbours_and_unasked_sides_do_not_count() -> None:
    table = learn([_pair("Well , on the end we won", "Well , in the end we won")])
    confusion = Confusion("R", "in", "on")
    assert table.in_context(confusion, ",", None) == 0  # a comma selects nothing
    assert table.in_context(confusion, None, "end") == 1
    assert table.in_context(confusion, ",", None) + table.in_context(confusion, None, None) == 0


def test_a_corpus_learnt_in_parts_gives_the_table_learnt_whole_and_survives_json() -> None:
    pairs = [
        _pair("I listen music every day.", "I listen to music every day.", "a"),
        _pair("She is interested on art.", "She is interested in art.", "b"),
        _pair("They has many book.", "They have many books.", "c"),
    ]
    whole = learn(pairs)
    merged = ConfusionTable()
    for part in (pairs[:1], pairs[1:]):
        merged.merge(learn(part))
    assert merged.to_dict() == whole.to_dict()
    again = ConfusionTable.from_dict(json.loads(json.dumps(whole.to_dict())))
    assert again.to_dict() == whole.to_dict()
    assert again.learner_choices("R", "in") == [("on", 1)]
