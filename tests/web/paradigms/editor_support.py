"""Fixtures of the template editor tests: a project with a small vocabulary, a phrase and a template.

A test module uses them with `pytest_plugins = ["tests.web.paradigms.editor_support"]`.
"""

from collections.abc import Callable

import pytest
from django.test import Client

from tests.web.conftest import PASSWORD
from tests.web.paradigms.editor_texts import ANIMALS_CSV, ANIMALS_SCHEMA, DET_TEMPLATE, PLACE_PHRASE


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
