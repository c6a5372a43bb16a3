"""The bridge from a dataset paradigm's recorded versions to the engine."""

from collections.abc import Callable

import pytest

from generator.errors import TemplateError
from generator.generate import Generator
from generator.template import template_from_text
from mpp_studio.datasets.engine import paradigm_generator, phrase_texts_used, snapshot_items, snapshot_lexicon
from mpp_studio.datasets.models import Dataset
from mpp_studio.lexicon.models import VocabularySnapshot
from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA
from tests.web.datasets.conftest import EN_PHRASE_TEMPLATE, SG_NP_PHRASE, UNUSED_PHRASE
from vocab.io import read_vocabulary_text
from vocab.schema_file import schema_text_to_schema

pytestmark = pytest.mark.django_db


def engine_generator() -> Generator:
    """The generator `mpp generate` would build from the same files."""
    schema, language = schema_text_to_schema(EN_NOUNS_SCHEMA, file="en_nouns.schema.yaml")
    lexicon = read_vocabulary_text(
        EN_NOUNS_CSV, file_name="en_nouns.csv", schema=schema, name="en_nouns", language=language
    )
    template = template_from_text(
        EN_PHRASE_TEMPLATE, file="en_sv_agreement.yaml", phrase_texts={"SgNP": SG_NP_PHRASE}
    )
    return Generator(template, lexicon)


def test_paradigm_generator_matches_the_engine_on_the_same_files(
    make_dataset: Callable[..., Dataset],
) -> None:
    paradigm = make_dataset("en", n=5).paradigms.get()
    stored = paradigm_generator(paradigm)
    assert stored.vocabulary.version == paradigm.vocabulary_snapshot.content_hash
    assert stored.template.content_hash == paradigm.template_hash
    assert list(stored.jsonl_lines(8, 3)) == list(engine_generator().jsonl_lines(8, 3))


def test_phrase_texts_used_keeps_only_what_the_template_names() -> None:
    phrases = {"SgNP": SG_NP_PHRASE, "Unused": UNUSED_PHRASE}
    parsed = template_from_text(EN_PHRASE_TEMPLATE, file="t.yaml", phrase_texts=phrases)
    assert phrase_texts_used(parsed, phrases) == {"SgNP": SG_NP_PHRASE}


def test_snapshot_items_by_id(make_dataset: Callable[..., Dataset]) -> None:
    snapshot = make_dataset("zh", n=2).paradigms.get().vocabulary_snapshot
    items = snapshot_items(snapshot)
    assert items["z1"].form == "书" and items["z3"].features == {"classifier": ("只", "条")}


def test_a_snapshot_that_reads_as_another_version_is_refused(make_dataset: Callable[..., Dataset]) -> None:
    snapshot = make_dataset("en", n=2).paradigms.get().vocabulary_snapshot
    VocabularySnapshot.objects.filter(pk=snapshot.pk).update(content_hash="0" * 16)
    snapshot.refresh_from_db()
    with pytest.raises(TemplateError) as caught:
        snapshot_lexicon(snapshot)
    [problem] = caught.value.problems
    assert problem.code == "E_VOCABULARY" and "not the recorded 0000000000000000" in problem.message


def test_missing_phrase_text_is_reported_by_the_engine(make_dataset: Callable[..., Dataset]) -> None:
    paradigm = make_dataset("en", n=2).paradigms.get()
    paradigm.phrase_texts = {}
    with pytest.raises(TemplateError) as caught:
        paradigm_generator(paradigm)
    assert "SgNP" in str(caught.value)
