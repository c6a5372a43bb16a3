"""The researcher's analysis of a validation study: stored responses and participation schedules
turned into the study engine's judgements (`study.validation_study.analyse_study`), under
the exclusion and flag rules the researcher saved on the study.

- Participants are keyed by an HMAC of their random token id (`participant_key`): never the
  Prolific PID. Withdrawn participants are left out entirely (their answers were deleted).
- Catch, practice and filler trials are marked so the engine uses them only for exclusion.
- Triplet trials are split into comparisons (`item#corrected-learner` ...): a rank3 ranking
  gives all three. The "learner-artificial" comparison is BLiSS's hypothesis (learner errors
  sound more natural than artificial ones), not a gold label: it never enters agreement with
  gold, and its preference rate is reported on its own (`HypothesisRate`).
- `revalidation_create` makes a new draft study of the flagged paradigms only.
- `validation_publish` writes the per-paradigm summary into each dataset's `validation` field,
  which the datasets app's card writer shows.
"""

import dataclasses
import math
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Dataset, DatasetParadigm
from mpp_studio.lexicon.models import VocabularyItem
from mpp_studio.paradigms.models import TemplateVersion
from mpp_studio.studies.models import Participation, Response, Study
from mpp_studio.studies.selectors import list_status
from mpp_studio.studies.services import (
    DESIGN_FIELDS,
    TEXT_FIELDS,
    dataset_items,
    study_design_store,
)
from scoring.stats import wilson_interval
from study.agreement import ItemInfo, Judgement, ParticipantInfo, WordUse
from study.design import StudyDesign
from study.errors import StudyError
from study.exclusion import ExclusionRules
from study.human_flags import PARADIGM_PRESETS, FlagSettings, paradigm_preset
from study.items import StudyItem
from study.order import ParticipantSchedule, Trial
from study.validation_study import StudyAnalysis, StudySettings, analyse_study

KEY_SALT = "mpp_studio.studies.analysis.participant"
HYPOTHESIS = "learner-artificial"  # BLiSS's expected preference, not a gold label
RANK3_COMPARISONS = ("corrected-learner", "corrected-artificial", HYPOTHESIS)
# Participant-clustered bootstrap resamples for the page (each reload recomputes them).
BOOTSTRAP_RESAMPLES = 200
RESPONSE_COLUMNS = (
    "participant_key",
    "list",
    "trial_index",
    "item_id",
    "analysis_key",
    "paradigm",
    "phenomenon",
    "kind",
    "comparison",
    "displayed_order",
    "choice",
    "chosen_role",
    "ranking",
    "confidence",
    "correct",
    "hypothesis",
    "rt_ms",
    "received_at",
    "excluded",
)


# -- Rules -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AnalysisRules:
    """What the researcher sets on the analysis page (stored as `Study.analysis_rules`).

    Exclusion (None turns a rule off): `min_catch_accuracy` (share of catch trials right),
    `min_median_rt_ms` (too fast below it), `max_left_share_deviation` (|left share - 0.5|),
    `min_items_answered`, `include_incomplete`. Flags: `preset` "zhoblimp" (micro accuracy) or
    "blimp" (share of items the majority got right), its `threshold` (None: the preset's
    0.70 or 0.8); `tie` "half" or "fail" for majority votes.
    """

    min_catch_accuracy: float | None = 1.0
    min_median_rt_ms: float | None = None
    max_left_share_deviation: float | None = None
    min_items_answered: int | None = None
    include_incomplete: bool = False
    preset: str = "zhoblimp"
    threshold: float | None = None
    tie: str = "half"

    def settings(self, seed: int = 0) -> StudySettings:
        """Return the engine's StudySettings of these rules (ValueError when one is out of range)."""
        return StudySettings(
            exclusion=ExclusionRules(
                min_catch_accuracy=self.min_catch_accuracy,
                min_median_rt_ms=self.min_median_rt_ms,
                max_left_share_deviation=self.max_left_share_deviation,
                min_items_answered=self.min_items_answered,
                include_incomplete=self.include_incomplete,
            ),
            tie=self.tie,  # type: ignore[arg-type]
            flags=FlagSettings(paradigm_rules=(paradigm_preset(self.preset, self.threshold),)),
            bootstrap_resamples=BOOTSTRAP_RESAMPLES,
            seed=seed,
        )

    @property
    def effective_threshold(self) -> float:
        """Return the paradigm threshold in force (the researcher's or the preset's)."""
        return self.threshold if self.threshold is not None else PARADIGM_PRESETS[self.preset].threshold

    def to_dict(self) -> dict[str, object]:
        """Return the rules as JSON-ready data (what `Study.analysis_rules` stores)."""
        return dataclasses.asdict(self)


