"""Dataset pages: list, new, detail with live progress, pairs browser and provenance, delete, export."""

import re
from collections.abc import Callable
from unittest import mock

import orjson
import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.jobs.models import Job
from tests.web.conftest import PASSWORD
from tests.web.datasets.conftest import ZH_CAPACITY, run_generation

pytestmark = pytest.mark.django_db


def client_for(user: object) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)  # type: ignore[attr-defined]
    return client


def page(name: str, dataset: Dataset, *extra: int) -> str:
    return reverse(f"datasets:{name}", args=(dataset.project_id, dataset.pk, *extra))


# -- List and new -----------------------------------------------------------------------------


def test_list_shows_each_dataset_with_counts_and_status(generated: Dataset, viewer: object) -> None:
    html = (
        client_for(viewer)
        .get(reverse("datasets:dataset_list", args=(generated.project_id,)))
        .content.decode()
    )
    assert "Agreement set" in html and ">2<" in html and ">20<" in html
    assert "job-badge-done" in html and "Done" in html
    assert "New dataset" not in html  # viewers cannot create


def test_list_offers_editors_a_new_dataset(project: object, editor: object) -> None:
    html = client_for(editor).get(reverse("datasets:dataset_list", args=(project.pk,))).content.decode()  # type: ignore[attr-defined]
    assert "New dataset" in html and "No datasets yet." in html


def test_new_page_groups_templates_and_disables_broken_ones_with_the_reason(
    project: object, templates: dict[str, object], editor: object
) -> None:
    html = client_for(editor).get(reverse("datasets:dataset_new", args=(project.pk,))).content.decode()  # type: ignore[attr-defined]
    assert "en · subject_verb_agreement" in html and "zh · classifiers" in html
    broken = templates["broken"].pk  # type: ignore[attr-defined]
    assert re.search(rf'value="{broken}"[^>]*\s+disabled', html)
    assert "Cannot be chosen: version 1 has problems — line 9:" in html and "dual" in html
    assert "capacity 16" in html and 'lang="zh"' in html


def test_new_dataset_is_created_and_queued(
    project: object,
    templates: dict[str, object],
    editor: object,
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    with (
        mock.patch("mpp_studio.datasets.tasks.generate_paradigm.delay") as delay,
        django_capture_on_commit_callbacks(execute=True),  # type: ignore[operator]
    ):
        response = client_for(editor).post(
            reverse("datasets:dataset_new", args=(project.pk,)),  # type: ignore[attr-defined]
            {
                "name": "Agreement 2",
                "description": "",
                "templates": [templates["en"].pk, templates["zh"].pk],  # type: ignore[attr-defined]
                "pairs_per_paradigm": 5,
                "seed": 11,
                "unique": "pair",
                "balanced_words_only": "on",
            },
        )
    dataset = Dataset.objects.get()
    assert response.status_code == 302 and response["Location"] == page("dataset_detail", dataset)
    assert (dataset.seed, dataset.unique, dataset.pairs_per_paradigm) == (11, "pair", 5)
    assert dataset.balanced_words_only is True
    detail = client_for(editor).get(page("dataset_detail", dataset)).content.decode()
    assert "counterbalanced words only (items marked balanced = 0 left out)" in detail
    assert delay.call_count == 2


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": ""}, "Name: This field is required."),
        ({"templates": []}, "Paradigms: Choose at least one paradigm."),
        ({"pairs_per_paradigm": 0}, "Pairs per paradigm: Ensure this value is greater than or equal to 1."),
        (
            {"pairs_per_paradigm": 100_001},
            "Pairs per paradigm: Ensure this value is less than or equal to 100000.",
        ),
        ({"seed": -3}, "Seed: Ensure this value is greater than or equal to 0."),
        ({"unique": "words"}, "Uniqueness: Select a valid choice."),
        ({"templates": ["BROKEN"]}, "is not a paradigm that can be chosen here"),
    ],
)
def test_new_dataset_form_errors_name_the_field(
    project: object, templates: dict[str, object], editor: object, changes: dict[str, object], message: str
) -> None:
    data: dict[str, object] = {
        "name": "Set",
        "templates": [templates["en"].pk],  # type: ignore[attr-defined]
        "pairs_per_paradigm": 10,
        "seed": 0,
        "unique": "",
        **changes,
    }
    if data["templates"] == ["BROKEN"]:
        data["templates"] = [templates["broken"].pk]  # type: ignore[attr-defined]
    response = client_for(editor).post(reverse("datasets:dataset_new", args=(project.pk,)), data)  # type: ignore[attr-defined]
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Dataset.objects.exists()


