"""Learner triplet datasets (BLiSS): scoring stores three sentences per pair, once each; the
BLiSS report from stored scores equals `mpp score`'s on the same tiny GPT-2 and the engine's on
the same numbers; minimal-pair datasets are scored as before; the pages, exports and API show
LP, HAP, HAP-τ and SO with their slices and the HAP-against-pair-accuracy plot."""

import csv
import io
import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest

from mpp.cli import main as mpp_main
from mpp_studio.datasets.models import Pair
from mpp_studio.datasets.selectors import is_triplet_dataset
from mpp_studio.evaluation import results
from mpp_studio.evaluation.exports import (
    TRIPLET_ITEM_COLUMNS,
    TRIPLET_METRIC_COLUMNS,
    triplet_items_csv_lines,
    triplet_items_jsonl_lines,
    triplet_metrics_csv_lines,
    triplet_metrics_json_chunks,
)
from mpp_studio.evaluation.models import LanguageModel, PairKey, ScoringChunk, ScoringRun, SentenceScore
from mpp_studio.evaluation.services.sentences import (
    chunk_plan,
    dataset_pairs,
    sentence_key,
)
from mpp_studio.evaluation.triplet_results import (
    dataset_triplet_refs,
    score_triplets,
    triplet_board,
    triplet_report,
)
from scoring.triplet_metrics import TripletScores
from scoring.triplet_metrics import triplet_report as engine_triplet_report
from tests.web.evaluation.conftest import run_chunks, store_score
from tests.web.evaluation.triplet_data import make_triplet_dataset, write_bliss_jsonl

pytestmark = pytest.mark.django_db

N = 66


@pytest.fixture
def learner_set(project: object) -> object:
    """The 66-triplet learner dataset of tests.web.evaluation.triplet_data."""
    return make_triplet_dataset(project, n=N)


@pytest.fixture
def scored_run(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, learner_set: object
) -> ScoringRun:
    """A run of the tiny GPT-2 on the learner set, every chunk scored."""
    run = make_run([gpt2_model], [learner_set], chunk_size=30)
    run_chunks(run)
    return run


def _records(dataset: object) -> list[dict[str, object]]:
    """The dataset's records in its order (paradigm uid, pair index)."""
    rows = Pair.objects.filter(paradigm__dataset=dataset).order_by("paradigm__uid", "index")
    return [dict(r) for r in rows.values_list("record", flat=True)]


# -- Scoring ----------------------------------------------------------------------------------


def test_a_learner_dataset_is_a_triplet_dataset_and_a_generated_one_is_not(
    learner_set: object, generated: object
) -> None:
    assert is_triplet_dataset(learner_set)  # type: ignore[arg-type]
    assert not is_triplet_dataset(generated)  # type: ignore[arg-type]
    pairs = list(dataset_pairs(learner_set))  # type: ignore[arg-type]
    assert len(pairs) == N
    first = pairs[0]
    assert first.artificial is not None and first.artificial.word_spans is None
    assert first.artificial_key == sentence_key(first.artificial)
    assert [k for k, _ in first.sentences()] == [first.good_key, first.bad_key, first.artificial_key]


def test_a_pairs_dataset_with_artificial_sentences_in_its_records_is_read_as_triplets(
    project: object, learner_set: object
) -> None:
    """Recognised by the records too, whatever the origin says."""
    learner_set.origin = "imported"  # type: ignore[attr-defined]
    learner_set.save()  # type: ignore[attr-defined]
    assert is_triplet_dataset(learner_set)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("artificial", "triplets"), [("The cats sleeps .", True), ("  ", False), (None, False)]
)
def test_a_record_names_a_triplet_by_a_non_blank_artificial_sentence(
    generated: object, artificial: object, triplets: bool
) -> None:
    """One rule for the scoring and the studies apps (datasets.selectors.is_triplet_dataset)."""
    for pair in Pair.objects.filter(paradigm__dataset=generated):
        pair.record = {**pair.record, "artificial_error": artificial}
        pair.save()
    assert is_triplet_dataset(generated) is triplets  # type: ignore[arg-type]


