"""The pages that update a vocabulary from an edited file: send it, see what it changes, apply it
(the earlier version downloadable), discard it; a refused file's lines; who may do what."""

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from mpp_studio.lexicon.models import VocabularyUpdate
from tests.web.lexicon.test_updates import EDITED_CSV

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_jobs_now")]


def _url(vocabulary: Any, tail: str = "") -> str:
    return f"/projects/{vocabulary.project_id}/vocabularies/{vocabulary.pk}/{tail}"


def _send(client: Client, vocabulary: Any, text: str, name: str = "en_nouns.csv") -> Any:
    return client.post(_url(vocabulary, "update/"), {"file": SimpleUploadedFile(name, text.encode())})


def test_send_see_apply_and_download_the_earlier_version(
    client_for: Callable[[object | None], Client], editor: object, vocabulary: Any
) -> None:
    client = client_for(editor)
    form = client.get(_url(vocabulary, "update/"))
    assert form.status_code == 200 and b'name="file"' in form.content
    assert b"update-from-file" in client.get(_url(vocabulary)).content

    sent = _send(client, vocabulary, EDITED_CSV)
    update = VocabularyUpdate.objects.get(vocabulary=vocabulary)
    assert sent.status_code == 302 and sent["Location"] == _url(vocabulary, f"updates/{update.pk}/")
    page = client.get(sent["Location"]).content.decode()
    assert re.search(
        r"add <strong>2</strong> items, change <strong>1</strong> and remove <strong>2</strong>", page
    )
    assert 'id="update-apply"' in page and 'id="update-discard"' in page
    added = page[page.index('id="update-added"') : page.index('id="update-changed"')]
    assert "fishes" in added and "n10" in added
    changed = page[page.index('id="update-changed"') : page.index('id="update-removed"')]
    assert re.search(
        r"<code>pos</code></td>\s*<td class=\"was\">NN</td>\s*<td class=\"becomes\">NNS</td>", changed
    )
    assert vocabulary.items.filter(item_id="n3").exists()  # nothing changed yet

    applied = client.post(_url(vocabulary, f"updates/{update.pk}/apply/"))
    assert applied.status_code == 302
    page = client.get(applied["Location"]).content.decode()
    assert 'id="update-outcome"' in page and "Applied." in page and 'id="update-apply"' not in page
    assert not vocabulary.items.filter(item_id="n3").exists()
    update.refresh_from_db()
    assert update.before is not None
    download = client.get(_url(vocabulary, f"versions/{update.before.pk}/csv/"))
    assert download.status_code == 200
    assert "n3,dog,dog,NN,sg" in download.content.decode()
    assert f"en_nouns-{update.before.content_hash[:8]}.csv" in download["Content-Disposition"]
    schema = client.get(_url(vocabulary, f"versions/{update.before.pk}/schema/"))
    assert schema.status_code == 200 and b"number" in schema.content
    assert client.get(_url(vocabulary, f"versions/{update.before.pk}/xlsx/")).status_code == 404
    listed = client.get(_url(vocabulary)).content.decode()
    assert 'id="vocabulary-updates"' in listed and "2 added, 1 changed, 2 removed" in listed


def test_a_refused_file_lists_its_lines_and_changes_nothing(
    client_for: Callable[[object | None], Client], editor: object, vocabulary: Any
) -> None:
    client = client_for(editor)
    bad = EDITED_CSV.replace("n9,fish,fish,NN,sg", "n9,fish,fish,NN,plural")
    sent = _send(client, vocabulary, bad)
    page = client.get(sent["Location"]).content.decode()
    assert 'id="import-problems"' in page, page[page.index("update-status") :]
    assert "1 problem" in page and 'id="update-undeclared"' in page
    assert re.search(r'<td class="num line">12</td>\s*<td class="column"><code>number</code>', page)
    assert 'id="update-apply"' not in page
    assert vocabulary.items.count() == 12


def test_a_file_over_the_limit_is_refused_on_the_form(
    client_for: Callable[[object | None], Client], editor: object, vocabulary: Any, settings: Any
) -> None:
    settings.MPP_VOCABULARY_UPLOAD_MAX_BYTES = 100
    response = _send(editor_client := client_for(editor), vocabulary, EDITED_CSV)
    assert response.status_code == 400
    assert "en_nouns.csv" in response.content.decode() and "the limit is" in response.content.decode()
    assert not VocabularyUpdate.objects.exists()
    assert editor_client.get(_url(vocabulary)).status_code == 200


def test_discard_goes_back_to_the_unchanged_vocabulary(
    client_for: Callable[[object | None], Client], editor: object, vocabulary: Any
) -> None:
    client = client_for(editor)
    _send(client, vocabulary, EDITED_CSV)
    update = VocabularyUpdate.objects.get(vocabulary=vocabulary)
    response = client.post(_url(vocabulary, f"updates/{update.pk}/discard/"))
    assert response.status_code == 302 and response["Location"] == _url(vocabulary)
    update.refresh_from_db()
    assert update.status == VocabularyUpdate.Status.DISCARDED
    assert vocabulary.items.filter(item_id="n3").exists()
    again = client.post(_url(vocabulary, f"updates/{update.pk}/apply/"), follow=True)
    assert "cannot be applied" in again.content.decode()


def test_a_viewer_sees_the_changes_without_apply_or_discard(
    client_for: Callable[[object | None], Client], editor: object, viewer: object, vocabulary: Any
) -> None:
    _send(client_for(editor), vocabulary, EDITED_CSV)
    update = VocabularyUpdate.objects.get(vocabulary=vocabulary)
    page = client_for(viewer).get(_url(vocabulary, f"updates/{update.pk}/")).content.decode()
    assert "add <strong>2</strong> items" in page
    assert 'id="update-apply"' not in page and 'id="update-discard"' not in page
    assert "update-from-file" not in client_for(viewer).get(_url(vocabulary)).content.decode()


def test_an_update_of_another_vocabulary_is_not_found(
    client_for: Callable[[object | None], Client], editor: object, vocabulary: Any, zh_vocabulary: Any
) -> None:
    client = client_for(editor)
    _send(client, vocabulary, EDITED_CSV)
    update = VocabularyUpdate.objects.get(vocabulary=vocabulary)
    assert client.get(_url(zh_vocabulary, f"updates/{update.pk}/")).status_code == 404
    assert client.post(_url(zh_vocabulary, f"updates/{update.pk}/apply/")).status_code == 404
