"""Scoring pages: the Scoring tab, models and checkpoint series, a new run, a run's status and
cancel, the leaderboard with its plot, a configuration's report, comparisons, learning curves,
the per-item drill-down with token surprisals, downloads; who may see and do what; bad input
answered in words, never a server error."""

import csv
import io
import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.evaluation import results
from mpp_studio.evaluation.models import LanguageModel, ScoreConfig, ScoringRun
from mpp_studio.evaluation.results import item_rows
from mpp_studio.evaluation.services import language_model_create
from mpp_studio.evaluation.services.sentences import dataset_pairs
from mpp_studio.jobs.models import Job
from mpp_studio.jobs.services import job_fail
from tests.web.conftest import PASSWORD
from tests.web.evaluation.conftest import run_chunks, store_score

pytestmark = pytest.mark.django_db


def client_for(user: object) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)  # type: ignore[attr-defined]
    return client


def url(name: str, project: object, *args: object) -> str:
    return reverse(f"evaluation:{name}", args=(project.pk, *args))  # type: ignore[attr-defined]


def text_of(response: object) -> str:
    return response.content.decode()  # type: ignore[attr-defined,no-any-return]


def model_folder(path: Path) -> Path:
    """A folder that looks like a saved model (a config.json); nothing loads it here."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "config.json").write_text("{}", encoding="utf-8")
    return path


# -- Scored fixtures --------------------------------------------------------------------------


@pytest.fixture
def unigram_run(make_run: Callable[..., ScoringRun], unigram_en: LanguageModel) -> ScoringRun:
    """`generated` scored by the English unigram baseline, every chunk run here."""
    run = make_run([unigram_en], name="Unigram run")
    run_chunks(run)
    return run


@pytest.fixture
def hand_model(project: object, editor: object, tmp_path: Path) -> LanguageModel:
    """A causal model whose scores the tests store by hand (nothing is ever loaded)."""
    return language_model_create(
        project=project,  # type: ignore[arg-type]
        name="hand-lm",
        source=str(model_folder(tmp_path / "hand-lm")),
        kind="causal",
        created_by=editor,  # type: ignore[arg-type]
    )


def store_alternating(config: ScoreConfig, dataset: object) -> None:
    """Store scores making even pairs right (good -1 -1 against bad -2 -2) and odd ones wrong."""
    for pair in dataset_pairs(dataset):  # type: ignore[arg-type]
        better, worse = [-1.0, -1.0], [-2.0, -2.0]
        good, bad = (better, worse) if pair.index % 2 == 0 else (worse, better)
        store_score(config, pair.good, good)
        store_score(config, pair.bad, bad)


@pytest.fixture
def hand_run(make_run: Callable[..., ScoringRun], hand_model: LanguageModel, generated: object) -> ScoringRun:
    """`generated` under hand-lm: half of the pairs right; the job left queued (nothing ran)."""
    run = make_run([hand_model], name="Hand run")
    store_alternating(run.configs.get(), generated)
    return run


def config_of(run: ScoringRun) -> ScoreConfig:
    return run.configs.get()


# -- Tab, overview, permissions ---------------------------------------------------------------


def test_project_pages_have_a_scoring_tab(project: object, viewer: object) -> None:
    html = text_of(client_for(viewer).get(reverse("datasets:dataset_list", args=(project.pk,))))  # type: ignore[attr-defined]
    assert f'href="{url("run_list", project)}"' in html and 'data-tab="scoring"' in html


def test_overview_lists_runs_and_scored_datasets(
    unigram_run: ScoringRun, viewer: object, generated: object
) -> None:
    html = text_of(client_for(viewer).get(url("run_list", unigram_run.project)))
    assert "Unigram run" in html and "job-badge-done" in html
    assert url("results", unigram_run.project, generated.pk) in html  # type: ignore[attr-defined]
    assert 'class="project-tab active" data-tab="scoring"' in html
    assert "New scoring run" not in html  # viewers cannot start one


def test_overview_when_nothing_is_scored_tells_an_editor_what_to_do(project: object, editor: object) -> None:
    html = text_of(client_for(editor).get(url("run_list", project)))
    assert "No dataset has been scored yet." in html and "Register a model" in html
    assert "New scoring run" in html


def _pages(project: object, run: ScoringRun, dataset: object, config: ScoreConfig) -> list[str]:
    d = dataset.pk  # type: ignore[attr-defined]
    return [
        url("run_list", project),
        url("model_list", project),
        url("run_detail", project, run.pk),
        url("run_status", project, run.pk),
        url("results", project, d),
        url("compare", project, d),
        url("curve", project, d),
        url("config", project, d, config.pk),
        url("items", project, d, config.pk),
        url("export", project, d) + f"?what=items&format=csv&config={config.pk}",
        url("job_status", project, run.job_id),
    ]


def test_viewer_reads_every_page_and_outsider_gets_404(
    unigram_run: ScoringRun, generated: object, viewer: object, outsider: object, other_project: object
) -> None:
    project = unigram_run.project
    pages = _pages(project, unigram_run, generated, config_of(unigram_run))
    as_viewer, as_outsider, anonymous = client_for(viewer), client_for(outsider), Client()
    for page in pages:
        assert as_viewer.get(page).status_code == 200, page
        assert as_outsider.get(page).status_code == 404, page
        response = anonymous.get(page)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], page


def test_viewer_cannot_change_anything(unigram_run: ScoringRun, viewer: object, outsider: object) -> None:
    project = unigram_run.project
    changes = [
        (
            url("model_list", project),
            {"model-source": "gpt2", "model-kind": "causal", "model-language": "en"},
        ),
        (url("series_register", project), {"series-folder": "/tmp", "series-series": "s"}),
        (url("run_new", project), {}),
        (url("run_cancel", project, unigram_run.pk), {}),
    ]
    for page, data in changes:
        assert client_for(viewer).post(page, data).status_code == 403, page
        assert client_for(outsider).post(page, data).status_code == 404, page
    assert client_for(viewer).get(url("run_new", project)).status_code == 403
    assert LanguageModel.objects.filter(project=project).count() == 1  # the baseline only


def test_another_projects_run_dataset_or_configuration_is_404(
    unigram_run: ScoringRun, generated: object, outsider: object, other_project: object
) -> None:
    """A member of another project cannot reach these rows through their own project either."""
    config = config_of(unigram_run)
    as_outsider = client_for(outsider)
    for page in _pages(other_project, unigram_run, generated, config)[2:]:
        assert as_outsider.get(page).status_code == 404, page


# -- Models -----------------------------------------------------------------------------------


def test_models_page_lists_source_revision_kind_and_series(
    project: object, viewer: object, tmp_path: Path
) -> None:
    language_model_create(project=project, name="gpt2-hub", source="gpt2", revision="main", kind="causal")  # type: ignore[arg-type]
    language_model_create(
        project=project,  # type: ignore[arg-type]
        name="run step 500",
        source=str(model_folder(tmp_path / "checkpoint-500")),
        kind="masked",
        series="run",
        step=500,
    )
    html = text_of(client_for(viewer).get(url("model_list", project)))
    row = re.search(r'<tr class="model-row" data-name="gpt2-hub">.*?</tr>', html, re.S)
    assert row and "<code>gpt2</code>" in row.group() and "main" in row.group() and "Causal LM" in row.group()
    row = re.search(r'<tr class="model-row" data-name="run step 500">.*?</tr>', html, re.S)
    assert row and "Masked LM" in row.group() and ">run<" in row.group() and ">500<" in row.group()
    assert "Add a model" not in html  # viewers see no forms


def test_editor_adds_a_local_model_named_after_its_folder(
    project: object, editor: object, tmp_path: Path
) -> None:
    folder = model_folder(tmp_path / "tiny-gpt2")
    response = client_for(editor).post(
        url("model_list", project),
        {"model-source": str(folder), "model-kind": "causal", "model-language": "en", "model-revision": ""},
        follow=True,
    )
    assert "Model “tiny-gpt2” registered (Causal LM)." in text_of(response)
    model = LanguageModel.objects.get(project=project)
    assert (model.name, model.source, model.kind, model.language) == (
        "tiny-gpt2",
        str(folder),
        "causal",
        "en",
    )


def test_editor_adds_a_hub_model_with_a_revision(project: object, editor: object) -> None:
    client_for(editor).post(
        url("model_list", project),
        {
            "model-source": "EleutherAI/pythia-70m",
            "model-name": "pythia",
            "model-revision": "step3000",
            "model-kind": "causal",
            "model-language": "en",
        },
    )
    model = LanguageModel.objects.get(project=project)
    assert (model.name, model.source, model.revision) == ("pythia", "EleutherAI/pythia-70m", "step3000")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"model-source": "{tmp}/missing"}, "is not a folder on the server."),
        ({"model-source": "{tmp}/empty"}, "holds no config.json, so it is not a saved model."),
        ({"model-source": "", "model-kind": "causal"}, "Give a Hugging Face model id"),
        ({"model-source": "gpt2", "model-kind": "recurrent"}, "Select a valid choice."),
        ({"model-source": "gpt2", "model-language": ""}, "This field is required."),
        ({"model-source": "gpt2", "model-name": "taken"}, "This project already has a model named"),
        ({"model-source": "roberta-base"}, "'roberta-base' cannot be scored as a Causal LM"),
        ({"model-source": "nobody/nothing"}, "the Hugging Face hub has no model 'nobody/nothing'"),
    ],
)
def test_bad_model_input_is_said_on_the_field(
    project: object, editor: object, tmp_path: Path, data: dict[str, str], message: str
) -> None:
    (tmp_path / "empty").mkdir()
    language_model_create(project=project, name="taken", source="gpt2")  # type: ignore[arg-type]
    form = {"model-kind": "causal", "model-language": "en"} | {
        k: v.replace("{tmp}", str(tmp_path)) for k, v in data.items()
    }
    response = client_for(editor).post(url("model_list", project), form)
    assert response.status_code == 400
    html = text_of(response)
    assert message in html.replace("&#x27;", "'")
    assert 'class="error field-error"' in html
    assert LanguageModel.objects.filter(project=project).count() == 1


def test_editor_registers_a_checkpoint_series(project: object, editor: object, tmp_path: Path) -> None:
    run_folder = tmp_path / "train"
    for step in (200, 1000, 50):
        model_folder(run_folder / f"checkpoint-{step}")
    (run_folder / "logs").mkdir()
    response = client_for(editor).post(
        url("series_register", project),
        {
            "series-folder": str(run_folder),
            "series-series": "babylm",
            "series-kind": "causal",
            "series-language": "en",
        },
        follow=True,
    )
    assert "Series “babylm”: 3 checkpoint(s) registered (steps 50, 200, 1000)." in text_of(response)
    models = LanguageModel.objects.filter(project=project, series="babylm").order_by("step")
    assert [(m.name, m.step) for m in models] == [
        ("babylm step 50", 50),
        ("babylm step 200", 200),
        ("babylm step 1000", 1000),
    ]
    again = client_for(editor).post(
        url("series_register", project),
        {
            "series-folder": str(run_folder),
            "series-series": "babylm",
            "series-kind": "causal",
            "series-language": "en",
        },
        follow=True,
    )
    assert "0 checkpoint(s) registered. 3 were registered already" in text_of(again)


@pytest.mark.parametrize(
    ("folder", "series", "message"),
    [
        ("{tmp}/nothing-here", "s", "is not a folder on the server."),
        ("{tmp}/plain", "s", "no checkpoints found"),
        ("{tmp}/plain", "", "This field is required."),
    ],
)
def test_bad_series_input_is_said_on_the_field(
    project: object, editor: object, tmp_path: Path, folder: str, series: str, message: str
) -> None:
    (tmp_path / "plain" / "checkpoint-10").mkdir(parents=True)  # no config.json in it
    response = client_for(editor).post(
        url("series_register", project),
        {
            "series-folder": folder.replace("{tmp}", str(tmp_path)),
            "series-series": series,
            "series-kind": "causal",
            "series-language": "en",
        },
    )
    assert response.status_code == 400
    html = text_of(response)
    assert message in html.replace("&#x27;", "'")
    if "no checkpoints" in message:
        assert "these have no config.json: checkpoint-10" in html
    assert not LanguageModel.objects.filter(project=project).exists()


# -- New run ----------------------------------------------------------------------------------


def test_new_run_page_offers_models_series_datasets_and_scorers(
    project: object, editor: object, generated: object, hand_model: LanguageModel, tmp_path: Path
) -> None:
    language_model_create(
        project=project,  # type: ignore[arg-type]
        name="s step 1",
        source=str(model_folder(tmp_path / "s1")),
        series="s",
        step=1,
    )
    html = text_of(client_for(editor).get(url("run_new", project) + f"?dataset={generated.pk}"))  # type: ignore[attr-defined]
    assert f'name="language_models" value="{hand_model.pk}"' in html
    assert 'name="series" value="s"' in html and "1 checkpoint" in html
    assert re.search(rf'name="datasets" value="{generated.pk}" checked', html)  # type: ignore[attr-defined]
    assert "Agreement set (20 pairs)" in html
    for method in ("causal", "holistic", "pll", "pll_word_l2r", "unigram"):
        assert f'<option value="{method}"' in html
    for reduction in ("sum", "mean", "bpt"):
        assert f'<option value="{reduction}"' in html


def run_form(**values: object) -> dict[str, object]:
    form: dict[str, object] = {
        "name": "",
        "method": "",
        "dtype": "float32",
        "reduction": "sum",
        "device": "auto",
        "token_budget": 8192,
        "chunk_size": 1000,
    }
    form.update(values)
    return form


def test_new_run_is_created_and_opens_its_page(
    project: object, editor: object, generated: object, hand_model: LanguageModel
) -> None:
    with mock.patch("mpp_studio.evaluation.tasks.score_chunk.delay_on_commit") as queued:
        response = client_for(editor).post(
            url("run_new", project),
            run_form(language_models=[hand_model.pk], datasets=[generated.pk], reduction="bpt"),  # type: ignore[attr-defined]
            follow=True,
        )
    run = ScoringRun.objects.get(project=project)
    assert response.redirect_chain[-1][0] == url("run_detail", project, run.pk)
    assert (run.name, run.reduction) == ("hand-lm on Agreement set", "bpt")
    assert [c.language_model for c in run.configs.all()] == [hand_model]
    assert queued.call_count == run.chunks.count() > 0
    html = text_of(response)
    assert "Run “hand-lm on Agreement set” queued: 1 configuration on 1 dataset." in html
    assert f'hx-get="{url("job_status", project, run.job_id)}"' in html  # the status polls itself
    assert "Cancel run" in html


def test_choosing_a_series_scores_each_checkpoint(
    project: object, editor: object, generated: object, tmp_path: Path
) -> None:
    for step in (10, 20):
        language_model_create(
            project=project,  # type: ignore[arg-type]
            name=f"s step {step}",
            source=str(model_folder(tmp_path / f"s{step}")),
            series="s",
            step=step,
        )
    with mock.patch("mpp_studio.evaluation.tasks.score_chunk.delay_on_commit"):
        client_for(editor).post(url("run_new", project), run_form(series=["s"], datasets=[generated.pk]))  # type: ignore[attr-defined]
    run = ScoringRun.objects.get(project=project)
    assert sorted(c.language_model.step for c in run.configs.all()) == [10, 20]  # type: ignore[type-var]
    assert run.name == "s step 10 and 1 more on Agreement set"


def test_unigram_without_a_model_uses_the_baselines(
    project: object, editor: object, generated: object
) -> None:
    """The dataset has English and Chinese paradigms: one baseline per language."""
    with mock.patch("mpp_studio.evaluation.tasks.score_chunk.delay_on_commit"):
        client_for(editor).post(url("run_new", project), run_form(method="unigram", datasets=[generated.pk]))  # type: ignore[attr-defined]
    run = ScoringRun.objects.get(project=project)
    assert sorted((c.method, c.language) for c in run.configs.all()) == [("unigram", "en"), ("unigram", "zh")]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"datasets": []}, "Choose at least one dataset."),
        ({"language_models": []}, "Choose at least one model (or the method unigram, which needs no model)."),
        ({"method": "pll"}, "&#x27;hand-lm&#x27; is a Causal LM: it is scored with causal, not pll."),
        ({"dtype": "float8"}, "Select a valid choice. float8 is not one of the available choices."),
        ({"device": "tpu"}, "Unknown device &#x27;tpu&#x27;"),
        ({"token_budget": 10}, "Ensure this value is greater than or equal to 64."),
        ({"language_models": [999999]}, "999999 is not a model of this project."),
        ({"datasets": [999999]}, "999999 is not a dataset of this project."),
    ],
)
def test_bad_run_input_is_said_on_the_field(
    project: object,
    editor: object,
    generated: object,
    hand_model: LanguageModel,
    values: dict[str, object],
    message: str,
) -> None:
    form = run_form(language_models=[hand_model.pk], datasets=[generated.pk]) | values  # type: ignore[attr-defined]
    response = client_for(editor).post(url("run_new", project), form)
    assert response.status_code == 400
    html = text_of(response)
    assert message in html
    assert not ScoringRun.objects.exists()
    if "language_models" not in values:  # the choices made are kept
        assert f'name="language_models" value="{hand_model.pk}" checked' in html


def test_a_dataset_still_generating_cannot_be_scored_yet(
    project: object, editor: object, make_dataset: Callable[..., object], hand_model: LanguageModel
) -> None:
    pending = make_dataset("en", n=4, name="Not yet")
    html = text_of(
        client_for(editor).post(
            url("run_new", project),
            run_form(language_models=[hand_model.pk], datasets=[pending.pk]),  # type: ignore[attr-defined]
        )
    )
    assert "Not yet (0 pairs) · still being generated" in html
    assert "&#x27;Not yet&#x27; is still being generated; score it when it is done." in html


# -- Run page ---------------------------------------------------------------------------------


def test_run_page_shows_progress_and_stops_polling_when_done(unigram_run: ScoringRun, viewer: object) -> None:
    project = unigram_run.project
    html = text_of(client_for(viewer).get(url("run_detail", project, unigram_run.pk)))
    assert 'data-status="done"' in html and "20 of 20 sentences" in html  # the English pairs
    assert "hx-trigger" not in html  # finished: nothing polls
    assert "Cancel run" not in html
    assert "Agreement set: leaderboard and plots" in html
    status = client_for(viewer).get(
        url("job_status", project, unigram_run.job_id), headers={"HX-Request": "true"}
    )
    assert status.status_code == 286  # htmx: stop polling


def test_running_run_polls_and_offers_editors_cancel(
    hand_run: ScoringRun, editor: object, viewer: object
) -> None:
    project = hand_run.project
    html = text_of(client_for(editor).get(url("run_detail", project, hand_run.pk)))
    assert 'data-status="queued"' in html
    assert f'hx-get="{url("job_status", project, hand_run.job_id)}"' in html
    assert f'hx-get="{url("run_status", project, hand_run.pk)}"' in html
    assert "Cancel run" in html
    assert "Cancel run" not in text_of(client_for(viewer).get(url("run_detail", project, hand_run.pk)))


def test_cancel_stops_the_run_and_says_so(hand_run: ScoringRun, editor: object) -> None:
    project = hand_run.project
    response = client_for(editor).post(url("run_cancel", project, hand_run.pk), follow=True)
    assert "Run cancelled; the scores stored so far are kept" in text_of(response)
    assert Job.objects.get(pk=hand_run.job_id).status == Job.Status.CANCELLED
    again = client_for(editor).post(url("run_cancel", project, hand_run.pk), follow=True)
    assert "The run had already finished." in text_of(again)


def test_failed_run_shows_why_in_words(hand_run: ScoringRun, viewer: object) -> None:
    job_fail(
        job_id=hand_run.job_id, message="The model 'hand-lm' could not be loaded: no weights in the folder."
    )  # type: ignore[arg-type]
    html = text_of(client_for(viewer).get(url("run_detail", hand_run.project, hand_run.pk)))
    assert "Why it failed:" in html
    assert "The model &#x27;hand-lm&#x27; could not be loaded: no weights in the folder." in html
    assert "the pairs scored before it stopped" in html


# -- Results ----------------------------------------------------------------------------------


def test_leaderboard_ranks_configurations_with_phenomenon_columns_and_a_plot(
    unigram_run: ScoringRun, hand_run: ScoringRun, generated: object, viewer: object
) -> None:
    project = unigram_run.project
    html = text_of(client_for(viewer).get(url("results", project, generated.pk)))  # type: ignore[attr-defined]
    rows = re.findall(r'<tr class="leaderboard-row[^"]*" data-config="(\d+)">(.*?)</tr>', html, re.S)
    assert len(rows) == 2
    hand = config_of(hand_run)
    hand_row = next(body for pk, body in rows if int(pk) == hand.pk)
    assert "hand-lm · causal · float32" in hand_row and "<strong>50.0%</strong>" in hand_row
    assert ">classifiers<" in html and ">subject_verb_agreement<" in html
    accuracies = [float(a) for a in re.findall(r'class="num accuracy"><strong>([\d.]+)%', html)]
    assert accuracies == sorted(accuracies, reverse=True)  # best first
    svg = re.search(r"<svg .*?</svg>", html, re.S)
    assert svg is not None
    root = ET.fromstring(svg.group())
    assert (
        root.find("{http://www.w3.org/2000/svg}title").text == "Accuracy by phenomenon on Agreement set (LP)"
    )  # type: ignore[union-attr]
    assert (
        "hand-lm · causal · float32" in svg.group()
        and "Unigram baseline (en) · unigram · float32" in svg.group()
    )
    assert "HAP" not in html  # no triplet results: the BLiSS plot is left out
    assert "?what=metrics&amp;format=csv&amp;reduction=sum" in html


def test_results_pages_compare_by_a_linking_function_written_with_parameters(
    unigram_run: ScoringRun, generated: object, viewer: object
) -> None:
    """A function written by hand is used, offered in the choice, and carried by every link."""
    page = url("results", unigram_run.project, generated.pk)  # type: ignore[attr-defined]
    html = text_of(client_for(viewer).get(page + "?reduction=sum&custom=penlp:alpha=0.6"))
    assert '<option value="penlp:alpha=0.6" selected>PenLP (alpha 0.6)</option>' in html
    for function in ("mean", "bpt", "slln:alpha=0.5", "lognorm:beta=1", "penlp:alpha=0.8"):
        assert f'<option value="{function}">' in html
    assert "reduction=penlp%3Aalpha%3D0.6" in html  # the configuration, items and download links
    assert "Accuracy by phenomenon on Agreement set (PenLP (alpha 0.6))" in html
    html = text_of(client_for(viewer).get(page + "?reduction=slor"))
    assert '<option value="slor" selected>SLOR</option>' in html
    assert "SLOR counts the pairs whose sentences have unigram log-probabilities" in html
    assert '0<span class="meta"> of 10</span>' in html  # a word list has no tokenizer frequencies


def test_leaderboard_sorts_by_a_phenomenon_and_reports_bad_query_values(
    unigram_run: ScoringRun, hand_run: ScoringRun, generated: object, viewer: object
) -> None:
    page = url("results", unigram_run.project, generated.pk)  # type: ignore[attr-defined]
    html = text_of(client_for(viewer).get(page + "?sort=classifiers&reduction=mean"))
    assert 'aria-sort="descending" class="sorted" title="Sort by classifiers"' in html
    assert '<option value="mean" selected>' in html
    response = client_for(viewer).get(page + "?sort=nonsense&reduction=loudness")
    assert response.status_code == 200
    html = text_of(response)
    assert "Cannot compare sentences by “loudness”: unknown linking function &#x27;loudness&#x27;" in html
    assert "Showing sum." in html
    assert "“nonsense” is not a phenomenon of this dataset; sorted by overall accuracy." in html


def test_results_of_an_unscored_dataset_say_so(project: object, generated: object, editor: object) -> None:
    html = text_of(client_for(editor).get(url("results", project, generated.pk)))  # type: ignore[attr-defined]
    assert "No run has scored this dataset yet." in html and f"?dataset={generated.pk}" in html  # type: ignore[attr-defined]
    assert "<svg" not in html


def test_configuration_report_has_phenomenon_and_paradigm_tables(
    hand_run: ScoringRun, generated: object, viewer: object
) -> None:
    config = config_of(hand_run)
    html = text_of(
        client_for(viewer).get(url("config", hand_run.project, generated.pk, config.pk) + "?reduction=bpt")
    )  # type: ignore[attr-defined]
    assert "hand-lm · causal · float32 on Agreement set" in html
    assert "bits per token (lower is better)" in html
    assert re.search(r'data-phenomenon="classifiers">.*?<strong>50.0%</strong>', html, re.S)
    paradigm = re.search(r'<tr class="paradigm-row" data-uid="en_sv_agreement">(.*?)</tr>', html, re.S)
    assert paradigm and "<strong>50.0%</strong>" in paradigm.group(1) and "of 10" in paradigm.group(1)
    assert "outcome=wrong" in paradigm.group(1)
    for export in ("items-csv", "items-jsonl", "metrics-csv", "metrics-json"):
        assert f'data-export="{export}"' in html


def test_comparison_shows_accuracies_difference_and_disagreements(
    unigram_run: ScoringRun, hand_run: ScoringRun, generated: object, viewer: object
) -> None:
    a, b = config_of(unigram_run), config_of(hand_run)
    page = url("compare", hand_run.project, generated.pk)  # type: ignore[attr-defined]
    html = text_of(client_for(viewer).get(f"{page}?configs={a.pk}&configs={b.pk}&reduction=sum"))
    # the English word list scores the English paradigm only: the two share its 10 pairs
    unigram_items = [i for i in item_rows(generated, a, page_size=500).items if i.outcome != "unscored"]  # type: ignore[arg-type]
    hand_items = {i.item_id: i.outcome for i in item_rows(generated, b, page_size=500).items}  # type: ignore[arg-type]
    assert len(unigram_items) == 10
    differ = sum(1 for i in unigram_items if i.outcome != hand_items[i.item_id])
    overall = re.search(r'<tr class="comparison-overall">(.*?)</tr>', html, re.S)
    assert overall is not None
    differing = url("items", hand_run.project, generated.pk, a.pk) + f"?differs_from={b.pk}&amp;reduction=sum"  # type: ignore[attr-defined]
    assert f'{differing}" title="The pairs the two decide differently">{differ}</a>' in overall.group(1)
    paired = results.compare(generated, [a, b]).overall.paired  # type: ignore[arg-type]
    assert paired is not None
    assert f"{paired.first_better} : {paired.second_better}" in overall.group(1)
    listed = text_of(client_for(viewer).get(differing.replace("&amp;", "&")))
    assert f"{differ} pairs match, decided otherwise by {b.label}" in listed
    assert f'<option value="{b.pk}" selected>' in listed
    unigram_accuracy = sum({"correct": 1.0, "tie": 0.5}.get(i.outcome, 0.0) for i in unigram_items) / 10
    assert f"{100 * (0.5 - unigram_accuracy):+.1f} pts".replace("-", "−") in overall.group(1)
    assert len(re.findall(r'<tr class="comparison-row"', html)) == 2


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("configs={a}", "Choose at least two configurations to compare."),
        ("configs=", "Choose at least two configurations to compare."),
        ("configs={a}&configs=999999", "999999 is not a configuration scored on this dataset."),
        ("configs={a}&configs=x", "x is not a configuration scored on this dataset."),
    ],
)
def test_bad_comparison_input_is_said(
    unigram_run: ScoringRun, hand_run: ScoringRun, generated: object, viewer: object, query: str, message: str
) -> None:
    page = url("compare", hand_run.project, generated.pk)  # type: ignore[attr-defined]
    response = client_for(viewer).get(f"{page}?{query.format(a=config_of(unigram_run).pk)}")
    assert response.status_code == 400
    assert message in text_of(response)


def test_learning_curve_plots_each_checkpoint_by_step(
    project: object, make_run: Callable[..., ScoringRun], generated: object, viewer: object, tmp_path: Path
) -> None:
    models = [
        language_model_create(
            project=project,  # type: ignore[arg-type]
            name=f"tiny step {step}",
            source=str(model_folder(tmp_path / f"c{step}")),
            series="tiny",
            step=step,
        )
        for step in (0, 100, 10_000)
    ]
    run = make_run(models)
    for config in run.configs.all():
        if config.language_model.step == 0:
            store_alternating(config, generated)
        else:  # later checkpoints get every pair right
            for pair in dataset_pairs(generated):  # type: ignore[arg-type]
                store_score(config, pair.good, [-1.0])
                store_score(config, pair.bad, [-3.0])
    html = text_of(client_for(viewer).get(url("curve", project, generated.pk)))  # type: ignore[attr-defined]
    assert '<option value="tiny" selected>' in html
    svg = re.search(r"<svg .*?</svg>", html, re.S)
    assert svg and "tiny on Agreement set: accuracy by training step (LP)" in svg.group()
    assert "Training step (logarithmic)" in svg.group() and "classifiers" in svg.group()
    steps = re.findall(r'<tr class="curve-row" data-step="(\d+)">.*?<strong>([\d.]+)%</strong>', html, re.S)
    assert steps == [("0", "50.0"), ("100", "100.0"), ("10000", "100.0")]
    results_html = text_of(client_for(viewer).get(url("results", project, generated.pk)))  # type: ignore[attr-defined]
    assert "tiny: accuracy by training step" in results_html
    # the curve's own CSV, linked from its page: a row per checkpoint, then per phenomenon
    assert (
        'data-export="curve-csv" href="?series=tiny&amp;method=&amp;reduction=sum&amp;download=csv"' in html
    )
    response = client_for(viewer).get(url("curve", project, generated.pk) + "?series=tiny&download=csv")  # type: ignore[attr-defined]
    assert response["Content-Disposition"] == 'attachment; filename="agreement-set-tiny-learning-curve.csv"'
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))  # type: ignore[attr-defined]
    overall = [(r["step"], r["n"], r["accuracy"]) for r in rows if r["scope"] == "overall"]
    assert overall == [("0", "20", "0.5"), ("100", "20", "1.0"), ("10000", "20", "1.0")]
    assert [r["name"] for r in rows[1:3]] == ["classifiers", "subject_verb_agreement"]
    assert {r["reduction"] for r in rows} == {"sum"} and {r["series"] for r in rows} == {"tiny"}
    api = client_for(viewer).get(
        f"/api/projects/{project.pk}/results/{generated.pk}/learning-curve/?series=tiny&download=csv"
    )  # type: ignore[attr-defined]
    assert b"".join(api.streaming_content) == b"".join(  # type: ignore[attr-defined]
        client_for(viewer)
        .get(url("curve", project, generated.pk) + "?series=tiny&download=csv")
        .streaming_content  # type: ignore[attr-defined]
    )


def test_learning_curve_without_a_series_says_so(
    unigram_run: ScoringRun, generated: object, viewer: object
) -> None:
    page = url("curve", unigram_run.project, generated.pk)  # type: ignore[attr-defined]
    assert "No checkpoint series has been scored on this dataset." in text_of(client_for(viewer).get(page))
    html = text_of(client_for(viewer).get(page + "?series=ghost&method=telepathy"))
    assert "No checkpoint of a series “ghost” has been scored on this dataset." in html
    assert "Unknown scorer “telepathy”" in html


# -- Items ------------------------------------------------------------------------------------


def test_items_show_both_sentences_with_token_surprisals_in_bits(
    unigram_run: ScoringRun, generated: object, viewer: object
) -> None:
    config = config_of(unigram_run)
    page = url("items", unigram_run.project, generated.pk, config.pk)  # type: ignore[attr-defined]
    html = text_of(client_for(viewer).get(page + "?uid=en_sv_agreement"))
    assert 'Each token shows its surprisal in <strong class="unit-name">bits (−log₂ p)</strong>' in html
    items = re.findall(r'<article class="item outcome-(\w+)".*?</article>', html, re.S)
    assert len(items) == 10
    first = item_rows(generated, config, uid="en_sv_agreement", page_size=1).items[0]  # type: ignore[arg-type]
    article = re.search(rf'<article [^>]*data-item="{re.escape(first.item_id)}".*?</article>', html, re.S)
    assert article is not None
    body = article.group()
    assert first.good.text in body and first.bad.text in body
    # the pair named by its stable id, linked to its page in the dataset
    pair_page = reverse("datasets:pair_detail", args=(unigram_run.project.pk, generated.pk, first.pair_id))  # type: ignore[attr-defined]
    assert (
        f'<a class="pair-link" href="{pair_page}"' in body
        and '<code class="uid">en_sv_agreement/0</code>' in body
    )
    token = first.good.tokens[0]
    bits = token.surprisal / math.log(2)
    assert f"token “{token.token}”: {bits:.3f} bits (−log₂ p)".replace("-", "−") in body
    assert f'<span class="tok-value">{bits:.2f}</span>' in body
    assert len(re.findall(r'<li class="tok', body)) == len(first.good.tokens) + len(first.bad.tokens)
    nats = text_of(client_for(viewer).get(page + "?uid=en_sv_agreement&unit=nats"))
    assert f"{token.surprisal:.3f} nats (−ln p)" in nats


def test_items_filter_by_outcome_and_htmx_gets_the_list_alone(
    hand_run: ScoringRun, generated: object, viewer: object
) -> None:
    config = config_of(hand_run)
    page = url("items", hand_run.project, generated.pk, config.pk)  # type: ignore[attr-defined]
    html = text_of(client_for(viewer).get(page + "?outcome=wrong"))
    outcomes = re.findall(r'data-outcome="(\w+)"', html)
    assert outcomes == ["wrong"] * 10
    partial = text_of(
        client_for(viewer).get(
            page + "?outcome=correct&uid=zh_classifier_noun", headers={"HX-Request": "true"}
        )
    )
    assert partial.startswith('\n<div id="item-list">') or partial.lstrip().startswith('<div id="item-list">')
    assert "<html" not in partial
    assert re.findall(r'data-outcome="(\w+)"', partial) == ["correct"] * 5
    assert 'lang="zh"' in partial


def test_items_pages_through_and_reports_bad_filters(
    hand_run: ScoringRun, generated: object, viewer: object
) -> None:
    config = config_of(hand_run)
    page = url("items", hand_run.project, generated.pk, config.pk)  # type: ignore[attr-defined]
    html = text_of(client_for(viewer).get(page + "?page_size=8&page=3"))
    assert "Page 3 of 3" in html and len(re.findall(r"<article ", html)) == 4
    assert "page=2" in html and "Next →" not in html
    response = client_for(viewer).get(page + "?outcome=maybe&uid=nope&page=zero&unit=furlongs&page=99")
    assert response.status_code == 200
    html = text_of(response)
    assert (
        "Outcome: “maybe” is not an outcome: use correct, wrong, tie, unscored. Showing every outcome."
        in html
    )
    assert "“nope” is not a paradigm of this dataset; showing every paradigm." in html
    assert "Surprisal in: “furlongs” is not a unit: use bits or nats. Showing bits." in html
    assert len(re.findall(r"<article ", html)) == 20


# -- Downloads --------------------------------------------------------------------------------


def test_item_and_metric_downloads(hand_run: ScoringRun, generated: object, viewer: object) -> None:
    config = config_of(hand_run)
    page = url("export", hand_run.project, generated.pk)  # type: ignore[attr-defined]
    response = client_for(viewer).get(f"{page}?what=items&format=csv&config={config.pk}")
    assert response["Content-Type"] == "text/csv"
    assert 'filename="agreement-set-hand-lm-causal-items.csv"' in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))  # type: ignore[attr-defined]
    assert len(rows) == 20 and {r["outcome"] for r in rows} == {"correct", "wrong"}
    response = client_for(viewer).get(f"{page}?what=metrics&format=json&reduction=mean")
    document = json.loads(b"".join(response.streaming_content))  # type: ignore[attr-defined]
    assert document["reduction"] == "mean"
    assert [c["model"] for c in document["configs"]] == ["hand-lm"]
    assert document["configs"][0]["report"]["overall"]["accuracy"] == 0.5


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("what=items&format=csv", "Per-item scores need the configuration"),
        ("what=metrics&format=jsonl", "Metrics download as csv or json."),
        (
            "what=everything&format=csv",
            "Select a valid choice. everything is not one of the available choices.",
        ),
    ],
)
def test_bad_download_goes_back_with_the_reason(
    hand_run: ScoringRun, generated: object, viewer: object, query: str, message: str
) -> None:
    page = url("export", hand_run.project, generated.pk)  # type: ignore[attr-defined]
    response = client_for(viewer).get(f"{page}?{query}", follow=True)
    assert response.redirect_chain[-1][0] == url("results", hand_run.project, generated.pk)  # type: ignore[attr-defined]
    assert "That download cannot be made." in text_of(response) and message in text_of(response)


def test_heat_strip_marks_word_starts_byte_pieces_and_special_tokens() -> None:
    """Tokens after a space start a word; a token over the characters of the one before is a
    byte piece of it; a token with no characters (EOS) is special; colours share one scale."""
    from mpp_studio.evaluation.results import SentenceView, TokenView
    from mpp_studio.evaluation.views_support import heat_colour, token_cells

    text = "The 猫"
    tokens = [
        TokenView("The", "The", 0, 3, -2.0, 2.0),
        TokenView("Ġç", " 猫", 3, 5, -4.0, 4.0),
        TokenView("Į«", "猫", 4, 5, -1.0, 1.0),
        TokenView("<|endoftext|>", "<|endoftext|>", 5, 5, -0.5, 0.5),
    ]
    cells = token_cells(SentenceView(text, -7.5, 4, tokens, []), "nats", 4.0)
    assert [(c.text, c.space_before, c.continued, c.special) for c in cells] == [
        ("The", False, False, False),
        ("猫", True, False, False),
        ("猫", False, True, False),
        ("<|endoftext|>", False, False, True),
    ]
    assert [c.surprisal for c in cells] == [2.0, 4.0, 1.0, 0.5]
    assert cells[1].background == heat_colour(1.0)[0] and cells[0].background == heat_colour(0.5)[0]
    assert heat_colour(1.0)[1] == "#ffffff" and heat_colour(0.0)[1] == "#1d2330"
    bits = token_cells(SentenceView(text, -7.5, 4, tokens, []), "bits", 4.0 / math.log(2))
    assert math.isclose(bits[1].surprisal, 4.0 / math.log(2))


@pytest.mark.parametrize(
    ("name", "value", "text"),
    [
        ("pct", 0.8125, "81.2%"),
        ("pct", None, "—"),
        ("points", -0.05, "−5.0 pts"),
        ("points", 0.125, "+12.5 pts"),
        ("score", -43.31849, "−43.318"),
        ("score", float("-inf"), "−∞"),
        ("score", None, "—"),
        ("pvalue", 0.0004, "< 0.001"),
        ("pvalue", 0.04567, "0.046"),
        ("breakable", "subject_verb<b>", "subject_<wbr>verb&lt;b&gt;"),
    ],
)
def test_result_filters_write_numbers_for_people(name: str, value: object, text: str) -> None:
    from mpp_studio.evaluation.templatetags import evaluation_format

    assert getattr(evaluation_format, name)(value) == text
