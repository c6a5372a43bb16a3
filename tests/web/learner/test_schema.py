"""The OpenAPI schema describes the learner endpoints without a warning (and without clashing
with another app's component names)."""

import pytest

pytestmark = pytest.mark.django_db

LEARNER_PATHS = [
    "/api/projects/{project_id}/learner/corpora/",
    "/api/projects/{project_id}/learner/corpora/{corpus_id}/",
    "/api/projects/{project_id}/learner/corpora/{corpus_id}/runs/",
    "/api/projects/{project_id}/learner/runs/{run_id}/",
    "/api/projects/{project_id}/learner/runs/{run_id}/triplets/",
]


def test_schema_lists_the_learner_paths_without_warnings() -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    for path in LEARNER_PATHS:
        assert path in schema["paths"], path
    problems = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    assert [p for p in problems if "learner" in p.lower()] == []
    assert "TripletRunDetailOutput" in schema["components"]["schemas"]
