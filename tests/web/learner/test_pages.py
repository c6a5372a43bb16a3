"""The learner pages: upload (happy path and every reason shown), the corpus page, a run's page
with its report, the triplet browser's filters, and the downloads; and the API's contents."""

import csv
import io
import json
from pathlib import Path
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.datasets.models import Pair
from mpp_studio.learner.models import LearnerCorpus, TripletRun
from tests.web.conftest import PASSWORD
from tests.web.learner.conftest import BLISS_KEYS, DEMO_M2, DEMO_META, DEMO_TSV
from triplets.report import YieldReport

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(editor: object) -> Client:
    client = Client()
    assert client.login(username=editor.username, password=PASSWORD)  # type: ignore[attr-defined]
    return client


def _form(**extra: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "Essays",
        "source_format": "parallel",
        "annotator": "0",
        "learner_column": "learner",
        "corrected_column": "corrected",
        "id_column": "sentence_id",
        "essay_column": "essay_id",
        "join_key": "essay_id",
        "metadata_key": "",
    }
    data.update(extra)
    return data


def test_upload_page_stores_the_corpus_and_shows_it(
    client: Client, project: object, run_jobs_now: None
) -> None:
    url = reverse("learner:corpus_upload", args=(project.pk,))  # type: ignore[attr-defined]
    assert b"Upload a learner corpus" in client.get(url).content
    with DEMO_TSV.open("rb") as main, DEMO_META.open("rb") as meta:
        response = client.post(url, _form(file=main, metadata_file=meta), follow=True)
    corpus = LearnerCorpus.objects.get()
    assert response.redirect_chain[-1][0] == reverse("learner:corpus_detail", args=(project.pk, corpus.pk))  # type: ignore[attr-defined]
    html = response.content.decode()
    assert "“Essays” is being read: the files are read in the background." in html
    assert f"Corpus “Essays” uploaded: {corpus.pair_count:,} pairs." in html
    assert 'data-status="done"' in html and "hx-select" not in html  # finished: nothing to follow
    assert "Pairs by L1" in html and "Chinese" in html and "Every line was read as it was." in html
    listing = client.get(reverse("learner:corpus_list", args=(project.pk,))).content.decode()  # type: ignore[attr-defined]
    assert "Essays" in listing and 'data-tab="learner"' in listing


def test_the_corpus_page_follows_the_read_job(client: Client, project: object) -> None:
    """Before a worker has read the files: the job's status, polling, and nothing to count or run yet."""
    url = reverse("learner:corpus_upload", args=(project.pk,))  # type: ignore[attr-defined]
    with DEMO_M2.open("rb") as main:
        response = client.post(url, _form(source_format="m2", file=main))
    corpus = LearnerCorpus.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("learner:corpus_detail", args=(project.pk, corpus.pk))  # type: ignore[attr-defined]
    assert corpus.source_format == "m2" and corpus.job.status == "queued" and corpus.pair_count == 0
    html = client.get(response["Location"]).content.decode()
    status_url = reverse("learner:job_status", args=(project.pk, corpus.job_id))  # type: ignore[attr-defined]
    assert f'hx-get="{status_url}"' in html and 'data-status="queued"' in html
    assert 'hx-trigger="job-finished from:body" hx-select="#corpus-status"' in html
    assert "Make triplets" not in html and "Pairs by L1" not in html and "Read report" not in html
    listing = client.get(reverse("learner:corpus_list", args=(project.pk,))).content.decode()  # type: ignore[attr-defined]
    assert "job-badge-queued" in listing and "Reading" in listing
    run = client.post(
        reverse("learner:run_new", args=(project.pk, corpus.pk)),  # type: ignore[attr-defined]
        {"seed": "0", "strict": "on", "max_tries": "20", "chunk_size": "500"},
        follow=True,
    )
    assert "is still being read: start a run once all its pairs are stored." in run.content.decode()
    assert not TripletRun.objects.exists()