def test_chunks_count_three_sentences_per_triplet_and_span_index_gaps(learner_set: object) -> None:
    plan = chunk_plan(learner_set, 30)  # type: ignore[arg-type]
    assert [count for _ranges, count in plan] == [10] * 6 + [6]
    # Indexes 0, 4, 8, ...: one range per paradigm and chunk, and the chunks cover every pair once.
    assert plan[0][0] == [[plan[0][0][0][0], 0, 36]]
    covered = [p.pair_id for ranges, _ in plan for p in dataset_pairs(learner_set, ranges=ranges)]  # type: ignore[arg-type]
    assert covered == [p.pair_id for p in dataset_pairs(learner_set)]  # type: ignore[arg-type]


def test_scoring_a_triplet_dataset_stores_its_three_sentences_once_each(
    scored_run: ScoringRun,
    learner_set: object,
    make_run: Callable[..., ScoringRun],
    gpt2_model: LanguageModel,
) -> None:
    config = scored_run.configs.get()
    pairs = list(dataset_pairs(learner_set))  # type: ignore[arg-type]
    keys = {k for p in pairs for k, _ in p.sentences()}
    assert len(keys) == 3 * N  # every invented sentence differs
    stored = set(SentenceScore.objects.filter(config=config).values_list("sentence_key", flat=True))
    assert stored == keys
    chunks = ScoringChunk.objects.filter(run=scored_run)
    assert sum(chunks.values_list("n_sentences", flat=True)) == 3 * N
    assert all(c.n_sentences % 3 == 0 and c.n_sentences <= 30 for c in chunks)
    recorded = {k.pair_id: k for k in PairKey.objects.filter(dataset=learner_set)}
    for pair in pairs:
        key = recorded[pair.pair_id]
        assert (key.good_key, key.bad_key, key.artificial_key) == (
            pair.good_key,
            pair.bad_key,
            pair.artificial_key,
        )
    job = scored_run.job
    job.refresh_from_db()  # type: ignore[union-attr]
    assert job.status == "done", job.message  # type: ignore[union-attr]
    assert job.progress_total == job.progress_done == 3 * N  # type: ignore[union-attr]
    assert f"Scored the {N} triplets of 1 dataset" in job.message  # type: ignore[union-attr]

    # Scoring again is free: every sentence is stored for the configuration.
    again = make_run([gpt2_model], [learner_set], chunk_size=30, name="Again")
    run_chunks(again)
    assert sum(ScoringChunk.objects.filter(run=again).values_list("scored", flat=True)) == 0
    assert SentenceScore.objects.filter(config=config).count() == 3 * N


def test_a_pairs_only_run_is_unchanged(
    make_run: Callable[..., ScoringRun],
    gpt2_model: LanguageModel,
    generated: object,
    client: object,
    viewer: object,
) -> None:
    run = make_run([gpt2_model])
    run_chunks(run)
    pairs = list(dataset_pairs(generated))  # type: ignore[arg-type]
    assert all(p.artificial is None and p.artificial_key == "" for p in pairs)
    assert set(PairKey.objects.filter(dataset=generated).values_list("artificial_key", flat=True)) == {None}
    chunks = ScoringChunk.objects.filter(run=run)
    assert sum(chunks.values_list("n_sentences", flat=True)) == 2 * len(pairs) == 40
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert "Scored the 20 pairs of 1 dataset" in run.job.message  # type: ignore[union-attr]
    refs = results.scored_pairs(generated, run.configs.get())  # type: ignore[arg-type]
    assert all(r.pair.artificial_key == "" for r in refs)
    client.force_login(viewer)  # type: ignore[attr-defined]
    page = client.get(f"/projects/{run.project_id}/scoring/results/{generated.pk}/").content.decode()  # type: ignore[attr-defined]
    assert "bliss-table" not in page and "plot-hap" not in page
    page = client.get(f"/projects/{run.project_id}/scoring/runs/{run.pk}/").content.decode()  # type: ignore[attr-defined]
    assert "Learner triplets" not in page
    with pytest.raises(results.ResultsError, match="not a learner triplet dataset"):
        dataset_triplet_refs(generated)  # type: ignore[arg-type]