RULE_FIELDS = tuple(f.name for f in dataclasses.fields(AnalysisRules))
RULE_DEFAULTS: dict[str, object] = {f.name: f.default for f in dataclasses.fields(AnalysisRules)}


# A rule's number as written: digits with an optional sign, point and exponent (not "inf", "nan",
# "1_000" or other digits than 0-9, which Python's float() would also read).
NUMBER = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")
# The words a form or query may give for include_incomplete (a checkbox sends its value or nothing).
INCLUDE_WORDS = {"true": True, "on": True, "1": True, "false": False, "off": False, "0": False, "": False}


def _number(data: dict[str, Any], name: str, label: str, *, whole: bool = False) -> float | int | None:
    """Return the rule's value: its default when the key is absent, None (off) when blank."""
    if name not in data:
        return RULE_DEFAULTS[name]  # type: ignore[return-value]
    raw = data[name]
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    written = isinstance(raw, str) and NUMBER.fullmatch(raw.strip())
    if not (written or (isinstance(raw, (int, float)) and not isinstance(raw, bool))):
        raise ValidationError({name: f"{label}: write a number, not “{raw}”."})
    value = float(raw)
    if not math.isfinite(value):
        raise ValidationError({name: f"{label}: write a number, not “{raw}”."})
    if whole:
        if value != int(value):
            raise ValidationError({name: f"{label}: write a whole number, not “{raw}”."})
        return int(value)
    return value


def rules_from_data(data: dict[str, Any]) -> AnalysisRules:
    """Return the AnalysisRules of form or JSON data (blank: rule off); a ValidationError names
    the field and says what is wrong in words."""
    preset = str(data.get("preset") or "zhoblimp")
    if preset not in PARADIGM_PRESETS:
        raise ValidationError({"preset": f"Choose the ZhoBLiMP or the BLiMP rule, not “{preset}”."})
    tie = str(data.get("tie") or "half")
    if tie not in ("half", "fail"):
        raise ValidationError({"tie": "A tie counts as half or as a failure."})
    include = data.get("include_incomplete", False)
    if not isinstance(include, bool):
        if str(include) not in INCLUDE_WORDS:
            raise ValidationError({"include_incomplete": "Include incomplete participants: true or false."})
        include = INCLUDE_WORDS[str(include)]
    rules = AnalysisRules(
        min_catch_accuracy=_number(data, "min_catch_accuracy", "Catch-trial accuracy"),  # type: ignore[arg-type]
        min_median_rt_ms=_number(data, "min_median_rt_ms", "Fastest median response time"),  # type: ignore[arg-type]
        max_left_share_deviation=_number(data, "max_left_share_deviation", "Position bias"),  # type: ignore[arg-type]
        min_items_answered=_number(data, "min_items_answered", "Fewest items", whole=True),  # type: ignore[arg-type]
        include_incomplete=include,
        preset=preset,
        threshold=_number(data, "threshold", "Paradigm threshold"),  # type: ignore[arg-type]
        tie=tie,
    )
    if rules.threshold is not None and not 0.0 <= rules.threshold <= 1.0:
        raise ValidationError({"threshold": "Paradigm threshold: a share between 0 and 1, such as 0.7."})
    try:
        rules.settings()
    except ValueError as error:
        field_name = next((f for f in RULE_FIELDS if f in str(error)), None)
        raise ValidationError({field_name: str(error)} if field_name else str(error)) from None
    return rules


def rules_of(study: Study) -> AnalysisRules:
    """Return the study's saved AnalysisRules (the defaults when none were saved or they no
    longer read)."""
    stored = study.analysis_rules or {}
    try:
        return rules_from_data({k: v for k, v in stored.items() if k in RULE_FIELDS})
    except ValidationError:
        return AnalysisRules()


def rules_save(*, study: Study, data: dict[str, Any]) -> AnalysisRules:
    """Validate and save the researcher's rules on the study; return them."""
    rules = rules_from_data(data)
    study.analysis_rules = rules.to_dict()
    study.save(update_fields=["analysis_rules", "updated_at"])
    return rules


# -- From stored responses to judgements ---------------------------------------------------------


