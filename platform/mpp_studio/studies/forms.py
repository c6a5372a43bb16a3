"""The study settings form: datasets, the design's settings, the participant texts and how the
study runs. The services check everything again (the engine says what a design cannot do)."""

from typing import Any, ClassVar, cast

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from mpp_studio.accounts.models import Project
from mpp_studio.studies.models import Study
from mpp_studio.studies.selectors import dataset_choices
from mpp_studio.studies.services import DESIGN_FIELDS
from mpp_studio.studies.tokens import TOKEN_MAX_AGE

MAX_SEED = 2**62
# The most lists a design may have: the engine deals the items over a list per number, so a
# number in the billions would fill the server's memory before it could say the lists are empty.
MAX_LISTS = 1000
# The longest a participant holds a place in their list: their link lasts no longer (and a
# longer time overflows the server's date arithmetic).
MAX_LEASE_MINUTES = TOKEN_MAX_AGE // 60
# The settings that take a whole number of at least 1 (the others at least 0).
AT_LEAST_ONE = (
    "items_per_paradigm",
    "n_lists",
    "target_responses",
    "replication",
    "lease_ttl_minutes",
    "quota_per_list",
)
MAX_QUOTA = 1_000_000


class DatasetChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        kind = "learner triplets" if obj.origin == "learner" else obj.get_origin_display().lower()
        return f"{obj.name} ({kind})"


