"""Who may do what with datasets and jobs: viewers read, editors create, cancel and delete.

Anonymous visitors are sent to sign in (pages) or refused (API, 401); members of another project
get 404 (the project is not revealed); a viewer asking to change something gets 403.
"""

from collections.abc import Callable
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.datasets.models import Dataset, Pair
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
def ready(generated: Dataset) -> dict[str, int]:
    pair = Pair.objects.filter(paradigm__dataset=generated).first()
    return {
        "project_id": generated.project_id,
        "dataset_id": generated.pk,
        "pair_id": pair.pk,
        "job_id": generated.job_id,
    }


READ_PAGES = [
    ("datasets:dataset_list", ("project_id",), ""),
    ("datasets:dataset_detail", ("project_id", "dataset_id"), ""),
    ("datasets:dataset_status", ("project_id", "dataset_id"), ""),
    ("datasets:dataset_pairs", ("project_id", "dataset_id"), "?uid=en_sv_agreement"),
    ("datasets:pair_detail", ("project_id", "dataset_id", "pair_id"), ""),
    ("datasets:dataset_export", ("project_id", "dataset_id"), "?format=jsonl"),
    ("datasets:dataset_export", ("project_id", "dataset_id"), "?format=csv"),
    ("datasets:dataset_export", ("project_id", "dataset_id"), "?format=hf"),
    ("datasets:job_status", ("project_id", "job_id"), ""),
]
EDIT_PAGES = [
    ("GET", "datasets:dataset_new", ("project_id",)),
    ("POST", "datasets:dataset_new", ("project_id",)),
    ("GET", "datasets:dataset_delete", ("project_id", "dataset_id")),
    ("POST", "datasets:dataset_delete", ("project_id", "dataset_id")),
    ("POST", "datasets:dataset_cancel", ("project_id", "dataset_id")),
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
    with mock.patch("mpp_studio.datasets.tasks.generate_paradigm.delay"):
        response = client.get(url) if method == "GET" else client.post(url, {"name": ""})
    expected = {"anonymous": 302, "outsider": 404, "viewer": 403}.get(role, 200 if method == "GET" else None)
    if expected is None:  # editors and owners: the form re-shows (empty name) or the action redirects
        assert response.status_code in (200, 302), (role, method, url)
    else:
        assert response.status_code == expected, (role, method, url)
    if role in ("anonymous", "outsider", "viewer"):
        assert Dataset.objects.filter(pk=ready["dataset_id"]).exists()


def test_pages_of_another_projects_dataset_are_404(
    generated: Dataset, other_project: object, outsider: object
) -> None:
    """Even with the right project in the URL, another project's dataset id is a 404."""
    client = Client()
    assert client.login(username=outsider.username, password=PASSWORD)  # type: ignore[attr-defined]
    for name in ("dataset_detail", "dataset_pairs", "dataset_delete"):
        url = reverse(f"datasets:{name}", args=(other_project.pk, generated.pk))  # type: ignore[attr-defined]
        assert client.get(url).status_code == 404


API_READS = [
    ("datasets_api:dataset_list", ("project_id",), ""),
    ("datasets_api:dataset_detail", ("project_id", "dataset_id"), ""),
    ("datasets_api:dataset_pairs", ("project_id", "dataset_id"), "?uid=zh_classifier_noun"),
    ("datasets_api:dataset_export", ("project_id", "dataset_id"), "?format=jsonl"),
    ("datasets_api:dataset_export", ("project_id", "dataset_id"), "?format=csv"),
    ("datasets_api:dataset_export", ("project_id", "dataset_id"), "?format=hf"),
    ("datasets_api:job_detail", ("project_id", "job_id"), ""),
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
@pytest.mark.parametrize(
    ("method", "name", "keys"),
    [
        ("post", "datasets_api:dataset_list", ("project_id",)),
        ("delete", "datasets_api:dataset_detail", ("project_id", "dataset_id")),
        ("post", "datasets_api:job_cancel", ("project_id", "job_id")),
    ],
)
def test_api_writes(
    role: str,
    method: str,
    name: str,
    keys: tuple[str, ...],
    ready: dict[str, int],
    request: pytest.FixtureRequest,
    templates: dict[str, object],
) -> None:
    url = reverse(name, args=[ready[k] for k in keys])
    client = api_client(role, request)
    payload = {"name": "By API", "templates": ["en_sv_agreement"], "pairs_per_paradigm": 3}
    with mock.patch("mpp_studio.datasets.tasks.generate_paradigm.delay"):
        response = getattr(client, method)(url, payload, format="json")
    expected = {"anonymous": 401, "outsider": 404, "viewer": 403}.get(role)
    if expected is None:
        assert response.status_code in (200, 202, 204), (role, method, url, response.content)
    else:
        assert response.status_code == expected, (role, method, url)
        assert Dataset.objects.count() == 1 and Dataset.objects.filter(pk=ready["dataset_id"]).exists()


def test_api_objects_of_another_project_are_404(
    generated: Dataset, make_user: Callable[..., object], api_client_for: Callable[[object], object]
) -> None:
    from mpp_studio.accounts.models import Membership, Project

    stranger = make_user("stella")
    theirs = Project.objects.create(name="Theirs", created_by=stranger)  # type: ignore[misc]
    Membership.objects.create(project=theirs, user=stranger, role="owner")
    client = api_client_for(stranger)
    for name, extra in (
        ("datasets_api:dataset_detail", generated.pk),
        ("datasets_api:dataset_pairs", generated.pk),
        ("datasets_api:dataset_export", generated.pk),
        ("datasets_api:job_detail", generated.job_id),
    ):
        assert client.get(reverse(name, args=(theirs.pk, extra))).status_code == 404  # type: ignore[attr-defined]
