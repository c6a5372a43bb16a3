"""API contract tests: every operation of the OpenAPI schema (/api/schema/, drf-spectacular),
driven by schemathesis in-process over WSGI with an owner's token.

For each operation schemathesis generates requests from the schema (derandomized, a bounded
number each) with the path's ids set to the objects of one full project (tests/web/
authorization_world.py), and checks every response: no server error, a status code the schema
documents, the documented content type, and a body that conforms to the documented schema.
Each request runs in a savepoint rolled back afterwards, so a DELETE never empties the project.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import hypothesis
import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, given
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.web.authorization_world import World, build_world

pytestmark = pytest.mark.django_db

EXAMPLES = 6  # generated requests per operation (plus schemathesis' explicit examples)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Path parameters set to the world's objects; generated values would almost only reach 404s.
# (`run_id` names a scoring run except under /learner/; `template_id` a library entry under /library/.)
PATH_ARGUMENTS = {
    "/api/projects/{project_id}/learner/": {"run_id": "learner_run_id"},
    "/api/library/": {"template_id": "library_template_id"},
    "/api/invitations/": {"token": "invitation_token"},
}


@pytest.fixture
def world(project: Any, owner: Any, editor: Any, viewer: Any, tmp_path: Path) -> World:
    return build_world(
        project=project, owner=owner, editor=editor, viewer=viewer, library_dir=tmp_path / "lib"
    )


@pytest.fixture
def api_schema() -> Any:
    """The project's OpenAPI schema, loaded through its own WSGI application."""
    from django.core.wsgi import get_wsgi_application

    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


def path_values(path: str, world: World) -> dict[str, Any]:
    """Return the world's value for each path parameter of `path`."""
    renames: dict[str, str] = {}
    for prefix, names in PATH_ARGUMENTS.items():
        if path.startswith(prefix):
            renames.update(names)
    names = [part[1:-1] for part in path.split("/") if part.startswith("{")]
    return {name: world.args[renames.get(name, name)] for name in names}


def run_operation(operation: Any, world: World, headers: dict[str, str]) -> int:
    """Run EXAMPLES generated requests of one operation through the checks; return how many ran."""
    ran = 0
    fixed = path_values(operation.path, world)

    @hypothesis.settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
    )
    @given(case=operation.as_strategy())
    def check(case: Any) -> None:
        nonlocal ran
        case.path_parameters = {**(case.path_parameters or {}), **fixed}
        savepoint = transaction.atomic()
        savepoint._from_testcase = True  # type: ignore[attr-defined]  # as in the matrix: durable blocks inside
        with savepoint:
            try:
                case.call_and_validate(headers=headers, checks=CHECKS)
            finally:
                transaction.set_rollback(True)
        ran += 1

    check()
    return ran


def test_every_operation_keeps_its_contract(
    world: World, owner: Any, api_schema: Any, api_client_for: Callable[[object], object]
) -> None:
    """Every operation of the schema answers generated requests without a 5xx, with documented
    statuses, content types and bodies."""
    from rest_framework.authtoken.models import Token

    headers = {"Authorization": f"Token {Token.objects.get_or_create(user=owner)[0].key}"}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    failures: dict[str, str] = {}
    examples = 0
    with mock.patch("celery.app.task.Task.apply_async"):
        for operation in operations:
            try:
                examples += run_operation(operation, world, headers)
            except (Exception, BaseExceptionGroup) as exc:  # collected: one report for every operation
                failures[operation.label] = str(exc)[:2000]
    print(f"schemathesis: {len(operations)} operations, {examples} requests, {len(failures)} failing")
    assert len(operations) > 60
    assert failures == {}, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())


# -- Regressions found by the contract test ------------------------------------------------------
HUGE_ID = 10**22  # beyond any 64-bit key: SQLite could not even bind it (500 before the fix)


def test_a_scoring_run_with_an_id_beyond_64_bits_is_a_400(
    project: Any, owner: Any, api_client_for: Callable[[object], Any]
) -> None:
    """Found by schemathesis: POST scoring-runs/ with a dataset id of 10**22 was a 500."""
    client = api_client_for(owner)
    url = f"/api/projects/{project.pk}/scoring-runs/"
    for field in ("datasets", "language_models"):
        payload = {"name": "Huge", "datasets": [1], "language_models": [], field: [HUGE_ID]}
        response = client.post(url, payload, format="json")
        assert response.status_code == 400, response.content
        assert response.json()["errors"][0]["field"].startswith(field)


def test_a_library_import_with_an_id_beyond_64_bits_is_a_400(
    project: Any, owner: Any, api_client_for: Callable[[object], Any]
) -> None:
    """The same overflow in the library import's template ids (a project id that large is a 404)."""
    client = api_client_for(owner)
    payload = {"project": project.pk, "templates": [HUGE_ID]}
    response = client.post("/api/library/import/", payload, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"].startswith("templates")


def test_the_study_analysis_api_answers_bad_rules_in_the_error_layout(
    world: World, viewer: Any, api_client_for: Callable[[object], Any]
) -> None:
    """Found by schemathesis: a bad rule came back as {"tie": [...]}, not {"errors": [...]}."""
    path = f"/api/projects/{world.args['project_id']}/studies/{world.args['study_id']}/analysis/"
    response = api_client_for(viewer).get(path, {"tie": "strings"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "tie"