def participant_key(token_id: str) -> str:
    """Return the participant's key in analyses and exports: an HMAC of their random token id
    (16 hex characters), never their Prolific PID."""
    return salted_hmac(KEY_SALT, token_id, algorithm="sha256").hexdigest()[:16]


def list_label(list_index: int) -> str:
    """Return the list's name as pages and exports show it ("List 1" for index 0)."""
    return f"List {list_index + 1}"


@dataclass(frozen=True, slots=True)
class ResponseRow:
    """One stored answer with its trial, ready for the tidy export."""

    participant_key: str
    list_index: int
    trial: Trial
    response: Response


@dataclass(frozen=True, slots=True)
class StudyData:
    """A study's responses as the engine reads them: `judgements` (gold comparisons and catch,
    practice and filler trials), `items` (template positions and words per analysis key),
    `participants` (not withdrawn), `hypothesis` (participant key, item key, chose the learner
    sentence) and every stored answer (`rows`)."""

    judgements: list[Judgement]
    items: list[ItemInfo]
    participants: list[ParticipantInfo]
    hypothesis: list[tuple[str, str, str, bool]]
    rows: list[ResponseRow]


def _comparison_choices(trial: Trial, response: Response) -> list[tuple[str, bool]]:
    """Return (comparison, chose its first-named sentence) for each comparison an answer makes:
    one for a 2AFC trial, three for a rank3 ranking."""
    if trial.task == "rank3":
        ranking = [int(i) for i in response.ranking or ()]
        if len(ranking) != len(trial.roles):
            return []
        place = {trial.roles[shown]: rank for rank, shown in enumerate(ranking)}
        out = []
        for comparison in RANK3_COMPARISONS:
            first, second = comparison.split("-")
            out.append((comparison, place[first] < place[second]))
        return out
    return [(trial.comparison, response.choice == trial.gold_index)]


def _item_infos(design: StudyDesign | None) -> dict[str, ItemInfo]:
    infos: dict[str, ItemInfo] = {}
    if design is None:
        return infos
    for item in design.items:
        words = tuple(WordUse(position, word) for position, word in item.words)
        keys = [item.item_id]
        if item.kind == "triplet":
            keys = [f"{item.item_id}#{c}" for c in RANK3_COMPARISONS if c != HYPOTHESIS]
        for key in keys:
            infos[key] = ItemInfo(key, item.paradigm, item.phenomenon, words)
    return infos


def stored_design(study: Study) -> StudyDesign | None:
    """Return the study's StudyDesign, or None when it has none (or it no longer reads)."""
    try:
        return StudyDesign.from_dict(study.design) if study.design else None
    except StudyError:
        return None


def study_data(study: Study) -> StudyData:
    """Return the StudyData of every participation of the study that was not withdrawn."""
    design = stored_design(study)
    participations = list(
        Participation.objects.filter(study=study).exclude(status=Participation.Status.WITHDRAWN)
    )
    schedules: dict[int, ParticipantSchedule] = {}
    participants = []
    keys: dict[int, str] = {}
    for participation in participations:
        key = participant_key(participation.token_id)
        keys[participation.pk] = key
        schedules[participation.pk] = ParticipantSchedule.from_dict(participation.schedule)
        participants.append(
            ParticipantInfo(
                key,
                completed=participation.status == Participation.Status.COMPLETED,
                list_id=list_label(participation.list_index),
            )
        )
    judgements: list[Judgement] = []
    hypothesis: list[tuple[str, str, str, bool]] = []
    rows: list[ResponseRow] = []
    responses = Response.objects.filter(participation__in=participations).order_by(
        "participation__started_at", "participation_id", "trial_index"
    )
    by_pk = {p.pk: p for p in participations}
    for response in responses.iterator(chunk_size=2000):
        participation = by_pk[response.participation_id]
        trials = schedules[participation.pk].trials
        if not 0 <= response.trial_index < len(trials):
            continue
        trial = trials[response.trial_index]
        key = keys[participation.pk]
        rows.append(ResponseRow(key, participation.list_index, trial, response))
        kind = trial.kind
        for comparison, chose_first in _comparison_choices(trial, response):
            item_key = f"{trial.item_id}#{comparison}" if comparison else trial.item_id
            if comparison == HYPOTHESIS:
                if kind == "experimental":
                    hypothesis.append((key, trial.paradigm, item_key, chose_first))
                continue
            judgements.append(
                Judgement(
                    item_id=item_key,
                    participant_id=key,
                    correct=chose_first,
                    paradigm=trial.paradigm,
                    phenomenon=trial.phenomenon,
                    rt_ms=float(response.rt_ms) if response.rt_ms is not None else None,
                    chose_left=(response.choice == 0) if trial.task == "2afc" else None,
                    is_catch=kind == "catch",
                    is_practice=kind == "practice",
                    is_filler=kind == "filler",
                )
            )
    infos = _item_infos(design)
    return StudyData(judgements, list(infos.values()), participants, hypothesis, rows)


