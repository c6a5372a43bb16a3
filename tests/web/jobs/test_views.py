"""The job status partial: polled by htmx every 2 s; 286 (stop polling) once the job has finished."""

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.jobs.models import Job
from mpp_studio.jobs.services import job_create, job_fail, job_finish, job_progress, job_start
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(project: object) -> Job:
    return job_create(project=project, kind="dataset_generate", total=200)  # type: ignore[arg-type]


def url(job: Job) -> str:
    return reverse("datasets:job_status", args=(job.project_id, job.pk))


def client_for(user: object) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)  # type: ignore[attr-defined]
    return client


def test_running_job_polls_every_two_seconds(job: Job, viewer: object) -> None:
    job_start(job_id=job.pk)
    job_progress(job_id=job.pk, done=50, message="Generating en_sv_agreement: 50 of 200 pairs stored.")
    response = client_for(viewer).get(url(job), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'hx-trigger="every 2s"' in html and f'hx-get="{url(job)}"' in html
    assert 'aria-valuenow="25"' in html and "width: 25%" in html
    assert "50 of 200" in html and "Generating en_sv_agreement" in html
    assert response.headers["HX-Trigger"] == f'{{"job-progress": {{"id": {job.pk}, "status": "running"}}}}'


def test_finished_job_stops_polling_with_286(job: Job, viewer: object) -> None:
    job_start(job_id=job.pk)
    job_finish(job_id=job.pk, message="Generated 200 pairs in 2 paradigms.")
    response = client_for(viewer).get(url(job), HTTP_HX_REQUEST="true")
    assert response.status_code == 286
    html = response.content.decode()
    assert "hx-trigger" not in html and "width: 100%" in html and "Generated 200 pairs" in html
    assert '"job-finished"' in response.headers["HX-Trigger"]


def test_failed_job_shows_its_reason(job: Job, viewer: object) -> None:
    job_start(job_id=job.pk)
    job_fail(job_id=job.pk, message="1 of 2 paradigms failed:\nzh_classifier_noun: can make at most 11")
    response = client_for(viewer).get(url(job), HTTP_HX_REQUEST="true")
    assert response.status_code == 286
    html = response.content.decode()
    assert "Why it failed:" in html and "zh_classifier_noun: can make at most 11" in html
    assert "Failed" in html


def test_plain_request_gets_200(job: Job, viewer: object) -> None:
    job_finish(job_id=job.pk)
    assert client_for(viewer).get(url(job)).status_code == 200


def test_anonymous_is_sent_to_sign_in(job: Job) -> None:
    response = Client().get(url(job))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_outsider_gets_404(job: Job, outsider: object, other_project: object) -> None:
    assert client_for(outsider).get(url(job)).status_code == 404


def test_job_of_another_project_is_404(project: object, other_project: object, viewer: object) -> None:
    foreign = job_create(project=other_project, kind="dataset_generate")  # type: ignore[arg-type]
    response = client_for(viewer).get(reverse("datasets:job_status", args=(project.pk, foreign.pk)))  # type: ignore[attr-defined]
    assert response.status_code == 404


@pytest.mark.parametrize("role", ["viewer", "editor", "owner"])
def test_every_member_sees_the_status(job: Job, role: str, request: pytest.FixtureRequest) -> None:
    assert client_for(request.getfixturevalue(role)).get(url(job)).status_code == 200


def test_byte_progress_job_shows_sizes_read(project: object, viewer: object) -> None:
    """A job that counts the KiB of its files read shows sizes and their unit, not bare counts,
    also when the partial is polled without a `unit` from the page."""
    from mpp_studio.jobs.services import progress_kib

    job = job_create(
        project=project,  # type: ignore[arg-type]
        kind="dataset_import",
        total=progress_kib(5_872_026),
        unit=Job.ProgressUnit.KIB,
    )
    job_start(job_id=job.pk)
    job_progress(job_id=job.pk, done=progress_kib(1_258_291))
    html = client_for(viewer).get(url(job), HTTP_HX_REQUEST="true").content.decode()
    assert "1.2 MB of 5.6 MB read · 21%" in html
    assert "1,229 of" not in html


def test_counted_job_keeps_bare_counts(job: Job, viewer: object) -> None:
    """A job that counts units of work (pairs) keeps its counts."""
    job_progress(job_id=job.pk, done=50)
    html = client_for(viewer).get(url(job), HTTP_HX_REQUEST="true").content.decode()
    assert "50 of 200 · 25%" in html and "MB" not in html
