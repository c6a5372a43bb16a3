"""Pairs written by hand into a generated paradigm (issue 16): stored after its last pair with a
critical region, counted, exported, shown as written by hand; refused with the sentence named."""

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from mpp_studio.datasets.exports import jsonl_lines
from mpp_studio.datasets.models import DatasetParadigm, Pair
from mpp_studio.datasets.services.written_pairs import written_pair_add
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.get_username(), password=PASSWORD)
    return client


def test_a_written_pair_is_stored_counted_and_exported(generated: Any, editor: Any) -> None:
    paradigm = generated.paradigms.get(uid="en_sv_agreement")
    pair = written_pair_add(paradigm=paradigm, good="The horse jumps.", bad="The horse jump.", user=editor)
    paradigm.refresh_from_db()
    assert (pair.index, paradigm.produced) == (10, 11)
    assert pair.record["provenance"]["written_by"] == editor.get_username()
    assert [edit["type"] for edit in pair.record["critical_region"]] == ["substitution"]
    exported = [json.loads(line) for line in jsonl_lines(generated)]
    assert len(exported) == 21 and exported[10]["sentence_good"] == "The horse jumps."
    second = written_pair_add(paradigm=paradigm, good="A dog runs.", bad="A dog run.", user=editor)
    assert second.index == 11


def test_refusals_name_the_sentence_or_the_paradigm(generated: Any, editor: Any) -> None:
    paradigm = generated.paradigms.get(uid="en_sv_agreement")
    with pytest.raises(ValidationError) as refused:
        written_pair_add(paradigm=paradigm, good="", bad="The horse jump.", user=editor)
    assert set(refused.value.message_dict) == {"good"}
    with pytest.raises(ValidationError) as refused:
        written_pair_add(paradigm=paradigm, good="The horse jumps.", bad="The horse jumps .", user=editor)
    assert set(refused.value.message_dict) == {"bad"}
    DatasetParadigm.objects.filter(pk=paradigm.pk).update(status=DatasetParadigm.Status.FAILED)
    with pytest.raises(ValidationError) as refused:
        written_pair_add(paradigm=paradigm, good="The horse jumps.", bad="The horse jump.", user=editor)
    assert set(refused.value.message_dict) == {"uid"}
    assert Pair.objects.filter(paradigm=paradigm).count() == 10


def test_the_pairs_page_writes_a_pair_and_shows_it_as_written(
    generated: Any, editor: Any, viewer: Any
) -> None:
    client = _client(editor)
    base = f"/projects/{generated.project_id}/datasets/{generated.pk}/pairs/"
    page = client.get(base, {"uid": "zh_classifier_noun"}).content.decode()
    assert 'id="write-pair"' in page
    assert 'id="write-pair"' not in client.get(base).content.decode()  # choose a paradigm first
    assert 'id="write-pair"' not in _client(viewer).get(base, {"uid": "zh_classifier_noun"}).content.decode()
    sent = client.post(f"{base}write/", {"uid": "zh_classifier_noun", "good": "三本书", "bad": "三只书"})
    pair = Pair.objects.get(paradigm__dataset=generated, sentence_good="三本书")
    assert sent.status_code == 302 and sent["Location"].endswith(f"/pairs/{pair.pk}/")
    shown = client.get(sent["Location"]).content.decode()
    assert "Written by hand by" in shown and "<mark" in shown
    refused = client.post(
        f"{base}write/", {"uid": "zh_classifier_noun", "good": "三本书", "bad": ""}, follow=True
    )
    assert "Not saved: the bad sentence is empty." in refused.content.decode()
    assert _client(viewer).post(f"{base}write/", {"uid": "zh_classifier_noun"}).status_code == 403
    unknown = client.post(f"{base}write/", {"uid": "nope", "good": "a", "bad": "b"}, follow=True)
    assert "no generated paradigm &#x27;nope&#x27;" in unknown.content.decode()
