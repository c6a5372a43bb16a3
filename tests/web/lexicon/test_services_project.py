"""Project vocabularies: import (all or nothing), items checked against the schema, schema changes
refused while items hold values outside them, filtering, and export round trips."""

import pytest
from django.core.exceptions import ValidationError

from mpp_studio.lexicon.engine import schema_from_json, vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary, VocabularyItem
from mpp_studio.lexicon.selectors import (
    item_filter_clean,
    vocabulary_export,
    vocabulary_feature_columns,
    vocabulary_items_filter,
)
from mpp_studio.lexicon.services import (
    MAX_UPLOAD_BYTES,
    ImportRejected,
    SchemaChangeRefused,
    Upload,
    vocabulary_create,
    vocabulary_create_from_lexicon,
    vocabulary_feature_add,
    vocabulary_feature_delete,
    vocabulary_feature_update,
    vocabulary_import_upload,
    vocabulary_item_create,
    vocabulary_item_update,
    vocabulary_schema_yaml_replace,
    vocabulary_update,
)
from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA
from tests.web.lexicon.conftest import BAD_EN_CSV
from vocab.errors import VocabularyError
from vocab.io import read_vocabulary_text
from vocab.schema_file import schema_text_to_schema

pytestmark = pytest.mark.django_db


# -- Import ---------------------------------------------------------------------------------------


def test_vocabulary_import_upload_stores_what_the_engine_reads(vocabulary: Vocabulary) -> None:
    schema, _ = schema_text_to_schema(EN_NOUNS_SCHEMA)
    expected = read_vocabulary_text(EN_NOUNS_CSV, file_name="en_nouns.csv", schema=schema, language="en")
    assert (vocabulary.name, vocabulary.language) == ("en_nouns", "en")
    assert vocabulary.items.count() == 12
    assert vocabulary_to_engine(vocabulary).version == expected.version


def test_vocabulary_import_upload_keeps_chinese_text(zh_vocabulary: Vocabulary) -> None:
    assert zh_vocabulary.language == "zh"
    dog = zh_vocabulary.items.get(item_id="z3")
    assert (dog.form, dog.features) == ("狗", {"classifier": ["只", "条"]})
    assert schema_from_json(zh_vocabulary.schema).features["classifier"].description == "量词"


def test_vocabulary_import_upload_rejects_every_bad_row_and_stores_nothing(project: object) -> None:
    with pytest.raises(ImportRejected) as caught:
        vocabulary_import_upload(
            project=project,
            table=Upload("en.csv", BAD_EN_CSV.encode()),
            schema_file=Upload("en.schema.yaml", EN_NOUNS_SCHEMA.encode()),
        )
    assert caught.value.field == "file"
    assert [(e.file, e.line, e.column) for e in caught.value.errors] == [
        ("en.csv", 3, "number"),
        ("en.csv", 4, "form"),
        ("en.csv", 5, None),
    ]
    assert "'plurl' is not one of the declared values (sg, pl)" in caught.value.errors[0].message
    assert not Vocabulary.objects.exists() and not VocabularyItem.objects.exists()


def test_vocabulary_import_upload_reports_schema_problems_by_line(project: object) -> None:
    schema = "language: en\nfeatures:\n  number: {type: categoy}\n"
    with pytest.raises(ImportRejected) as caught:
        vocabulary_import_upload(
            project=project,
            table=Upload("en.csv", EN_NOUNS_CSV.encode()),
            schema_file=Upload("en.schema.yaml", schema.encode()),
        )
    assert caught.value.field == "schema_file"
    assert [(e.file, e.line) for e in caught.value.errors] == [("en.schema.yaml", 3)]
    assert not Vocabulary.objects.exists()


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\xff\xd8", [1, 3]),
        ("form,pos\ncat,NN\n".encode("utf-16"), [1, 2, 3]),
        ("form,pos\n书,N\n".encode("gbk"), [2]),
        (b"form,pos\nca\x00t,NN\n", [2]),
    ],
    ids=["binary", "utf-16", "gbk", "nul-byte"],
)
def test_vocabulary_import_upload_reports_undecodable_lines(
    project: object, data: bytes, lines: list[int]
) -> None:
    with pytest.raises(ImportRejected) as caught:
        vocabulary_import_upload(project=project, table=Upload("words.csv", data))
    assert sorted({e.line for e in caught.value.errors if e.code == "E_ENCODING"}) == lines
    assert not Vocabulary.objects.exists()


