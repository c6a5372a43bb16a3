"""The datasets API: create (202 with the job), read, pairs, exports, jobs; errors name the field."""

from collections.abc import Callable
from unittest import mock

import orjson
import pytest
from django.urls import reverse

from mpp_studio.datasets.models import Dataset
from mpp_studio.jobs.models import Job
from tests.web.datasets.conftest import run_generation

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(api_client_for: Callable[[object], object], editor: object) -> object:
    return api_client_for(editor)


def url(name: str, *args: int) -> str:
    return reverse(f"datasets_api:{name}", args=args)


def test_create_answers_202_with_the_job_and_queues_generation(
    api: object, project: object, templates: dict[str, object]
) -> None:
    with mock.patch("mpp_studio.datasets.tasks.generate_paradigm.delay"):
        response = api.post(  # type: ignore[attr-defined]
            url("dataset_list", project.pk),  # type: ignore[attr-defined]
            {
                "name": "By API",
                "templates": ["zh_classifier_noun", "en_sv_agreement"],
                "pairs_per_paradigm": 4,
                "seed": 9,
                "unique": "pair",
            },
            format="json",
        )
    assert response.status_code == 202
    body = response.json()
    dataset = Dataset.objects.get()
    assert body["id"] == dataset.pk and body["job"]["id"] == dataset.job_id
    assert body["job"]["status"] == "queued" and body["job"]["progress_total"] == 8
    assert [p["uid"] for p in body["paradigms"]] == ["en_sv_agreement", "zh_classifier_noun"]
    en = body["paradigms"][0]
    assert en["template_version"]["number"] == 1 and en["vocabulary_snapshot"]["name"] == "en_nouns"
    assert en["phrase_texts"] == {"SgNP": "- [{direct: the}, {id: head, lexical: {pos: NN, number: sg}}]\n"}
    assert (body["seed"], body["unique"], body["paradigm_count"], body["pair_count"]) == (9, "pair", 2, 0)
    assert body["balanced_words_only"] is False and dataset.balanced_words_only is False


@pytest.mark.parametrize(
    ("payload", "field", "words"),
    [
        ({"templates": ["nope"]}, "templates", "This project has no template with uid 'nope'."),
        ({"templates": []}, "templates", "This list may not be empty."),
        (
            {"templates": ["en_broken_number"]},
            "templates",
            "en_broken_number (version 1) cannot generate pairs: line 9",
        ),
        ({"pairs_per_paradigm": 0}, "pairs_per_paradigm", "greater than or equal to 1"),
        ({"pairs_per_paradigm": 100_001}, "pairs_per_paradigm", "less than or equal to 100000"),
        ({"seed": -1}, "seed", "greater than or equal to 0"),
        ({"unique": "words"}, "unique", '"words" is not a valid choice.'),
        ({"name": ""}, "name", "This field may not be blank."),
    ],
)
def test_create_errors_name_the_field_and_store_nothing(
    api: object,
    project: object,
    templates: dict[str, object],
    payload: dict[str, object],
    field: str,
    words: str,
) -> None:
    data = {"name": "Set", "templates": ["en_sv_agreement"], "pairs_per_paradigm": 3, **payload}
    response = api.post(url("dataset_list", project.pk), data, format="json")  # type: ignore[attr-defined]
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert any(e["field"] == field and words in e["message"] for e in errors), errors
    assert not Dataset.objects.exists() and not Job.objects.exists()


def test_list_and_detail(api: object, generated: Dataset) -> None:
    listing = api.get(url("dataset_list", generated.project_id)).json()  # type: ignore[attr-defined]
    assert listing["count"] == 1
    [item] = listing["results"]
    assert (item["name"], item["paradigm_count"], item["pair_count"], item["job"]["status"]) == (
        "Agreement set",
        2,
        20,
        "done",
    )
    assert item["created_by"] == "ed"
    detail = api.get(url("dataset_detail", generated.project_id, generated.pk)).json()  # type: ignore[attr-defined]
    assert [(p["uid"], p["status"], p["produced"]) for p in detail["paradigms"]] == [
        ("en_sv_agreement", "done", 10),
        ("zh_classifier_noun", "done", 10),
    ]
    assert detail["job"]["percent"] == 100 and detail["job"]["finished"] is True


