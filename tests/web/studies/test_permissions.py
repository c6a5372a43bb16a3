"""Who may do what with studies: viewers read, editors create, edit, open and close.

Anonymous visitors are sent to sign in; members of another project get 404 (the project is not
revealed); a viewer asking to change something gets 403. Every researcher URL is in the matrix.
The participant pages are public and need the study's slug (and a token), never a sign-in.
"""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.studies.models import Study
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


READ_PAGES = [
    ("studies:study_list", False),
    ("studies:study_detail", True),
    ("studies:study_status", True),
]
EDIT_PAGES = [
    ("GET", "studies:study_new", False),
    ("POST", "studies:study_new", False),
    ("GET", "studies:study_edit", True),
    ("POST", "studies:study_edit", True),
    ("POST", "studies:study_open", True),
    ("POST", "studies:study_close", True),
]


def url_of(name: str, with_study: bool, study: Study) -> str:
    args = [study.project_id, study.pk] if with_study else [study.project_id]
    return reverse(name, args=args)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "with_study"), READ_PAGES)
def test_read_pages(
    role: str, name: str, with_study: bool, study: Study, request: pytest.FixtureRequest
) -> None:
    url = url_of(name, with_study, study)
    response = client_for(role, request).get(url)
    expected = {"anonymous": 302, "outsider": 404}.get(role, 200)
    assert response.status_code == expected, (role, url)
    if role == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if expected == 200 and name != "studies:study_status":
        edit = "studies:study_edit" if with_study else "studies:study_new"
        link = f'href="{url_of(edit, with_study, study)}"'
        assert (link in response.content.decode()) == (role in ("editor", "owner"))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "name", "with_study"), EDIT_PAGES)
def test_edit_pages(
    role: str, method: str, name: str, with_study: bool, study: Study, request: pytest.FixtureRequest
) -> None:
    url = url_of(name, with_study, study)
    before = (Study.objects.count(), study.status)
    client = client_for(role, request)
    response = client.get(url) if method == "GET" else client.post(url, {})
    expected = {"anonymous": 302, "outsider": 404, "viewer": 403}.get(role)
    if expected is None:  # editors and owners get the page or the action's outcome
        assert response.status_code in (200, 302, 400), (role, method, url)
        return
    assert response.status_code == expected, (role, method, url)
    study.refresh_from_db()
    assert (Study.objects.count(), study.status) == before  # nothing changed


def test_another_projects_study_is_not_found_under_my_project(
    study: Study, other_project: Any, outsider: Any, make_study: Any
) -> None:
    from tests.web.studies.conftest import make_pair_dataset

    theirs = make_study(other_project, [make_pair_dataset(other_project)], name="Theirs")
    client = Client()
    assert client.login(username=outsider.username, password=PASSWORD)
    # Their own study under their project: fine; our study's id under their project: 404.
    assert client.get(reverse("studies:study_detail", args=[other_project.pk, theirs.pk])).status_code == 200
    assert client.get(reverse("studies:study_detail", args=[other_project.pk, study.pk])).status_code == 404
    assert client.post(reverse("studies:study_close", args=[other_project.pk, study.pk])).status_code == 404
    study.refresh_from_db()
    assert study.status == "open"


def test_a_viewer_cannot_open_or_close(study: Study, viewer: Any) -> None:
    client = Client()
    assert client.login(username=viewer.username, password=PASSWORD)
    assert client.post(reverse("studies:study_close", args=[study.project_id, study.pk])).status_code == 403
    study.refresh_from_db()
    assert study.status == "open"


@pytest.mark.parametrize("role", ROLES)
def test_participant_pages_need_no_sign_in(role: str, study: Study, request: pytest.FixtureRequest) -> None:
    response = client_for(role, request).get(reverse("studies_public:start", args=[study.slug]))
    assert response.status_code == 200
    assert "consent" in response.content.decode().lower()


def test_the_slug_is_random_and_unguessable(
    study: Study, project: Any, pair_dataset: Any, make_study: Any
) -> None:
    second = make_study(project, [pair_dataset], name="Second")
    assert study.slug != second.slug
    assert len(study.slug) >= 22
    assert str(study.pk) != study.slug
    assert Client().get(reverse("studies_public:start", args=[str(study.pk)])).status_code == 404