def test_vocabulary_import_upload_refuses_a_file_over_the_size_limit(project: object) -> None:
    data = b"form\n" + b"x\n" * (MAX_UPLOAD_BYTES // 2 + 1)
    with pytest.raises(ImportRejected) as caught:
        vocabulary_import_upload(project=project, table=Upload("big.csv", data))
    assert "the limit is 10 MiB" in caught.value.errors[0].message
    assert not Vocabulary.objects.exists()


def test_vocabulary_import_upload_refuses_a_taken_name(vocabulary: Vocabulary, project: object) -> None:
    with pytest.raises(ValidationError) as caught:
        vocabulary_import_upload(project=project, table=Upload("en_nouns.csv", EN_NOUNS_CSV.encode()))
    assert caught.value.message_dict == {
        "name": ["this project already has a vocabulary called 'en_nouns'; choose another name"]
    }
    assert Vocabulary.objects.count() == 1


def test_vocabulary_import_upload_names_from_argument_then_schema_then_stem(project: object) -> None:
    table = Upload("list.csv", b"form\ncat\n")
    named = Upload("s.schema.yaml", b"name: animals\nlanguage: en\n")
    assert vocabulary_import_upload(project=project, table=table, schema_file=named).name == "animals"
    assert vocabulary_import_upload(project=project, table=table).name == "list"
    chosen = vocabulary_import_upload(project=project, table=table, name=" pets ", language="en-GB")
    assert (chosen.name, chosen.language) == ("pets", "en-GB")


def test_vocabulary_import_upload_refuses_a_bad_language(project: object) -> None:
    with pytest.raises(ValidationError) as caught:
        vocabulary_import_upload(project=project, table=Upload("l.csv", b"form\ncat\n"), language="English!")
    assert list(caught.value.message_dict) == ["language"]


def test_vocabulary_import_upload_refuses_values_longer_than_their_column(project: object) -> None:
    with pytest.raises(ImportRejected) as caught:
        vocabulary_import_upload(project=project, table=Upload("l.csv", f"form\ncat\n{'x' * 201}\n".encode()))
    (error,) = caught.value.errors
    assert (error.line, error.column) == (None, "form")
    assert error.message.startswith("item 2 ('xxx")
    assert "the form is 201 characters long; the limit is 200" in error.message
    assert not Vocabulary.objects.exists()


# -- Vocabularies and items ------------------------------------------------------------------------


def test_vocabulary_create_and_update_check_their_fields(project: object) -> None:
    vocabulary = vocabulary_create(project=project, name="verbs", language="en")
    assert vocabulary.schema == {"multi_separator": "|", "features": {}}
    with pytest.raises(ValidationError) as caught:
        vocabulary_create(project=project, name="verbs")
    assert "already has a vocabulary called 'verbs'" in caught.value.message_dict["name"][0]
    with pytest.raises(ValidationError) as caught:
        vocabulary_update(vocabulary=vocabulary, name="a/b")
    assert list(caught.value.message_dict) == ["name"]
    vocabulary_update(vocabulary=vocabulary, name="动词", language="zh", description="常用动词")
    vocabulary.refresh_from_db()
    assert (vocabulary.name, vocabulary.language, vocabulary.description) == ("动词", "zh", "常用动词")


def test_vocabulary_item_create_normalises_values_and_makes_ids(vocabulary: Vocabulary) -> None:
    vocabulary_feature_add(vocabulary=vocabulary, name="animate", type="bool")
    item = vocabulary_item_create(
        vocabulary=vocabulary, form="mouse", pos="NN", features={"number": "sg", "animate": "yes"}
    )
    assert (item.item_id, item.lemma, item.features) == (
        "mouse",
        "mouse",
        {"number": ["sg"], "animate": ["1"]},
    )
    again = vocabulary_item_create(vocabulary=vocabulary, form="mouse")
    third = vocabulary_item_create(vocabulary=vocabulary, form="mouse", features={"number": ""})
    assert (again.item_id, third.item_id, third.features) == ("mouse#2", "mouse#3", {})


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        (
            {"form": "cat", "features": {"number": "plurl"}},
            {"features.number": "'plurl' is not one of the declared values (sg, pl)"},
        ),
        (
            {"form": "cat", "features": {"number": "sg|pl"}},
            {"features.number": "'sg|pl' is several values but this feature takes one"},
        ),
        (
            {"form": "cat", "features": {"gender": "f"}},
            {"features.gender": "this vocabulary has no feature called 'gender'"},
        ),
        ({"form": "  "}, {"form": "the form is required"}),
        ({"form": "a\nb"}, {"form": "the form holds a line break"}),
        ({"form": "cat", "item_id": "n1"}, {"item_id": "the id 'n1' is already used by the item 'cat'"}),
        ({"form": "x" * 201}, {"form": "the form is 201 characters long; the limit is 200"}),
    ],
    ids=[
        "undeclared-value",
        "several-values",
        "unknown-feature",
        "blank-form",
        "line-break",
        "taken-id",
        "too-long",
    ],
)
def test_vocabulary_item_create_names_the_field_of_each_problem(
    vocabulary: Vocabulary, fields: dict[str, object], errors: dict[str, str]
) -> None:
    with pytest.raises(ValidationError) as caught:
        vocabulary_item_create(vocabulary=vocabulary, **fields)  # type: ignore[arg-type]
    assert list(caught.value.message_dict) == list(errors)
    for field, start in errors.items():
        assert caught.value.message_dict[field][0].startswith(start)
    assert vocabulary.items.count() == 12