def test_upload_page_shows_why_a_file_was_refused(
    client: Client, project: object, tmp_path: Path, run_jobs_now: None
) -> None:
    url = reverse("learner:corpus_upload", args=(project.pk,))  # type: ignore[attr-defined]
    latin = tmp_path / "latin.tsv"
    latin.write_bytes("learner\tcorrected\nCafé are open\tCafé is open\n".encode("latin-1"))
    with latin.open("rb") as main:
        response = client.post(url, _form(file=main))
    assert response.status_code == 400
    assert "latin.tsv is not UTF-8 text: byte 0xe9 on line 2" in response.content.decode()
    response = client.post(url, _form())
    assert response.status_code == 400 and "Choose the corpus file to upload." in response.content.decode()
    assert not LearnerCorpus.objects.exists()
    # A file whose pairs cannot be read: the job fails in words, every reason listed with its line.
    columns = tmp_path / "columns.tsv"
    columns.write_text("a\tb\nx\ty\n", encoding="utf-8")
    with columns.open("rb") as main:
        response = client.post(url, _form(file=main), follow=True)
    html = response.content.decode()
    assert response.status_code == 200 and 'data-status="failed"' in html
    assert "No pair could be read from columns.tsv, so nothing was stored." in html
    assert "the header has no column &#x27;learner&#x27;, &#x27;corrected&#x27;" in html
    assert 'class="import-issue issue-error"' in html and "Make triplets" not in html
    assert LearnerCorpus.objects.get().pair_count == 0


def test_corpus_page_lists_read_issues_with_file_and_line(
    client: Client, project: object, tmp_path: Path, run_jobs_now: None
) -> None:
    path = tmp_path / "rows.tsv"
    path.write_text("learner\tcorrected\nHe go .\tHe goes .\n\tShe has .\n", encoding="utf-8")
    with path.open("rb") as main:
        response = client.post(
            reverse("learner:corpus_upload", args=(project.pk,)),  # type: ignore[attr-defined]
            _form(file=main),
            follow=True,
        )
    html = response.content.decode()
    assert "1 problem left items out" in html
    assert (
        "<code>rows.tsv</code>" in html and '<td class="num">3</td>' in html and "the cell is empty" in html
    )


def test_run_form_starts_a_run_and_queues_its_chunks(
    client: Client, project: object, corpus: LearnerCorpus
) -> None:
    url = reverse("learner:run_new", args=(project.pk, corpus.pk))  # type: ignore[attr-defined]
    with mock.patch("mpp_studio.learner.tasks.make_triplets_chunk.delay_on_commit") as queued:
        response = client.post(url, {"seed": "4", "strict": "on", "max_tries": "10", "chunk_size": "200"})
    run = TripletRun.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "learner:run_detail", args=(project.pk, run.pk)
    )  # type: ignore[attr-defined]
    assert (run.seed, run.strict, run.max_tries, run.chunk_size) == (4, True, 10, 200)
    assert queued.call_count == 2
    page = client.get(response["Location"]).content.decode()
    assert "Downloads are available once the run has finished." in page and 'hx-get="' in page
    bad = client.post(url, {"seed": "x", "max_tries": "0", "chunk_size": "0"})
    assert bad.status_code == 400 and TripletRun.objects.count() == 1


def test_run_page_shows_the_report_and_links_the_dataset(
    client: Client, project: object, finished_run: TripletRun
) -> None:
    html = client.get(reverse("learner:run_detail", args=(project.pk, finished_run.pk))).content.decode()  # type: ignore[attr-defined]
    report = YieldReport.from_dict(finished_run.report)
    assert f'<dd class="pairs-in">{report.pairs_in}</dd>' in html
    assert f'<dd class="triplet-total">{report.total_triplets}</dd>' in html
    assert html.count('class="yield-row"') == len(report.rows())
    assert reverse("datasets:dataset_detail", args=(project.pk, finished_run.dataset_id)) in html  # type: ignore[attr-defined]
    assert "no_edit" in html and 'data-format="jsonl"' in html
    # Reasons in plain words, their codes kept as the title, each a link to its pairs.
    assert 'class="reason drill-down" title="no_edit: read these pairs"' in html
    assert ">already correct: " in html
    dataset_page = client.get(reverse("datasets:dataset_detail", args=(project.pk, finished_run.dataset_id)))  # type: ignore[attr-defined]
    assert dataset_page.status_code == 200


