"""API contract tests: every operation of the OpenAPI schema (/api/schema/, drf-spectacular),
driven by schemathesis in-process over WSGI with an owner's token, through ALL of its checks.

Per operation, schemathesis' three phases run as `st run` runs them: the schema's examples, the
coverage phase (boundary and invalid values of every parameter and field, missing required ones,
undeclared methods and media types) and a bounded number of generated requests, valid and
invalid (derandomized). The path's ids are set to the objects of one full project
(tests/web/authorization_world.py), each request in a savepoint rolled back afterwards, so a
DELETE never empties the project. Then the stateful phase: bounded chains of calls linked by the
ids in the answers (create, read, change, delete), each chain in a savepoint of its own.

Every answer goes through every check schemathesis registers: no server error; documented
statuses, content types, headers and bodies; invalid requests rejected and valid ones accepted;
missing headers and undeclared methods refused; authentication enforced; a deleted object gone
and a created one there. The few exemptions (RULES_BEYOND_THE_SCHEMA, not_sent_as_generated)
are single cases, each with why.
"""

import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import hypothesis
import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck
from schemathesis.checks import (
    CHECKS,
    is_check_class,
    load_all_checks,
    negative_data_rejection,
    positive_data_acceptance,
)
from schemathesis.config import SchemathesisConfig
from schemathesis.config._checks import NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.generation.hypothesis.builder import HypothesisTestConfig, HypothesisTestMode, create_test
from schemathesis.generation.overrides import Override
from schemathesis.generation.stateful import run_state_machine_as_test

from tests.web.authorization_world import World, build_world

pytestmark = pytest.mark.django_db