def test_new_dataset_reports_a_template_that_broke_since_the_page_was_shown(
    project: object, templates: dict[str, object], editor: object
) -> None:
    from mpp_studio.paradigms.models import Phrase

    Phrase.objects.filter(project=project, name="SgNP").delete()
    response = client_for(editor).post(
        reverse("datasets:dataset_new", args=(project.pk,)),  # type: ignore[attr-defined]
        {"name": "Set", "templates": [templates["en"].pk], "pairs_per_paradigm": 5, "seed": 0},  # type: ignore[attr-defined]
    )
    assert response.status_code == 200
    assert "en_sv_agreement (version 1) cannot generate pairs" in response.content.decode()
    assert not Dataset.objects.exists()


# -- Detail -----------------------------------------------------------------------------------


def test_detail_of_a_running_dataset_polls_its_job(
    make_dataset: Callable[..., Dataset], viewer: object
) -> None:
    dataset = make_dataset("en", "zh", n=10)
    html = client_for(viewer).get(page("dataset_detail", dataset)).content.decode()
    status_url = reverse("datasets:job_status", args=(dataset.project_id, dataset.job_id))
    assert f'hx-get="{status_url}"' in html and 'hx-trigger="every 2s"' in html
    assert 'hx-trigger="job-progress from:body, job-finished from:body"' in html
    assert "Exports are available once generation has finished." in html
    assert "Waiting for a worker" in html


def test_detail_of_a_finished_dataset_lists_versions_and_exports(generated: Dataset, viewer: object) -> None:
    html = client_for(viewer).get(page("dataset_detail", generated)).content.decode()
    assert 'hx-trigger="every 2s"' not in html
    for paradigm in generated.paradigms.all():
        assert paradigm.uid in html and paradigm.template_hash in html
        assert paradigm.vocabulary_snapshot.content_hash in html
    assert "version 1" in html and html.count("paradigm-badge-done") == 2
    for fmt in ("jsonl", "csv", "hf"):
        assert f"?format={fmt}" in html
    assert "Cancel generation" not in html


def test_detail_shows_a_failed_paradigm_and_the_job_reason(
    make_dataset: Callable[..., Dataset], viewer: object
) -> None:
    dataset = make_dataset("en", "zh", n=ZH_CAPACITY + 1)
    run_generation(dataset)
    html = client_for(viewer).get(page("dataset_detail", dataset)).content.decode()
    assert "Why it failed:" in html and "1 of 2 paradigms failed:" in html
    assert "paradigm-badge-failed" in html and "can make at most 11 different good sentences" in html
    assert "Exports hold the 12 pairs that were stored." in html


def _new_dataset_form(templates: dict[str, object], n: int, **extra: str) -> dict[str, object]:
    return {
        "name": "Short ones",
        "templates": [templates["en"].pk, templates["zh"].pk],  # type: ignore[attr-defined]
        "pairs_per_paradigm": n,
        "seed": 0,
        "unique": "",
        **extra,
    }


def test_new_dataset_names_the_short_paradigms_first_and_the_author_chooses(
    project: object, templates: dict[str, object], editor: object
) -> None:
    url = reverse("datasets:dataset_new", args=(project.pk,))  # type: ignore[attr-defined]
    client = client_for(editor)
    form = client.get(url).content.decode()
    assert f'data-uid="zh_classifier_noun" data-capacity="{ZH_CAPACITY}"' in form  # the live warning's data

    with mock.patch("mpp_studio.datasets.tasks.generate_paradigm.delay"):
        asked = client.post(url, _new_dataset_form(templates, ZH_CAPACITY + 1))
        html = asked.content.decode()
        assert asked.status_code == 200 and not Dataset.objects.exists()
        assert "Nothing is generated yet." in html
        assert f"<code>zh_classifier_noun</code>: at most {ZH_CAPACITY}" in html
        assert "en_sv_agreement</code>: at most" not in html
        assert 'value="as-many"' in html and 'value="fail"' in html

        chosen = client.post(url, _new_dataset_form(templates, ZH_CAPACITY + 1, when_short="as-many"))
        assert chosen.status_code == 302
        dataset = Dataset.objects.get()
        assert all(p.as_many_as_possible for p in dataset.paradigms.all())

        anyway = client.post(url, _new_dataset_form(templates, ZH_CAPACITY + 1, when_short="fail", name="B"))
        assert anyway.status_code == 302
        assert not any(p.as_many_as_possible for p in Dataset.objects.get(name="B").paradigms.all())

        ticked = client.post(
            url, _new_dataset_form(templates, ZH_CAPACITY + 1, as_many_as_possible="on", name="C")
        )
        assert ticked.status_code == 302


