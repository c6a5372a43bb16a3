"""Curation of a dataset's pairs (issue 16): search the pairs, flag or exclude one with the
reason; every export leaves excluded pairs out and the dataset card lists them."""

import io
import json
import zipfile
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from mpp_studio.datasets.exports import jsonl_lines
from mpp_studio.datasets.exports.card import dataset_card, dataset_info
from mpp_studio.datasets.exports.hf import hf_folder_write
from mpp_studio.datasets.models import Pair, PairReview
from mpp_studio.datasets.services.curation import pair_review_clear, pair_review_set
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _pair(dataset: Any, uid: str, index: int) -> Pair:
    return Pair.objects.get(paradigm__dataset=dataset, paradigm__uid=uid, index=index)


def _client(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.get_username(), password=PASSWORD)
    return client


def test_a_decision_needs_a_reason_and_a_known_decision(generated: Any, editor: Any) -> None:
    pair = _pair(generated, "en_sv_agreement", 0)
    with pytest.raises(ValidationError) as refused:
        pair_review_set(pair=pair, decision="excluded", reason="   ", user=editor)
    assert set(refused.value.message_dict) == {"reason"}
    with pytest.raises(ValidationError) as refused:
        pair_review_set(pair=pair, decision="deleted", reason="odd", user=editor)
    assert set(refused.value.message_dict) == {"decision"}
    review = pair_review_set(pair=pair, decision="flagged", reason="odd\n  verb", user=editor)
    assert (review.decision, review.reason, review.dataset_id) == ("flagged", "odd verb", generated.pk)
    again = pair_review_set(pair=pair, decision="excluded", reason="a table cannot sleep", user=editor)
    assert again.pk == review.pk and PairReview.objects.count() == 1
    assert pair_review_clear(pair=pair) and not pair_review_clear(pair=pair)


def test_exports_leave_excluded_pairs_out_and_the_card_lists_them(
    generated: Any, editor: Any, tmp_path: Any
) -> None:
    left_out = _pair(generated, "en_sv_agreement", 3)
    flagged = _pair(generated, "zh_classifier_noun", 1)
    pair_review_set(pair=left_out, decision="excluded", reason="semantically odd", user=editor)
    pair_review_set(pair=flagged, decision="flagged", reason="check the classifier", user=editor)

    records = [json.loads(line) for line in jsonl_lines(generated)]
    assert len(records) == 19
    assert (left_out.sentence_good, left_out.sentence_bad) not in {
        (r["sentence_good"], r["sentence_bad"]) for r in records if r["UID"] == "en_sv_agreement"
    }
    assert flagged.sentence_good in {r["sentence_good"] for r in records}

    files = hf_folder_write(generated, tmp_path)
    card = dataset_card(generated, files)
    assert "## Curation" in card and "1 pair was excluded by hand" in card
    assert (
        f"| `en_sv_agreement` | 3 | {left_out.sentence_good} | {left_out.sentence_bad} | semantically odd |"
        in card
    )
    assert "1 pair is flagged" in card
    info = dataset_info(generated, files)
    assert info["splits"]["train"]["num_examples"] == 19  # type: ignore[index]
    excluded = {p["uid"]: p["excluded"] for p in info["mpp_studio"]["paradigms"]}  # type: ignore[index]
    assert excluded == {"en_sv_agreement": 1, "zh_classifier_noun": 0}
    import pyarrow.parquet as pq

    assert pq.read_table(tmp_path / "data" / "en_sv_agreement.parquet").num_rows == 9


def test_every_download_format_leaves_the_excluded_pair_out(generated: Any, editor: Any) -> None:
    pair = _pair(generated, "en_sv_agreement", 0)
    pair_review_set(pair=pair, decision="excluded", reason="duplicate meaning", user=editor)
    client = _client(editor)
    base = f"/projects/{generated.project_id}/datasets/{generated.pk}/export/?format="
    for fmt in ("jsonl", "blimp", "csv", "csv-excel"):
        body = b"".join(client.get(base + fmt).streaming_content).decode("utf-8-sig")  # type: ignore[attr-defined]
        assert pair.sentence_bad not in body, fmt
    archive = b"".join(client.get(base + "hf").streaming_content)  # type: ignore[attr-defined]
    with zipfile.ZipFile(io.BytesIO(archive)) as folder:
        readme = next(name for name in folder.namelist() if name.endswith("README.md"))
        assert "duplicate meaning" in folder.read(readme).decode()


