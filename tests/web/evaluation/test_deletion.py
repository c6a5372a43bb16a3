"""Deleting models and runs, with their stored scores: what the confirmation says goes is what
goes, other runs keep what they scored, leaderboards lose the rows, and only editors may."""

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.evaluation import results
from mpp_studio.evaluation.models import LanguageModel, PairScore, ScoreConfig, ScoringRun, SentenceScore
from mpp_studio.jobs.models import Job
from tests.web.conftest import PASSWORD
from tests.web.datasets.conftest import run_generation
from tests.web.evaluation.conftest import run_chunks

pytestmark = pytest.mark.django_db


def client_for(user: object) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)  # type: ignore[attr-defined]
    return client


def page(name: str, project: object, *args: object) -> str:
    return reverse(f"evaluation:{name}", args=(project.pk, *args))  # type: ignore[attr-defined]


@pytest.fixture
def second_set(make_dataset: Callable[..., object]) -> object:
    """A second English dataset of the project, generated."""
    dataset = make_dataset("en", n=6, seed=3, name="Second set")
    run_generation(dataset)
    dataset.refresh_from_db()  # type: ignore[attr-defined]
    return dataset


@pytest.fixture
def two_runs(
    make_run: Callable[..., ScoringRun],
    unigram_en: LanguageModel,
    gpt2_model: LanguageModel,
    generated: object,
    second_set: object,
) -> tuple[ScoringRun, ScoringRun]:
    """Run A: the unigram baseline and the tiny GPT-2 on `generated`; run B: the baseline on
    the second set only. Every chunk run."""
    first = make_run([unigram_en, gpt2_model], name="Run A")
    second = make_run([unigram_en], [second_set], name="Run B")
    run_chunks(first)
    run_chunks(second)
    return first, second


def test_deleting_a_model_takes_its_scores_and_the_runs_that_scored_only_it(
    project: object,
    editor: object,
    viewer: object,
    make_run: Callable[..., ScoringRun],
    two_runs: tuple[ScoringRun, ScoringRun],
    gpt2_model: LanguageModel,
    generated: object,
) -> None:
    run_a, _ = two_runs
    only_gpt2 = make_run([gpt2_model], name="GPT-2 alone")
    config = ScoreConfig.objects.get(language_model=gpt2_model)
    stored = SentenceScore.objects.filter(config=config).count()
    assert stored > 0
    address = page("model_delete", project, gpt2_model.pk)
    assert client_for(viewer).get(address).status_code == 403
    assert client_for(viewer).post(address).status_code == 403
    confirmation = client_for(editor).get(address).content.decode()
    assert f"Its 1 scorer configuration and {stored:,} stored sentence scores go with it" in confirmation
    assert "1 run that scored only this model goes too: “GPT-2 alone”." in confirmation
    editing = client_for(editor)
    response = editing.post(address)
    assert response.status_code == 302
    assert not LanguageModel.objects.filter(pk=gpt2_model.pk).exists()
    assert not SentenceScore.objects.filter(config_id=config.pk).exists()
    assert not PairScore.objects.filter(config_id=config.pk).exists()
    assert not ScoringRun.objects.filter(pk=only_gpt2.pk).exists()
    assert not Job.objects.filter(pk=only_gpt2.job_id).exists()
    run_a.refresh_from_db()  # the run keeps the baseline it scored too
    assert [c.language_model.name for c in run_a.configs.all()] == ["Unigram baseline (en)"]
    board = results.leaderboard(generated)  # type: ignore[arg-type]
    assert [row.model_name for row in board.rows] == ["Unigram baseline (en)"]
    listing = editing.get(page("model_list", project)).content.decode()
    assert "was deleted (1 configuration with" in listing and "1 run that scored only it went too" in listing


def test_deleting_a_run_keeps_its_scores_unless_asked_and_drops_its_rows(
    project: object, editor: object, two_runs: tuple[ScoringRun, ScoringRun], second_set: object
) -> None:
    _, run_b = two_runs
    baseline = run_b.configs.get()
    kept = SentenceScore.objects.filter(config=baseline).count()
    assert [row.model_name for row in results.leaderboard(second_set).rows] == ["Unigram baseline (en)"]  # type: ignore[arg-type]
    confirmation = client_for(editor).get(page("run_delete", project, run_b.pk)).content.decode()
    # the baseline is shared with run A, on another dataset: only this dataset's pair scores are its own
    n_pairs = PairScore.objects.filter(config=baseline, paradigm__dataset=second_set).count()
    assert n_pairs == 6
    assert f"{n_pairs} pair scores of configurations other runs use on other datasets" in confirmation
    editing = client_for(editor)
    response = editing.post(page("run_delete", project, run_b.pk))
    assert response.status_code == 302 and not ScoringRun.objects.filter(pk=run_b.pk).exists()
    assert not Job.objects.filter(pk=run_b.job_id).exists()
    assert SentenceScore.objects.filter(config=baseline).count() == kept
    assert PairScore.objects.filter(config=baseline, paradigm__dataset=second_set).count() == n_pairs
    assert results.leaderboard(second_set).rows == []  # type: ignore[arg-type]
    listing = editing.get(page("run_list", project)).content.decode()
    assert "Run “Run B” was deleted. Its scores are kept for later runs." in listing