# -- The analysis and what the page shows beside it ------------------------------------------------


@dataclass(frozen=True, slots=True)
class HypothesisRate:
    """How often analysed participants preferred the learner sentence to the artificial one
    (BLiSS's hypothesis, not a gold label): per paradigm (error type) and overall ("all")."""

    paradigm: str
    chose_learner: int
    n: int
    share: float
    wilson_low: float
    wilson_high: float


@dataclass(frozen=True, slots=True)
class WordLink:
    """Where a template position lives: the template version page, at the line that defines it."""

    paradigm: str
    position: str
    url: str


@dataclass(frozen=True, slots=True)
class ListCounts:
    """One list's participants by status, with the completion and drop-out shares."""

    label: str
    started: int
    active: int
    completed: int
    abandoned: int
    withdrawn: int

    @property
    def completion(self) -> float | None:
        """Return completed / started (withdrawn included), or None with nobody."""
        return self.completed / self.started if self.started else None

    @property
    def dropout(self) -> float | None:
        """Return (abandoned + withdrawn) / started, or None with nobody."""
        return (self.abandoned + self.withdrawn) / self.started if self.started else None


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where flagged paradigms, positions and words come from: per paradigm generated from a
    project template, its template version page (`templates`); per (paradigm, position), that
    page at the line defining the position (`positions`); per (paradigm, vocabulary item id),
    the word's current form and its edit page in the vocabulary (`words`)."""

    templates: dict[str, str] = field(default_factory=dict)
    positions: dict[tuple[str, str], str] = field(default_factory=dict)
    words: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StudyReport:
    """Everything the analysis page, its exports and the card summary need."""

    study: Study
    rules: AnalysisRules
    analysis: StudyAnalysis
    data: StudyData
    lists: list[ListCounts]
    hypothesis: list[HypothesisRate]
    provenance: Provenance = field(default_factory=Provenance)

    @property
    def excluded_keys(self) -> frozenset[str]:
        """Return the keys of the participants whose answers the analysis leaves out."""
        return frozenset(p.participant_id for p in self.analysis.exclusion.participants if p.excluded)

    @property
    def flagged_paradigms(self) -> list[str]:
        """Return the uids of the paradigms below the threshold."""
        return [f.paradigm for f in self.analysis.paradigm_flags]


def _hypothesis_rates(
    rows: Sequence[tuple[str, str, str, bool]], analysed: frozenset[str]
) -> list[HypothesisRate]:
    groups: dict[str, list[bool]] = defaultdict(list)
    for key, paradigm, _, chose_learner in rows:
        if key in analysed:
            groups[paradigm].append(chose_learner)
            groups["all"].append(chose_learner)
    out = []
    for name in sorted(groups, key=lambda n: (n == "all", n)):
        values = groups[name]
        low, high = wilson_interval(sum(values), len(values), 0.95)
        out.append(HypothesisRate(name, sum(values), len(values), sum(values) / len(values), low, high))
    return out


def _list_counts(study: Study) -> list[ListCounts]:
    rows = list_status(study=study, needed_per_list=0)
    return [
        ListCounts(
            label=list_label(r.list_index),
            started=r.active + r.completed + r.abandoned + r.withdrawn,
            active=r.active,
            completed=r.completed,
            abandoned=r.abandoned,
            withdrawn=r.withdrawn,
        )
        for r in rows
    ]


def _position_line(source_text: str, position: str) -> int | None:
    """Return the line of a template's YAML that defines `position` (its first path part)."""
    name = position.split(".")[0].split("/")[0]
    for number, line in enumerate(source_text.splitlines(), start=1):
        compact = line.replace('"', "").replace("'", "").replace(" ", "")
        if f"id:{name}," in compact or f"id:{name}}}" in compact or compact.endswith(f"id:{name}"):
            return number
    return None


