"""The API of vocabulary updates: send an edited table (202), read what it changes, apply it (the
earlier version named), discard; refusals name the field or say why."""

from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.web.lexicon.test_updates import EDITED_CSV

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_jobs_now")]


def _base(vocabulary: Any) -> str:
    return f"/api/projects/{vocabulary.project_id}/vocabularies/{vocabulary.pk}/updates/"


def test_send_read_apply(api_client_for: Callable[[object], Any], editor: object, vocabulary: Any) -> None:
    client = api_client_for(editor)
    sent = client.post(_base(vocabulary), {"file": SimpleUploadedFile("en_nouns.csv", EDITED_CSV.encode())})
    assert sent.status_code == 202, sent.content
    update_id = sent.json()["id"]
    shown = client.get(f"{_base(vocabulary)}{update_id}/").json()
    assert shown["status"] == "ready" and shown["read_job"]["status"] == "done"
    assert [shown["summary"][k] for k in ("added", "changed", "removed", "unchanged")] == [2, 1, 2, 9]
    assert shown["summary"]["changed_items"] == [
        {"id": "n2", "form": "cats", "cells": [["pos", "NN", "NNS"]]}
    ]
    assert shown["before"] is None

    applied = client.post(f"{_base(vocabulary)}{update_id}/apply/")
    assert applied.status_code == 202, applied.content
    body = client.get(f"{_base(vocabulary)}{update_id}/").json()
    assert body["status"] == "applied" and body["apply_job"]["status"] == "done"
    assert body["before"]["content_hash"] != body["after"]["content_hash"]
    assert not vocabulary.items.filter(item_id="n3").exists()

    refused = client.post(f"{_base(vocabulary)}{update_id}/discard/")
    assert refused.status_code == 409
    assert "cannot be discarded" in refused.json()["errors"][0]["message"]


def test_discard_and_refusals(
    api_client_for: Callable[[object], Any], editor: object, viewer: object, vocabulary: Any, settings: Any
) -> None:
    client = api_client_for(editor)
    assert client.post(_base(vocabulary), {}).json()["errors"][0]["field"] == "file"
    update_id = client.post(
        _base(vocabulary), {"file": SimpleUploadedFile("en_nouns.csv", EDITED_CSV.encode())}
    ).json()["id"]
    assert api_client_for(viewer).post(f"{_base(vocabulary)}{update_id}/discard/").status_code == 403
    discarded = client.post(f"{_base(vocabulary)}{update_id}/discard/")
    assert discarded.status_code == 200 and discarded.json()["status"] == "discarded"
    assert client.post(f"{_base(vocabulary)}{update_id}/apply/").status_code == 409
    assert vocabulary.items.filter(item_id="n3").exists()
    settings.MPP_VOCABULARY_UPLOAD_MAX_BYTES = 50
    large = client.post(_base(vocabulary), {"file": SimpleUploadedFile("en_nouns.csv", EDITED_CSV.encode())})
    assert large.status_code == 400 and large.json()["errors"][0]["field"] == "file"
