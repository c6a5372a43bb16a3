"""Fixtures for the project vocabulary tests: an English and a Chinese vocabulary, signed-in clients."""

from collections.abc import Callable

import pytest
from django.test import Client

from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA, PASSWORD, ZH_NOUNS_TSV

# The Chinese table with a schema: classifier is a multi-valued category of four values.
ZH_NOUNS_SCHEMA = """\
language: zh
features:
  classifier: {type: category, values: [本, 只, 条, 张], multi: true, description: 量词}
"""
# Line 3 has an undeclared number, line 4 no form, line 5 one cell too many.
BAD_EN_CSV = (
    "id,form,lemma,pos,number\nn1,cat,cat,NN,sg\nn2,cats,cat,NN,plurl\nn3,,dog,NN,sg\nn4,dog,dog,NN,sg,x\n"
)


def import_detail(client: object, project: object, started: object) -> dict[str, object]:
    """Return the API's view of the vocabulary import a 202 answer started (its job has run)."""
    import_id = started.json()["id"]  # type: ignore[attr-defined]
    response = client.get(f"/api/projects/{project.pk}/vocabularies/imports/{import_id}/")  # type: ignore[attr-defined]
    assert response.status_code == 200, response.content
    return response.json()  # type: ignore[no-any-return]


@pytest.fixture
def client_for(db: None) -> Callable[[object | None], Client]:
    """Return a function giving a Django test client signed in as the user (None: anonymous)."""

    def make(user: object | None) -> Client:
        client = Client()
        if user is not None:
            assert client.login(username=user.get_username(), password=PASSWORD)  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture
def vocabulary(project: object) -> object:
    """`en_nouns` of `project`: 12 items (8 nouns with number sg/pl, 4 verbs), schema from the file."""
    from mpp_studio.lexicon.services import Upload, vocabulary_import_upload

    return vocabulary_import_upload(
        project=project,  # type: ignore[arg-type]
        table=Upload("en_nouns.csv", EN_NOUNS_CSV.encode()),
        schema_file=Upload("en_nouns.schema.yaml", EN_NOUNS_SCHEMA.encode()),
    )


@pytest.fixture
def zh_vocabulary(project: object) -> object:
    """`zh_nouns` of `project`: 14 items with a multi-valued classifier feature."""
    from mpp_studio.lexicon.services import Upload, vocabulary_import_upload

    return vocabulary_import_upload(
        project=project,  # type: ignore[arg-type]
        table=Upload("zh_nouns.tsv", ZH_NOUNS_TSV.encode()),
        schema_file=Upload("zh_nouns.schema.yaml", ZH_NOUNS_SCHEMA.encode()),
    )


@pytest.fixture
def foreign_vocabulary(other_project: object) -> object:
    """A vocabulary of the outsider's project, which members of `project` must never reach."""
    from mpp_studio.lexicon.services import Upload, vocabulary_import_upload

    return vocabulary_import_upload(
        project=other_project,  # type: ignore[arg-type]
        table=Upload("secret.csv", b"form,pos\nhidden,NN\n"),
    )
