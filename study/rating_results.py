"""The results of a rating study's analysis (`study.ratings`): the settings of its flags, how
each participant was z-scored, each item's and paradigm's numbers and flags, and the whole
analysis with a JSON-ready `to_dict()` for the platform's pages and exports."""

from __future__ import annotations

import math
from dataclasses import dataclass

from study.agreement import as_dict, json_ready
from study.errors import StudyError
from study.exclusion import ExclusionResult
from study.rating_scale import RatingScale

PARADIGM_TOO_FEW_ITEMS = "too_few_items"
PARADIGM_NOT_RELIABLE = "not_reliable"
PARADIGM_SMALL_DIFFERENCE = "small_difference"
PARADIGM_GOOD_UNNATURAL = "good_unnatural"
ITEM_NO_DIFFERENCE = "no_difference"
ITEM_GOOD_LOW = "good_low"


@dataclass(frozen=True, slots=True)
class RatingAnalysisSettings:
    """What the rating analysis flags.

    alpha: a paradigm's Holm-adjusted one-sided p must be below it.
    min_difference: the lower end of a paradigm's interval must be above it (z units); an item
      whose difference is at or below it is flagged.
    naturalness_threshold: a paradigm (or item) whose good sentences' mean z is below it is
      flagged as unnatural (0: below the participants' own average).
    confidence: of the t intervals.
    """

    alpha: float = 0.05
    min_difference: float = 0.0
    naturalness_threshold: float = 0.0
    confidence: float = 0.95

    def __post_init__(self) -> None:
        for name in ("alpha", "confidence"):
            value = getattr(self, name)
            if not 0.0 < value < 1.0:
                raise StudyError(f"The rating analysis' {name} is between 0 and 1, got {value!r}.")
        for name in ("min_difference", "naturalness_threshold"):
            if not math.isfinite(getattr(self, name)):
                raise StudyError(f"The rating analysis' {name} must be a finite number.")

    def to_dict(self) -> dict[str, object]:
        """Return the settings as a JSON-ready dict."""
        return as_dict(self)


@dataclass(frozen=True, slots=True)
class ParticipantScaling:
    """How one participant's ratings were z-scored: over `n_ratings` experimental and filler
    ratings (log values for magnitude estimation), with this `mean` and `sd`. `scaled` is False
    (mean/sd None where undefined) when they cannot be: fewer than two ratings, or all equal;
    `message` says so in words."""

    participant_id: str
    list_id: str
    n_ratings: int
    mean: float | None
    sd: float | None
    scaled: bool
    message: str

    def to_dict(self) -> dict[str, object]:
        """Return the scaling as a JSON-ready dict."""
        return as_dict(self)


@dataclass(frozen=True, slots=True)
class ItemRating:
    """One item: `n_good` ratings of its good sentence with mean z `good_mean_z` (and mean raw
    rating), `n_bad` of its bad one; `difference` = good_mean_z - bad_mean_z (None unless both
    sentences were rated)."""

    item_id: str
    paradigm: str
    phenomenon: str
    n_good: int
    n_bad: int
    good_mean_z: float | None
    bad_mean_z: float | None
    difference: float | None
    good_mean_raw: float | None
    bad_mean_raw: float | None

    def to_dict(self) -> dict[str, object]:
        """Return the item's numbers as a JSON-ready dict."""
        return as_dict(self)