# -- The report --------------------------------------------------------------------------------


def test_report_equals_mpp_score_on_the_same_tiny_gpt2(
    scored_run: ScoringRun, learner_set: object, tiny_gpt2_folder: Path, tmp_path: Path
) -> None:
    """The platform and the command line give the same BLiSS numbers (bits per token)."""
    data = write_bliss_jsonl(tmp_path / "learner.jsonl", _records(learner_set))
    out = tmp_path / "scores.jsonl"
    args = ["score", "--scorer", "causal", "--model", str(tiny_gpt2_folder), "--data", str(data)]
    assert mpp_main([*args, "--out", str(out), "--device", "cpu"]) == 0
    cli = json.loads((tmp_path / "scores.metrics.json").read_text())["triplets"]
    config = scored_run.configs.get()
    report = triplet_report(learner_set, config)  # type: ignore[arg-type]
    assert report is not None
    platform = json.loads(json.dumps(report.to_dict()))
    assert platform == cli
    assert platform["n"] == N and set(platform["slices"]) == {"l1", "cefr", "error_type", "corpus"}
    # And item by item: the CLI's bits per token are the stored ones.
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    by_text = {line["corrected"]["text"]: line for line in lines}
    for scored in score_triplets(dataset_triplet_refs(learner_set), config):  # type: ignore[arg-type]
        line = by_text[scored.ref.pair.good_text]
        for side, value in (("corrected", scored.corrected), ("learner", scored.learner)):
            assert value == pytest.approx(line[side]["scores"]["bpt"], abs=1e-5)
        assert scored.artificial == pytest.approx(line["artificial"]["scores"]["bpt"], abs=1e-5)


def test_report_equals_the_engine_on_the_stored_numbers(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, learner_set: object
) -> None:
    """Hand-stored scores (BPT = -mean log-prob / ln 2): the platform's report is the engine's
    triplet_report of the same numbers, its metadata read from the records."""
    config = make_run([gpt2_model], [learner_set]).configs.get()
    items = []
    for i, (pair, record) in enumerate(zip(dataset_pairs(learner_set), _records(learner_set), strict=True)):  # type: ignore[arg-type]
        values = (-1.0 - i % 5, -1.5 - i % 3, -1.2 - i % 7)
        for sentence, value in zip((pair.good, pair.bad, pair.artificial), values, strict=True):
            store_score(config, sentence, [value, value])
        corrected, learner, artificial = (-v / math.log(2) for v in values)
        items.append(
            TripletScores(
                pair.item_id,
                corrected,
                learner,
                artificial,
                l1=str(record["L1"]),
                cefr=str(record["cefr"]),
                error_type=str(record["error_type"]),
                corpus=str(record["corpus"]),
                learner_id=str(record["learnerID"]),
            )
        )
    expected = engine_triplet_report(items)
    report = triplet_report(learner_set, config)  # type: ignore[arg-type]
    assert report is not None and report.to_dict() == expected.to_dict()
    assert report.slices["cefr"]["C1"].suppressed and not report.slices["l1"]["German"].suppressed
    assert report.ci_method.startswith("cluster bootstrap over learners")
    board = triplet_board(learner_set, [config], reduction="bpt")  # type: ignore[arg-type]
    [row] = board.rows
    assert row.cells == dict(expected.overall) and row.n == row.n_triplets == N
    # Pair accuracy in BPT: the corrected sentence preferred to the learner's, which is 1 - LP here.
    assert row.pair_accuracy == pytest.approx(1 - expected.overall["LP"].value)


