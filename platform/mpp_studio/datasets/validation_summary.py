"""The native-speaker validation summary a study publishes on a dataset (`Dataset.validation`),
read once for every place that shows it: the dataset page and the card's "Human validation"
section (`exports.card.validation_section`).

The summary is written by a validation study (the studies app; this app never imports it):
`study`, `study_id`, `date`, `rule` {name, metric, threshold, tie}, `participants` {started,
analysed, excluded}, `individual_accuracy`, `aggregate_accuracy`, and `paradigms`, each with
`uid`, `n_items`, `n_responses`, `micro`, `wilson_low`, `wilson_high`, `majority_accuracy` and
`included` (kept by the rule). A damaged or partial summary shows what it has, "–" for the rest.
"""

from dataclasses import dataclass


def share_text(value: object) -> str:
    """Return a share as a percentage with one decimal ("87.5%"), or "–" when missing."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value * 100:.1f}%"
    return "–"


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


def _whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def read_validation(validation: object) -> ValidationSummary | None:
    """Return the summary of `Dataset.validation` (None when the dataset has none)."""
    if not isinstance(validation, dict) or not validation.get("paradigms"):
        return None
    rule_found, people_found = validation.get("rule"), validation.get("participants")
    rule = rule_found if isinstance(rule_found, dict) else {}
    people = people_found if isinstance(people_found, dict) else {}
    metric = "micro accuracy" if rule.get("metric") == "micro" else "share of items the majority got right"
    rule_text = f"{rule.get('name') or 'threshold'}: {metric} at least {share_text(rule.get('threshold'))}"
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
    study_id = validation.get("study_id")
    return ValidationSummary(
        study=str(validation.get("study", "")),
        study_id=study_id if isinstance(study_id, int) and not isinstance(study_id, bool) else None,
        date=str(validation.get("date", "")),
        rule_text=rule_text,
        tie="half" if rule.get("tie") == "half" else "a failure",
        analysed=_whole(people.get("analysed")),
        excluded=_whole(people.get("excluded")),
        individual_accuracy=share_text(validation.get("individual_accuracy")),
        aggregate_accuracy=share_text(validation.get("aggregate_accuracy")),
        paradigms=tuple(rows),
    )
