"""Downloads of scoring results, streamed a block of pairs at a time: per-item scores (CSV, or
JSON Lines with every token's log-prob) and metrics (CSV rows, or one JSON document); for a
learner triplet dataset also per-triplet scores (three bits-per-token values and the BLiSS
outcomes of each item) and the BLiSS metrics (LP, HAP, HAP-τ, SO overall and per slice)."""

import csv
import io
import json
import re
from collections.abc import Iterator, Sequence

from django.http import StreamingHttpResponse
from django.utils.text import slugify

from mpp_studio.datasets.models import Dataset
from mpp_studio.evaluation.models import DEFAULT_TIE_TOLERANCE, ScoreConfig
from mpp_studio.evaluation.results import LearningCurve, check_reduction, pair_report, scored_pair_stream
from mpp_studio.evaluation.selectors import score_data
from mpp_studio.evaluation.triplet_results import (
    ScoredTriplet,
    check_triplet_dataset,
    dataset_triplet_refs,
    score_triplets,
    triplet_report,
)
from scoring.metrics import AccuracyCell, PairReport
from scoring.triplet_metrics import DEFAULT_TAU, METRICS, MetricCell, SliceTest, TripletReport
from vocab.csv_cells import safe_row

# Pairs per block: their scores are read in one query (two keys per pair).
BLOCK = 1_000
ITEM_COLUMNS = (
    "pair_id",
    "UID",
    "phenomenon",
    "pair_index",
    "sentence_good",
    "sentence_bad",
    "score_good",
    "score_bad",
    "difference",
    "outcome",
    "n_tokens_good",
    "n_tokens_bad",
)
METRIC_COLUMNS = (
    "config_id",
    "model",
    "method",
    "dtype",
    "settings_key",
    "reduction",
    "tie_tolerance",
    "scope",
    "name",
    "n",
    "correct",
    "ties",
    "accuracy",
    "ci_low",
    "ci_high",
    "p_value",
)
TRIPLET_ITEM_COLUMNS = (
    "pair_id",
    "item_id",
    "UID",
    "error_type",
    "pair_index",
    "L1",
    "cefr",
    "corpus",
    "learnerID",
    "corrected",
    "learner_error",
    "artificial_error",
    "bpt_corrected",
    "bpt_learner",
    "bpt_artificial",
    "n_tokens_corrected",
    "n_tokens_learner",
    "n_tokens_artificial",
    *METRICS,
)
TRIPLET_METRIC_COLUMNS = (
    "config_id",
    "model",
    "method",
    "dtype",
    "settings_key",
    "tau",
    "tie_tolerance",
    "ci",
    "dimension",
    "slice",
    "metric",
    "n",
    "value",
    "wins",
    "ties",
    "ci_low",
    "ci_high",
    "p_value",
    "suppressed",
    "slice_rate",
    "rest_rate",
    "odds_ratio",
    "p_fisher",
    "p_holm",
)
EXPORTS = {
    ("items", "csv"): "text/csv",
    ("items", "jsonl"): "application/jsonl",
    ("metrics", "csv"): "text/csv",
    ("metrics", "json"): "application/json",
    ("triplets", "csv"): "text/csv",
    ("triplets", "jsonl"): "application/jsonl",
    ("triplet_metrics", "csv"): "text/csv",
    ("triplet_metrics", "json"): "application/json",
}
# The downloads only a learner triplet dataset has.
TRIPLET_EXPORTS = ("triplets", "triplet_metrics")


