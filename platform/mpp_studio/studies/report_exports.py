"""A validation study's report as downloads: one row per response (CSV/JSONL columns), the
whole report as JSON, and the per-paradigm summary a dataset card shows."""

import dataclasses
from collections.abc import Iterator
from typing import Protocol

from django.utils import timezone

from mpp_studio.studies.report import HYPOTHESIS, PairPlace, StudyData, StudyReport
from study.human_flags import paradigm_preset
from study.validation_study import ITEM_COLUMNS

RESPONSE_COLUMNS = (
    "participant_key",
    "list",
    "trial_index",
    "pair_id",
    "dataset",
    "analysis_key",
    "paradigm",
    "phenomenon",
    "kind",
    "comparison",
    "displayed_order",
    "choice",
    "chosen_role",
    "ranking",
    "rating",
    "confidence",
    "correct",
    "hypothesis",
    "rt_ms",
    "received_at",
    "excluded",
)


class AnsweredReport(Protocol):
    """What the responses export reads of a report (a StudyReport or a RatingReport)."""

    @property
    def data(self) -> StudyData: ...

    @property
    def excluded_keys(self) -> frozenset[str]: ...

    def pair_id(self, item_key: str) -> str: ...

    def place(self, item_key: str) -> PairPlace | None: ...


def response_rows(report: AnsweredReport) -> Iterator[dict[str, object]]:
    """Yield one tidy row per stored answer (RESPONSE_COLUMNS): participant key (never the PID),
    list, trial, item, paradigm, kind, displayed order of roles, choice, correct, rt and
    whether the participant is excluded from the analysis."""
    excluded = report.excluded_keys
    for row in report.data.rows:
        trial, response = row.trial, row.response
        ranking = [int(i) for i in response.ranking or ()]
        choice = response.choice
        chosen = trial.roles[choice] if choice is not None and 0 <= choice < len(trial.roles) else ""
        hypothesis = ""
        if trial.comparison == HYPOTHESIS:
            hypothesis = "chose_learner" if response.choice == trial.gold_index else "chose_artificial"
        yield {
            "participant_key": row.participant_key,
            "list": row.list_index + 1,
            "trial_index": trial.trial_index,
            "pair_id": report.pair_id(trial.item_id),
            "dataset": place.dataset if (place := report.place(trial.item_id)) else "",
            "analysis_key": report.pair_id(trial.analysis_key),
            "paradigm": trial.paradigm,
            "phenomenon": trial.phenomenon,
            "kind": trial.kind,
            "comparison": trial.comparison,
            "displayed_order": "|".join(trial.roles),
            "choice": "" if choice is None else choice,
            "chosen_role": chosen,
            "ranking": "|".join(trial.roles[i] for i in ranking if 0 <= i < len(trial.roles)),
            "rating": "" if response.rating is None else response.rating,
            "confidence": response.confidence if response.confidence is not None else "",
            # The learner-artificial comparison has no gold answer: its "correct" is left empty.
            "correct": "" if trial.comparison == HYPOTHESIS else response.correct,
            "hypothesis": hypothesis,
            "rt_ms": response.rt_ms if response.rt_ms is not None else "",
            "received_at": response.received_at.isoformat(),
            "excluded": row.participant_key in excluded,
        }


# The items CSV: the engine's columns with the item named by its stable pair id, its dataset
# and its sentences.
ITEM_EXPORT_COLUMNS = (
    "pair_id",
    "dataset",
    *(c for c in ITEM_COLUMNS if c != "item_id"),
    "sentence_good",
    "sentence_bad",
)


def item_rows(report: StudyReport) -> Iterator[dict[str, object]]:
    """Yield one row per item (ITEM_EXPORT_COLUMNS): the engine's agreement and flags, with the
    pair the item is (`UID/pairID`, dataset, both sentences) in place of its design id."""
    for row in report.analysis.item_rows():
        key = str(row.pop("item_id"))
        place = report.place(key)
        yield {
            "pair_id": report.pair_id(key),
            "dataset": place.dataset if place else "",
            **row,
            "sentence_good": place.sentence_good if place else "",
            "sentence_bad": place.sentence_bad if place else "",
        }


def report_dict(report: StudyReport) -> dict[str, object]:
    """Return the whole analysis as JSON-ready data: the engine's, plus the study, the rules,
    the lists' status and the learner-artificial preference rates. Each item and item flag
    names its pair by its stable id, with the dataset and sentences (`item_id` keeps the
    design's id)."""
    analysis = report.analysis.to_dict()
    for key in ("items", "item_flags"):
        for entry in analysis[key]:  # type: ignore[attr-defined]  # to_dict gives lists of dicts
            place = report.place(str(entry["item_id"]))
            entry.update(place.to_dict() if place else {})
            entry["pair_id"] = report.pair_id(str(entry["item_id"]))
    return {
        "study": {"id": report.study.pk, "name": report.study.name, "status": report.study.status},
        "rules": report.rules.to_dict(),
        "lists": [
            {**dataclasses.asdict(c), "completion": c.completion, "dropout": c.dropout} for c in report.lists
        ],
        "learner_artificial_preference": [dataclasses.asdict(h) for h in report.hypothesis],
        **analysis,
    }


def validation_summary(report: StudyReport, uids: set[str] | None = None) -> dict[str, object]:
    """Return the card summary (the keys `datasets.exports.card` reads): the study's name and
    date, the rule, participant counts, and per paradigm (of `uids`, or all) its items,
    responses, micro accuracy with its Wilson interval, majority accuracy and whether the rule
    keeps it."""
    analysis = report.analysis
    flagged = set(report.flagged_paradigms)
    rule = paradigm_preset(report.rules.preset, report.rules.threshold)
    flow = analysis.exclusion.flow
    overall = analysis.overall
    return {
        "study": report.study.name,
        "study_id": report.study.pk,
        "published_at": timezone.now().isoformat(),
        "date": timezone.now().date().isoformat(),
        "rule": {
            "name": rule.name,
            "metric": rule.metric,
            "threshold": rule.threshold,
            "tie": report.rules.tie,
        },
        "participants": {"started": flow.started, "analysed": flow.analysed, "excluded": flow.excluded},
        "individual_accuracy": overall.micro if overall else None,
        "aggregate_accuracy": overall.majority_accuracy if overall else None,
        "paradigms": [
            {
                "uid": p.name,
                "phenomenon": p.phenomenon,
                "n_items": p.n_items,
                "n_responses": p.n_responses,
                "micro": p.micro,
                "wilson_low": p.wilson_low,
                "wilson_high": p.wilson_high,
                "majority_accuracy": p.majority_accuracy,
                "included": p.name not in flagged,
            }
            for p in analysis.paradigms
            if uids is None or p.name in uids
        ],
    }
