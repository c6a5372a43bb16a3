"""The analysis report of a validation study (a selector): stored responses and participation
schedules turned into the study engine's judgements (`study.validation_study.analyse_study`)
under the study's rules, with lists, hypothesis rates and provenance.

- Participants are keyed by an HMAC of their random token id (`participant_key`): never the
  Prolific PID. Withdrawn participants are left out entirely (their answers were deleted).
- Catch, practice and filler trials are marked so the engine uses them only for exclusion.
- Triplet trials are split into comparisons (`item#corrected-learner` ...): a rank3 ranking
  gives all three. The "learner-artificial" comparison is BLiSS's hypothesis (learner errors
  sound more natural than artificial ones), not a gold label: it never enters agreement with
  gold, and its preference rate is reported on its own (`HypothesisRate`).
"""

import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.urls import reverse
from django.utils.crypto import salted_hmac

from formats.pair_id import pair_id as stable_pair_id
from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.lexicon.models import VocabularyItem
from mpp_studio.paradigms.models import TemplateVersion
from mpp_studio.studies.analysis_rules import AnalysisRules, rules_of
from mpp_studio.studies.models import Participation, Response, Study
from mpp_studio.studies.selectors import list_status
from scoring.stats import wilson_interval
from study.agreement import ItemInfo, Judgement, ParticipantInfo, WordUse
from study.design import StudyDesign
from study.errors import StudyError
from study.order import ParticipantSchedule, Trial
from study.validation_study import StudyAnalysis, analyse_study

# Pairs looked up per query (well under SQLite's and PostgreSQL's parameter limits).
PAIR_BATCH = 2_000
# The salt keeps its first module's name: every participant key ever exported was made with it.
KEY_SALT = "mpp_studio.studies.analysis.participant"


HYPOTHESIS = "learner-artificial"  # BLiSS's expected preference, not a gold label


RANK3_COMPARISONS = ("corrected-learner", "corrected-artificial", HYPOTHESIS)


def participant_key(token_id: str) -> str:
    """Return the participant's key in analyses and exports: an HMAC of their random token id
    (16 hex characters), never their Prolific PID."""
    return salted_hmac(KEY_SALT, token_id, algorithm="sha256").hexdigest()[:16]


def list_label(list_index: int) -> str:
    """Return the list's name as pages and exports show it ("List 1" for index 0)."""
    return f"List {list_index + 1}"


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """The fields of a stored `Response` the analysis and its exports read (read as tuples: a
    study's tens of thousands of answers are not built into model instances)."""

    participation_id: int
    trial_index: int
    choice: int | None
    ranking: list[int]
    rating: float | None
    confidence: int | None
    correct: bool
    rt_ms: int | None
    received_at: datetime


ANSWER_FIELDS = tuple(f.name for f in dataclasses.fields(StoredAnswer))
# Only a rank3 study stores rankings: the others skip decoding an empty JSON list a row.
UNRANKED_FIELDS = tuple(f for f in ANSWER_FIELDS if f != "ranking")


@dataclass(frozen=True, slots=True)
class ResponseRow:
    """One stored answer with its trial, ready for the tidy export."""

    participant_key: str
    list_index: int
    trial: Trial
    response: StoredAnswer


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


def _comparison_choices(trial: Trial, response: StoredAnswer) -> list[tuple[str, bool]]:
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
    ranked = study.task == Study.Task.RANK3
    answers = (
        Response.objects.filter(participation__in=participations)
        .order_by("participation__started_at", "participation_id", "trial_index")
        .values_list(*(ANSWER_FIELDS if ranked else UNRANKED_FIELDS))
    )
    by_pk = {p.pk: p for p in participations}
    for values in answers.iterator(chunk_size=2000):
        response = (
            StoredAnswer(*values)
            if ranked
            else StoredAnswer(**dict(zip(UNRANKED_FIELDS, values, strict=True)), ranking=[])
        )
        participation = by_pk[response.participation_id]
        trials = schedules[participation.pk].trials
        if not 0 <= response.trial_index < len(trials):
            continue
        trial = trials[response.trial_index]
        key = keys[participation.pk]
        rows.append(ResponseRow(key, participation.list_index, trial, response))
        if trial.rated:  # a rating is read by report_ratings, never as a choice
            continue
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
    """Everything the analysis page, its exports and the card summary need. `pairs` places
    each item that is a dataset's pair (`PairPlace`), by the item's id in the design."""

    study: Study
    rules: AnalysisRules
    analysis: StudyAnalysis
    data: StudyData
    lists: list[ListCounts]
    hypothesis: list[HypothesisRate]
    provenance: Provenance = field(default_factory=Provenance)
    pairs: dict[str, "PairPlace"] = field(default_factory=dict)

    def place(self, item_key: str) -> "PairPlace | None":
        """Return the pair an item (or one comparison of a triplet, `item#comparison`) is."""
        return place_of(self.pairs, item_key)

    def pair_id(self, item_key: str) -> str:
        """Return the item's stable pair id (see `pair_id_of`)."""
        return pair_id_of(self.pairs, item_key)

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
    uses: set[tuple[str, str, str]] = set()  # (paradigm, position, word)
    for flag in analysis.word_flags:
        uses.update((p, flag.position, flag.word) for p in flag.paradigms)
    for item in analysis.item_flags:
        uses.update((item.paradigm, w.position, w.word) for w in item.words)
    return provenance_of(study, uses)