def test_deleting_a_run_with_its_scores_leaves_what_other_runs_use(
    project: object,
    editor: object,
    two_runs: tuple[ScoringRun, ScoringRun],
    gpt2_model: LanguageModel,
    generated: object,
    second_set: object,
) -> None:
    run_a, run_b = two_runs
    baseline = run_b.configs.get()
    gpt2_config = ScoreConfig.objects.get(language_model=gpt2_model)
    before_baseline = PairScore.objects.filter(config=baseline, paradigm__dataset=second_set).count()
    confirmation = client_for(editor).get(page("run_delete", project, run_a.pk)).content.decode()
    gpt2_sentences = SentenceScore.objects.filter(config=gpt2_config).count()
    assert f"1 configuration no other run uses, with {gpt2_sentences} sentence scores" in confirmation
    baseline_here = PairScore.objects.filter(config=baseline, paradigm__dataset=generated).count()
    assert f"{baseline_here} pair scores of configurations other runs use on other datasets" in confirmation
    editing = client_for(editor)
    editing.post(page("run_delete", project, run_a.pk), {"scores": "delete"})
    assert not ScoreConfig.objects.filter(pk=gpt2_config.pk).exists()
    assert not SentenceScore.objects.filter(config_id=gpt2_config.pk).exists()
    assert not PairScore.objects.filter(config=baseline, paradigm__dataset=generated).exists()
    assert PairScore.objects.filter(config=baseline, paradigm__dataset=second_set).count() == before_baseline
    assert SentenceScore.objects.filter(config=baseline).exists()  # run B's sentences
    run_b.refresh_from_db()
    assert LanguageModel.objects.filter(pk=gpt2_model.pk).exists()  # the model stays registered
    listing = editing.get(page("run_list", project)).content.decode()
    assert "Deleted with it: 1 configuration with" in listing


def test_the_api_deletes_a_run_with_its_scores_when_asked(
    request: pytest.FixtureRequest, project: object, editor: object, two_runs: tuple[ScoringRun, ScoringRun]
) -> None:
    client = request.getfixturevalue("api_client_for")(editor)
    run_a, _ = two_runs
    address = f"/api/projects/{project.pk}/scoring-runs/{run_a.pk}/"  # type: ignore[attr-defined]
    refused = client.delete(address + "?delete_scores=perhaps")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "delete_scores"
    assert ScoringRun.objects.filter(pk=run_a.pk).exists()
    assert client.delete(address + "?delete_scores=true").status_code == 204
    assert not ScoreConfig.objects.filter(language_model__name="tiny-gpt2").exists()


def test_pages_offer_deletion_to_editors_only(
    project: object,
    editor: object,
    viewer: object,
    two_runs: tuple[ScoringRun, ScoringRun],
    gpt2_model: LanguageModel,
) -> None:
    run_a, _ = two_runs
    model_link = page("model_delete", project, gpt2_model.pk)
    run_link = page("run_delete", project, run_a.pk)
    assert model_link in client_for(editor).get(page("model_list", project)).content.decode()
    assert run_link in client_for(editor).get(page("run_detail", project, run_a.pk)).content.decode()
    assert model_link not in client_for(viewer).get(page("model_list", project)).content.decode()
    assert run_link not in client_for(viewer).get(page("run_detail", project, run_a.pk)).content.decode()
    assert client_for(viewer).get(run_link).status_code == 403


def test_a_model_deleted_while_its_run_scores_leaves_the_other_models_going(
    project: object,
    editor: object,
    make_run: Callable[..., ScoringRun],
    unigram_en: LanguageModel,
    gpt2_model: LanguageModel,
) -> None:
    from mpp_studio.evaluation.models import ScoringChunk
    from mpp_studio.evaluation.services import language_model_delete, score_chunk

    run = make_run([gpt2_model, unigram_en])
    gone = list(
        ScoringChunk.objects.filter(run=run, config__language_model=gpt2_model).values_list(
            "config_id", "dataset_id", "index"
        )
    )
    language_model_delete(model=gpt2_model)
    for config_id, dataset_id, index in gone:  # the deleted model's queued tasks arrive
        score_chunk(run_id=run.pk, config_id=config_id, dataset_id=dataset_id, chunk_index=index)
    run_chunks(run)
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert run.job.status == "done"  # type: ignore[union-attr]