def test_vocabulary_item_create_takes_several_values_of_a_multi_feature(zh_vocabulary: Vocabulary) -> None:
    from_text = vocabulary_item_create(
        vocabulary=zh_vocabulary, form="猫咪", features={"classifier": "只 | 条"}
    )
    from_list = vocabulary_item_create(
        vocabulary=zh_vocabulary, form="蛇", features={"classifier": ["条", " 条", "只"]}
    )
    assert from_text.features == {"classifier": ["只", "条"]}
    assert from_list.features == {"classifier": ["条", "只"]}
    with pytest.raises(ValidationError) as caught:
        vocabulary_item_create(vocabulary=zh_vocabulary, form="马", features={"classifier": ["只", "匹"]})
    assert caught.value.message_dict["features.classifier"] == [
        "'匹' is not one of the declared values (本, 只, 条, 张)"
    ]


def test_vocabulary_item_update_changes_only_the_features_named(vocabulary: Vocabulary) -> None:
    item = vocabulary.items.get(item_id="n1")
    vocabulary_item_update(item=item, form="kitten", features={}, replace_features=False)
    item.refresh_from_db()
    assert (item.form, item.features) == ("kitten", {"number": ["sg"]})
    vocabulary_item_update(item=item, features={"number": None}, replace_features=False)
    item.refresh_from_db()
    assert item.features == {}
    with pytest.raises(ValidationError) as caught:
        vocabulary_item_update(item=item, item_id="n2")
    assert list(caught.value.message_dict) == ["item_id"]


# -- Schema ----------------------------------------------------------------------------------------


def test_feature_update_is_refused_while_items_hold_values_outside_it(vocabulary: Vocabulary) -> None:
    with pytest.raises(SchemaChangeRefused) as caught:
        vocabulary_feature_update(
            vocabulary=vocabulary,
            feature="number",
            name="number",
            type="category",
            values=["sg"],
            multi=False,
            description="",
        )
    assert [p.item_id for p in caught.value.problems] == ["n2", "n4", "n6", "n8"]
    assert {p.feature for p in caught.value.problems} == {"number"}
    assert caught.value.problems[0].message == "'pl' is not one of the declared values (sg)"
    assert list(caught.value.message_dict) == ["schema.features.number"]
    vocabulary.refresh_from_db()
    assert schema_from_json(vocabulary.schema).features["number"].values == ("sg", "pl")


