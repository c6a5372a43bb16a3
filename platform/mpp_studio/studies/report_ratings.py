"""The analysis report of an acceptability rating study (a selector): stored ratings and
participation schedules turned into the engine's `RatingJudgement`s, analysed as acceptability
research does it (`study.ratings.analyse_rating_study`: catch-based exclusion, ratings z-scored
per participant, each pair's good-minus-bad difference, per paradigm a t interval, t, Wilcoxon
and sign tests with Holm across paradigms, and the naturalness of the good sentences), with the
study's lists, its pairs and the template page of each paradigm.

The exclusion rules are the study's saved ones (`AnalysisRules`); a 2AFC study's report is
`report.study_report`, and `analysis_report` gives whichever a study has.
"""

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from mpp_studio.studies.analysis_rules import AnalysisRules, rules_of
from mpp_studio.studies.models import Study
from mpp_studio.studies.report import (
    ListCounts,
    PairPlace,
    Provenance,
    StudyData,
    StudyReport,
    _list_counts,
    list_label,
    pair_id_of,
    pair_places,
    place_of,
    provenance_of,
    stored_design,
    study_data,
    study_report,
)
from mpp_studio.studies.report_exports import report_dict
from mpp_studio.studies.services import RATED_TASKS
from study.errors import StudyError
from study.rating_results import RatingAnalysis
from study.rating_scale import RatingJudgement
from study.ratings import RatingAnalysisSettings, analyse_rating_study

# The columns of the rating exports (items and paradigms), in order.
RATING_ITEM_COLUMNS = (
    "pair_id",
    "dataset",
    "paradigm",
    "phenomenon",
    "n_good",
    "n_bad",
    "good_mean_z",
    "bad_mean_z",
    "difference",
    "good_mean_raw",
    "bad_mean_raw",
    "flagged",
    "sentence_good",
    "sentence_bad",
)
RATING_PARADIGM_COLUMNS = (
    "paradigm",
    "phenomenon",
    "n_items",
    "n_compared",
    "n_participants",
    "n_ratings",
    "difference",
    "ci_low",
    "ci_high",
    "t_statistic",
    "p_value",
    "p_holm",
    "wilcoxon_p",
    "sign_positive",
    "sign_negative",
    "sign_p",
    "good_mean_z",
    "good_ci_low",
    "good_ci_high",
    "good_mean_raw",
    "bad_mean_z",
    "bad_mean_raw",
    "flagged",
    "unnatural",
    "reasons",
)


@dataclass(frozen=True, slots=True)
class RatingReport:
    """Everything a rating study's analysis page, exports and card summary need."""

    study: Study
    rules: AnalysisRules
    analysis: RatingAnalysis
    data: StudyData
    lists: list[ListCounts]
    provenance: Provenance = field(default_factory=Provenance)
    pairs: dict[str, PairPlace] = field(default_factory=dict)

    def place(self, item_id: str) -> PairPlace | None:
        """Return the dataset pair an item is."""
        return place_of(self.pairs, item_id)

    def pair_id(self, item_id: str) -> str:
        """Return the item's stable pair id (`UID/pairID`; other items keep their id)."""
        return pair_id_of(self.pairs, item_id)

    @property
    def excluded_keys(self) -> frozenset[str]:
        """Return the keys of the participants the analysis leaves out."""
        exclusion = self.analysis.exclusion
        if exclusion is None:
            return frozenset()
        return frozenset(p.participant_id for p in exclusion.participants if p.excluded)

    @property
    def flagged_paradigms(self) -> list[str]:
        """Return the paradigms whose good-minus-bad difference is not reliable."""
        return [p.paradigm for p in self.analysis.paradigms if p.flagged]


def rating_judgements(data: StudyData) -> list[RatingJudgement]:
    """Return every stored rating of the study's rows as the engine's RatingJudgement (practice
    and catch trials included: the engine decides what each is used for)."""
    ratings = []
    for row in data.rows:
        if not row.trial.rated or row.response.rating is None:
            continue
        rt = float(row.response.rt_ms) if row.response.rt_ms is not None else None
        ratings.append(
            row.trial.rating_judgement(
                row.participant_key, row.response.rating, list_label(row.list_index), rt
            )
        )
    return ratings


def rating_report(study: Study, rules: AnalysisRules | None = None) -> RatingReport:
    """Return the RatingReport of a rating or magnitude-estimation study under `rules`
    (default: the saved ones).

    Raises:
        ValidationError: when the study has no rating design or its answers cannot be
            analysed (the engine's reason).
    """
    rules = rules or rules_of(study)
    design = stored_design(study)
    if design is None or not design.settings.rated:
        raise ValidationError("This study does not rate sentences: its analysis is agreement with gold.")
    data = study_data(study)
    try:
        analysis = analyse_rating_study(
            rating_judgements(data),
            design.settings.rating_scale(),
            participants=data.participants,
            rules=rules.settings(int(study.seed)).exclusion,
            settings=RatingAnalysisSettings(),
        )
    except (StudyError, ValueError) as error:
        raise ValidationError(f"The ratings could not be analysed: {error}") from None
    item_ids = [item.item_id for item in design.items]
    return RatingReport(
        study=study,
        rules=rules,
        analysis=analysis,
        data=data,
        lists=_list_counts(study),
        provenance=provenance_of(study, set()),
        pairs=pair_places(study, item_ids),
    )


