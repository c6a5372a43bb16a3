"""vocabulary_import: stores what the engine accepts, once per content, and nothing it rejects."""

import pytest

from mpp_studio.lexicon.models import LibraryVocabulary
from mpp_studio.lexicon.services import vocabulary_import
from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA
from vocab.errors import VocabularyError

pytestmark = pytest.mark.django_db


def test_vocabulary_import_stores_name_and_language_from_the_engine() -> None:
    row, created = vocabulary_import(
        file_name="vocabularies/en_nouns.csv", items_text=EN_NOUNS_CSV, schema_text=EN_NOUNS_SCHEMA
    )
    assert created
    assert (row.name, row.language, row.items_text, row.schema_text) == (
        "en_nouns",
        "en",
        EN_NOUNS_CSV,
        EN_NOUNS_SCHEMA,
    )


def test_vocabulary_import_is_idempotent() -> None:
    first, _ = vocabulary_import(file_name="v/en.csv", items_text=EN_NOUNS_CSV)
    again, created = vocabulary_import(file_name="v/en.csv", items_text=EN_NOUNS_CSV)
    assert (again, created) == (first, False)
    assert LibraryVocabulary.objects.count() == 1


def test_vocabulary_import_stores_nothing_of_a_rejected_vocabulary() -> None:
    with pytest.raises(VocabularyError) as caught:
        vocabulary_import(
            file_name="v/en.csv",
            items_text="id,form,number\n1,cat,dual\n2,,sg\n",
            schema_text=EN_NOUNS_SCHEMA,
        )
    assert [(e.line, e.column) for e in caught.value.errors] == [(2, "number"), (3, "form")]
    assert not LibraryVocabulary.objects.exists()
