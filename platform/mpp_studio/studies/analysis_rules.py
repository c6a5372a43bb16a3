"""The exclusion and flag rules a researcher saves on a validation study, read from a form or
JSON with every bad value named (`rules_from_data`), and the rules a study has (`rules_of`)."""

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

from mpp_studio.studies.models import Study
from study.exclusion import ExclusionRules
from study.human_flags import PARADIGM_PRESETS, FlagSettings, paradigm_preset
from study.validation_study import StudySettings

# Participant-clustered bootstrap resamples for the page (each reload recomputes them).
BOOTSTRAP_RESAMPLES = 200


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
            tie=self.tie,  # type: ignore[arg-type]  # "half" or "fail", as rules_from_data checks
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


# Each numeric rule's range (None: no upper bound), as the engine checks it (study.exclusion,
# study.human_flags, and the threshold below): what the API's schema and input serializer say.
RULE_RANGES: dict[str, tuple[float, float | None]] = {
    "min_catch_accuracy": (0, 1),
    "min_median_rt_ms": (0, None),
    "max_left_share_deviation": (0, 0.5),
    "min_items_answered": (0, None),
    "threshold": (0, 1),
}


# A rule's number as written: digits with an optional sign, point and exponent (not "inf", "nan",
# "1_000" or other digits than 0-9, which Python's float() would also read).
NUMBER = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")


# The words a form or query may give for include_incomplete (a checkbox sends its value or nothing).
INCLUDE_WORDS = {"true": True, "on": True, "1": True, "false": False, "off": False, "0": False, "": False}


def _number(data: dict[str, Any], name: str, label: str, *, whole: bool = False) -> float | int | None:
    """Return the rule's value: its default when the key is absent, None (off) when blank."""
    if name not in data:
        return RULE_DEFAULTS[name]  # type: ignore[return-value]  # a numeric rule's default
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
        min_catch_accuracy=_number(data, "min_catch_accuracy", "Catch-trial accuracy"),
        min_median_rt_ms=_number(data, "min_median_rt_ms", "Fastest median response time"),
        max_left_share_deviation=_number(data, "max_left_share_deviation", "Position bias"),
        min_items_answered=_number(  # type: ignore[arg-type]  # whole=True: an int or None
            data, "min_items_answered", "Fewest items", whole=True
        ),
        include_incomplete=include,
        preset=preset,
        threshold=_number(data, "threshold", "Paradigm threshold"),
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
