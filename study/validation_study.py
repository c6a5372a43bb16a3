"""One call from a study's raw judgements to its whole analysis: exclusions and their flow,
agreement with gold at every level, inter-rater agreement, and flags; with a JSON-ready dict and
CSV rows for exports.

    analysis = analyse_study(judgements, items=item_infos, participants=participant_infos)
    json.dumps(analysis.to_dict())
    csv.DictWriter(f, ITEM_COLUMNS).writerows(analysis.item_rows())
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from scoring.stats import json_float
from study.agreement import (
    TIE_RULES,
    GoldAgreement,
    GroupAgreement,
    ItemAgreement,
    ItemInfo,
    Judgement,
    ParticipantInfo,
    TieRule,
    WordUse,
    agreement_with_gold,
    analysed_responses,
    as_dict,
    json_ready,
)
from study.exclusion import ExclusionResult, ExclusionRules, exclude_participants
from study.human_flags import (
    FlagSettings,
    ItemFlag,
    ParadigmFlag,
    WordAgreement,
    flag_items,
    flag_paradigms,
    word_agreement,
)
from study.rater_agreement import RaterAgreement, binary_rater_agreement

CsvValue = str | int | float | bool | None
ITEM_COLUMNS = (
    "item_id",
    "paradigm",
    "phenomenon",
    "correct",
    "n",
    "accuracy",
    "wilson_low",
    "wilson_high",
    "majority",
    "tie",
    "disagrees",
    "observed_agreement",
    "flagged",
    "flag_reasons",
    "words",
)
GROUP_COLUMNS = (
    "level",
    "name",
    "phenomenon",
    "n_items",
    "n_responses",
    "n_participants",
    "correct",
    "micro",
    "wilson_low",
    "wilson_high",
    "macro",
    "majority_correct",
    "majority_accuracy",
    "p_value",
    "p_holm",
    "bootstrap_low",
    "bootstrap_high",
    "flagged",
    "flag_reasons",
)
PARTICIPANT_COLUMNS = (
    "participant_id",
    "list_id",
    "completed",
    "items_answered",
    "items_correct",
    "catch_correct",
    "catch_total",
    "filler_correct",
    "filler_total",
    "median_rt_ms",
    "left_share",
    "excluded",
    "reasons",
    "messages",
)
WORD_COLUMNS = (
    "position",
    "word",
    "paradigms",
    "item_ids",
    "disagreeing_item_ids",
    "correct",
    "n",
    "accuracy",
    "shrunk_accuracy",
    "p_below_threshold",
    "flagged",
    "message",
)


@dataclass(frozen=True, slots=True)
class StudySettings:
    """Everything the researcher sets for an analysis: exclusion rules, the tie rule for
    majority votes ("half" or "fail"), flag settings, interval confidence, and participant
    bootstrap resamples (0: none) with their seed."""

    exclusion: ExclusionRules = field(default_factory=ExclusionRules)
    tie: TieRule = "half"
    flags: FlagSettings = field(default_factory=FlagSettings)
    confidence: float = 0.95
    bootstrap_resamples: int = 1000
    seed: int = 0

    def __post_init__(self) -> None:
        if self.tie not in TIE_RULES:
            raise ValueError(f"unknown tie rule '{self.tie}' (choose from {', '.join(TIE_RULES)})")
        if not 0.0 < self.confidence < 1.0:
            raise ValueError(f"confidence is between 0 and 1, got {self.confidence}")
        if self.bootstrap_resamples < 0:
            raise ValueError(f"bootstrap_resamples cannot be negative, got {self.bootstrap_resamples}")

    def to_dict(self) -> dict[str, object]:
        """Return the settings as a JSON-ready dict."""
        return as_dict(self)


def _csv(value: object) -> CsvValue:
    """Return a CSV cell: lists joined with ';', nan as empty (None)."""
    if isinstance(value, list | tuple):
        return ";".join(str(v) for v in value)
    if isinstance(value, float):
        return json_float(value)
    if value is None or isinstance(value, str | int | bool):
        return value
    return str(value)


@dataclass(frozen=True, slots=True)
class StudyAnalysis:
    """A study's analysis. `exclusion` holds every participant's checks and the flow;
    `items`, `paradigms`, `phenomena` (sorted) and `overall` (None without analysed responses)
    the agreement with gold; `raters` the inter-rater agreement (None without an item with two
    responses); `paradigm_flags`, `item_flags` and `words` (every position/word, flagged first)
    the flags; `item_words` the template positions and words of each item."""

    settings: StudySettings
    exclusion: ExclusionResult
    gold: GoldAgreement
    raters: RaterAgreement | None
    paradigm_flags: tuple[ParadigmFlag, ...]
    item_flags: tuple[ItemFlag, ...]
    words: tuple[WordAgreement, ...]
    item_words: dict[str, tuple[WordUse, ...]] = field(default_factory=dict)

    @property
    def items(self) -> tuple[ItemAgreement, ...]:
        """Return the per-item agreement, sorted by item id."""
        return self.gold.items

    @property
    def paradigms(self) -> tuple[GroupAgreement, ...]:
        """Return the per-paradigm agreement, sorted by name."""
        return self.gold.paradigms

    @property
    def phenomena(self) -> tuple[GroupAgreement, ...]:
        """Return the per-phenomenon agreement, sorted by name."""
        return self.gold.phenomena

    @property
    def overall(self) -> GroupAgreement | None:
        """Return the whole study's agreement (micro = individual, majority_accuracy =
        aggregate), or None without analysed responses."""
        return self.gold.overall

    @property
    def word_flags(self) -> tuple[WordAgreement, ...]:
        """Return the flagged (position, word) entries."""
        return tuple(w for w in self.words if w.flagged)

    def to_dict(self) -> dict[str, object]:
        """Return the whole analysis as a JSON-ready dict (nan as None)."""
        overall = self.overall
        return json_ready(
            {
                "settings": self.settings.to_dict(),
                "weighting": (
                    "micro pools responses; macro is the mean item accuracy; majority is the mean "
                    "of item majority votes (ties: " + self.settings.tie + ")"
                ),
                "flow": self.exclusion.flow.to_dict(),
                "flow_by_list": [f.to_dict() for f in self.exclusion.flow_by_list],
                "participants": [p.to_dict() for p in self.exclusion.participants],
                "overall": overall.to_dict() if overall else None,
                "individual_accuracy": overall.micro if overall else None,
                "aggregate_accuracy": overall.majority_accuracy if overall else None,
                "paradigms": [p.to_dict() for p in self.paradigms],
                "phenomena": [p.to_dict() for p in self.phenomena],
                "items": [i.to_dict() for i in self.items],
                "raters": self.raters.to_dict() if self.raters else None,
                "paradigm_flags": [f.to_dict() for f in self.paradigm_flags],
                "item_flags": [f.to_dict() for f in self.item_flags],
                "word_flags": [w.to_dict() for w in self.word_flags],
            }
        )

    def item_rows(self) -> list[dict[str, CsvValue]]:
        """Return one CSV row per item, keyed by ITEM_COLUMNS."""
        flags = {f.item_id: f for f in self.item_flags}
        rows = []
        for item in self.items:
            flag = flags.get(item.item_id)
            row = {
                **item.to_dict(),
                "flagged": flag is not None,
                "flag_reasons": flag.reasons if flag else (),
                "words": [f"{w.position}={w.word}" for w in self.item_words.get(item.item_id, ())],
            }
            rows.append({column: _csv(row[column]) for column in ITEM_COLUMNS})
        return rows

    def paradigm_rows(self) -> list[dict[str, CsvValue]]:
        """Return one CSV row per paradigm, keyed by GROUP_COLUMNS."""
        flags = {f.paradigm: f for f in self.paradigm_flags}
        return [self._group_row(p, flags.get(p.name)) for p in self.paradigms]

    def phenomenon_rows(self) -> list[dict[str, CsvValue]]:
        """Return one CSV row per phenomenon, then one for the whole study, keyed by
        GROUP_COLUMNS."""
        groups = [*self.phenomena, *([self.overall] if self.overall else [])]
        return [self._group_row(g, None) for g in groups]

    def participant_rows(self) -> list[dict[str, CsvValue]]:
        """Return one CSV row per participant (analysed or not), keyed by PARTICIPANT_COLUMNS."""
        return participant_rows(self.exclusion)

    def word_rows(self) -> list[dict[str, CsvValue]]:
        """Return one CSV row per (position, word), flagged first, keyed by WORD_COLUMNS."""
        return [{column: _csv(w.to_dict()[column]) for column in WORD_COLUMNS} for w in self.words]

    @staticmethod
    def _group_row(group: GroupAgreement, flag: ParadigmFlag | None) -> dict[str, CsvValue]:
        row = {**group.to_dict(), "flagged": flag is not None, "flag_reasons": flag.rules if flag else ()}
        return {column: _csv(row[column]) for column in GROUP_COLUMNS}


def analyse_study(
    judgements: Iterable[Judgement],
    items: Iterable[ItemInfo] = (),
    participants: Iterable[ParticipantInfo] = (),
    settings: StudySettings | None = None,
) -> StudyAnalysis:
    """Return the StudyAnalysis of a study: participants checked under the exclusion rules,
    then the analysed participants' experimental trials (catch, practice and filler trials
    left out) scored against gold, rated for inter-rater agreement, and flagged. `items` gives
    the template positions and words behind each item (for word flags); `participants` who
    started, completed and on which list. No judgements give an empty analysis.

    Raises:
        ValueError: when a participant answered the same item twice or an item carries two
            paradigms, naming them (see `study.agreement.analysed_responses`).
    """
    settings = settings or StudySettings()
    judgements = list(judgements)
    infos = list(items)
    exclusion = exclude_participants(judgements, settings.exclusion, participants)
    responses = analysed_responses(judgements, exclusion.analysed_ids)
    gold = agreement_with_gold(
        responses,
        tie=settings.tie,
        confidence=settings.confidence,
        bootstrap_resamples=settings.bootstrap_resamples,
        seed=settings.seed,
    )
    prior_mean = gold.overall.micro if gold.overall else 0.5
    return StudyAnalysis(
        settings=settings,
        exclusion=exclusion,
        gold=gold,
        raters=binary_rater_agreement([(i.correct, i.n) for i in gold.items]),
        paradigm_flags=flag_paradigms(gold.paradigms, gold.items, settings.flags),
        item_flags=flag_items(gold.items, infos, settings.flags),
        words=word_agreement(gold.items, infos, prior_mean, settings.flags),
        item_words={i.item_id: i.words for i in infos},
    )


def participant_rows(exclusion: ExclusionResult) -> list[dict[str, CsvValue]]:
    """Return one CSV row per checked participant (analysed or not), keyed by
    PARTICIPANT_COLUMNS: a 2AFC study's or a rating study's exclusions alike."""
    return [
        {column: _csv(p.to_dict()[column]) for column in PARTICIPANT_COLUMNS} for p in exclusion.participants
    ]
