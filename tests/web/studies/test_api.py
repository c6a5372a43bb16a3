"""The read-only studies API: who may read it, what it returns, and its schema."""

from typing import Any

import pytest
from django.urls import reverse

from mpp_studio.studies.models import Study
from tests.web.studies.conftest import start

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "viewer", "editor", "owner")


def api_client(role: str, request: pytest.FixtureRequest) -> Any:
    from rest_framework.test import APIClient

    if role == "anonymous":
        return APIClient()
    if role == "outsider":
        request.getfixturevalue("other_project")
    return request.getfixturevalue("api_client_for")(request.getfixturevalue(role))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", ["studies_api:study_list", "studies_api:study_detail"])
def test_api_permissions(role: str, name: str, study: Study, request: pytest.FixtureRequest) -> None:
    args = [study.project_id] + ([study.pk] if name.endswith("detail") else [])
    client = api_client(role, request)
    response = client.get(reverse(name, args=args))
    assert response.status_code == {"anonymous": 401, "outsider": 404}.get(role, 200)
    if role in ("viewer", "editor"):  # read-only: viewers may not write, editors find no write
        expected = 405 if role == "editor" else 403
        assert client.post(reverse(name, args=args), {}).status_code == expected


def test_api_returns_the_study_and_its_lists(study: Study, viewer: Any, api_client_for: Any) -> None:
    start(study, "A")
    start(study, "B")
    client = api_client_for(viewer)
    listed = client.get(reverse("studies_api:study_list", args=[study.project_id])).json()
    assert [s["id"] for s in listed["results"]] == [study.pk]
    assert listed["results"][0]["status"] == "open"
    detail = client.get(reverse("studies_api:study_detail", args=[study.project_id, study.pk])).json()
    assert detail["design"]["format"] == "mpp-study-design"
    assert [(row["list_index"], row["active"], row["needed"]) for row in detail["lists"]] == [
        (0, 1, 5),
        (1, 1, 5),
    ]
    other = reverse("studies_api:study_detail", args=[study.project_id, study.pk + 999])
    assert client.get(other).status_code == 404


def test_schema_has_no_warnings_from_the_studies_api() -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    assert "/api/projects/{project_id}/studies/{study_id}/" in schema["paths"]
    problems = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    assert [p for p in problems if "studies" in p.lower()] == []