def provenance_of(study: Study, uses: set[tuple[str, str, str]]) -> Provenance:
    """Return the Provenance links of the study's paradigms (their template pages) and of the
    (paradigm, position, word) `uses`: the template line of each position, each word's entry."""
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


@dataclass(frozen=True, slots=True)
class PairPlace:
    """Where a study's item comes from: the dataset's pair, by its stable id (`UID/pairID`,
    `formats.pair_id`), with its sentences and its page."""

    pair_id: str
    dataset_id: int
    dataset: str
    sentence_good: str
    sentence_bad: str
    url: str

    def to_dict(self) -> dict[str, object]:
        """Return the fields an export adds to an item (no page address)."""
        return {
            "pair_id": self.pair_id,
            "dataset_id": self.dataset_id,
            "dataset": self.dataset,
            "sentence_good": self.sentence_good,
            "sentence_bad": self.sentence_bad,
        }


def place_of(pairs: dict[str, PairPlace], item_key: str) -> PairPlace | None:
    """Return the pair an item (or one comparison of a triplet, `item#comparison`) is."""
    return pairs.get(item_key.split("#", 1)[0])


def pair_id_of(pairs: dict[str, PairPlace], item_key: str) -> str:
    """Return the item's stable pair id (`UID/pairID`, with `#comparison` for a part of a
    triplet); an item that is no dataset's pair (a filler, a catch trial) keeps its id."""
    place = place_of(pairs, item_key)
    if place is None:
        return item_key
    _, sep, comparison = item_key.partition("#")
    return place.pair_id + (f"#{comparison}" if sep else "")


def pair_places(study: Study, item_ids: Sequence[str]) -> dict[str, PairPlace]:
    """Return the pairs the study's items are (a design names a pair by its database id), by
    item id; ids that are no pair of the study's project (fillers, scrambles) are left out."""
    pks = sorted({int(i) for i in item_ids if i.isascii() and i.isdigit()})
    # By primary key, then their paradigms apart: never a join over a dataset's pairs.
    pairs = [
        row
        for start in range(0, len(pks), PAIR_BATCH)
        for row in Pair.objects.filter(pk__in=pks[start : start + PAIR_BATCH])
        .order_by()
        .values_list("pk", "index", "sentence_good", "sentence_bad", "paradigm_id")
    ]
    paradigms = {
        pk: (uid, dataset_id, name)
        for pk, uid, dataset_id, name in DatasetParadigm.objects.filter(
            pk__in={row[4] for row in pairs}, dataset__project_id=study.project_id
        ).values_list("pk", "uid", "dataset_id", "dataset__name")
    }
    places = {}
    for pk, index, good, bad, paradigm_id in pairs:
        if paradigm_id not in paradigms:
            continue
        uid, dataset_id, dataset_name = paradigms[paradigm_id]
        places[str(pk)] = PairPlace(
            pair_id=stable_pair_id(uid, index),
            dataset_id=dataset_id,
            dataset=dataset_name,
            sentence_good=good,
            sentence_bad=bad,
            url=reverse("datasets:pair_detail", args=[study.project_id, dataset_id, pk]),
        )
    return places


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
        pairs=pair_places(study, [item.item_id.split("#", 1)[0] for item in data.items]),
    )


def project_datasets(project: Project) -> list[Dataset]:
    """Return the project's datasets a re-validation may draw from, newest first."""
    return list(Dataset.objects.filter(project=project).order_by("-created_at", "-pk"))