def test_triplet_browser_filters_by_type_l1_and_cefr(
    client: Client, project: object, finished_run: TripletRun
) -> None:
    url = reverse("learner:triplets", args=(project.pk, finished_run.pk))  # type: ignore[attr-defined]
    pairs = Pair.objects.filter(paradigm__dataset=finished_run.dataset)
    first = pairs.order_by("index").first()
    chosen = {"type": first.paradigm.uid, "l1": first.record["L1"], "cefr": first.record["cefr"]}
    expected = pairs.filter(
        paradigm__uid=chosen["type"], record__L1=chosen["l1"], record__cefr=chosen["cefr"]
    ).count()
    html = client.get(url, chosen).content.decode()
    assert html.count('<li class="triplet card"') == min(expected, 25)
    assert f"{expected} triplet" in html
    assert html.count(f'data-type="{chosen["type"]}"') == min(expected, 25)
    assert f'data-l1="{chosen["l1"]}"' in html and "<mark class=" in html
    # Nothing matches a made-up L1.
    assert "No triplet matches." in client.get(url, {"l1": "Klingon"}).content.decode()
    # Every triplet on the unfiltered first page, with both errors marked somewhere.
    html = client.get(url).content.decode()
    assert html.count('<li class="triplet card"') == min(pairs.count(), 25)


def test_text_is_escaped_in_the_browser(client: Client, project: object, finished_run: TripletRun) -> None:
    pair = Pair.objects.filter(paradigm__dataset=finished_run.dataset).order_by("index").first()
    pair.record = {**pair.record, "corrected": "<script>x</script> " + pair.record["corrected"]}
    pair.save()
    html = client.get(reverse("learner:triplets", args=(project.pk, finished_run.pk))).content.decode()  # type: ignore[attr-defined]
    assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html


def test_exports_give_every_triplet(client: Client, project: object, finished_run: TripletRun) -> None:
    url = reverse("learner:export", args=(project.pk, finished_run.pk))  # type: ignore[attr-defined]
    total = Pair.objects.filter(paradigm__dataset=finished_run.dataset).count()
    response = client.get(url, {"format": "jsonl"})
    assert response["Content-Disposition"].endswith('.jsonl"')
    records = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    assert len(records) == total and all(set(r) >= BLISS_KEYS and "chunk" not in r for r in records)
    some_type = records[0]["error_type"]
    filtered = client.get(url, {"format": "jsonl", "type": some_type})
    lines = b"".join(filtered.streaming_content).splitlines()
    assert len(lines) == sum(1 for r in records if r["error_type"] == some_type)
    rows = list(
        csv.DictReader(io.StringIO(b"".join(client.get(url, {"format": "csv"}).streaming_content).decode()))
    )
    assert len(rows) == total
    assert (
        rows[0]["corrected"] == records[0]["corrected"]
        and rows[0]["rule"] == records[0]["artificial_edit"]["rule"]
    )
    assert client.get(url, {"format": "xml"}).status_code == 302
    report = json.loads(client.get(reverse("learner:report", args=(project.pk, finished_run.pk))).content)  # type: ignore[attr-defined]
    assert report["report"] == finished_run.report and report["finished"] is True


def test_api_gives_corpora_runs_reports_and_filtered_triplets(
    project: object, viewer: object, finished_run: TripletRun, api_client_for: object
) -> None:
    api = api_client_for(viewer)  # type: ignore[operator]
    corpus = finished_run.corpus
    listing = api.get(reverse("learner_api:corpus_list", args=(project.pk,))).json()  # type: ignore[attr-defined]
    assert [c["id"] for c in listing["results"]] == [corpus.pk]
    detail = api.get(reverse("learner_api:corpus_detail", args=(project.pk, corpus.pk))).json()  # type: ignore[attr-defined]
    assert detail["pair_count"] == corpus.pair_count and detail["read_report"] == corpus.read_report
    runs = api.get(reverse("learner_api:run_list", args=(project.pk, corpus.pk))).json()  # type: ignore[attr-defined]
    assert runs["results"][0]["triplets"] == finished_run.triplet_total
    run = api.get(reverse("learner_api:run_detail", args=(project.pk, finished_run.pk))).json()  # type: ignore[attr-defined]
    assert run["report"] == finished_run.report and run["dataset"] == finished_run.dataset_id
    url = reverse("learner_api:triplets", args=(project.pk, finished_run.pk))  # type: ignore[attr-defined]
    everything = api.get(url, {"page_size": 1000}).json()
    assert everything["count"] == finished_run.triplet_total
    first = everything["results"][0]
    assert set(first["record"]) >= BLISS_KEYS and "chunk" not in first["record"]
    l1 = first["record"]["L1"]
    only = api.get(url, {"l1": l1, "type": first["error_type"]}).json()
    assert (
        only["count"]
        == Pair.objects.filter(
            paradigm__dataset=finished_run.dataset, paradigm__uid=first["error_type"], record__L1=l1
        ).count()
    )
    assert all(t["record"]["L1"] == l1 and t["error_type"] == first["error_type"] for t in only["results"])
    bad = api.post(
        reverse("learner_api:run_list", args=(project.pk, corpus.pk)), {"chunk_size": 0}, format="json"
    )
    assert bad.status_code == 403  # a viewer