def _csv_line(values: Sequence[object]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(safe_row(["" if v is None else v for v in values]))
    return buffer.getvalue().encode("utf-8")


def config_identity(config: ScoreConfig) -> dict[str, object]:
    """Return what names a configuration in an export: model, method, numerics and key."""
    return {
        "config_id": config.pk,
        "model": config.language_model.name,
        "source": config.source,
        "revision": config.revision,
        "method": config.method,
        "dtype": config.dtype,
        "score_eos": config.score_eos,
        "language": config.language,
        "settings_key": config.settings_key,
        "scoring_version": config.scoring_version,
    }


def items_csv_lines(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Iterator[bytes]:
    """Yield a CSV of the dataset's pairs under `config`: one row per pair with both
    sentences' reduced scores, good - bad and the outcome (blank scores: not stored yet)."""
    check_reduction(reduction)
    yield _csv_line(ITEM_COLUMNS)
    for block in scored_pair_stream(dataset, config, reduction=reduction, tie_tolerance=tie_tolerance):
        for s in block:
            p = s.pair
            yield _csv_line(
                (
                    p.item_id,
                    p.uid,
                    p.phenomenon,
                    p.index,
                    p.good_text,
                    p.bad_text,
                    s.good,
                    s.bad,
                    s.difference,
                    s.outcome_name,
                    s.good_tokens,
                    s.bad_tokens,
                )
            )


def items_jsonl_lines(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Iterator[bytes]:
    """Yield JSON Lines, one pair each: ids, reduced scores, outcome, and each sentence's stored
    score (tokens, character spans, log-probs, word spans and word log-probs; null if unscored)."""
    reduction = check_reduction(reduction).key
    identity = config_identity(config)
    for scored in scored_pair_stream(dataset, config, reduction=reduction, tie_tolerance=tie_tolerance):
        data = score_data(config, [k for s in scored for k in (s.pair.good_key, s.pair.bad_key)])
        for s in scored:
            p = s.pair
            record = {
                "pair_id": p.item_id,
                "UID": p.uid,
                "phenomenon": p.phenomenon,
                "pair_index": p.index,
                **identity,
                "reduction": reduction,
                "score_good": s.good,
                "score_bad": s.bad,
                "outcome": s.outcome_name,
                "good": data.get(p.good_key),
                "bad": data.get(p.bad_key),
                "sentence_good": p.good_text,
                "sentence_bad": p.bad_text,
            }
            yield json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n"


def _metric_rows(
    dataset: Dataset, configs: Sequence[ScoreConfig], reduction: str, tie_tolerance: float
) -> Iterator[tuple[ScoreConfig, PairReport | None]]:
    for config in configs:
        yield config, pair_report(dataset, config, reduction=reduction, tie_tolerance=tie_tolerance)


def _report_cells(report: PairReport) -> list[tuple[str, str, AccuracyCell]]:
    cells = [("overall", "", report.overall)]
    cells += [("phenomenon", k, v) for k, v in report.by_phenomenon.items()]
    cells += [("paradigm", k, v) for k, v in report.by_paradigm.items()]
    if report.length_equal is not None:
        cells.append(("length_equal", "", report.length_equal))
    if report.length_unequal is not None:
        cells.append(("length_unequal", "", report.length_unequal))
    return cells


def metrics_csv_lines(
    dataset: Dataset,
    configs: Sequence[ScoreConfig],
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Iterator[bytes]:
    """Yield a CSV of accuracies: per configuration, the overall row, one per phenomenon, one
    per paradigm and the length-equal / length-unequal subsets (a configuration with nothing
    stored has no rows)."""
    check_reduction(reduction)
    yield _csv_line(METRIC_COLUMNS)
    for config, report in _metric_rows(dataset, configs, reduction, tie_tolerance):
        if report is None:
            continue
        head = (
            config.pk,
            config.language_model.name,
            config.method,
            config.dtype,
            config.settings_key,
            reduction,
            tie_tolerance,
        )
        for scope, name, c in _report_cells(report):
            numbers = (c.n, c.correct, c.ties, c.accuracy, c.ci_low, c.ci_high, c.p_value)
            yield _csv_line((*head, scope, name, *numbers))


def metrics_json_chunks(
    dataset: Dataset,
    configs: Sequence[ScoreConfig],
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Iterator[bytes]:
    """Yield one JSON document, a configuration at a time: the dataset, the reduction, and per
    configuration its identity, the scorer's description and `scoring.metrics` report (null
    when nothing is stored)."""
    linking = check_reduction(reduction)
    reduction = linking.key
    head = {
        "dataset": {"id": dataset.pk, "name": dataset.name},
        "reduction": reduction,
        "linking": {"name": linking.name, "label": linking.label, "parameters": dict(linking.params)},
        "tie_tolerance": tie_tolerance,
    }
    yield json.dumps(head, ensure_ascii=False)[:-1].encode("utf-8") + b', "configs": ['
    for number, (config, report) in enumerate(_metric_rows(dataset, configs, reduction, tie_tolerance)):
        entry = {
            **config_identity(config),
            "describe": config.describe,
            "report": report.to_dict() if report is not None else None,
        }
        yield (b", " if number else b"") + json.dumps(entry, ensure_ascii=False).encode("utf-8")
    yield b"]}\n"


def _triplet_blocks(dataset: Dataset, config: ScoreConfig) -> Iterator[list[ScoredTriplet]]:
    refs = dataset_triplet_refs(dataset)
    for start in range(0, len(refs), BLOCK):
        yield score_triplets(refs[start : start + BLOCK], config)


def _triplet_fields(s: ScoredTriplet) -> dict[str, object]:
    t = s.ref
    return {
        "pair_id": t.pair.item_id,
        "item_id": t.record_uid or t.item_id,
        "UID": t.pair.uid,
        "error_type": t.error_type,
        "pair_index": t.pair.index,
        "L1": t.l1,
        "cefr": t.cefr,
        "corpus": t.corpus,
        "learnerID": t.learner_id,
        "corrected": t.pair.good_text,
        "learner_error": t.pair.bad_text,
        "artificial_error": t.pair.artificial_text,
        "bpt_corrected": s.corrected,
        "bpt_learner": s.learner,
        "bpt_artificial": s.artificial,
        "n_tokens_corrected": s.corrected_tokens,
        "n_tokens_learner": s.learner_tokens,
        "n_tokens_artificial": s.artificial_tokens,
    }


def triplet_items_csv_lines(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    tau: float = DEFAULT_TAU,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Iterator[bytes]:
    """Yield a CSV of the dataset's triplets under `config`: one row per triplet with its
    metadata, its three sentences, their bits per token and token counts, and whether it
    counts for LP, HAP, HAP_tau and SO (yes, no, tie; blank while not all three are stored)."""
    yield _csv_line(TRIPLET_ITEM_COLUMNS)
    for block in _triplet_blocks(dataset, config):
        for s in block:
            fields = _triplet_fields(s)
            outcomes = s.outcomes(tau=tau, tie_tolerance=tie_tolerance)
            yield _csv_line([*fields.values(), *(outcomes[m] for m in METRICS)])


def triplet_items_jsonl_lines(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    tau: float = DEFAULT_TAU,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Iterator[bytes]:
    """Yield JSON Lines, one triplet each: the CSV's fields, the configuration, the outcomes,
    and each sentence's stored score (tokens, spans, log-probs; null while not stored)."""
    identity = config_identity(config)
    for block in _triplet_blocks(dataset, config):
        keys = [
            k for s in block for k in (s.ref.pair.good_key, s.ref.pair.bad_key, s.ref.pair.artificial_key)
        ]
        data = score_data(config, keys)
        for s in block:
            record = {
                **_triplet_fields(s),
                **identity,
                "tau": tau,
                "outcome": s.outcomes(tau=tau, tie_tolerance=tie_tolerance),
                "scores": {
                    "corrected": data.get(s.ref.pair.good_key),
                    "learner_error": data.get(s.ref.pair.bad_key),
                    "artificial_error": data.get(s.ref.pair.artificial_key),
                },
            }
            yield json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n"


def _triplet_reports(
    dataset: Dataset, configs: Sequence[ScoreConfig], tau: float, tie_tolerance: float
) -> Iterator[tuple[ScoreConfig, TripletReport | None]]:
    refs = dataset_triplet_refs(dataset)
    for config in configs:
        yield config, triplet_report(dataset, config, tau=tau, tie_tolerance=tie_tolerance, triplets=refs)


def _cell_numbers(cell: MetricCell | None) -> tuple[object, ...]:
    if cell is None:
        return (None,) * 7
    return (cell.n, cell.value, cell.wins, cell.ties, cell.ci_low, cell.ci_high, cell.p_value)


def _test_numbers(test: SliceTest | None) -> tuple[object, ...]:
    if test is None:
        return (None,) * 5
    return (test.slice_rate, test.rest_rate, test.odds_ratio, test.p_value, test.p_holm)


def triplet_metrics_csv_lines(
    dataset: Dataset,
    configs: Sequence[ScoreConfig],
    *,
    tau: float = DEFAULT_TAU,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Iterator[bytes]:
    """Yield a CSV of BLiSS metrics: per configuration and metric, the overall row, then one
    row per slice of each dimension (error type, L1, CEFR, corpus) with Fisher's test against
    the other items and its Holm-adjusted p; a slice under the minimum size has its size only."""
    yield _csv_line(TRIPLET_METRIC_COLUMNS)
    for config, report in _triplet_reports(dataset, configs, tau, tie_tolerance):
        if report is None:
            continue
        head = (
            config.pk,
            config.language_model.name,
            config.method,
            config.dtype,
            config.settings_key,
            report.tau,
            report.tie_tolerance,
            report.ci_method,
        )
        for metric in METRICS:
            numbers = _cell_numbers(report.overall[metric])
            yield _csv_line((*head, "overall", "", metric, *numbers, False, *_test_numbers(None)))
        for dimension, slices in report.slices.items():
            for name, found in slices.items():
                for metric in METRICS:
                    numbers = _cell_numbers(found.metrics.get(metric))
                    if found.suppressed:
                        numbers = (found.n, *numbers[1:])
                    test = _test_numbers(found.vs_rest.get(metric))
                    yield _csv_line((*head, dimension, name, metric, *numbers, found.suppressed, *test))


def triplet_metrics_json_chunks(
    dataset: Dataset,
    configs: Sequence[ScoreConfig],
    *,
    tau: float = DEFAULT_TAU,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Iterator[bytes]:
    """Yield one JSON document: the dataset, tau, and per configuration its identity and the
    `scoring.triplet_metrics` report (`TripletReport.to_dict()`, as `mpp score` writes it under
    "triplets"; null when nothing is stored)."""
    head = {"dataset": {"id": dataset.pk, "name": dataset.name}, "tau": tau, "tie_tolerance": tie_tolerance}
    yield json.dumps(head, ensure_ascii=False)[:-1].encode("utf-8") + b', "configs": ['
    for number, (config, report) in enumerate(_triplet_reports(dataset, configs, tau, tie_tolerance)):
        entry = {
            **config_identity(config),
            "describe": config.describe,
            "triplets": report.to_dict() if report is not None else None,
        }
        yield (b", " if number else b"") + json.dumps(entry, ensure_ascii=False).encode("utf-8")
    yield b"]}\n"


CURVE_COLUMNS = (
    "series",
    "step",
    "model",
    "config_id",
    "method",
    "dtype",
    "reduction",
    "scope",
    "name",
    "n",
    "accuracy",
)


def curve_csv_lines(curve: LearningCurve) -> Iterator[bytes]:
    """Yield a CSV of a learning curve, long form: per checkpoint (by step) its overall row (with
    the pairs scored) and one row per phenomenon."""
    yield _csv_line(CURVE_COLUMNS)
    for point in curve.points:
        head = (
            curve.series,
            point.step,
            point.model.name,
            point.config.pk,
            point.config.method,
            point.config.dtype,
            curve.reduction,
        )
        yield _csv_line((*head, "overall", "", point.n, point.accuracy))
        for phenomenon in curve.phenomena:
            yield _csv_line((*head, "phenomenon", phenomenon, "", point.by_phenomenon.get(phenomenon)))


def curve_response(curve: LearningCurve) -> StreamingHttpResponse:
    """Return the learning curve's CSV as an attachment."""
    name = slugify(curve.dataset.name) or "dataset"
    stem = f"{name}-{slugify(curve.series) or 'series'}-learning-curve"
    response = StreamingHttpResponse(curve_csv_lines(curve), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{stem}.csv"'
    return response


def export_response(
    dataset: Dataset,
    what: str,
    fmt: str,
    configs: Sequence[ScoreConfig],
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> StreamingHttpResponse:
    """Return the streamed download `what` (items, triplets: of configs[0]; metrics,
    triplet_metrics: of every config) in `fmt` (a pair of EXPORTS) as an attachment.

    Raises:
        ResultsError: for a triplet download of a dataset without triplets, or a linking
            function that cannot be used (said before the download starts).
    """
    name = slugify(dataset.name) or "dataset"
    linking = check_reduction(reduction)
    lines: Iterator[bytes]
    if what in TRIPLET_EXPORTS:
        check_triplet_dataset(dataset)
    if what == "triplets":
        config = configs[0]
        triplet_items = triplet_items_csv_lines if fmt == "csv" else triplet_items_jsonl_lines
        lines = triplet_items(dataset, config, tie_tolerance=tie_tolerance)
        stem = f"{name}-{slugify(config.language_model.name) or 'model'}-{config.method}-triplets"
    elif what == "triplet_metrics":
        triplet_metrics = triplet_metrics_csv_lines if fmt == "csv" else triplet_metrics_json_chunks
        lines = triplet_metrics(dataset, configs, tie_tolerance=tie_tolerance)
        stem = f"{name}-bliss-metrics"
    elif what == "items":
        config = configs[0]
        items = items_csv_lines if fmt == "csv" else items_jsonl_lines
        lines = items(dataset, config, reduction=reduction, tie_tolerance=tie_tolerance)
        stem = f"{name}-{slugify(config.language_model.name) or 'model'}-{config.method}-items"
    else:
        metrics = metrics_csv_lines if fmt == "csv" else metrics_json_chunks
        lines = metrics(dataset, configs, reduction=reduction, tie_tolerance=tie_tolerance)
        stem = f"{name}-metrics-{re.sub(r'[^A-Za-z0-9.]+', '-', linking.key)}"
    response = StreamingHttpResponse(lines, content_type=EXPORTS[(what, fmt)])
    response["Content-Disposition"] = f'attachment; filename="{stem}.{fmt}"'
    return response
