"""The native-speaker validation summary a study publishes on a dataset (`Dataset.validation`),
read once for every place that shows it: the dataset page and the card's "Human validation"
section (`exports.card.validation_section`).

The summary is written by a validation study (the studies app; this app never imports it):
`study`, `study_id`, `date`, `rule` {name, metric, threshold, tie}, `participants` {started,
analysed, excluded}, `individual_accuracy`, `aggregate_accuracy`, and `paradigms`, each with
`uid`, `n_items`, `n_responses`, `micro`, `wilson_low`, `wilson_high`, `majority_accuracy` and
`included` (kept by the rule). A rating study's summary has `kind` "rating", `task`
("rating" or "magnitude"), `scale_points`, `alpha`, `min_difference` and `confidence` (its
paradigm rule: Holm p below alpha and the interval above min_difference), and per paradigm
`uid`, `n_items`, `n_ratings`, `difference` (good minus bad, in z), `ci_low`, `ci_high`,
`p_holm`, `good_mean_z`, `included` (the difference is reliable) and `good_unnatural`. A
damaged or partial summary shows what it has, "–" for the rest.
"""

from dataclasses import dataclass

from mpp_studio.core.number_text import number_text, p_text, share_text


@dataclass(frozen=True, slots=True)
class ValidatedParadigm:
    """One paradigm's line of the summary, every value as text."""

    uid: str
    n_items: str
    n_responses: str
    micro: str
    interval: str
    majority: str
    included: bool


@dataclass(frozen=True, slots=True)
class RatedParadigm:
    """One paradigm's line of a rating study's summary, every value as text."""

    uid: str
    n_items: str
    n_ratings: str
    difference: str
    interval: str
    p_holm: str
    good_mean_z: str
    included: bool
    good_unnatural: bool


@dataclass(frozen=True, slots=True)
class ValidationSummary:
    """What a published summary says, as text: the study, when, the inclusion rule, the
    participants analysed and excluded, both accuracies and the paradigms."""

    study: str
    study_id: int | None
    date: str
    rule_text: str
    tie: str
    analysed: int
    excluded: int
    individual_accuracy: str
    aggregate_accuracy: str
    paradigms: tuple[ValidatedParadigm, ...]
    rated: bool = False
    task_text: str = ""
    rated_paradigms: tuple[RatedParadigm, ...] = ()


def _whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _study_id(validation: dict[str, object]) -> int | None:
    found = validation.get("study_id")
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def read_validation(validation: object) -> ValidationSummary | None:
    """Return the summary of `Dataset.validation` (None when the dataset has none)."""
    if not isinstance(validation, dict) or not validation.get("paradigms"):
        return None
    rule_found, people_found = validation.get("rule"), validation.get("participants")
    rule = rule_found if isinstance(rule_found, dict) else {}
    people = people_found if isinstance(people_found, dict) else {}
    metric = "micro accuracy" if rule.get("metric") == "micro" else "share of items the majority got right"
    rule_text = f"{rule.get('name') or 'threshold'}: {metric} at least {share_text(rule.get('threshold'))}"
    if validation.get("kind") == "rating":
        return _rating_summary(validation, people)
    rows = []
    for row in validation["paradigms"]:
        if not isinstance(row, dict):
            continue
        rows.append(
            ValidatedParadigm(
                uid=str(row.get("uid", "")),
                n_items=str(row.get("n_items", "")),
                n_responses=str(row.get("n_responses", "")),
                micro=share_text(row.get("micro")),
                interval=f"{share_text(row.get('wilson_low'))} – {share_text(row.get('wilson_high'))}",
                majority=share_text(row.get("majority_accuracy")),
                included=bool(row.get("included")),
            )
        )
    return ValidationSummary(
        study=str(validation.get("study", "")),
        study_id=_study_id(validation),
        date=str(validation.get("date", "")),
        rule_text=rule_text,
        tie="half" if rule.get("tie") == "half" else "a failure",
        analysed=_whole(people.get("analysed")),
        excluded=_whole(people.get("excluded")),
        individual_accuracy=share_text(validation.get("individual_accuracy")),
        aggregate_accuracy=share_text(validation.get("aggregate_accuracy")),
        paradigms=tuple(rows),
    )


def _rating_summary(validation: dict[str, object], people: dict[str, object]) -> ValidationSummary:
    """Return the summary of a rating study (`kind` "rating")."""
    points = validation.get("scale_points")
    if validation.get("task") == "magnitude":
        task_text = "magnitude estimation against a reference sentence (log values)"
    else:
        task_text = f"a {points}-point rating scale" if isinstance(points, int) else "a rating scale"
    rows = []
    paradigms = validation.get("paradigms")
    for row in paradigms if isinstance(paradigms, list) else []:
        if not isinstance(row, dict):
            continue
        rows.append(
            RatedParadigm(
                uid=str(row.get("uid", "")),
                n_items=str(row.get("n_items", "")),
                n_ratings=str(row.get("n_ratings", "")),
                difference=number_text(row.get("difference")),
                interval=f"{number_text(row.get('ci_low'))} – {number_text(row.get('ci_high'))}",
                p_holm=p_text(row.get("p_holm")),
                good_mean_z=number_text(row.get("good_mean_z")),
                included=bool(row.get("included")),
                good_unnatural=bool(row.get("good_unnatural")),
            )
        )
    alpha = validation.get("alpha")
    floor = validation.get("min_difference", 0)
    level = validation.get("confidence", 0.95)
    return ValidationSummary(
        study=str(validation.get("study", "")),
        study_id=_study_id(validation),
        date=str(validation.get("date", "")),
        rule_text=(
            f"the difference is reliable: Holm-corrected one-sided p below {number_text(alpha, 2)} and "
            f"the {share_text(level).replace('.0%', '%')} interval above {number_text(floor, 2)}"
        ),
        tie="",
        analysed=_whole(people.get("analysed")),
        excluded=_whole(people.get("excluded")),
        individual_accuracy="–",
        aggregate_accuracy="–",
        paradigms=(),
        rated=True,
        task_text=task_text,
        rated_paradigms=tuple(rows),
    )