def test_a_learner_dataset_being_made_offers_no_cancel_generation(
    client: Client, project: object, corpus: LearnerCorpus
) -> None:
    from mpp_studio.learner.services import run_create

    run = run_create(corpus=corpus, dispatch=False)  # type: ignore[arg-type]
    html = client.get(reverse("datasets:dataset_detail", args=(project.pk, run.dataset_id))).content.decode()  # type: ignore[attr-defined]
    assert 'data-status="queued"' in html and "Cancel generation" not in html
    cancel = client.post(reverse("datasets:dataset_cancel", args=(project.pk, run.dataset_id)), follow=True)  # type: ignore[attr-defined]
    assert "holds learner triplets: it is read-only" in cancel.content.decode()
    run.job.refresh_from_db()
    assert run.job.status == "queued"


def test_the_dataset_page_says_learner_triplets_and_links_the_run(
    client: Client, project: object, finished_run: object
) -> None:
    dataset = finished_run.dataset  # type: ignore[attr-defined]
    html = client.get(reverse("datasets:dataset_detail", args=(project.pk, dataset.pk))).content.decode()  # type: ignore[attr-defined]
    run_url = reverse("learner:run_detail", args=(project.pk, finished_run.pk))  # type: ignore[attr-defined]
    assert "Learner triplets, read-only" in html and f'href="{run_url}"' in html
    assert "learner error type" in html and "read from files" not in html
    assert "Pairs per paradigm" not in html


def test_each_yield_report_cell_opens_its_pairs(
    client: Client, project: object, finished_run: TripletRun
) -> None:
    report = YieldReport.from_dict(finished_run.report)
    url = reverse("learner:dropped", args=(project.pk, finished_run.pk))  # type: ignore[attr-defined]
    html = client.get(reverse("learner:run_detail", args=(project.pk, finished_run.pk))).content.decode()  # type: ignore[attr-defined]
    # Source pairs dropped before they had a type: the already-correct ones.
    page = client.get(url, {"type": "", "reason": "no_edit"})
    assert page.status_code == 200
    text = page.content.decode()
    count = report.pairs_dropped["no_edit"]
    assert f"{count} source pair" in text
    examples = report.examples_of(YieldReport.SOURCE_PAIRS, "no_edit")
    assert examples and text.count('class="dropped-pair"') == len(examples)
    corpus_pair = finished_run.corpus.pairs.get(pair_id=examples[0])  # type: ignore[attr-defined]
    assert corpus_pair.learner == corpus_pair.corrected and corpus_pair.learner in text
    # A typed cell: single-edit pairs, each the source pair and which of its edits was kept.
    error_type, reasons = next((t, r) for t, r in report.dropped.items() if r)
    reason = next(iter(reasons))
    assert f"?type={error_type}&amp;reason={reason}".replace(":", "%3A") in html
    typed = client.get(url, {"type": error_type, "reason": reason}).content.decode()
    kept = report.examples_of(error_type, reason)
    assert typed.count('class="dropped-pair"') == len(kept) and "edit " in typed
    assert 'class="learner-sentence"' in typed
    # A cell the report does not have: said, not an error page.
    missing = client.get(url, {"type": "R:NOUN", "reason": "no_such_reason"})
    assert missing.status_code == 200 and "has no pair dropped for this reason" in missing.content.decode()