def test_feature_update_renames_and_retypes_moving_the_values(vocabulary: Vocabulary) -> None:
    vocabulary_feature_update(
        vocabulary=vocabulary,
        feature="number",
        name="num",
        type="category",
        values=["sg", "pl", "du"],
        multi=True,
        description="grammatical number",
    )
    vocabulary.refresh_from_db()
    spec = schema_from_json(vocabulary.schema).features["num"]
    assert (spec.values, spec.multi, spec.description) == (("sg", "pl", "du"), True, "grammatical number")
    assert vocabulary.items.get(item_id="n2").features == {"num": ["pl"]}


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "form"}, "name"),
        ({"name": "number"}, "name"),
        ({"name": "person", "type": "int", "values": ["1", "2"]}, "values"),
        ({"name": "person", "type": "integer"}, "type"),
    ],
)
def test_feature_add_names_the_field_of_a_problem(
    vocabulary: Vocabulary, fields: dict[str, object], field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        vocabulary_feature_add(vocabulary=vocabulary, **fields)  # type: ignore[arg-type]
    assert list(caught.value.message_dict) == [field]


def test_feature_delete_removes_its_values_from_the_items(vocabulary: Vocabulary) -> None:
    assert vocabulary_feature_delete(vocabulary=vocabulary, feature="number") == 8
    vocabulary.refresh_from_db()
    assert schema_from_json(vocabulary.schema).features == {}
    assert all(features == {} for features in vocabulary.items.values_list("features", flat=True))


def test_schema_yaml_replace_reports_problems_by_line(vocabulary: Vocabulary) -> None:
    with pytest.raises(VocabularyError) as caught:
        vocabulary_schema_yaml_replace(vocabulary=vocabulary, text="features:\n  number: {type: category\n")
    assert caught.value.errors[0].line is not None
    with pytest.raises(VocabularyError) as caught:
        vocabulary_schema_yaml_replace(
            vocabulary=vocabulary, text="features:\n  number: {type: category}\n  animate: {type: boolean}\n"
        )
    assert [(e.line, e.message.split(":")[0]) for e in caught.value.errors] == [(3, "feature 'animate'")]


def test_schema_yaml_replace_refuses_to_drop_a_feature_in_use(vocabulary: Vocabulary) -> None:
    with pytest.raises(SchemaChangeRefused) as caught:
        vocabulary_schema_yaml_replace(vocabulary=vocabulary, text="language: en\nfeatures: {}\n")
    assert len(caught.value.problems) == 8
    vocabulary_schema_yaml_replace(
        vocabulary=vocabulary, text="language: en-US\nfeatures:\n  number: {type: text}\n  animate: bool\n"
    )
    vocabulary.refresh_from_db()
    assert vocabulary.language == "en-US"
    assert list(schema_from_json(vocabulary.schema).features) == ["number", "animate"]


# -- Filtering and export --------------------------------------------------------------------------


def _filtered(vocabulary: Vocabulary, **query: object) -> list[str]:
    item_filter = item_filter_clean(schema=schema_from_json(vocabulary.schema), **query)  # type: ignore[arg-type]
    return [item.item_id for item in vocabulary_items_filter(vocabulary=vocabulary, item_filter=item_filter)]


def test_vocabulary_items_filter_by_feature_search_and_pos(
    vocabulary: Vocabulary, zh_vocabulary: Vocabulary
) -> None:
    assert _filtered(vocabulary, features={"number": "pl"}) == ["n2", "n4", "n6", "n8"]
    assert _filtered(vocabulary, features={"number": "pl"}, search="dog") == ["n4"]
    assert _filtered(vocabulary, pos="VB", search="u") == ["v2", "v3"]
    assert _filtered(zh_vocabulary, features={"classifier": "条"}) == ["z3", "z4", "z9", "c3"]
    with pytest.raises(ValidationError) as caught:
        _filtered(vocabulary, features={"number": "dual", "gender": "f"})
    assert list(caught.value.message_dict) == ["number", "gender"]


def test_vocabulary_feature_columns_offer_declared_or_observed_values(project: object) -> None:
    inferred = vocabulary_import_upload(
        project=project, table=Upload("a.csv", b"form,number,freq\ncat,sg,1\ndogs,pl,2\n")
    )
    vocabulary_feature_add(vocabulary=inferred, name="animate", type="bool")
    vocabulary_feature_add(vocabulary=inferred, name="gender", type="category")
    vocabulary_item_create(vocabulary=inferred, form="girl", features={"gender": "f"})
    columns = {column.name: column.choices for column in vocabulary_feature_columns(vocabulary=inferred)}
    assert columns == {
        "number": [("pl", "pl"), ("sg", "sg")],
        "freq": [("1", "1"), ("2", "2")],
        "animate": [("1", "yes"), ("0", "no")],
        "gender": [("f", "f")],
    }


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_export_then_import_gives_the_same_engine_version(
    project: object, vocabulary: Vocabulary, zh_vocabulary: Vocabulary, fmt: str
) -> None:
    vocabulary_item_create(vocabulary=vocabulary, form="ox, the", lemma="ox", features={"number": "sg"})
    for original in (vocabulary, zh_vocabulary):
        table = vocabulary_export(vocabulary=original, fmt=fmt)
        schema = vocabulary_export(vocabulary=original, fmt="schema")
        assert table.file_name == f"{original.name}.{fmt}"
        copy = vocabulary_import_upload(
            project=project,
            table=Upload(table.file_name, table.text.encode()),
            schema_file=Upload(schema.file_name, schema.text.encode()),
            name=f"{original.name} copy",
        )
        assert copy.language == original.language
        assert vocabulary_to_engine(copy).version == vocabulary_to_engine(original).version
    assert "狗" in vocabulary_export(vocabulary=zh_vocabulary, fmt=fmt).text


def test_vocabulary_create_from_lexicon_refuses_values_the_database_cannot_store(project: object) -> None:
    lexicon = read_vocabulary_text("form,note\ncat,a\x00b\n", file_name="n.csv", schema=None)
    with pytest.raises(ValidationError) as caught:
        vocabulary_create_from_lexicon(project=project, lexicon=lexicon, name="notes")  # type: ignore[arg-type]
    assert caught.value.message_dict == {
        "items": ["column 'note', item 1 ('cat'): a value of 'note' holds a NUL byte"]
    }
    assert not Vocabulary.objects.exists()