def test_a_partly_scored_triplet_is_left_out(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, learner_set: object
) -> None:
    config = make_run([gpt2_model], [learner_set]).configs.get()
    assert triplet_report(learner_set, config) is None  # type: ignore[arg-type]
    first = next(iter(dataset_pairs(learner_set)))  # type: ignore[arg-type]
    store_score(config, first.good, [-1.0])
    store_score(config, first.bad, [-2.0])
    assert triplet_report(learner_set, config) is None  # type: ignore[arg-type]
    store_score(config, first.artificial, [-3.0])
    report = triplet_report(learner_set, config, min_slice=1, bootstrap=0)  # type: ignore[arg-type]
    assert report is not None and report.n == 1
    assert report.overall["HAP"].value == 1.0 and report.overall["LP"].value == 0.0
    [row] = triplet_board(learner_set, [config]).rows  # type: ignore[arg-type]
    assert (row.n, row.n_triplets, row.complete) == (1, N, False)


# -- Pages -------------------------------------------------------------------------------------


def test_results_page_shows_the_bliss_table_and_the_plot(
    client: object, viewer: object, scored_run: ScoringRun, learner_set: object
) -> None:
    client.force_login(viewer)  # type: ignore[attr-defined]
    base = f"/projects/{scored_run.project_id}/scoring"
    page = client.get(f"{base}/results/{learner_set.pk}/").content.decode()  # type: ignore[attr-defined]
    config = scored_run.configs.get()
    report = triplet_report(learner_set, config, dimensions=())  # type: ignore[arg-type]
    assert report is not None
    assert 'class="bliss-table"' in page
    for header in ("LP", "HAP", "HAP-τ (τ = 0.1)", "SO"):
        assert f">{header}</th>" in page
    for metric, cell in report.overall.items():
        assert f'data-metric="{metric}"><strong>{100 * cell.value:.1f}%</strong>' in page
        assert f"[{100 * cell.ci_low:.1f}%–{100 * cell.ci_high:.1f}%]" in page
    assert 'id="plot-hap"' in page and "<svg" in page
    assert "HAP against pair accuracy on Learner set" in page
    assert "what=triplet_metrics&amp;format=csv" in page

    # The configuration's page: overall metrics, slices by error type, L1 and CEFR level.
    page = client.get(f"{base}/results/{learner_set.pk}/configs/{config.pk}/").content.decode()  # type: ignore[attr-defined]
    assert 'class="bliss-overall"' in page
    for dimension in ("error_type", "l1", "cefr", "corpus"):
        assert f'data-dimension="{dimension}"' in page
    assert 'data-slice="German"' in page and 'data-slice="Spanish"' in page
    assert 'class="slice-row suppressed" data-slice="C1"' in page
    assert "Fewer than 30 items: not reported." in page
    assert "what=triplets&amp;format=csv" in page

    # The run's page: the same table and the plot.
    page = client.get(f"{base}/runs/{scored_run.pk}/").content.decode()  # type: ignore[attr-defined]
    assert 'class="bliss-table"' in page and 'id="plot-hap"' in page
    assert "HAP against pair accuracy: Run (LP)" in page


def test_run_plot_uses_the_runs_minimal_pair_datasets_for_pair_accuracy(
    client: object,
    viewer: object,
    make_run: Callable[..., ScoringRun],
    unigram_en: LanguageModel,
    learner_set: object,
    generated: object,
) -> None:
    run = make_run([unigram_en], [generated, learner_set], chunk_size=60)
    run_chunks(run)
    run.job.refresh_from_db()  # type: ignore[union-attr]
    # the English word list scores the English paradigm of `generated` (10 pairs) and the triplets
    assert f"Scored the 10 pairs and {N} triplets of 2 datasets" in run.job.message  # type: ignore[union-attr]
    client.force_login(viewer)  # type: ignore[attr-defined]
    page = client.get(f"/projects/{run.project_id}/scoring/runs/{run.pk}/").content.decode()  # type: ignore[attr-defined]
    assert "minimal-pair datasets (%)" in page and "corrected preferred to learner (%)" not in page
    board = results.leaderboard(generated, reduction="sum")  # type: ignore[arg-type]
    accuracy = board.rows[0].accuracy
    assert accuracy is not None
    assert f"pair accuracy {100 * accuracy:.1f}%" in page  # the plot's description