class StudyForm(forms.ModelForm):
    datasets = DatasetChoiceField(
        queryset=None,  # set per project in __init__
        widget=forms.CheckboxSelectMultiple,
        label="Datasets",
        help_text="Pairs, or learner triplets (corrected, learner and artificial sentence).",
        error_messages={"required": "Choose at least one dataset."},
    )
    prolific_completion_url = forms.URLField(
        required=False,
        max_length=500,
        assume_scheme="https",
        label="Prolific completion URL (optional)",
        help_text="Where finished participants go, with the completion code added as cc= when "
        "the address has none. Empty with a STUDY_ID: Prolific's own completion address.",
    )

    class Meta:
        model = Study
        fields = (
            "name",
            "datasets",
            "items_per_paradigm",
            "n_lists",
            "target_responses",
            "replication",
            "catch_per_list",
            "practice_items",
            "catch_pairs",
            "filler_pairs",
            "task",
            "confidence",
            "scale_points",
            "scale_labels",
            "reference_sentence",
            "reference_value",
            "seed",
            "language",
            "instructions",
            "consent_text",
            "consent_version",
            "lease_ttl_minutes",
            "quota_per_list",
            "completion_code",
            "prolific_completion_url",
            "prolific_study_id",
        )
        labels: ClassVar[dict[str, str]] = {
            "items_per_paradigm": "Items per paradigm (k)",
            "n_lists": "Lists",
            "target_responses": "Responses per item",
            "replication": "Lists per item",
            "catch_per_list": "Catch trials per list",
            "practice_items": "Practice items",
            "catch_pairs": "Hand-written catch trials (optional)",
            "filler_pairs": "Filler items (optional)",
            "task": "Task",
            "confidence": "Ask for a confidence rating after each choice",
            "scale_points": "Rating scale: points",
            "scale_labels": "Rating scale: labels (optional)",
            "reference_sentence": "Magnitude estimation: reference sentence",
            "reference_value": "Magnitude estimation: the reference sentence's number",
            "language": "Interface language",
            "consent_text": "Consent text",
            "lease_ttl_minutes": "Time to finish (minutes)",
            "quota_per_list": "Participants per list (optional)",
            "prolific_completion_url": "Prolific completion URL (optional)",
            "prolific_study_id": "Prolific STUDY_ID (optional)",
        }
        help_texts: ClassVar[dict[str, str]] = {
            "items_per_paradigm": "Sampled at random (seeded) from each paradigm; all of them when it has "
            "fewer.",
            "n_lists": "The items are spread over this many lists, each paradigm balanced across them; "
            "each participant answers one list.",
            "target_responses": "How many participants should judge each item.",
            "replication": "In how many lists each item appears (1: each list holds different items).",
            "catch_per_list": "Scrambled sentences nobody who reads can prefer; used to exclude inattentive "
            "participants.",
            "practice_items": "Shown first in every list, with feedback; drawn from items the sample left "
            "out; not analysed.",
            "catch_pairs": "One a line: the good sentence, a vertical bar |, the bad sentence. Used "
            "first; the rest are scrambles of the study's own good sentences.",
            "filler_pairs": "One a line: the expected sentence, a vertical bar |, the other. Shown in every "
            "list among the items, so participants do not see only the tested contrast; not analysed.",
            "task": "Triplets: two-sentence choices give one trial per comparison. Ratings show one "
            "sentence at a time, and no participant sees both sentences of a pair (each list holds "
            "half the pairs' good sentences and half their bad ones): they need at least 2 lists.",
            "scale_points": "Rating studies: 2 to 11 points (7 is usual).",
            "scale_labels": "One a line: the two ends of the scale (lowest first), or one per point. "
            "Empty: “Very unnatural” and “Very natural” in the study's language.",
            "reference_sentence": "Magnitude estimation: shown above every sentence, worth the number "
            "below; pick a sentence of middling naturalness.",
            "seed": "Every random choice of the design derives from it.",
            "instructions": "In the study's language. Empty: a default text.",
            "consent_text": "In the study's language. Empty: a default text.",
            "consent_version": "Stored with each participant's consent; change it when you change the text.",
            "lease_ttl_minutes": "A participant who has not finished by then no longer holds a place "
            "in their list (they may still come back and finish).",
            "completion_code": "Shown to participants once their last answer is saved.",
            "quota_per_list": "Nobody new starts a list that has this many participants (completed or "
            "working); once every list has this many completed, the study closes itself. Empty: "
            "responses per item / lists per item.",
            "prolific_study_id": "When set, only participants arriving from this Prolific study start: "
            "anyone without it or with another STUDY_ID is turned away on the first page. Try the "
            "study with its preview link.",
        }
        widgets: ClassVar[dict[str, forms.Widget]] = {
            "instructions": forms.Textarea(attrs={"rows": 5}),
            "consent_text": forms.Textarea(attrs={"rows": 5}),
            "catch_pairs": forms.Textarea(attrs={"rows": 3}),
            "scale_labels": forms.Textarea(attrs={"rows": 2}),
            "reference_sentence": forms.Textarea(attrs={"rows": 2}),
            "filler_pairs": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args: Any, project: Project, frozen: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(DatasetChoiceField, self.fields["datasets"]).queryset = dataset_choices(project=project)
        self.fields["seed"].validators += [MinValueValidator(0), MaxValueValidator(MAX_SEED)]
        self.fields["n_lists"].validators.append(MaxValueValidator(MAX_LISTS))
        self.fields["lease_ttl_minutes"].validators.append(MaxValueValidator(MAX_LEASE_MINUTES))
        self.fields["quota_per_list"].validators.append(MaxValueValidator(MAX_QUOTA))
        self.fields["scale_points"].validators += [MinValueValidator(2), MaxValueValidator(11)]
        self.fields["reference_value"].validators += [MinValueValidator(1), MaxValueValidator(1_000_000)]
        for name in ("scale_points", "reference_value"):
            self.fields[name].required = False
        for name in AT_LEAST_ONE:
            self.fields[name].validators.append(MinValueValidator(1))
            self.fields[name].widget.attrs["min"] = 1
        self.frozen = frozen
        if frozen:
            # An opened study: its design, datasets and consent version no longer change.
            for name in ("datasets", *DESIGN_FIELDS, "consent_version"):
                self.fields[name].disabled = True
                self.fields[name].required = False

    def _or_default(self, name: str) -> int:
        """Return a rating setting, or the model's default when the field was left empty (only
        rating studies use it, so other studies' forms need not fill it)."""
        value = self.cleaned_data.get(name)
        if value is not None:
            return int(value)
        field = Study._meta.get_field(name)
        assert isinstance(field, models.Field)  # a concrete column, not a relation
        return int(field.get_default())

    def clean_scale_points(self) -> int:
        return self._or_default("scale_points")

    def clean_reference_value(self) -> int:
        return self._or_default("reference_value")

    def clean_completion_code(self) -> str:
        code = str(self.cleaned_data.get("completion_code") or "").strip()
        if not code:
            raise forms.ValidationError("A completion code is needed: participants show it to be paid.")
        return code