def test_pairs_are_paginated_and_filtered(api: object, make_dataset: Callable[..., Dataset]) -> None:
    dataset = make_dataset("en", "zh", n=11)
    run_generation(dataset)
    first = api.get(url("dataset_pairs", dataset.project_id, dataset.pk)).json()  # type: ignore[attr-defined]
    assert first["count"] == 22 and len(first["results"]) == 22 and first["next"] is None
    zh = api.get(url("dataset_pairs", dataset.project_id, dataset.pk) + "?uid=zh_classifier_noun").json()  # type: ignore[attr-defined]
    assert zh["count"] == 11 and {p["uid"] for p in zh["results"]} == {"zh_classifier_noun"}
    pair = zh["results"][0]
    assert pair["index"] == 0 and pair["record"]["sentence_good"] == pair["sentence_good"]
    with mock.patch("rest_framework.pagination.PageNumberPagination.page_size", 5):
        paged = api.get(url("dataset_pairs", dataset.project_id, dataset.pk) + "?page=2").json()  # type: ignore[attr-defined]
    assert len(paged["results"]) == 5 and paged["results"][0]["index"] == 5


def test_export_formats_stream(api: object, generated: Dataset) -> None:
    base = url("dataset_export", generated.project_id, generated.pk)
    jsonl = api.get(base + "?format=jsonl")  # type: ignore[attr-defined]
    assert (
        jsonl.status_code == 200 and jsonl.streaming and jsonl["Content-Type"].startswith("application/jsonl")
    )
    lines = b"".join(jsonl.streaming_content).splitlines()
    assert len(lines) == 20 and orjson.loads(lines[-1])["UID"] == "zh_classifier_noun"
    default = api.get(base)  # type: ignore[attr-defined]
    assert default["Content-Type"].startswith("application/jsonl")
    assert b"".join(default.streaming_content).splitlines() == lines
    csv = api.get(base + "?format=csv")  # type: ignore[attr-defined]
    assert b"".join(csv.streaming_content).decode().count("\n") == 21
    hf = api.get(base + "?format=hf")  # type: ignore[attr-defined]
    assert hf["Content-Type"] == "application/zip"


def test_export_refuses_unknown_formats_and_running_datasets(
    api: object, generated: Dataset, make_dataset: Callable[..., Dataset]
) -> None:
    bad = api.get(url("dataset_export", generated.project_id, generated.pk) + "?format=xml")  # type: ignore[attr-defined]
    assert bad.status_code == 400
    assert bad.json() == {
        "errors": [
            {
                "field": "format",
                "message": "Unknown export format 'xml': use one of jsonl, csv, csv-excel, hf, zhoblimp, "
                "blimp.",
            }
        ]
    }
    running = make_dataset("en", n=3, name="Running")
    busy = api.get(url("dataset_export", running.project_id, running.pk) + "?format=csv")  # type: ignore[attr-defined]
    assert busy.status_code == 409 and "still being generated" in busy.json()["errors"][0]["message"]


def test_job_status_and_cancel(api: object, make_dataset: Callable[..., Dataset]) -> None:
    dataset = make_dataset("en", n=3)
    job = api.get(url("job_detail", dataset.project_id, dataset.job_id)).json()  # type: ignore[attr-defined]
    assert (job["status"], job["progress_done"], job["progress_total"], job["kind"]) == (
        "queued",
        0,
        3,
        "dataset_generate",
    )
    cancelled = api.post(url("job_cancel", dataset.project_id, dataset.job_id)).json()  # type: ignore[attr-defined]
    assert cancelled["status"] == "cancelled" and cancelled["message"] == "Cancelled by ed."