EXAMPLES = 6  # generated requests per operation in the fuzzing phase (besides examples and coverage)
SCENARIOS, STEPS = 20, 8  # stateful phase: chains of calls, and calls per chain at most
PHASES = [HypothesisTestMode.EXAMPLES, HypothesisTestMode.COVERAGE, HypothesisTestMode.FUZZING]
CONFIG = {
    "checks": {
        # 413 is how the server refuses a body over its cap (core.request_errors): a rejection.
        "negative_data_rejection": {"expected-statuses": [*NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES, "413"]},
    }
}
# Path parameters set to the world's objects; generated values would almost only reach 404s.
# (`run_id` names a scoring run except under /learner/; `template_id` a library entry under
# /library/; `dataset_id` the learner triplet dataset under results/<id>/triplets/.)
PATH_ARGUMENTS = {
    "/api/projects/{project_id}/learner/": {"run_id": "learner_run_id"},
    "/api/projects/{project_id}/results/{dataset_id}/triplets/": {"dataset_id": "triplet_dataset_id"},
    "/api/library/": {"template_id": "library_template_id"},
    "/api/invitations/": {"token": "invitation_token"},
    "/api/projects/{project_id}/vocabularies/imports/": {"import_id": "vocabulary_import_id"},
    "/api/projects/{project_id}/templates/import/zhoblimp/": {"import_id": "zhoblimp_import_id"},
    "/api/projects/{project_id}/templates/import/library/": {"import_id": "library_import_id"},
}
# positive_data_acceptance expects every request the schema allows to succeed. These answers are
# 400s no schema can foresee: the rule behind them reads the database (ids and names of this
# project's objects, the user's credentials, the server's folders), hands a text to the engine
# (YAML templates and phrases, feature schemas), or ties fields together. Each operation is
# exempt only for a 400 whose errors name nothing but the fields listed for it.
P = "/api/projects/{project_id}"
# A study's settings: the project's datasets with pairs (triplets only for rank3, pairs only for
# ratings); the lines of catch and filler pairs the service reads; a rating scale's labels (two,
# or one per point) and magnitude estimation's reference sentence, which the task ties to it;
# what the engine can design from those datasets' items (a 400 on the whole request: more lists
# than items, more lists per item than lists, too few sentences to scramble, too few left over
# for practice); a URL Django's check takes (a scheme and a host with a domain), narrower than
# the format `uri`.
STUDY_SETTINGS_BEYOND_THE_SCHEMA = {
    "datasets",
    "task",
    "practice_items",
    "catch_pairs",
    "filler_pairs",
    "scale_labels",
    "reference_sentence",
    "prolific_completion_url",
    "",
}
RULES_BEYOND_THE_SCHEMA = {
    # the project's configuration ids (two or more to compare), checkpoint series; and every
    # `reduction`: a linking function whose parameters must be its own and in their ranges
    # (slln's alpha in (0, 1), ...: scoring.linking), beyond the pattern the schema gives
    f"GET {P}/results/{{dataset_id}}/leaderboard/": {"reduction"},
    f"GET {P}/results/{{dataset_id}}/configs/{{config_id}}/paradigms/": {"reduction"},
    f"GET {P}/results/{{dataset_id}}/configs/{{config_id}}/report/": {"reduction"},
    f"GET {P}/results/{{dataset_id}}/configs/{{config_id}}/items/": {"reduction", "differs_from"},
    f"GET {P}/results/{{dataset_id}}/compare/": {"configs", "reduction"},
    f"GET {P}/results/{{dataset_id}}/triplets/": {"configs"},
    f"GET {P}/results/{{dataset_id}}/learning-curve/": {"series", "reduction"},
    # items and triplets exports need `config` and csv/jsonl; triplet exports a triplet dataset
    f"GET {P}/results/{{dataset_id}}/export/": {"config", "configs", "format", "what", "reduction"},
    # a causal model of the project, and a file of its kind (the job reads it)
    f"POST {P}/token-frequencies/": {"language_model", "file"},
    # the project's template and dataset ids; a model unless the method is unigram
    f"POST {P}/datasets/": {"templates"},
    f"POST {P}/scoring-runs/": {"datasets", "language_models", "reduction"},
    # a name not taken; a source unless unigram (a folder must exist); a step needs a series;
    # the kind is fixed once scored; a series is a folder of checkpoints on the server
    f"POST {P}/language-models/": {"name", "source", "series"},
    f"PATCH {P}/language-models/{{model_id}}/": {"name", "source", "series", "kind"},
    f"POST {P}/language-models/series/": {"folder"},
    # the engine reads the YAML of templates and phrases and the feature schema; names not taken;
    # an item's features are its vocabulary's, its id not another's
    f"POST {P}/templates/": {"source_text"},
    f"POST {P}/phrases/": {"name", "text"},
    f"PUT {P}/phrases/{{phrase_id}}/": {"name", "text"},
    f"PATCH {P}/phrases/{{phrase_id}}/": {"name", "text"},
    f"POST {P}/vocabularies/": {"name", "schema"},
    f"PATCH {P}/vocabularies/{{vocabulary_id}}/": {"name", "schema"},
    f"POST {P}/vocabularies/{{vocabulary_id}}/items/": {"features", "item_id"},
    f"PATCH {P}/vocabularies/{{vocabulary_id}}/items/{{item_pk}}/": {"features", "item_id"},
    # the contents of uploaded files; a vocabulary name not taken (checked before the files are
    # kept for the import job)
    f"POST {P}/templates/import/zhoblimp/": {"files", "report", "vocabulary_name"},
    f"POST {P}/vocabularies/import/": {"file", "schema_file", "name"},
    f"POST {P}/vocabularies/import/converted/": {"file", "name"},
    f"POST {P}/vocabularies/{{vocabulary_id}}/updates/": {"file", "schema_file"},
    # a study's settings (STUDY_SETTINGS_BEYOND_THE_SCHEMA)
    f"POST {P}/studies/": STUDY_SETTINGS_BEYOND_THE_SCHEMA,
    f"PATCH {P}/studies/{{study_id}}/": STUDY_SETTINGS_BEYOND_THE_SCHEMA,
    # the project's datasets, and items of the chosen paradigms in them; the engine's design
    f"POST {P}/studies/{{study_id}}/analysis/revalidate/": {"datasets", ""},
    # a list the study's design has; pasted text that holds Prolific IDs
    f"GET {P}/studies/{{study_id}}/preview/": {"list"},
    f"POST {P}/studies/{{study_id}}/prolific/": {"prolific_ids"},
    "POST /api/token/": {""},  # wrong credentials
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
def api_schema() -> Iterator[Any]:
    """The project's OpenAPI schema, loaded through its own WSGI application.

    As in Django's test client, requests neither open nor close database connections: closing
    the test's connection when a request ends would end the test's transaction."""
    from django.core.signals import request_finished, request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        config = SchemathesisConfig.from_dict(CONFIG)
        yield schemathesis.openapi.from_wsgi(
            "/api/schema/?format=json", get_wsgi_application(), config=config
        )
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def path_values(path: str, world: World) -> dict[str, Any]:
    """Return the world's value for each path parameter of `path`."""
    renames: dict[str, str] = {}
    for prefix, names in PATH_ARGUMENTS.items():
        if path.startswith(prefix):
            renames.update(names)
    names = [part[1:-1] for part in path.split("/") if part.startswith("{")]
    return {name: world.args[renames.get(name, name)] for name in names}


class Findings:
    """The distinct failures (schemathesis' own identity: operation, kind and key) and requests."""

    def __init__(self) -> None:
        self.failures: dict[Failure, str] = {}
        self.requests = 0

    def validate(self, case: Any, response: Any, headers: dict[str, str], **kwargs: Any) -> None:
        """Run every check on one answer; keep each new failure with its report."""
        self.requests += 1
        excluded = [positive_data_acceptance] if rule_beyond_the_schema(case, response) else []
        if not_sent_as_generated(case):
            excluded.append(negative_data_rejection)
        try:
            case.validate_response(
                response, checks=all_checks(), excluded_checks=excluded, headers=headers, **kwargs
            )
        except FailureGroup as group:
            for failure in group.exceptions:
                self.failures.setdefault(failure, str(group)[:3000])


def rule_beyond_the_schema(case: Any, response: Any) -> bool:
    """Whether a 400 names only fields of RULES_BEYOND_THE_SCHEMA for its operation."""
    fields = RULES_BEYOND_THE_SCHEMA.get(case.operation.label)
    if fields is None or response.status_code != 400:
        return False
    errors = response.json().get("errors", [])
    return bool(errors) and all(error.get("field", "").split(".")[0] in fields for error in errors)


def not_sent_as_generated(case: Any) -> bool:
    """Whether a multipart body reaches the server other than schemathesis generated it, so that
    negative_data_rejection would judge a request the server never got: Werkzeug (the in-process
    transport) encodes an empty field without the line break before the next boundary, and the
    field is lost; a body that is not an object becomes the multipart preamble, which MIME
    ignores. Over HTTP neither happens."""
    if not (case.media_type or "").startswith("multipart/"):
        return False
    return not isinstance(case.body, dict) or "" in case.body.values()


def rolled_back() -> Any:
    """A savepoint whose changes are undone when it ends."""
    savepoint = transaction.atomic()
    savepoint._from_testcase = True  # type: ignore[attr-defined]  # as in the matrix: durable blocks inside
    return savepoint


def run_operation(operation: Any, world: World, headers: dict[str, str], findings: Findings) -> None:
    """Run one operation's examples, coverage and fuzzing phases through every check."""

    def check(case: Any) -> None:
        with rolled_back():
            try:
                findings.validate(
                    case, case.call(headers=headers), headers, transport_kwargs={"headers": headers}
                )
            finally:
                transaction.set_rollback(True)

    settings = hypothesis.settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
    )
    override = Override(path_parameters=path_values(operation.path, world))
    config = HypothesisTestConfig(
        project=operation.schema.config, modes=PHASES, settings=settings, override=override
    )
    create_test(operation=operation, test_func=check, config=config)()