def test_the_pairs_browser_searches_filters_and_reviews(generated: Any, editor: Any, viewer: Any) -> None:
    client = _client(editor)
    base = f"/projects/{generated.project_id}/datasets/{generated.pk}/pairs/"
    pair = _pair(generated, "en_sv_agreement", 2)
    word = pair.sentence_good.split()[1]
    found = client.get(base, {"q": word.upper()}).content.decode()
    holding = Pair.objects.filter(paradigm__dataset=generated, sentence_good__icontains=word).count()
    holding += (
        Pair.objects.filter(paradigm__dataset=generated, sentence_bad__icontains=word)
        .exclude(sentence_good__icontains=word)
        .count()
    )
    assert found.count('<tr class="pair') == holding and f'id="pair-{pair.pk}"' in found
    nothing = client.get(base, {"q": "zzzqqq"}).content.decode()
    assert "No pair holds “zzzqqq”." in nothing

    review_url = f"{base}{pair.pk}/review/"
    assert _client(viewer).post(review_url, {"decision": "excluded", "reason": "x"}).status_code == 403
    refused = client.post(review_url, {"decision": "excluded", "reason": ""}, follow=True).content.decode()
    assert "Not saved: the reason is required" in refused
    done = client.post(review_url, {"decision": "excluded", "reason": "a cat cannot read"}, follow=True)
    page = done.content.decode()
    assert "is excluded: exports leave it out" in page and "a cat cannot read" in page
    listed = client.get(base, {"decision": "excluded"}).content.decode()
    assert listed.count('<tr class="pair') == 1 and "review-badge-excluded" in listed
    assert "excluded (1)" in listed
    kept = client.post(review_url, {"decision": "keep"}, follow=True).content.decode()
    assert "is kept and exported again" in kept
    assert not PairReview.objects.exists()
    # A viewer sees the decision but no form.
    pair_review_set(pair=pair, decision="flagged", reason="look again", user=editor)
    seen = _client(viewer).get(f"{base}{pair.pk}/").content.decode()
    assert "look again" in seen and "review-form" not in seen


def test_the_api_reviews_lists_and_filters(
    generated: Any, editor: Any, viewer: Any, api_client_for: Any
) -> None:
    client = api_client_for(editor)
    base = f"/api/projects/{generated.project_id}/datasets/{generated.pk}/pairs/"
    pair = _pair(generated, "zh_classifier_noun", 4)
    url = f"{base}{pair.pk}/review/"
    assert (
        api_client_for(viewer).put(url, {"decision": "excluded", "reason": "x"}, format="json").status_code
        == 403
    )
    bad = client.put(url, {"decision": "gone", "reason": ""}, format="json")
    assert bad.status_code == 400
    assert {e["field"] for e in bad.json()["errors"]} == {"decision", "reason"}
    done = client.put(url, {"decision": "excluded", "reason": "two classifiers fit"}, format="json")
    assert done.status_code == 200 and done.json()["decision"] == "excluded"
    listed = client.get(base, {"decision": "excluded"}).json()
    assert [row["id"] for row in listed["results"]] == [pair.pk]
    assert listed["results"][0]["review"]["reason"] == "two classifiers fit"
    every = client.get(base).json()
    assert every["count"] == 20 and sum(1 for row in every["results"] if row["review"]) == 1
    found = client.get(base, {"q": pair.sentence_good}).json()
    assert pair.pk in [row["id"] for row in found["results"]]
    assert client.get(base, {"decision": "maybe"}).status_code == 400
    assert client.delete(url).status_code == 204
    assert client.get(base, {"decision": "excluded"}).json()["count"] == 0
