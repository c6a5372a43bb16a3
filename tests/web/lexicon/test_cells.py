"""The item table edited like a spreadsheet (issue 16): each cell saves on its own; a refused
value says why beside the cell and changes nothing; viewers see plain text."""

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _cell(client: Client, vocabulary: Any, item: Any, column: str, value: str) -> str:
    url = f"/projects/{vocabulary.project_id}/vocabularies/{vocabulary.pk}/items/{item.pk}/cell/"
    response = client.post(url, {"column": column, "value": value}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def test_a_cell_saves_alone_and_a_refusal_names_why(
    client_for: Callable[[object | None], Client], editor: object, vocabulary: Any
) -> None:
    client = client_for(editor)
    cat = vocabulary.items.get(item_id="n1")
    saved = _cell(client, vocabulary, cat, "form", "kitten")
    assert f'id="cell-{cat.pk}-form"' in saved and 'hx-swap-oob="true"' in saved and "error" not in saved
    saved = _cell(client, vocabulary, cat, "f-number", "pl")
    cat.refresh_from_db()
    assert (cat.form, cat.lemma, cat.features) == ("kitten", "cat", {"number": ["pl"]})

    refused = _cell(client, vocabulary, cat, "f-number", "plural")
    assert "cell-message error" in refused and "not one of the declared values" in refused
    assert _cell(client, vocabulary, cat, "form", "")  # a form is required
    assert "error" in _cell(client, vocabulary, cat, "form", "")
    assert "is not a column" in _cell(client, vocabulary, cat, "item_id", "x")
    cat.refresh_from_db()
    assert (cat.form, cat.features) == ("kitten", {"number": ["pl"]})


def test_viewers_see_text_and_cannot_save_a_cell(
    client_for: Callable[[object | None], Client], editor: object, viewer: object, vocabulary: Any
) -> None:
    page = f"/projects/{vocabulary.project_id}/vocabularies/{vocabulary.pk}/"
    assert 'class="form cell-edit"' in client_for(editor).get(page).content.decode()
    assert "cell-edit" not in client_for(viewer).get(page).content.decode()
    cat = vocabulary.items.get(item_id="n1")
    url = f"{page}items/{cat.pk}/cell/"
    assert client_for(viewer).post(url, {"column": "form", "value": "dog"}).status_code == 403