def run_stateful(schema: Any, headers: dict[str, str], findings: Findings) -> None:
    """Run the stateful phase: chains of calls that follow the ids in the answers."""

    class Chain(schema.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            self.savepoint = rolled_back()
            self.savepoint.__enter__()

        def teardown(self) -> None:
            transaction.set_rollback(True)
            self.savepoint.__exit__(None, None, None)

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": headers}

        def validate_response(self, response: Any, case: Any, *args: Any, **kwargs: Any) -> None:
            findings.validate(case, response, headers, transport_kwargs=kwargs, recorder=self.recorder)

    settings = hypothesis.settings(
        max_examples=SCENARIOS,
        stateful_step_count=STEPS,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[hypothesis.Phase.generate],
    )
    run_state_machine_as_test(Chain, settings=settings)


def test_every_operation_keeps_its_contract(world: World, owner: Any, api_schema: Any) -> None:
    """Every operation of the schema passes every schemathesis check, per operation and in chains."""
    from rest_framework.authtoken.models import Token

    headers = {"Authorization": f"Token {Token.objects.get_or_create(user=owner)[0].key}"}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    findings = Findings()
    started = time.monotonic()
    with mock.patch("celery.app.task.Task.apply_async"):
        for operation in operations:
            run_operation(operation, world, headers, findings)
        run_stateful(api_schema, headers, findings)
    failures = findings.failures
    by_check = Counter(type(failure).checks[0] if type(failure).checks else "custom" for failure in failures)
    print(
        f"schemathesis: {len(operations)} operations, {findings.requests} requests, "
        f"{len(failures)} failures {dict(sorted(by_check.items()))}, {time.monotonic() - started:.0f} s"
    )
    assert len(operations) > 60
    assert not failures, "\n\n".join(
        f"[{f.operation}] {text}"
        for f, text in sorted(failures.items(), key=lambda item: str(item[0].operation))
    )


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


@pytest.mark.parametrize(("source", "model_status"), [("0" * 1000, 400), ("~nobody-at-all/model", 400)])
def test_a_model_source_the_server_cannot_look_up_is_no_server_error(
    source: str, model_status: int, project: Any, owner: Any, api_client_for: Callable[[object], Any]
) -> None:
    """Found by schemathesis: a source or folder longer than a file name may be (OSError) or in
    the home folder of a user the server does not have (RuntimeError) was a 500. A long source
    is no hub id (longer than the hub allows) and a ~ path names no folder: both 400 on the
    source, never a request to the hub; neither is a series' folder (400)."""
    client = api_client_for(owner)
    base = f"/api/projects/{project.pk}/language-models/"
    model = client.post(base, {"name": "Long", "source": source}, format="json")
    series = client.post(
        base + "series/", {"folder": source, "series": "s", "kind": "causal", "language": "en"}, format="json"
    )
    assert (model.status_code, series.status_code) == (model_status, 400), (model.content, series.content)
    assert series.json()["errors"][0]["field"] == "folder"
    if model_status == 400:
        assert model.json()["errors"][0]["field"] == "source"


def test_configuration_ids_that_are_not_ascii_digits_are_a_400(
    world: World, viewer: Any, api_client_for: Callable[[object], Any]
) -> None:
    """Found by schemathesis: `configs=²` (a digit to str.isdigit, not to int) was a 500."""
    client = api_client_for(viewer)
    base = f"/api/projects/{world.args['project_id']}/results/{world.args['dataset_id']}/"
    for path in ("compare/?configs=1,²", f"export/?what=metrics&format=csv&configs={HUGE_ID}"):
        response = client.get(base + path)
        assert response.status_code == 400, response.content
        assert response.json()["errors"][0]["field"] == "configs"


def test_an_api_address_no_route_takes_is_the_apis_json_404(
    owner: Any, api_client_for: Callable[[object], Any]
) -> None:
    """Found by schemathesis: /api/projects/false/datasets/ (no id) answered Django's HTML page."""
    response = api_client_for(owner).get("/api/projects/false/datasets/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["errors"][0]["field"] == ""


def test_api_fields_take_only_the_type_the_schema_gives(
    project: Any, owner: Any, api_client_for: Callable[[object], Any]
) -> None:
    """Found by schemathesis: DRF took the number 0 as the name "0", and dropped an empty form
    value of an optional field or page as if it had not been sent."""
    client = api_client_for(owner)
    url = f"/api/projects/{project.pk}/"
    sent = [
        client.patch(url, {"name": 0}, format="json"),
        client.patch(url, {"name": ""}),  # multipart: an empty value is checked, not ignored
        client.post(f"/api/projects/{project.pk}/invitations/", {"role": "viewer", "note": 0}, format="json"),
        client.get("/api/projects/?page="),
        client.get("/api/projects/?page=1&page=2"),
    ]
    expected = [(400, "name"), (400, "name"), (400, "note"), (400, "page"), (400, "page")]
    got = [(r.status_code, r.json()["errors"][0]["field"] if r.status_code == 400 else None) for r in sent]
    assert got == expected
    assert project.__class__.objects.get(pk=project.pk).name == project.name


def test_a_member_patch_without_a_role_changes_nothing(
    project: Any, owner: Any, viewer: Any, api_client_for: Callable[[object], Any]
) -> None:
    """The schema documents PATCH as partial: without `role` the membership stays as it is."""
    response = api_client_for(owner).patch(
        f"/api/projects/{project.pk}/members/{viewer.pk}/", {}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["role"] == "viewer"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("min_median_rt_ms=inf", "min_median_rt_ms"),
        ("threshold=1_0", "threshold"),
        ("include_incomplete=yes", "include_incomplete"),
    ],
)
def test_analysis_rules_are_numbers_and_words_as_documented(
    query: str, field: str, world: World, viewer: Any, api_client_for: Callable[[object], Any]
) -> None:
    """Found by schemathesis: float() read "inf" and "1_0", and any word was `include_incomplete`
    false; the schema documents finite numbers and true/false/on/off/1/0."""
    path = f"/api/projects/{world.args['project_id']}/studies/{world.args['study_id']}/analysis/?{query}"
    response = api_client_for(viewer).get(path)
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"] == field
