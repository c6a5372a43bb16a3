"""The evaluation API: each endpoint's answer, who may call it, and bad parameters as 400s naming
the field (never a server error)."""

from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from rest_framework.test import APIClient

from mpp_studio.evaluation.models import LanguageModel, ScoreConfig, ScoringRun, SentenceScore
from mpp_studio.evaluation.services import language_model_create
from tests.web.evaluation.conftest import run_chunks

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "viewer", "editor", "owner")


def api_client(role: str, request: pytest.FixtureRequest) -> APIClient:
    if role == "anonymous":
        return APIClient()
    if role == "outsider":
        request.getfixturevalue("other_project")
    return request.getfixturevalue("api_client_for")(request.getfixturevalue(role))  # type: ignore[no-any-return]


@pytest.fixture
def scored(make_run: Callable[..., ScoringRun], unigram_en: LanguageModel, generated: object) -> ScoringRun:
    """A finished unigram run over `generated`."""
    run = make_run([unigram_en])
    run_chunks(run)
    return run


def base(project: object) -> str:
    return f"/api/projects/{project.pk}/"  # type: ignore[attr-defined]


def field_errors(response: object) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for error in response.json()["errors"]:  # type: ignore[attr-defined]
        errors.setdefault(error["field"], []).append(error["message"])
    return errors


# -- Permissions ------------------------------------------------------------------------------