def _provenance(study: Study, analysis: StudyAnalysis) -> Provenance:
    """Return the Provenance links of the study's flagged paradigms, items and words."""
    paradigms = (
        DatasetParadigm.objects.filter(dataset__in=study.datasets.all())
        .filter(Q(template_version__isnull=False) | Q(vocabulary_snapshot__vocabulary__isnull=False))
        .select_related("template_version__template", "vocabulary_snapshot")
        .order_by("uid", "-created_at")
    )
    versions: dict[str, TemplateVersion] = {}
    vocabularies: dict[str, int] = {}
    for paradigm in paradigms:
        if paradigm.template_version is not None:
            versions.setdefault(paradigm.uid, paradigm.template_version)
        snapshot = paradigm.vocabulary_snapshot
        if snapshot is not None and snapshot.vocabulary_id is not None:
            vocabularies.setdefault(paradigm.uid, snapshot.vocabulary_id)
    pages = {
        uid: reverse(
            "project_paradigms:template_version", args=[study.project_id, version.template_id, version.number]
        )
        for uid, version in versions.items()
    }
    uses: set[tuple[str, str, str]] = set()  # (paradigm, position, word)
    for word in analysis.word_flags:
        uses.update((p, word.position, word.word) for p in word.paradigms)
    for item in analysis.item_flags:
        uses.update((item.paradigm, w.position, w.word) for w in item.words)
    positions: dict[tuple[str, str], str] = {}
    for uid, position, _ in uses:
        version = versions.get(uid)
        if version is not None:
            line = _position_line(version.source_text, position)
            positions[(uid, position)] = pages[uid] + (f"#L{line}" if line else "")
    words: dict[tuple[str, str], tuple[str, str]] = {}
    wanted = {word for uid, _, word in uses if uid in vocabularies}
    found = VocabularyItem.objects.filter(vocabulary_id__in=set(vocabularies.values()), item_id__in=wanted)
    by_key = {(v.vocabulary_id, v.item_id): v for v in found}
    for uid, _, word in uses:
        entry = by_key.get((vocabularies.get(uid, -1), word))
        if entry is not None:
            url = reverse("lexicon:item_edit", args=[study.project_id, entry.vocabulary_id, entry.pk])
            words[(uid, word)] = (entry.form, url)
    return Provenance(pages, positions, words)


def study_report(study: Study, rules: AnalysisRules | None = None) -> StudyReport:
    """Return the StudyReport of the study under `rules` (default: the saved ones).

    Raises:
        ValidationError: when the stored answers cannot be analysed (the engine's reason).
    """
    rules = rules or rules_of(study)
    data = study_data(study)
    try:
        analysis = analyse_study(
            data.judgements, data.items, data.participants, rules.settings(int(study.seed))
        )
    except ValueError as error:
        raise ValidationError(f"The answers could not be analysed: {error}") from None
    analysed = analysis.exclusion.analysed_ids
    return StudyReport(
        study=study,
        rules=rules,
        analysis=analysis,
        data=data,
        lists=_list_counts(study),
        hypothesis=_hypothesis_rates(data.hypothesis, analysed),
        provenance=_provenance(study, analysis),
    )


# -- Exports ---------------------------------------------------------------------------------


def response_rows(report: StudyReport) -> Iterator[dict[str, object]]:
    """Yield one tidy row per stored answer (RESPONSE_COLUMNS): participant key (never the PID),
    list, trial, item, paradigm, kind, displayed order of roles, choice, correct, rt and
    whether the participant is excluded from the analysis."""
    excluded = report.excluded_keys
    for row in report.data.rows:
        trial, response = row.trial, row.response
        ranking = [int(i) for i in response.ranking or ()]
        chosen = trial.roles[response.choice] if 0 <= response.choice < len(trial.roles) else ""
        hypothesis = ""
        if trial.comparison == HYPOTHESIS:
            hypothesis = "chose_learner" if response.choice == trial.gold_index else "chose_artificial"
        yield {
            "participant_key": row.participant_key,
            "list": row.list_index + 1,
            "trial_index": trial.trial_index,
            "item_id": trial.item_id,
            "analysis_key": trial.analysis_key,
            "paradigm": trial.paradigm,
            "phenomenon": trial.phenomenon,
            "kind": trial.kind,
            "comparison": trial.comparison,
            "displayed_order": "|".join(trial.roles),
            "choice": response.choice,
            "chosen_role": chosen,
            "ranking": "|".join(trial.roles[i] for i in ranking if 0 <= i < len(trial.roles)),
            "confidence": response.confidence if response.confidence is not None else "",
            # The learner-artificial comparison has no gold answer: its "correct" is left empty.
            "correct": "" if trial.comparison == HYPOTHESIS else response.correct,
            "hypothesis": hypothesis,
            "rt_ms": response.rt_ms if response.rt_ms is not None else "",
            "received_at": response.received_at.isoformat(),
            "excluded": row.participant_key in excluded,
        }


