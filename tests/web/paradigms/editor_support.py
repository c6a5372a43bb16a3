"""Fixtures of the template editor tests: a project with a small vocabulary, a phrase and a template.

A test module uses them with `pytest_plugins = ["tests.web.paradigms.editor_support"]`.
"""

from collections.abc import Callable

import pytest
from django.test import Client

from tests.web.conftest import PASSWORD

# Determiners agree with their noun in number; intransitive verbs; 2 x 8 nouns, 4 verbs.
ANIMALS_CSV = """\
id,form,lemma,pos,number
d1,this,this,DT,sg
d2,these,these,DT,pl
d3,that,that,DT,sg
d4,those,those,DT,pl
n1,cat,cat,NN,sg
n2,cats,cat,NN,pl
n3,dog,dog,NN,sg
n4,dogs,dog,NN,pl
n5,bird,bird,NN,sg
n6,birds,bird,NN,pl
n7,horse,horse,NN,sg
n8,horses,horse,NN,pl
v1,sleep,sleep,VB,
v2,run,run,VB,
v3,jump,jump,VB,
v4,swim,swim,VB,
"""
ANIMALS_SCHEMA = "language: en\nfeatures:\n  number:\n    type: category\n    values: [sg, pl]\n"
PLACE_PHRASE = "- [{direct: the}, {id: head, lexical: {pos: NN, number: sg}}]\n"

# Valid: these/those + plural noun + verb (VBP), the bad one with the determiner of the other number.
DET_TEMPLATE = """\
uid: det_noun_agreement
phenomenon: determiner_noun_agreement
language: en
description: A demonstrative agrees in number with its noun.
example: {good: These dogs run., bad: This dogs run.}
vocabulary: animals
good:
  - {id: det, matched: noun, on: number, lexical: {pos: DT}}
  - {id: noun, lexical: {pos: NN, number: pl}}
  - {id: verb, lexical: {pos: VB}, form: VBP}
  - {id: stop, direct: "."}
bad:
  - {id: det_bad, mismatched: noun, on: number, lexical: {pos: DT}}
  - {same: noun}
  - {same: verb}
  - {same: stop}
"""


@pytest.fixture
def animals(project: object) -> object:
    """The project's vocabulary `animals` (determiners, nouns with number sg/pl, verbs)."""
    from mpp_studio.lexicon.engine import vocabulary_parse
    from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon

    lexicon = vocabulary_parse(
        file_name="animals.csv", items_text=ANIMALS_CSV, schema_text=ANIMALS_SCHEMA
    ).lexicon
    return vocabulary_create_from_lexicon(project=project, lexicon=lexicon, name="animals")  # type: ignore[arg-type]


@pytest.fixture
def place_phrase(project: object) -> object:
    """The project's phrase `Place`: "the" and a singular noun called `head`."""
    from mpp_studio.paradigms.models import Phrase

    return Phrase.objects.create(project=project, name="Place", text=PLACE_PHRASE, description="the + a noun")


@pytest.fixture
def det_template(project: object, animals: object, place_phrase: object, owner: object) -> object:
    """Template `det_noun_agreement` (version 1, valid)."""
    from mpp_studio.paradigms.services import template_save

    version = template_save(project=project, source_text=DET_TEMPLATE, user=owner)  # type: ignore[arg-type]
    assert version.problems == [], version.problems
    return version.template


@pytest.fixture
def signed_in(db: None) -> Callable[[object | None], Client]:
    """Return a function giving a test client signed in as the user (None: anonymous)."""

    def make(user: object | None) -> Client:
        client = Client()
        if user is not None:
            assert client.login(username=user.get_username(), password=PASSWORD)  # type: ignore[attr-defined]
        return client

    return make