def read_urls(project: object, run: ScoringRun, dataset: object) -> list[tuple[str, int]]:
    """Every read endpoint, with what a member gets (400: parameters naming nothing readable)."""
    config = run.configs.get()
    root = base(project)
    results = f"{root}results/{dataset.pk}/"  # type: ignore[attr-defined]
    return [
        (f"{root}language-models/", 200),
        (f"{root}language-models/{config.language_model_id}/", 200),
        (f"{root}scoring-runs/", 200),
        (f"{root}scoring-runs/{run.pk}/", 200),
        (f"{results}leaderboard/", 200),
        (f"{results}configs/{config.pk}/paradigms/", 200),
        (f"{results}configs/{config.pk}/report/", 200),
        (f"{results}configs/{config.pk}/items/", 200),
        (f"{results}compare/?configs={config.pk},{config.pk + 1000}", 400),
        (f"{results}learning-curve/?series=none", 400),
        (f"{results}export/?what=items&config={config.pk}", 200),
        (f"{results}export/?what=metrics&format=json", 200),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_reading_needs_membership(
    role: str, request: pytest.FixtureRequest, project: object, scored: ScoringRun, generated: object
) -> None:
    client = api_client(role, request)
    for url, member_code in read_urls(project, scored, generated):
        response = client.get(url)
        expected = {"anonymous": 401, "outsider": 404}.get(role, member_code)
        assert response.status_code == expected, (url, response.status_code)


@pytest.mark.parametrize(("role", "code"), [("anonymous", 401), ("outsider", 404), ("viewer", 403)])
def test_changing_needs_the_editor_role(
    role: str,
    code: int,
    request: pytest.FixtureRequest,
    project: object,
    scored: ScoringRun,
    generated: object,
) -> None:
    client = api_client(role, request)
    root = base(project)
    model_id = scored.configs.get().language_model_id
    calls = [
        ("post", f"{root}language-models/", {"name": "m", "source": "gpt2"}),
        ("patch", f"{root}language-models/{model_id}/", {"notes": "x"}),
        ("delete", f"{root}language-models/{model_id}/", None),
        ("post", f"{root}language-models/series/", {"folder": "/tmp", "series": "s"}),
        ("post", f"{root}scoring-runs/", {"name": "r", "datasets": [generated.pk], "method": "unigram"}),  # type: ignore[attr-defined]
        ("post", f"{root}scoring-runs/{scored.pk}/cancel/", None),
        ("delete", f"{root}scoring-runs/{scored.pk}/", None),
    ]
    for method, url, data in calls:
        response = getattr(client, method)(url, data, format="json")
        assert response.status_code == code, (method, url, response.status_code)
    assert LanguageModel.objects.filter(pk=model_id).exists() and ScoringRun.objects.count() == 1


def test_another_projects_rows_are_not_found(
    request: pytest.FixtureRequest,
    other_project: object,
    outsider: object,
    scored: ScoringRun,
    generated: object,
) -> None:
    """The outsider, in their own project, cannot reach this project's run, model or dataset."""
    client = request.getfixturevalue("api_client_for")(outsider)
    root = base(other_project)
    config = scored.configs.get()
    for url in (
        f"{root}scoring-runs/{scored.pk}/",
        f"{root}language-models/{config.language_model_id}/",
        f"{root}results/{generated.pk}/leaderboard/",  # type: ignore[attr-defined]
    ):
        assert client.get(url).status_code == 404, url
    mine = language_model_create(project=other_project, name="mine", source="gpt2")  # type: ignore[arg-type]
    response = client.post(
        f"{root}scoring-runs/",
        {"name": "r", "language_models": [mine.pk], "datasets": [generated.pk]},  # type: ignore[attr-defined]
        format="json",
    )
    assert response.status_code == 400
    assert field_errors(response) == {"datasets": [f"This project has no dataset with id {generated.pk}."]}  # type: ignore[attr-defined]


# -- Language models --------------------------------------------------------------------------


def test_language_model_crud(request: pytest.FixtureRequest, project: object, editor: object) -> None:
    client = request.getfixturevalue("api_client_for")(editor)
    root = base(project)
    created = client.post(
        f"{root}language-models/",
        {"name": "bert-tiny", "source": "prajjwal1/bert-tiny", "kind": "masked", "revision": "main"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["kind"], body["methods"], body["default_method"]) == (
        "masked",
        ["pll_word_l2r", "pll", "holistic"],
        "pll_word_l2r",
    )
    url = f"{root}language-models/{body['id']}/"
    assert client.get(f"{root}language-models/").json()["count"] == 1
    patched = client.patch(url, {"notes": "4 layers"}, format="json")
    assert patched.status_code == 200 and patched.json()["notes"] == "4 layers"
    assert patched.json()["source"] == "prajjwal1/bert-tiny"  # fields not sent are kept
    assert client.delete(url).status_code == 204
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    ("payload", "field", "words"),
    [
        ({"source": "gpt2"}, "name", "This field is required."),
        ({"name": "x", "kind": "rnn"}, "kind", '"rnn" is not a valid choice.'),
        ({"name": "x"}, "source", "Give a Hugging Face model id"),
        ({"name": "x", "source": "gpt2", "step": -1}, "step", "greater than or equal to 0"),
        ({"name": "x", "source": "gpt2", "step": 10}, "series", "needs the name of its series"),
    ],
)
def test_language_model_create_rejects_bad_payloads(
    request: pytest.FixtureRequest,
    project: object,
    editor: object,
    payload: dict[str, object],
    field: str,
    words: str,
) -> None:
    client = request.getfixturevalue("api_client_for")(editor)
    response = client.post(f"{base(project)}language-models/", payload, format="json")
    assert response.status_code == 400
    assert any(words in m for m in field_errors(response)[field]), response.json()


def test_series_api_registers_checkpoints(
    request: pytest.FixtureRequest, project: object, editor: object, tmp_path: Path
) -> None:
    for step in (10, 20):
        (tmp_path / f"step{step}").mkdir()
        (tmp_path / f"step{step}" / "config.json").write_text("{}")
    client = request.getfixturevalue("api_client_for")(editor)
    url = f"{base(project)}language-models/series/"
    response = client.post(url, {"folder": str(tmp_path), "series": "pythia-mini"}, format="json")
    assert response.status_code == 201
    assert [(m["name"], m["step"]) for m in response.json()["created"]] == [
        ("pythia-mini step 10", 10),
        ("pythia-mini step 20", 20),
    ]
    listed = client.get(f"{base(project)}language-models/?series=pythia-mini").json()
    assert listed["count"] == 2
    bad = client.post(url, {"folder": str(tmp_path / "missing"), "series": "x"}, format="json")
    assert bad.status_code == 400 and "is not a folder on the server" in field_errors(bad)["folder"][0]


# -- Runs -------------------------------------------------------------------------------------


def test_run_create_queues_and_reports_its_job(
    request: pytest.FixtureRequest,
    project: object,
    editor: object,
    generated: object,
    gpt2_model: LanguageModel,
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    client = request.getfixturevalue("api_client_for")(editor)
    payload = {
        "name": "First look",
        "language_models": [gpt2_model.pk],
        "datasets": [generated.pk],  # type: ignore[attr-defined]
        "reduction": "mean",
        "chunk_size": 10,
    }
    with (
        mock.patch("mpp_studio.evaluation.tasks.score_chunk.delay") as delay,
        django_capture_on_commit_callbacks(execute=True),  # type: ignore[operator]
    ):
        response = client.post(f"{base(project)}scoring-runs/", payload, format="json")
    assert response.status_code == 202, response.json()
    body = response.json()
    assert body["job"]["status"] == "queued" and body["job"]["progress_total"] == 40
    assert body["chunks"] == {"pending": 4, "done": 0, "failed": 0}
    assert [c["label"] for c in body["configs"]] == ["tiny-gpt2 · causal · float32"]
    assert body["datasets"] == [{"id": generated.pk, "name": generated.name}]  # type: ignore[attr-defined]
    assert (body["reduction"], body["settings"]["chunk_size"]) == ("mean", 10)
    assert delay.call_count == 4

    run = ScoringRun.objects.get(pk=body["id"])
    run_chunks(run)
    detail = client.get(f"{base(project)}scoring-runs/{run.pk}/").json()
    assert detail["job"]["status"] == "done" and detail["chunks"]["done"] == 4
    assert detail["configs"][0]["describe"]  # the scorer's account, filled on first load
    listed = client.get(f"{base(project)}scoring-runs/").json()
    assert [r["id"] for r in listed["results"]] == [run.pk]


@pytest.mark.parametrize(
    ("payload", "errors"),
    [
        ({"name": "r"}, {"datasets": ["This field is required."]}),
        ({"name": "r", "datasets": []}, {"datasets": ["This list may not be empty."]}),
        ({"name": "r", "datasets": ["x"]}, {"datasets.0": ["A valid integer is required."]}),
        ({"name": "r", "datasets": "DATASET", "method": "rnn"}, {"method": ['"rnn" is not a valid choice.']}),
        (
            {"name": "r", "datasets": "DATASET", "language_models": [999999]},
            {"language_models": ["This project has no language model with id 999999."]},
        ),
        (
            {"name": "r", "datasets": "DATASET"},
            {"language_models": ["Choose at least one model (or the method unigram, which needs no model)."]},
        ),
        (
            {"name": "r", "datasets": "DATASET", "language_models": "MODEL", "method": "holistic"},
            {"method": ["'tiny-gpt2' is a Causal LM: it is scored with causal, not holistic."]},
        ),
        (
            {"name": "r", "datasets": "DATASET", "method": "unigram", "device": "tpu0"},
            {"device": ["Unknown device 'tpu0': use auto, cpu, cuda, cuda:<n> or mps."]},
        ),
        (
            {"name": "r", "datasets": "DATASET", "method": "unigram", "chunk_size": 1},
            {"chunk_size": ["Ensure this value is greater than or equal to 2."]},
        ),
    ],
)
def test_run_create_rejects_bad_payloads_by_field(
    request: pytest.FixtureRequest,
    project: object,
    editor: object,
    generated: object,
    gpt2_model: LanguageModel,
    payload: dict[str, object],
    errors: dict[str, list[str]],
) -> None:
    client = request.getfixturevalue("api_client_for")(editor)
    values = {
        k: ([generated.pk] if v == "DATASET" else [gpt2_model.pk] if v == "MODEL" else v)  # type: ignore[attr-defined]
        for k, v in payload.items()
    }
    response = client.post(f"{base(project)}scoring-runs/", values, format="json")
    assert response.status_code == 400
    assert field_errors(response) == errors
    assert not ScoringRun.objects.exists()


def test_run_cancel_and_delete(
    request: pytest.FixtureRequest,
    project: object,
    editor: object,
    make_run: Callable[..., ScoringRun],
    unigram_en: LanguageModel,
) -> None:
    client = request.getfixturevalue("api_client_for")(editor)
    run = make_run([unigram_en])
    url = f"{base(project)}scoring-runs/{run.pk}/"
    cancelled = client.post(f"{url}cancel/")
    assert cancelled.status_code == 200
    assert (
        cancelled.json()["job"]["status"] == "cancelled"
        and cancelled.json()["job"]["message"] == "Cancelled by ed."
    )
    assert client.delete(url).status_code == 204
    assert client.get(url).status_code == 404 and not ScoringRun.objects.exists()


# -- Results ----------------------------------------------------------------------------------


def test_results_endpoints_answer_from_stored_scores(
    request: pytest.FixtureRequest, project: object, viewer: object, scored: ScoringRun, generated: object
) -> None:
    from mpp_studio.evaluation import results

    client = request.getfixturevalue("api_client_for")(viewer)
    config = scored.configs.get()
    root = f"{base(project)}results/{generated.pk}/"  # type: ignore[attr-defined]
    expected = results.pair_report(generated, config, reduction="mean")  # type: ignore[arg-type]
    assert expected is not None

    board = client.get(f"{root}leaderboard/?reduction=mean").json()
    [row] = board["rows"]
    # the English word list scores the English paradigm of `generated`, not the Chinese one
    assert (row["accuracy"], row["n"], row["n_pairs"], row["complete"]) == (
        expected.overall.accuracy,
        10,
        10,
        True,
    )
    assert row["by_phenomenon"] == {k: v.accuracy for k, v in expected.by_phenomenon.items()}
    assert board["phenomena"] == ["classifiers", "subject_verb_agreement"]

    table = client.get(f"{root}configs/{config.pk}/paradigms/?reduction=mean").json()
    assert [(r["uid"], r["accuracy"]) for r in table] == [
        (k, v.accuracy) for k, v in expected.by_paradigm.items()
    ]

    report = client.get(f"{root}configs/{config.pk}/report/?reduction=mean").json()
    assert report["report"] == expected.to_dict()

    items = client.get(f"{root}configs/{config.pk}/items/?uid=en_sv_agreement&page_size=4&page=2").json()
    assert (items["count"], items["n_pages"], items["page"], len(items["results"])) == (10, 3, 2, 4)
    first = items["results"][0]
    assert first["uid"] == "en_sv_agreement" and first["index"] == 4
    assert first["good"]["tokens"][0]["surprisal"] == -first["good"]["tokens"][0]["logprob"]
    assert first["outcome"] in ("correct", "wrong", "tie")


def test_compare_and_learning_curve_endpoints(
    request: pytest.FixtureRequest,
    project: object,
    viewer: object,
    make_run: Callable[..., ScoringRun],
    unigram_en: LanguageModel,
    generated: object,
) -> None:
    zh = language_model_create(
        project=project, name="more en words", kind="unigram", language="en", series="s", step=1
    )  # type: ignore[arg-type]
    run = make_run([unigram_en, zh], chunk_size=100)
    run_chunks(run)
    en_config, zh_config = (ScoreConfig.objects.get(language_model=m) for m in (unigram_en, zh))
    client = request.getfixturevalue("api_client_for")(viewer)
    root = f"{base(project)}results/{generated.pk}/"  # type: ignore[attr-defined]
    comparison = client.get(f"{root}compare/?configs={en_config.pk},{zh_config.pk}").json()
    assert [c["id"] for c in comparison["configs"]] == [en_config.pk, zh_config.pk]
    assert [r["uid"] for r in comparison["rows"]] == ["en_sv_agreement", "zh_classifier_noun"]
    assert comparison["overall"]["n_common"] == 10  # the English paradigm: English word lists
    assert comparison["overall"]["paired"]["n"] == 10
    curve = client.get(f"{root}learning-curve/?series=s").json()
    assert [(p["step"], p["model"]["name"], p["n"]) for p in curve["points"]] == [(1, "more en words", 10)]


@pytest.mark.parametrize(
    ("path", "field", "words"),
    [
        ("leaderboard/?reduction=max", "reduction", "unknown linking function 'max'"),
        ("leaderboard/?reduction=slln:alpha=2", "reduction", "slln: alpha must lie strictly between 0 and 1"),
        ("leaderboard/?tie_tolerance=-1", "tie_tolerance", "greater than or equal to 0"),
        ("configs/CONFIG/items/?outcome=maybe", "outcome", '"maybe" is not a valid choice.'),
        ("configs/CONFIG/items/?page=0", "page", "greater than or equal to 1"),
        ("configs/CONFIG/items/?page_size=100000", "page_size", "less than or equal to 500"),
        ("configs/CONFIG/paradigms/?bootstrap=x", "bootstrap", "A valid integer is required."),
        ("compare/?configs=CONFIG", "configs", "Give two or more configuration ids to compare."),
        ("compare/?configs=CONFIG,abc", "configs", "'abc' is not a configuration id."),
        (
            "compare/?configs=CONFIG,999999",
            "configs",
            "This project has no scorer configuration with id 999999.",
        ),
        ("learning-curve/", "series", "This field is required."),
        ("learning-curve/?series=nope", "series", "This project has no checkpoint series 'nope'."),
        ("export/?what=items", "config", "Give the configuration whose item scores to export."),
        ("export/?what=items&config=CONFIG&format=json", "format", "Per-item scores export as csv or jsonl."),
        ("export/?what=metrics&format=jsonl", "format", "Metrics export as csv or json."),
        ("export/?what=everything", "what", '"everything" is not a valid choice.'),
    ],
)
def test_results_reject_bad_parameters_by_field(
    request: pytest.FixtureRequest,
    project: object,
    viewer: object,
    scored: ScoringRun,
    generated: object,
    path: str,
    field: str,
    words: str,
) -> None:
    client = request.getfixturevalue("api_client_for")(viewer)
    config = scored.configs.get()
    url = f"{base(project)}results/{generated.pk}/{path.replace('CONFIG', str(config.pk))}"  # type: ignore[attr-defined]
    response = client.get(url)
    assert response.status_code == 400, (url, response.status_code)
    assert any(words in m for m in field_errors(response)[field]), response.json()


def test_results_of_an_unknown_dataset_or_config_are_404(
    request: pytest.FixtureRequest, project: object, viewer: object, scored: ScoringRun, generated: object
) -> None:
    client = request.getfixturevalue("api_client_for")(viewer)
    root = base(project)
    assert client.get(f"{root}results/999999/leaderboard/").status_code == 404
    assert client.get(f"{root}results/{generated.pk}/configs/999999/items/").status_code == 404  # type: ignore[attr-defined]
    assert SentenceScore.objects.exists()


def test_schema_describes_the_evaluation_api_without_warnings() -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    problems = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    assert [p for p in problems if "evaluation" in p] == []
    paths = schema["paths"]
    for path in (
        "/api/projects/{project_id}/language-models/",
        "/api/projects/{project_id}/scoring-runs/{run_id}/cancel/",
        "/api/projects/{project_id}/results/{dataset_id}/configs/{config_id}/items/",
        "/api/projects/{project_id}/results/{dataset_id}/export/",
    ):
        assert path in paths, path
