"""Who may do what with learner corpora and runs: viewers read, editors upload and run.

Anonymous visitors are sent to sign in (pages) or refused (API, 401); members of another project
get 404 (the project is not revealed); a viewer asking to change something gets 403.
"""

from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.learner.models import LearnerCorpus, TripletRun
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "viewer", "editor", "owner")


def client_for(role: str, request: pytest.FixtureRequest) -> Client:
    client = Client()
    if role != "anonymous":
        if role == "outsider":
            request.getfixturevalue("other_project")
        user = request.getfixturevalue(role)
        assert client.login(username=user.username, password=PASSWORD)
    return client


def api_client(role: str, request: pytest.FixtureRequest) -> object:
    from rest_framework.test import APIClient

    if role == "anonymous":
        return APIClient()
    if role == "outsider":
        request.getfixturevalue("other_project")
    return request.getfixturevalue("api_client_for")(request.getfixturevalue(role))


@pytest.fixture
def ready(small_run: TripletRun) -> dict[str, int]:
    return {
        "project_id": small_run.corpus.project_id,
        "corpus_id": small_run.corpus_id,
        "run_id": small_run.pk,
        "job_id": small_run.job_id,  # type: ignore[dict-item]
    }


READ_PAGES = [
    ("learner:corpus_list", ("project_id",), ""),
    ("learner:corpus_detail", ("project_id", "corpus_id"), ""),
    ("learner:run_detail", ("project_id", "run_id"), ""),
    ("learner:run_status", ("project_id", "run_id"), ""),
    ("learner:triplets", ("project_id", "run_id"), "?l1=Chinese"),
    ("learner:export", ("project_id", "run_id"), "?format=jsonl"),
    ("learner:export", ("project_id", "run_id"), "?format=csv"),
    ("learner:report", ("project_id", "run_id"), ""),
    ("learner:job_status", ("project_id", "job_id"), ""),
]
EDIT_PAGES = [
    ("GET", "learner:corpus_upload", ("project_id",)),
    ("POST", "learner:corpus_upload", ("project_id",)),
    ("POST", "learner:run_new", ("project_id", "corpus_id")),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "keys", "query"), READ_PAGES)
def test_read_pages(
    role: str,
    name: str,
    keys: tuple[str, ...],
    query: str,
    ready: dict[str, int],
    request: pytest.FixtureRequest,
) -> None:
    url = reverse(name, args=[ready[k] for k in keys]) + query
    response = client_for(role, request).get(url)
    expected = {"anonymous": 302, "outsider": 404}.get(role, 200)
    assert response.status_code == expected, (role, url)
    if role == "anonymous":
        assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "name", "keys"), EDIT_PAGES)
def test_edit_pages(
    role: str,
    method: str,
    name: str,
    keys: tuple[str, ...],
    ready: dict[str, int],
    request: pytest.FixtureRequest,
) -> None:
    url = reverse(name, args=[ready[k] for k in keys])
    client = client_for(role, request)
    with mock.patch("mpp_studio.learner.tasks.make_triplets_chunk.delay_on_commit"):
        response = client.get(url) if method == "GET" else client.post(url, {"seed": "1", "max_tries": "0"})
    expected = {"anonymous": 302, "outsider": 404, "viewer": 403}.get(role, 200 if method == "GET" else 400)
    assert response.status_code == expected, (role, method, url)
    # Nothing was made by anyone: the forms were incomplete.
    assert LearnerCorpus.objects.count() == 1 and TripletRun.objects.count() == 1


def test_objects_of_another_project_are_404(
    small_run: TripletRun, other_project: object, outsider: object
) -> None:
    """Even with the outsider's own project in the URL, another project's corpus or run is 404."""
    client = Client()
    assert client.login(username=outsider.username, password=PASSWORD)  # type: ignore[attr-defined]
    pid = other_project.pk  # type: ignore[attr-defined]
    for name, object_id in (
        ("corpus_detail", small_run.corpus_id),
        ("run_new", small_run.corpus_id),
        ("run_detail", small_run.pk),
        ("triplets", small_run.pk),
        ("export", small_run.pk),
        ("report", small_run.pk),
    ):
        url = reverse(f"learner:{name}", args=(pid, object_id))
        response = client.post(url) if name == "run_new" else client.get(url)
        assert response.status_code == 404, name
    api = {
        "learner_api:corpus_detail": small_run.corpus_id,
        "learner_api:run_list": small_run.corpus_id,
        "learner_api:run_detail": small_run.pk,
        "learner_api:triplets": small_run.pk,
    }
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    api_client_ = APIClient()
    api_client_.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=outsider)[0].key}")
    for name, object_id in api.items():
        assert api_client_.get(reverse(name, args=(pid, object_id))).status_code == 404, name


API_READS = [
    ("learner_api:corpus_list", ("project_id",), ""),
    ("learner_api:corpus_detail", ("project_id", "corpus_id"), ""),
    ("learner_api:run_list", ("project_id", "corpus_id"), ""),
    ("learner_api:run_detail", ("project_id", "run_id"), ""),
    ("learner_api:triplets", ("project_id", "run_id"), "?cefr=A2"),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "keys", "query"), API_READS)
def test_api_reads(
    role: str,
    name: str,
    keys: tuple[str, ...],
    query: str,
    ready: dict[str, int],
    request: pytest.FixtureRequest,
) -> None:
    url = reverse(name, args=[ready[k] for k in keys]) + query
    response = api_client(role, request).get(url)  # type: ignore[attr-defined]
    expected = {"anonymous": 401, "outsider": 404}.get(role, 200)
    assert response.status_code == expected, (role, url)
    if expected != 200:
        assert response.json()["errors"][0]["message"]


@pytest.mark.parametrize("role", ROLES)
def test_api_create_run(role: str, ready: dict[str, int], request: pytest.FixtureRequest) -> None:
    url = reverse("learner_api:run_list", args=(ready["project_id"], ready["corpus_id"]))
    with mock.patch("mpp_studio.learner.tasks.make_triplets_chunk.delay_on_commit") as queued:
        response = api_client(role, request).post(url, {"seed": 3, "chunk_size": 10}, format="json")  # type: ignore[attr-defined]
    expected = {"anonymous": 401, "outsider": 404, "viewer": 403}.get(role, 202)
    assert response.status_code == expected, (role, response.content)
    if expected == 202:
        assert TripletRun.objects.count() == 2 and queued.call_count == 3
        assert response.json()["seed"] == 3 and response.json()["job"]["status"] == "queued"
    else:
        assert TripletRun.objects.count() == 1 and not queued.called
