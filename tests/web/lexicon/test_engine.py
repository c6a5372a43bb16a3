"""Stored vocabulary text read by the vocabulary engine: name, language, row errors."""

import pytest

from mpp_studio.lexicon.engine import schema_file_name, vocabulary_lexicon, vocabulary_parse
from mpp_studio.lexicon.models import LibraryVocabulary
from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA, ZH_NOUNS_TSV
from vocab.errors import VocabularyError


def test_vocabulary_parse_takes_language_from_schema_and_name_from_stem() -> None:
    parsed = vocabulary_parse(
        file_name="vocabularies/en_nouns.csv", items_text=EN_NOUNS_CSV, schema_text=EN_NOUNS_SCHEMA
    )
    assert (parsed.name, parsed.language) == ("en_nouns", "en")
    assert len(parsed.lexicon) == 12
    assert parsed.lexicon.schema.spec("number").values == ("sg", "pl")


def test_vocabulary_parse_takes_name_from_schema() -> None:
    parsed = vocabulary_parse(
        file_name="en_nouns.csv", items_text=EN_NOUNS_CSV, schema_text="name: Nouns\n" + EN_NOUNS_SCHEMA
    )
    assert parsed.name == "Nouns" and parsed.lexicon.name == "Nouns"


def test_vocabulary_parse_infers_schema_without_one() -> None:
    parsed = vocabulary_parse(file_name="zh_nouns.tsv", items_text=ZH_NOUNS_TSV)
    assert (parsed.name, parsed.language) == ("zh_nouns", "")
    assert parsed.lexicon.get("z3").values("classifier") == ("只", "条")


@pytest.mark.parametrize(
    ("items_text", "schema_text", "expected"),
    [
        ("", "", [("en_nouns.csv", None, None, "E_EMPTY_FILE")]),
        ("id,form,number\n1,cat,dual\n", EN_NOUNS_SCHEMA, [("en_nouns.csv", 2, "number", "E_VALUE")]),
        ("id,form\n1,cat\n", "features: {number\n", [("en_nouns.schema.yaml", 2, None, "E_SCHEMA")]),
    ],
)
def test_vocabulary_parse_reports_every_problem_with_its_place(
    items_text: str, schema_text: str, expected: list[tuple[object, ...]]
) -> None:
    with pytest.raises(VocabularyError) as caught:
        vocabulary_parse(
            file_name="vocabularies/en_nouns.csv", items_text=items_text, schema_text=schema_text
        )
    assert [(e.file, e.line, e.column, e.code) for e in caught.value.errors] == expected


def test_schema_file_name_is_the_sidecar_of_the_table() -> None:
    assert schema_file_name("vocabularies/en_child.csv") == "en_child.schema.yaml"


def test_vocabulary_lexicon_reads_the_stored_row() -> None:
    row = LibraryVocabulary(
        name="Nouns", file_name="vocabularies/zh_nouns.tsv", items_text=ZH_NOUNS_TSV, schema_text=""
    )
    lexicon = vocabulary_lexicon(row)
    assert lexicon.get("c1").form == "本"
