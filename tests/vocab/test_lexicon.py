"""The vocabulary model: subsets that leave items out by a feature value."""

from __future__ import annotations

from vocab.lexicon import Vocabulary, make_item


def test_excluding_drops_items_with_the_value_and_keeps_those_without_the_feature() -> None:
    vocabulary = Vocabulary(
        [
            make_item(id="have", form="have", pos="VB", features={"balanced": "0"}),
            make_item(id="hop", form="hop", pos="VB", features={"balanced": "1"}),
            make_item(id="the", form="the", pos="DT"),
        ],
        name="v",
        language="en",
    )
    kept = vocabulary.excluding("balanced", ["0"])
    assert [item.id for item in kept.items] == ["hop", "the"]
    assert (kept.name, kept.language, kept.schema) == ("v", "en", vocabulary.schema)
    assert kept.version != vocabulary.version
    assert [item.id for item in vocabulary.excluding("balanced", [])] == ["have", "hop", "the"]