def test_items_show_the_artificial_sentence_with_its_tokens(
    client: object,
    viewer: object,
    api_client_for: Callable[[object], object],
    scored_run: ScoringRun,
    learner_set: object,
) -> None:
    config = scored_run.configs.get()
    page = results.item_rows(learner_set, config, reduction="bpt", page_size=5)  # type: ignore[arg-type]
    scored = score_triplets(dataset_triplet_refs(learner_set), config)[:5]  # type: ignore[arg-type]
    for item, triplet in zip(page.items, scored, strict=True):
        assert item.artificial is not None
        assert item.artificial.text == triplet.ref.pair.artificial_text
        assert item.artificial.score == triplet.artificial and item.bad.score == triplet.learner
        assert item.artificial.n_tokens == triplet.artificial_tokens and item.artificial.tokens
    client.force_login(viewer)  # type: ignore[attr-defined]
    url = f"/projects/{scored_run.project_id}/scoring/results/{learner_set.pk}/configs/{config.pk}/items/"
    html = client.get(url).content.decode()  # type: ignore[attr-defined]
    assert html.count('class="sentence-row artificial"') == min(N, results.PAGE_SIZE)
    assert ">Corrected</th>" in html and ">Learner</th>" in html and ">Artificial</th>" in html
    body = (
        api_client_for(viewer)
        .get(  # type: ignore[attr-defined]
            f"/api/projects/{scored_run.project_id}/results/{learner_set.pk}/configs/{config.pk}/items/?page_size=2"
        )
        .json()
    )
    assert body["results"][0]["artificial"]["text"] == scored[0].ref.pair.artificial_text


def test_items_of_a_pairs_dataset_have_no_artificial_sentence(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel, generated: object
) -> None:
    run = make_run([unigram_en])
    run_chunks(run)
    page = results.item_rows(generated, run.configs.get())  # type: ignore[arg-type]
    assert page.items and all(item.artificial is None for item in page.items)


def test_config_page_of_an_unscored_triplet_dataset_says_so(
    client: object,
    viewer: object,
    make_run: Callable[..., ScoringRun],
    gpt2_model: LanguageModel,
    learner_set: object,
) -> None:
    run = make_run([gpt2_model], [learner_set])
    config = run.configs.get()
    client.force_login(viewer)  # type: ignore[attr-defined]
    url = f"/projects/{run.project_id}/scoring/results/{learner_set.pk}/configs/{config.pk}/"
    response = client.get(url)  # type: ignore[attr-defined]
    assert response.status_code == 200
    assert "No triplet of this dataset has all three sentences scored" in response.content.decode()


# -- Exports -----------------------------------------------------------------------------------


def _csv(lines: object) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(b"".join(lines).decode("utf-8"))))  # type: ignore[arg-type]


def test_triplet_items_csv_has_three_scores_per_item(scored_run: ScoringRun, learner_set: object) -> None:
    config = scored_run.configs.get()
    rows = _csv(triplet_items_csv_lines(learner_set, config))  # type: ignore[arg-type]
    assert list(rows[0]) == list(TRIPLET_ITEM_COLUMNS) and len(rows) == N
    scored = score_triplets(dataset_triplet_refs(learner_set), config)  # type: ignore[arg-type]
    records = _records(learner_set)
    for row, item, record in zip(rows, scored, records, strict=True):
        assert row["item_id"] == record["UID"] and row["L1"] == record["L1"] and row["cefr"] == record["cefr"]
        assert row["pair_id"] == f"{item.ref.pair.uid}/{item.ref.pair.index}"
        assert (row["corrected"], row["learner_error"], row["artificial_error"]) == (
            record["corrected"],
            record["learner_error"],
            record["artificial_error"],
        )
        assert float(row["bpt_corrected"]) == item.corrected
        assert float(row["bpt_learner"]) == item.learner
        assert float(row["bpt_artificial"]) == item.artificial
        assert row["HAP"] == ("yes" if item.learner < item.artificial else "no")  # type: ignore[operator]
        assert row["LP"] == ("yes" if item.learner < item.corrected else "no")  # type: ignore[operator]
    lines = [json.loads(x) for x in triplet_items_jsonl_lines(learner_set, config)]  # type: ignore[arg-type]
    assert len(lines) == N
    first = lines[0]
    assert set(first["scores"]) == {"corrected", "learner_error", "artificial_error"}
    assert first["scores"]["artificial_error"]["text"] == first["artificial_error"]
    assert first["config_id"] == config.pk and set(first["outcome"]) == {"LP", "HAP", "HAP_tau", "SO"}


