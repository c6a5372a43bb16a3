"""A project ready for datasets: two vocabularies, a phrase, two valid templates and a broken one."""

from collections.abc import Callable

import pytest

from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA, ZH_CLASSIFIER_YAML, ZH_NOUNS_TSV

# The English template builds its subject from a project phrase, so datasets must record it.
# 4 singular nouns x 4 verbs: 16 different pairs.
EN_PHRASE_TEMPLATE = """\
uid: en_sv_agreement
version: "1"
phenomenon: subject_verb_agreement
language: en
description: The verb agrees in number with its subject.
vocabulary: en_nouns
good:
  - {id: subj, phrase: SgNP}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
  - {direct: "."}
bad:
  - {same: subj}
  - {same: verb, form: VBP}
  - {same: "3"}
"""
SG_NP_PHRASE = "- [{direct: the}, {id: head, lexical: {pos: NN, number: sg}}]\n"
UNUSED_PHRASE = "- [{direct: a}]\n"
# `number: dual` is not a value of the schema: the template is stored with a problem on line 9.
BROKEN_TEMPLATE = """\
uid: en_broken_number
phenomenon: subject_verb_agreement
language: en
vocabulary: en_nouns
good:
  - {direct: the}
  - {id: subj, lexical: {pos: NN, number: sg}}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
  - {id: x, lexical: {pos: NN, number: dual}}
bad:
  - {same: "1"}
  - {same: subj}
  - {same: verb, form: VBP}
  - {same: x}
"""
EN_CAPACITY = 16
ZH_CAPACITY = 11


def make_vocabulary(project: object, name: str, text: str, file_name: str, schema_text: str = "") -> object:
    from mpp_studio.lexicon.services import vocabulary_create_from_lexicon
    from vocab.io import read_vocabulary_text
    from vocab.schema_file import schema_text_to_schema

    schema, language = (None, "")
    if schema_text:
        schema, language = schema_text_to_schema(schema_text, file=f"{name}.schema.yaml")
    lexicon = read_vocabulary_text(text, file_name=file_name, schema=schema, name=name, language=language)
    return vocabulary_create_from_lexicon(project=project, lexicon=lexicon, name=name)  # type: ignore[arg-type]


def prepare_project(project: object) -> dict[str, object]:
    """Fill a project with the vocabularies, phrases and templates datasets are made from."""
    from mpp_studio.paradigms.models import Phrase
    from mpp_studio.paradigms.services import template_save

    make_vocabulary(project, "en_nouns", EN_NOUNS_CSV, "en_nouns.csv", EN_NOUNS_SCHEMA)
    make_vocabulary(project, "zh_nouns", ZH_NOUNS_TSV, "zh_nouns.tsv")
    Phrase.objects.create(project=project, name="SgNP", text=SG_NP_PHRASE)
    Phrase.objects.create(project=project, name="Unused", text=UNUSED_PHRASE)
    en = template_save(project=project, source_text=EN_PHRASE_TEMPLATE, user=None)  # type: ignore[arg-type]
    zh = template_save(project=project, source_text=ZH_CLASSIFIER_YAML, user=None)  # type: ignore[arg-type]
    broken = template_save(project=project, source_text=BROKEN_TEMPLATE, user=None)  # type: ignore[arg-type]
    assert en.problems == [] and zh.problems == [], (en.problems, zh.problems)
    assert broken.problems, "the broken template must have a problem"
    return {"en": en.template, "zh": zh.template, "broken": broken.template}


@pytest.fixture
def templates(project: object) -> dict[str, object]:
    """The `project` fixture's templates: "en" (16 pairs), "zh" (11 pairs) and "broken"."""
    return prepare_project(project)


@pytest.fixture
def make_dataset(project: object, templates: dict[str, object], editor: object) -> Callable[..., object]:
    """Return a function creating a dataset (generation queued, not run) of the given templates."""
    from mpp_studio.datasets.services import dataset_create

    def make(
        *keys: str,
        n: int = 10,
        seed: int = 0,
        unique: str = "",
        name: str = "Agreement set",
        **options: bool,
    ) -> object:
        return dataset_create(
            project=project,  # type: ignore[arg-type]
            name=name,
            templates=[templates[k] for k in (keys or ("en", "zh"))],  # type: ignore[misc]
            pairs_per_paradigm=n,
            seed=seed,
            unique=unique,
            created_by=editor,  # type: ignore[arg-type]
            **options,
        )

    return make


def run_generation(dataset: object, **options: int) -> int:
    """Run every paradigm's generation to the end in this process, as a worker would; return runs."""
    from mpp_studio.datasets.services import dataset_paradigm_generate

    runs = 0
    for paradigm in dataset.paradigms.all():  # type: ignore[attr-defined]
        while True:
            runs += 1
            if not dataset_paradigm_generate(paradigm_id=paradigm.pk, **options):
                break
    return runs


@pytest.fixture
def generated(make_dataset: Callable[..., object]) -> object:
    """A dataset of both templates, 10 pairs each, seed 0, generated."""
    dataset = make_dataset("en", "zh", n=10)
    run_generation(dataset)
    dataset.refresh_from_db()  # type: ignore[attr-defined]
    return dataset