def test_a_failed_paradigm_is_retried_from_the_dataset_page(
    make_dataset: Callable[..., Dataset], editor: object, viewer: object
) -> None:
    dataset = make_dataset("en", "zh", n=ZH_CAPACITY + 1)
    run_generation(dataset)
    zh = dataset.paradigms.get(uid="zh_classifier_noun")
    html = client_for(editor).get(page("dataset_detail", dataset)).content.decode()
    retry_url = page("paradigm_retry", dataset, zh.pk)
    assert f'action="{retry_url}"' in html and "Retry, making as many as it can" in html
    assert retry_url not in client_for(viewer).get(page("dataset_detail", dataset)).content.decode()
    assert client_for(viewer).post(retry_url).status_code == 403

    with mock.patch("mpp_studio.datasets.tasks.generate_paradigm.delay"):
        response = client_for(editor).post(retry_url, {"as_many_as_possible": "true"}, follow=True)
    assert (
        "zh_classifier_noun was queued to be generated again, making as many pairs as it can"
        in response.content.decode()
    )
    run_generation(dataset)
    zh.refresh_from_db()
    assert (zh.status, zh.produced) == ("done", ZH_CAPACITY)
    done = client_for(viewer).get(page("dataset_detail", dataset)).content.decode()
    assert "all it can make" in done and "Made fewer than asked, all they can make" in done
    again = client_for(editor).post(retry_url, follow=True).content.decode()
    assert "Only a paradigm that failed can be retried" in again


def test_status_partial_is_the_live_part_alone(make_dataset: Callable[..., Dataset], editor: object) -> None:
    """While the job runs it reloads on the job's events; once finished it no longer does."""
    dataset = make_dataset("en", n=4)
    client = client_for(editor)
    html = client.get(page("dataset_status", dataset), HTTP_HX_REQUEST="true").content.decode()
    assert html.lstrip().startswith('<div id="dataset-status"') and "<html" not in html
    assert (
        'hx-trigger="job-progress from:body, job-finished from:body"' in html and "Cancel generation" in html
    )
    run_generation(dataset)
    html = client.get(page("dataset_status", dataset), HTTP_HX_REQUEST="true").content.decode()
    assert "job-progress" not in html and "Cancel generation" not in html and "?format=jsonl" in html
    assert "paradigm-badge-done" in html and "s after it started." in html


def test_editor_can_cancel_a_running_dataset(make_dataset: Callable[..., Dataset], editor: object) -> None:
    dataset = make_dataset("en", n=10)
    client = client_for(editor)
    assert "Cancel generation" in client.get(page("dataset_detail", dataset)).content.decode()
    response = client.post(page("dataset_cancel", dataset), follow=True)
    assert "Generation cancelled; the pairs stored so far are kept." in response.content.decode()
    assert Job.objects.get(pk=dataset.job_id).status == "cancelled"


# -- Pairs and provenance ---------------------------------------------------------------------


def test_pairs_browser_marks_the_critical_region(generated: Dataset, viewer: object) -> None:
    html = client_for(viewer).get(page("dataset_pairs", generated)).content.decode()
    assert html.count('<tr class="pair"') == 20
    first = Pair.objects.get(paradigm__uid="en_sv_agreement", index=0)
    start, end = first.record["critical_region"][0]["good"]["chars"]
    assert f'<mark title="substitution">{first.sentence_good[start:end]}</mark>' in html
    assert 'class="sentence good" lang="zh"' in html