def test_triplet_metrics_csv_and_json_hold_the_report(scored_run: ScoringRun, learner_set: object) -> None:
    config = scored_run.configs.get()
    report = triplet_report(learner_set, config)  # type: ignore[arg-type]
    assert report is not None
    rows = _csv(triplet_metrics_csv_lines(learner_set, [config]))  # type: ignore[arg-type]
    assert list(rows[0]) == list(TRIPLET_METRIC_COLUMNS)
    overall = {r["metric"]: r for r in rows if r["dimension"] == "overall"}
    assert set(overall) == {"LP", "HAP", "HAP_tau", "SO"}
    assert float(overall["HAP"]["value"]) == report.overall["HAP"].value
    assert float(overall["SO"]["ci_low"]) == report.overall["SO"].ci_low
    german = [r for r in rows if r["dimension"] == "l1" and r["slice"] == "German" and r["metric"] == "HAP"]
    [row] = german
    test = report.slices["l1"]["German"].vs_rest["HAP"]
    assert float(row["p_holm"]) == test.p_holm and row["suppressed"] == "False"
    c1 = [r for r in rows if r["dimension"] == "cefr" and r["slice"] == "C1"]
    assert len(c1) == 4 and all(r["suppressed"] == "True" and r["value"] == "" and r["n"] == "6" for r in c1)
    document = json.loads(b"".join(triplet_metrics_json_chunks(learner_set, [config])))  # type: ignore[arg-type]
    [entry] = document["configs"]
    assert entry["config_id"] == config.pk
    assert entry["triplets"] == json.loads(json.dumps(report.to_dict()))


def test_export_view_downloads_triplets_and_refuses_them_for_a_pairs_dataset(
    client: object, viewer: object, scored_run: ScoringRun, learner_set: object, generated: object
) -> None:
    client.force_login(viewer)  # type: ignore[attr-defined]
    config = scored_run.configs.get()
    base = f"/projects/{scored_run.project_id}/scoring/results"
    response = client.get(f"{base}/{learner_set.pk}/export/?what=triplets&format=csv&config={config.pk}")  # type: ignore[attr-defined]
    assert response.status_code == 200 and response["Content-Type"] == "text/csv"
    assert 'filename="learner-set-tiny-gpt2-causal-triplets.csv"' in response["Content-Disposition"]
    assert len(_csv(response.streaming_content)) == N
    response = client.get(f"{base}/{learner_set.pk}/export/?what=triplet_metrics&format=json")  # type: ignore[attr-defined]
    assert response.status_code == 200
    assert json.loads(b"".join(response.streaming_content))["configs"][0]["triplets"]["n"] == N
    response = client.get(f"{base}/{learner_set.pk}/export/?what=triplets&format=json&config={config.pk}")  # type: ignore[attr-defined]
    assert response.status_code == 302  # a bad combination: said on the results page
    response = client.get(f"{base}/{generated.pk}/export/?what=triplet_metrics&format=csv", follow=True)  # type: ignore[attr-defined]
    assert "is not a learner triplet dataset" in response.content.decode()


# -- API and permissions -----------------------------------------------------------------------