@dataclass(frozen=True, slots=True)
class ParadigmRating:
    """One paradigm.

    Difference (good minus bad, z units), over the `n_compared` of its `n_items` items whose two
    sentences were both rated: `difference` their mean, `sd` their standard deviation,
    `ci_low`/`ci_high` the t interval, `t_statistic` and `p_value` the one-sided one-sample t
    test of difference > 0, `p_holm` Holm-adjusted across paradigms (all None with fewer than
    two items); `wilcoxon_p` the one-sided Wilcoxon signed-rank test (None without a non-zero
    difference), `sign_positive`/`sign_negative` the items above/below 0 and `sign_p` their
    one-sided sign test.

    Naturalness of the good sentences: `good_mean_z` (mean over items of each item's mean z),
    its t interval `good_ci_low`/`good_ci_high`, and `good_mean_raw`; `bad_mean_z` and
    `bad_mean_raw` likewise for the bad sentences.

    `flagged`: the difference is not reliable; `unnatural`: the good sentences are rated below
    the threshold. `reasons` (codes) and `messages` (words) say why, one each.
    """

    paradigm: str
    phenomenon: str
    n_items: int
    n_compared: int
    n_participants: int
    n_ratings: int
    difference: float | None
    sd: float | None
    ci_low: float | None
    ci_high: float | None
    t_statistic: float | None
    p_value: float | None
    p_holm: float | None
    wilcoxon_p: float | None
    sign_positive: int
    sign_negative: int
    sign_p: float
    good_mean_z: float | None
    good_ci_low: float | None
    good_ci_high: float | None
    good_mean_raw: float | None
    bad_mean_z: float | None
    bad_mean_raw: float | None
    flagged: bool = False
    unnatural: bool = False
    reasons: tuple[str, ...] = ()
    messages: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """Return the paradigm's numbers and flags as a JSON-ready dict."""
        return as_dict(self)


@dataclass(frozen=True, slots=True)
class ItemRatingFlag:
    """An item to review: `reasons` are `no_difference` (good not rated above bad) and
    `good_low` (good sentence rated below the naturalness threshold); `messages` in words."""

    item_id: str
    paradigm: str
    phenomenon: str
    difference: float | None
    good_mean_z: float | None
    reasons: tuple[str, ...]
    messages: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        """Return the flag as a JSON-ready dict."""
        return as_dict(self)


@dataclass(frozen=True, slots=True)
class RatingAnalysis:
    """A rating study's analysis: the scale, how each analysed participant was z-scored, items
    and paradigms (sorted), item flags, and, from `analyse_rating_study`, the exclusions."""

    settings: RatingAnalysisSettings
    scale: RatingScale
    participants: tuple[ParticipantScaling, ...]
    items: tuple[ItemRating, ...]
    paradigms: tuple[ParadigmRating, ...]
    item_flags: tuple[ItemRatingFlag, ...]
    exclusion: ExclusionResult | None = None

    @property
    def paradigm_flags(self) -> tuple[ParadigmRating, ...]:
        """Return the paradigms that are flagged (difference not reliable) or unnatural."""
        return tuple(p for p in self.paradigms if p.flagged or p.unnatural)

    @property
    def unscaled_ids(self) -> tuple[str, ...]:
        """Return the participants whose ratings could not be z-scored (left out)."""
        return tuple(p.participant_id for p in self.participants if not p.scaled)

    def to_dict(self) -> dict[str, object]:
        """Return the whole analysis as a JSON-ready dict (nan as None)."""
        exclusion = self.exclusion
        return json_ready(
            {
                "task": self.scale.task,
                "scale": self.scale.to_dict(),
                "settings": self.settings.to_dict(),
                "method": METHOD,
                "flow": exclusion.flow.to_dict() if exclusion else None,
                "flow_by_list": [f.to_dict() for f in exclusion.flow_by_list] if exclusion else [],
                "exclusions": [p.to_dict() for p in exclusion.participants] if exclusion else [],
                "participants": [p.to_dict() for p in self.participants],
                "unscaled": list(self.unscaled_ids),
                "paradigms": [p.to_dict() for p in self.paradigms],
                "items": [i.to_dict() for i in self.items],
                "paradigm_flags": [p.paradigm for p in self.paradigm_flags],
                "item_flags": [f.to_dict() for f in self.item_flags],
            }
        )


METHOD = (
    "Magnitude estimates log-transformed; each participant's experimental and filler ratings "
    "z-scored (practice and catch trials left out); per item, mean z of the good sentence minus "
    "mean z of the bad one (different participants); per paradigm, the mean over items with a t "
    "interval, a one-sided t test over items and Holm's correction across paradigms."
)