def rating_item_rows(report: RatingReport) -> list[dict[str, Any]]:
    """Return one row per rated pair (RATING_ITEM_COLUMNS): named by its stable pair id, with
    its dataset and sentences, its mean z-scores and difference, and whether it is flagged."""
    flagged = {f.item_id for f in report.analysis.item_flags}
    rows = []
    for item in report.analysis.items:
        place = report.place(item.item_id)
        row = {c: getattr(item, c, None) for c in RATING_ITEM_COLUMNS}
        row.update(
            pair_id=report.pair_id(item.item_id),
            dataset=place.dataset if place else "",
            sentence_good=place.sentence_good if place else "",
            sentence_bad=place.sentence_bad if place else "",
            flagged=item.item_id in flagged,
        )
        rows.append(row)
    return rows


def rating_paradigm_rows(report: RatingReport) -> list[dict[str, Any]]:
    """Return one row per paradigm (RATING_PARADIGM_COLUMNS), reasons joined by "|"."""
    rows = []
    for paradigm in report.analysis.paradigms:
        row = {c: getattr(paradigm, c, None) for c in RATING_PARADIGM_COLUMNS}
        row["reasons"] = "|".join(paradigm.reasons)
        rows.append(row)
    return rows


def rating_report_dict(report: RatingReport) -> dict[str, object]:
    """Return the whole rating analysis as JSON-ready data: the engine's, each item named by
    its pair (id, dataset, sentences), plus the study, the rules and the lists' status."""
    analysis = report.analysis.to_dict()
    for key in ("items", "item_flags"):
        for entry in analysis[key]:  # type: ignore[attr-defined]  # to_dict gives lists of dicts
            place = report.place(str(entry["item_id"]))
            entry.update(place.to_dict() if place else {})
            entry["pair_id"] = report.pair_id(str(entry["item_id"]))
    return {
        "study": {"id": report.study.pk, "name": report.study.name, "status": report.study.status},
        "rules": report.rules.to_dict(),
        "lists": [{"label": c.label, "started": c.started, "completed": c.completed} for c in report.lists],
        **analysis,
    }


AnalysisReport = StudyReport | RatingReport


def analysis_report(study: Study, rules: AnalysisRules | None = None) -> AnalysisReport:
    """Return the study's analysis under `rules` (default: the saved ones): a RatingReport for
    a rating or magnitude-estimation study, else the StudyReport of agreement with gold."""
    if study.task in RATED_TASKS:
        return rating_report(study, rules)
    return study_report(study, rules)


def analysis_dict(report: AnalysisReport) -> dict[str, object]:
    """Return a report's whole analysis as JSON-ready data (the API's and the JSON download's)."""
    return rating_report_dict(report) if isinstance(report, RatingReport) else report_dict(report)


def rating_validation_summary(report: RatingReport, uids: set[str] | None = None) -> dict[str, object]:
    """Return the card summary of a rating study (`kind` "rating", read by
    `datasets.validation_summary`): the study's name and date, the task and scale, participant
    counts, and per paradigm (of `uids`, or all) its items, the good-minus-bad difference in z
    with its interval and Holm p, the good sentences' mean z, and whether it is kept (its
    difference reliable)."""
    analysis = report.analysis
    flow = analysis.exclusion.flow if analysis.exclusion else None
    today = timezone.now()
    return {
        "kind": "rating",
        "study": report.study.name,
        "study_id": report.study.pk,
        "published_at": today.isoformat(),
        "date": today.date().isoformat(),
        "task": analysis.scale.task,
        "scale_points": analysis.scale.scale_points if analysis.scale.task == "rating" else None,
        "alpha": analysis.settings.alpha,
        "min_difference": analysis.settings.min_difference,
        "confidence": analysis.settings.confidence,
        "participants": {
            "started": flow.started if flow else 0,
            "analysed": flow.analysed if flow else 0,
            "excluded": flow.excluded if flow else 0,
        },
        "paradigms": [
            {
                "uid": p.paradigm,
                "phenomenon": p.phenomenon,
                "n_items": p.n_items,
                "n_ratings": p.n_ratings,
                "difference": p.difference,
                "ci_low": p.ci_low,
                "ci_high": p.ci_high,
                "p_holm": p.p_holm,
                "good_mean_z": p.good_mean_z,
                "included": not p.flagged,
                "good_unnatural": p.unnatural,
            }
            for p in analysis.paradigms
            if uids is None or p.paradigm in uids
        ],
    }