def test_failed_job_reason_is_in_the_api(api: object, make_dataset: Callable[..., Dataset]) -> None:
    dataset = make_dataset("zh", n=12)
    run_generation(dataset)
    job = api.get(url("job_detail", dataset.project_id, dataset.job_id)).json()  # type: ignore[attr-defined]
    assert job["status"] == "failed" and "zh_classifier_noun can make at most 11" in job["message"]
    detail = api.get(url("dataset_detail", dataset.project_id, dataset.pk)).json()  # type: ignore[attr-defined]
    assert detail["paradigms"][0]["problems"][0]["code"] == "E_SHORTFALL"


def test_delete(api: object, generated: Dataset) -> None:
    response = api.delete(url("dataset_detail", generated.project_id, generated.pk))  # type: ignore[attr-defined]
    assert response.status_code == 204 and not Dataset.objects.exists()
    again = api.delete(url("dataset_detail", generated.project_id, generated.pk))  # type: ignore[attr-defined]
    assert again.status_code == 404


def test_openapi_schema_describes_the_datasets_api_without_warnings() -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    for path in (
        "/api/projects/{project_id}/datasets/",
        "/api/projects/{project_id}/datasets/{dataset_id}/",
        "/api/projects/{project_id}/datasets/{dataset_id}/pairs/",
        "/api/projects/{project_id}/datasets/{dataset_id}/export/",
        "/api/projects/{project_id}/jobs/{job_id}/",
        "/api/projects/{project_id}/jobs/{job_id}/cancel/",
    ):
        assert path in paths, path
    export = paths["/api/projects/{project_id}/datasets/{dataset_id}/export/"]["get"]
    assert [sorted(p["schema"]["enum"]) for p in export["parameters"] if p["name"] == "format"] == [
        ["blimp", "csv", "csv-excel", "hf", "jsonl", "zhoblimp"]
    ]
    # Accepted (the job runs in the background), and the API's error answers (413: a body over
    # the server's cap; 503: the database out of reach).
    responses = paths["/api/projects/{project_id}/datasets/"]["post"]["responses"]
    assert responses.keys() == {"202", "400", "401", "403", "404", "413", "503"}
    problems = [m for m in (*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache) if "datasets" in m]
    assert problems == []


def test_paradigm_quality_report(
    api_client_for: Callable[[object], object],
    viewer: object,
    outsider: object,
    make_dataset: Callable[..., Dataset],
) -> None:
    dataset = make_dataset("en", n=10)
    run_generation(dataset)
    address = reverse(
        "datasets_api:paradigm_quality", args=(dataset.project_id, dataset.pk, "en_sv_agreement")
    )
    body = api_client_for(viewer).get(address + "?frequency=written").json()  # type: ignore[attr-defined]
    assert (body["uid"], body["pairs_read"], body["pairs_stored"]) == ("en_sv_agreement", 10, 10)
    assert body["frequency_source"] == "written" and body["tokenizer"] == "" and body["problems"] == []
    report = body["report"]
    assert report["pairs"] == 10 and report["duplicates"]["good_equals_bad"] == 0
    assert report["frequency"] is not None and report["characters"]["mean"] is not None
    unknown = api_client_for(viewer).get(address + "?tokenizer=gpt9").json()  # type: ignore[attr-defined]
    assert unknown["problems"] == ["There is no tokenizer named “gpt9” in MPP_TOKENIZERS."]
    missing = api_client_for(viewer).get(address.replace("en_sv_agreement", "nope"))  # type: ignore[attr-defined]
    assert missing.status_code == 404
    assert missing.json()["errors"][0]["message"] == "The dataset has no paradigm 'nope'."
    assert api_client_for(outsider).get(address).status_code == 404  # type: ignore[attr-defined]
