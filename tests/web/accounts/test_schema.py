"""The OpenAPI schema generates with the accounts endpoints, and the docs page renders without a CDN."""

from collections.abc import Callable

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ACCOUNTS_PATHS = [
    "/api/token/",
    "/api/projects/",
    "/api/projects/{project_id}/",
    "/api/projects/{project_id}/members/",
    "/api/projects/{project_id}/members/{user_id}/",
    "/api/projects/{project_id}/invitations/",
    "/api/projects/{project_id}/invitations/{invitation_id}/",
    "/api/invitations/{token}/accept/",
]


def test_schema_json_lists_the_accounts_paths(client_as: Callable[[str], Client]) -> None:
    response = client_as("viewer").get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "MPP Studio API"
    for path in ACCOUNTS_PATHS:
        assert path in schema["paths"], path
    listed = schema["paths"]["/api/projects/"]["get"]["responses"]["200"]["content"]["application/json"]
    assert listed["schema"]["$ref"].endswith("/PaginatedProjectOutputList")


def test_schema_has_no_warnings_or_errors_from_accounts_views() -> None:
    """The accounts views are fully described; other apps' warnings are theirs to report."""
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    problems = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    assert [p for p in problems if "mpp_studio/accounts/" in p] == []


def test_docs_page_renders_from_sidecar_assets(client_as: Callable[[str], Client]) -> None:
    response = client_as("viewer").get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist" in page
    assert "cdn" not in page.lower()
