"""API contract tests: every operation of the OpenAPI schema (/api/schema/, drf-spectacular),
driven by schemathesis in-process over WSGI with an owner's token, with ALL of its checks.

For each operation schemathesis runs its three per-operation phases, as `st run` does: the
schema's examples, the coverage phase (boundary and invalid values of every parameter, missing
required ones, undeclared methods and media types) and a bounded number of generated requests,
valid and invalid (derandomized). The path's ids are set to the objects of one full project
(tests/web/authorization_world.py). Every response goes through every registered check: no
server error, documented statuses, content types, headers and bodies, invalid data rejected and
valid data accepted, missing headers and undeclared methods refused, authentication enforced.
Each request runs in a savepoint rolled back afterwards, so a DELETE never empties the project.
"""

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import hypothesis
import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck
from schemathesis.checks import CHECKS, is_check_class, load_all_checks
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.generation.hypothesis.builder import HypothesisTestConfig, HypothesisTestMode, create_test
from schemathesis.generation.overrides import Override

from tests.web.authorization_world import World, build_world

pytestmark = pytest.mark.django_db

import os
EXAMPLES = int(os.environ.get("CONTRACT_EXAMPLES", "6"))  # generated requests per operation in the fuzzing phase (plus examples and coverage)
MODES = [HypothesisTestMode.EXAMPLES, HypothesisTestMode.COVERAGE, HypothesisTestMode.FUZZING]
# Path parameters set to the world's objects; generated values would almost only reach 404s.
# (`run_id` names a scoring run except under /learner/; `template_id` a library entry under /library/.)
PATH_ARGUMENTS = {
    "/api/projects/{project_id}/learner/": {"run_id": "learner_run_id"},
    "/api/library/": {"template_id": "library_template_id"},
    "/api/invitations/": {"token": "invitation_token"},
}


def all_checks() -> list[Any]:
    """Every check schemathesis registers (`st run --checks all`)."""
    load_all_checks()
    return [check for check in CHECKS.get_all() if not is_check_class(check)]


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


def run_operation(
    operation: Any, world: World, headers: dict[str, str], failures: set[Failure], messages: dict[Failure, str]
) -> int:
    """Run one operation's phases through every check; collect failures; return the requests sent."""
    ran = 0
    checks = all_checks()

    def check(case: Any) -> None:
        nonlocal ran
        savepoint = transaction.atomic()
        savepoint._from_testcase = True  # type: ignore[attr-defined]  # as in the matrix: durable blocks inside
        with savepoint:
            try:
                case.call_and_validate(headers=headers, checks=checks)
            except FailureGroup as group:
                for failure in group.exceptions:
                    if failure not in failures:
                        failures.add(failure)
                        messages[failure] = str(group)[:3000]
            finally:
                transaction.set_rollback(True)
        ran += 1

    settings = hypothesis.settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
    )
    test = create_test(
        operation=operation,
        test_func=check,
        config=HypothesisTestConfig(
            project=operation.schema.config,
            modes=MODES,
            settings=settings,
            override=Override(path_parameters=path_values(operation.path, world)),
        ),
    )
    test()
    return ran


def test_every_operation_keeps_its_contract(
    world: World, owner: Any, api_schema: Any, api_client_for: Callable[[object], object]
) -> None:
    """Every operation of the schema passes every schemathesis check on generated requests."""
    from rest_framework.authtoken.models import Token

    headers = {"Authorization": f"Token {Token.objects.get_or_create(user=owner)[0].key}"}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    failures: set[Failure] = set()
    messages: dict[Failure, str] = {}
    requests = 0
    started = time.monotonic()
    with mock.patch("celery.app.task.Task.apply_async"):
        for operation in operations:
            t0 = time.monotonic()
            requests += run_operation(operation, world, headers, failures, messages)
            print(f"  {operation.label}: {time.monotonic() - t0:.1f}s", flush=True)
    elapsed = time.monotonic() - started
    by_check = Counter(type(f).checks[0] if type(f).checks else type(f).__name__ for f in failures)
    print(
        f"schemathesis: {len(operations)} operations, {requests} requests, {len(failures)} failures"
        f" in {elapsed:.0f} s {dict(by_check)}"
    )
    assert len(operations) > 60
    report = "\n\n".join(f"[{f.operation}] {messages[f]}" for f in sorted(failures, key=lambda f: (f.operation or "", type(f).__name__)))
    Path(os.environ.get("CONTRACT_REPORT", "/tmp/contract_report.txt")).write_text(report)
    assert not failures, report


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