def test_api_report_and_triplets_include_the_bliss_report(
    api_client_for: Callable[[object], object],
    viewer: object,
    outsider: object,
    scored_run: ScoringRun,
    learner_set: object,
    generated: object,
) -> None:
    config = scored_run.configs.get()
    expected = json.loads(json.dumps(triplet_report(learner_set, config).to_dict()))  # type: ignore[arg-type,union-attr]
    api = api_client_for(viewer)
    base = f"/api/projects/{scored_run.project_id}/results"
    body = api.get(f"{base}/{learner_set.pk}/configs/{config.pk}/report/").json()  # type: ignore[attr-defined]
    assert body["triplets"] == expected and body["report"]["overall"]["n"] == N
    body = api.get(f"{base}/{learner_set.pk}/triplets/").json()  # type: ignore[attr-defined]
    assert body["tau"] == 0.1 and body["configs"][0]["triplets"] == expected
    small = api.get(f"{base}/{learner_set.pk}/triplets/?min_slice=5&bootstrap=0&tau=0.5").json()  # type: ignore[attr-defined]
    assert small["configs"][0]["triplets"]["slices"]["cefr"]["C1"]["suppressed"] is False
    assert small["configs"][0]["triplets"]["tau"] == 0.5
    bad = api.get(f"{base}/{learner_set.pk}/triplets/?tau=-1")  # type: ignore[attr-defined]
    assert bad.status_code == 400
    pairs = api.get(f"{base}/{generated.pk}/triplets/")  # type: ignore[attr-defined]
    assert pairs.status_code == 400 and "not a learner triplet dataset" in pairs.content.decode()
    export = api.get(f"{base}/{learner_set.pk}/export/?what=triplets&format=csv&config={config.pk}")  # type: ignore[attr-defined]
    assert export.status_code == 200 and len(_csv(export.streaming_content)) == N
    export = api.get(f"{base}/{generated.pk}/export/?what=triplet_metrics&format=json")  # type: ignore[attr-defined]
    assert export.status_code == 400
    # Outsiders see nothing of the project.
    other = api_client_for(outsider)
    assert other.get(f"{base}/{learner_set.pk}/triplets/").status_code == 404  # type: ignore[attr-defined]
    assert (
        other.get(f"{base}/{learner_set.pk}/export/?what=triplet_metrics&format=csv").status_code  # type: ignore[attr-defined]
        == 404
    )


def test_pages_read_for_viewers_and_404_for_outsiders(
    client: object, viewer: object, outsider: object, scored_run: ScoringRun, learner_set: object
) -> None:
    config = scored_run.configs.get()
    base = f"/projects/{scored_run.project_id}/scoring"
    urls = [
        f"{base}/results/{learner_set.pk}/",
        f"{base}/results/{learner_set.pk}/configs/{config.pk}/",
        f"{base}/runs/{scored_run.pk}/",
        f"{base}/results/{learner_set.pk}/export/?what=triplet_metrics&format=csv",
        f"{base}/results/{learner_set.pk}/export/?what=triplets&format=jsonl&config={config.pk}",
    ]
    client.force_login(viewer)  # type: ignore[attr-defined]
    for url in urls:
        assert client.get(url).status_code == 200, url  # type: ignore[attr-defined]
    client.force_login(outsider)  # type: ignore[attr-defined]
    for url in urls:
        assert client.get(url).status_code == 404, url  # type: ignore[attr-defined]


def test_a_triplet_without_an_error_type_is_sliced_under_its_paradigm() -> None:
    from mpp_studio.evaluation.triplet_results import error_type_of

    assert error_type_of({"errant_edits": [{"type": "R:PREP"}]}, "R:DET") == "R:PREP"
    assert error_type_of({"all_error_types": [" "]}, "R:DET") == "R:DET"


def test_a_new_run_counts_a_triplet_dataset_in_triplets(
    client: object, editor: object, learner_set: object, generated: object
) -> None:
    client.force_login(editor)  # type: ignore[attr-defined]
    page = client.get(f"/projects/{learner_set.project_id}/scoring/runs/new/").content.decode()  # type: ignore[attr-defined]
    assert f"{learner_set.name} ({N} triplets)" in page  # type: ignore[attr-defined]
    assert f"{generated.name} (20 pairs)" in page  # type: ignore[attr-defined]
