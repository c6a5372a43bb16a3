"""Downloads of scoring results: per-item CSV and JSON Lines, metrics CSV and JSON, streamed."""

import csv
import io
import json
from collections.abc import Callable

import pytest

from mpp_studio.evaluation import results
from mpp_studio.evaluation.exports import (
    ITEM_COLUMNS,
    METRIC_COLUMNS,
    items_csv_lines,
    items_jsonl_lines,
    metrics_csv_lines,
    metrics_json_chunks,
)
from mpp_studio.evaluation.models import LanguageModel, ScoringRun
from mpp_studio.evaluation.services.sentences import dataset_pairs
from tests.web.evaluation.conftest import run_chunks, store_score

pytestmark = pytest.mark.django_db


@pytest.fixture
def config(make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel) -> object:
    """The tiny GPT-2's configuration, every pair of `generated` (English and Chinese) scored."""
    run = make_run([gpt2_model])
    run_chunks(run)
    return run.configs.get()


def read_csv(lines: object) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(b"".join(lines).decode("utf-8"))))  # type: ignore[arg-type]


def test_items_csv_has_one_row_per_pair_with_its_scores(config: object, generated: object) -> None:
    rows = read_csv(items_csv_lines(generated, config, reduction="mean"))  # type: ignore[arg-type]
    scored = results.scored_pairs(generated, config, reduction="mean")  # type: ignore[arg-type]
    assert list(rows[0]) == list(ITEM_COLUMNS)
    assert len(rows) == len(scored) == 20
    for row, item in zip(rows, scored, strict=True):
        assert (row["pair_id"], row["UID"], int(row["pair_index"])) == (
            f"{item.pair.uid}/{item.pair.index}",
            item.pair.uid,
            item.pair.index,
        )
        assert (row["sentence_good"], row["sentence_bad"]) == (item.pair.good_text, item.pair.bad_text)
        assert float(row["score_good"]) == item.good and float(row["score_bad"]) == item.bad
        assert row["outcome"] == item.outcome_name


def test_items_csv_leaves_unscored_pairs_blank(
    make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel, generated: object
) -> None:
    config = make_run([gpt2_model]).configs.get()
    first = next(iter(dataset_pairs(generated)))  # type: ignore[arg-type]
    store_score(config, first.good, [-1.0])
    store_score(config, first.bad, [-2.0])
    rows = read_csv(items_csv_lines(generated, config))  # type: ignore[arg-type]
    assert (rows[0]["score_good"], rows[0]["difference"], rows[0]["outcome"]) == ("-1.0", "1.0", "correct")
    assert (rows[1]["score_good"], rows[1]["outcome"]) == ("", "unscored")


def test_items_jsonl_carries_every_token(config: object, generated: object) -> None:
    lines = list(items_jsonl_lines(generated, config))  # type: ignore[arg-type]
    records = [json.loads(line) for line in lines]
    assert len(records) == 20 and all(line.endswith(b"\n") for line in lines)
    first = records[0]
    assert first["model"] == "tiny-gpt2" and first["method"] == "causal"
    assert first["good"]["text"] == first["sentence_good"]
    assert sum(first["good"]["logprobs"]) == pytest.approx(first["score_good"])
    assert len(first["good"]["tokens"]) == len(first["good"]["token_spans"]) == len(first["good"]["logprobs"])


def test_metrics_csv_and_json_match_the_report(config: object, generated: object) -> None:
    report = results.pair_report(generated, config)  # type: ignore[arg-type]
    assert report is not None
    rows = read_csv(metrics_csv_lines(generated, [config]))  # type: ignore[arg-type,list-item]
    assert list(rows[0]) == list(METRIC_COLUMNS)
    overall = rows[0]
    assert (overall["scope"], float(overall["accuracy"]), int(overall["n"])) == (
        "overall",
        report.overall.accuracy,
        20,
    )
    assert [(r["scope"], r["name"]) for r in rows[1:5]] == [
        ("phenomenon", "classifiers"),
        ("phenomenon", "subject_verb_agreement"),
        ("paradigm", "en_sv_agreement"),
        ("paradigm", "zh_classifier_noun"),
    ]
    document = json.loads(b"".join(metrics_json_chunks(generated, [config, config])))  # type: ignore[arg-type,list-item]
    assert document["dataset"]["id"] == generated.pk and document["reduction"] == "sum"  # type: ignore[attr-defined]
    assert [c["report"] for c in document["configs"]] == [report.to_dict(), report.to_dict()]
    assert document["configs"][0]["settings_key"] == config.settings_key  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("query", "content_type", "suffix"),
    [
        ("what=items&format=csv", "text/csv", "-items.csv"),
        ("what=items&format=jsonl", "application/jsonl", "-items.jsonl"),
        ("what=metrics&format=csv", "text/csv", "-metrics-sum.csv"),
        ("what=metrics&format=json", "application/json", "-metrics-sum.json"),
    ],
)
def test_export_api_streams_an_attachment(
    request: pytest.FixtureRequest,
    project: object,
    viewer: object,
    config: object,
    generated: object,
    query: str,
    content_type: str,
    suffix: str,
) -> None:
    client = request.getfixturevalue("api_client_for")(viewer)
    url = f"/api/projects/{project.pk}/results/{generated.pk}/export/?{query}&config={config.pk}"  # type: ignore[attr-defined]
    response = client.get(url)
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"].startswith('attachment; filename="agreement-set-')
    assert response["Content-Disposition"].endswith(f'{suffix}"')
    body = b"".join(response.streaming_content)
    assert body.strip()


def test_exports_record_the_linking_function_with_its_parameters(
    request: pytest.FixtureRequest, project: object, viewer: object, config: object, generated: object
) -> None:
    """A metrics or items download under SLLN-LP with alpha 0.7 records the function with its
    parameter, and each sentence's score is its summed log-prob over length ** 0.7."""
    client = request.getfixturevalue("api_client_for")(viewer)
    base = f"/api/projects/{project.pk}/results/{generated.pk}/export/?config={config.pk}"  # type: ignore[attr-defined]
    response = client.get(base + "&what=metrics&format=json&reduction=slln:alpha=0.7")
    assert response["Content-Disposition"].endswith('-metrics-slln-alpha-0.7.json"')
    document = json.loads(b"".join(response.streaming_content))
    assert document["reduction"] == "slln:alpha=0.7"
    assert document["linking"] == {
        "name": "slln",
        "label": "SLLN-LP (alpha 0.7)",
        "parameters": {"alpha": 0.7},
    }
    assert document["configs"][0]["report"]["reduction"] == "slln:alpha=0.7"
    response = client.get(base + "&what=items&format=jsonl&reduction=slln:alpha=0.7")
    first = json.loads(b"".join(response.streaming_content).splitlines()[0])
    logprobs = first["good"]["logprobs"]
    assert first["reduction"] == "slln:alpha=0.7"
    assert first["score_good"] == pytest.approx(sum(logprobs) / len(logprobs) ** 0.7)
    refused = client.get(base + "&what=metrics&format=csv&reduction=penlp:alpha=-1")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "reduction"