def test_pairs_browser_filters_by_paradigm_for_htmx(generated: Dataset, viewer: object) -> None:
    response = client_for(viewer).get(
        page("dataset_pairs", generated) + "?uid=zh_classifier_noun", HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="pair-list">') and "<html" not in html
    assert html.count('<tr class="pair"') == 10 and "en_sv_agreement" not in html


def test_pairs_browser_pages_through_pairs(make_dataset: Callable[..., Dataset], viewer: object) -> None:
    dataset = make_dataset("en", "zh", n=11)
    run_generation(dataset)
    with mock.patch("mpp_studio.datasets.views.PAIRS_PER_PAGE", 8):
        html = client_for(viewer).get(page("dataset_pairs", dataset) + "?page=3").content.decode()
    assert html.count('<tr class="pair"') == 6 and "Page 3 of 3" in html and "← Previous" in html


def test_unknown_paradigm_filter_shows_all_pairs(generated: Dataset, viewer: object) -> None:
    html = client_for(viewer).get(page("dataset_pairs", generated) + "?uid=nope").content.decode()
    assert html.count('<tr class="pair"') == 20


def test_provenance_names_versions_seed_and_the_words_that_filled_the_pair(
    generated: Dataset, viewer: object
) -> None:
    pair = Pair.objects.get(paradigm__uid="zh_classifier_noun", index=0)
    fillers = pair.record["provenance"]["fillers"]
    response = client_for(viewer).get(page("pair_detail", generated, pair.pk), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html
    assert pair.paradigm.template_hash in html and pair.paradigm.vocabulary_snapshot.content_hash in html
    assert "zh_classifier_noun</code>, version 1" in html and "<dt>Seed</dt><dd>0</dd>" in html
    noun_id = fillers["good"]["noun"]
    assert f"<code>{noun_id}</code>" in html and "classifier=" in html
    assert html.count('class="filler filler-good"') == len(fillers["good"])
    assert html.count('class="filler filler-bad"') == len(fillers["bad"])
    # Without htmx the same URL is a whole page.
    full = client_for(viewer).get(page("pair_detail", generated, pair.pk)).content.decode()
    start, end = pair.record["critical_region"][0]["good"]["chars"]
    marked = f'{pair.sentence_good[:start]}<mark title="substitution">{pair.sentence_good[start:end]}</mark>'
    assert "<html" in full and "<h3>Provenance</h3>" in full and marked in full


def test_provenance_of_another_datasets_pair_is_404(
    generated: Dataset, make_dataset: Callable[..., Dataset], viewer: object
) -> None:
    other = make_dataset("en", n=2, name="Other")
    run_generation(other)
    foreign = Pair.objects.filter(paradigm__dataset=other).first()
    assert client_for(viewer).get(page("pair_detail", generated, foreign.pk)).status_code == 404


# -- Delete and export ------------------------------------------------------------------------


def test_delete_asks_first_then_deletes(generated: Dataset, editor: object) -> None:
    client = client_for(editor)
    html = client.get(page("dataset_delete", generated)).content.decode()
    assert "Delete “Agreement set”?" in html and "all 20 stored pairs" in html
    response = client.post(page("dataset_delete", generated), follow=True)
    assert "Dataset “Agreement set” and its pairs were deleted." in response.content.decode()
    assert not Dataset.objects.exists() and not Pair.objects.exists()


def test_export_jsonl_is_streamed_as_an_attachment(generated: Dataset, viewer: object) -> None:
    response = client_for(viewer).get(page("dataset_export", generated) + "?format=jsonl")
    assert response.status_code == 200 and response.streaming
    assert response["Content-Disposition"] == 'attachment; filename="agreement-set.jsonl"'
    lines = b"".join(response.streaming_content).splitlines()  # type: ignore[arg-type]
    assert len(lines) == 20 and orjson.loads(lines[0])["UID"] == "en_sv_agreement"


def test_export_csv_and_hf(generated: Dataset, viewer: object) -> None:
    client = client_for(viewer)
    csv_response = client.get(page("dataset_export", generated) + "?format=csv")
    text = b"".join(csv_response.streaming_content).decode()  # type: ignore[arg-type]
    assert csv_response["Content-Type"] == "text/csv; charset=utf-8" and text.startswith("UID,phenomenon,")
    hf = client.get(page("dataset_export", generated) + "?format=hf")
    assert hf["Content-Type"] == "application/zip"
    assert 'filename="agreement-set-hf.zip"' in hf["Content-Disposition"]
    assert b"".join(hf.streaming_content).startswith(b"PK")  # type: ignore[arg-type]


def test_export_csv_for_excel_is_the_csv_after_a_byte_order_mark(generated: Dataset, viewer: object) -> None:
    client = client_for(viewer)
    plain = b"".join(client.get(page("dataset_export", generated) + "?format=csv").streaming_content)  # type: ignore[arg-type]
    excel = client.get(page("dataset_export", generated) + "?format=csv-excel")
    body = b"".join(excel.streaming_content)  # type: ignore[arg-type]
    assert body == b"\xef\xbb\xbf" + plain and not plain.startswith(b"\xef\xbb\xbf")
    assert 'filename="agreement-set-excel.csv"' in excel["Content-Disposition"]
    assert "量词" in body.decode("utf-8-sig") or "zh_classifier_noun" in body.decode("utf-8-sig")
    detail = client.get(page("dataset_detail", generated)).content.decode()
    assert 'data-format="csv-excel"' in detail


def test_export_of_a_running_dataset_or_unknown_format_says_why(
    make_dataset: Callable[..., Dataset], generated: Dataset, viewer: object
) -> None:
    client = client_for(viewer)
    running = make_dataset("en", n=3, name="Running")
    response = client.get(page("dataset_export", running) + "?format=jsonl", follow=True)
    assert (
        "The dataset is still being generated; export it once it has finished." in response.content.decode()
    )
    response = client.get(page("dataset_export", generated) + "?format=xml", follow=True)
    formats = "jsonl, csv, csv-excel, hf, zhoblimp, blimp"
    assert f"Unknown export format “xml”: choose one of {formats}." in response.content.decode()