def report_dict(report: StudyReport) -> dict[str, object]:
    """Return the whole analysis as JSON-ready data: the engine's, plus the study, the rules,
    the lists' status and the learner-artificial preference rates."""
    return {
        "study": {"id": report.study.pk, "name": report.study.name, "status": report.study.status},
        "rules": report.rules.to_dict(),
        "lists": [
            {**dataclasses.asdict(c), "completion": c.completion, "dropout": c.dropout} for c in report.lists
        ],
        "learner_artificial_preference": [dataclasses.asdict(h) for h in report.hypothesis],
        **report.analysis.to_dict(),
    }


# -- Publishing to the dataset card ------------------------------------------------------------


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


def validation_publish(*, study: Study, report: StudyReport | None = None) -> list[Dataset]:
    """Write the validation summary of the study's paradigms into each of its datasets'
    `validation` (the dataset card shows it); return the datasets written. A study without
    analysed answers is a ValidationError."""
    report = report or study_report(study)
    if report.analysis.overall is None:
        raise ValidationError("No analysed answers yet: there is nothing to publish.")
    written = []
    with transaction.atomic():
        for dataset in study.datasets.all():
            uids = set(dataset.paradigms.values_list("uid", flat=True))
            summary = validation_summary(report, uids)
            if not summary["paradigms"]:
                continue
            dataset.validation = summary
            dataset.save(update_fields=["validation", "updated_at"])
            written.append(dataset)
    if not written:
        raise ValidationError("None of the study's datasets has an analysed paradigm.")
    return written


# -- Validating only what changed ------------------------------------------------------------


def revalidation_create(
    *,
    study: Study,
    paradigms: Sequence[str],
    datasets: Sequence[Dataset] | None = None,
    created_by: object = None,
    now: datetime | None = None,
) -> Study:
    """Return a new draft study with the same settings as `study`, whose items come only from
    `paradigms` (uids) of `datasets` (default: the study's own; choose a regenerated dataset to
    validate its new pairs). It records the study it follows up and the paradigm filter.

    Raises:
        ValidationError: no paradigm chosen, a dataset of another project, or none of the
            datasets has items of those paradigms (naming them), or the engine's reason.
    """
    wanted = [p for p in dict.fromkeys(paradigms) if p]
    if not wanted:
        raise ValidationError("Choose at least one paradigm to validate again.")
    chosen = list(datasets) if datasets is not None else list(study.datasets.all())
    if not chosen:
        raise ValidationError({"datasets": "Choose at least one dataset."})
    foreign = [d.name for d in chosen if d.project_id != study.project_id]
    if foreign:
        raise ValidationError({"datasets": f"Not datasets of this project: {', '.join(foreign)}."})
    items: list[StudyItem] = [i for i in dataset_items(chosen) if i.paradigm in wanted]
    missing = sorted(set(wanted) - {i.paradigm for i in items})
    if not items:
        raise ValidationError(
            {"datasets": f"The chosen datasets have no items of the paradigms {', '.join(wanted)}."}
        )
    copy = Study(
        project=study.project,
        created_by=created_by,
        name=f"{study.name} (re-validation {(now or timezone.now()):%Y-%m-%d})"[:200],
        revalidation_of=study,
        paradigm_filter=wanted,
        analysis_rules=study.analysis_rules,
        **{k: getattr(study, k) for k in (*DESIGN_FIELDS, *TEXT_FIELDS) if k != "name"},
    )
    study_design_store(copy, items)
    with transaction.atomic():
        copy.save()
        copy.datasets.set(chosen)
    if missing:
        copy.missing_paradigms = missing  # type: ignore[attr-defined]  # for the page's message
    return copy


def project_datasets(project: Project) -> list[Dataset]:
    """Return the project's datasets a re-validation may draw from, newest first."""
    return list(Dataset.objects.filter(project=project).order_by("-created_at", "-pk"))
