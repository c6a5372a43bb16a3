"""Fixtures of the library, upload, phrase and API tests: a project with a vocabulary, a phrase, a template.

A test module uses them with `pytest_plugins = ["tests.web.paradigms.library_support"]`.
"""

import io
from collections.abc import Callable

import pytest
from django.core.management import call_command
from django.test import Client

from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA, PASSWORD
from tests.web.paradigms.library_texts import NP_TEMPLATE, NP_TEXT


@pytest.fixture
def en_nouns(project: object) -> object:
    """The project's vocabulary `en_nouns` (8 nouns with number sg/pl, 4 verbs)."""
    from mpp_studio.lexicon.engine import vocabulary_parse
    from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon

    lexicon = vocabulary_parse(
        file_name="en_nouns.csv", items_text=EN_NOUNS_CSV, schema_text=EN_NOUNS_SCHEMA
    ).lexicon
    return vocabulary_create_from_lexicon(project=project, lexicon=lexicon, name="en_nouns")  # type: ignore[arg-type]


@pytest.fixture
def np_phrase(project: object) -> object:
    from mpp_studio.paradigms.models import Phrase

    return Phrase.objects.create(project=project, name="NP", text=NP_TEXT)


@pytest.fixture
def np_template(project: object, en_nouns: object, np_phrase: object, owner: object) -> object:
    """Template `np_agreement` (version 1, valid: 16 pairs) using phrase NP."""
    from mpp_studio.paradigms.services import template_save

    version = template_save(project=project, source_text=NP_TEMPLATE, user=owner)  # type: ignore[arg-type]
    assert version.problems == [], version.problems
    return version.template


@pytest.fixture
def client_as(db: None) -> Callable[[object | None], Client]:
    """Return a function giving a test client signed in as the user (None: anonymous)."""

    def make(user: object | None) -> Client:
        client = Client()
        if user is not None:
            assert client.login(username=user.get_username(), password=PASSWORD)  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture
def shipped_library(db: None) -> None:
    """The real shipped library (settings.GRAMMAR_LIBRARY_DIR) loaded into the catalogue by load_demo."""
    call_command("load_demo", "--no-demo-user", stdout=io.StringIO(), stderr=io.StringIO())
