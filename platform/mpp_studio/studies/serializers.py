"""API input and output shapes of studies: a study's settings (what the settings form takes),
the analysis rules, what publishing and re-validation wrote."""

from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from rest_framework import serializers

from mpp_studio.core.api_input import InputSerializer
from mpp_studio.datasets.models import Dataset
from mpp_studio.studies.analysis_rules import RULE_RANGES
from mpp_studio.studies.forms import StudyForm
from mpp_studio.studies.models import Study
from mpp_studio.studies.services import DESIGN_FIELDS, TEXT_FIELDS
from study.human_flags import PARADIGM_PRESETS

# The largest id a database row can have (64-bit keys): a larger one is a 400, never a query.
MAX_ID = 2**63 - 1
# Every setting the form takes (the service's lists), each once: the output shows them all.
SETTING_FIELDS = tuple(dict.fromkeys((*DESIGN_FIELDS, *TEXT_FIELDS)))


class StudyOutputSerializer(serializers.ModelSerializer):
    # Plain text, not choices: other apps have `status` and `task` fields with other choices.
    status = serializers.CharField(read_only=True, help_text='"draft", "open" or "closed".')
    task = serializers.CharField(read_only=True, help_text='"2afc", "rank3", "rating" or "magnitude".')
    language = serializers.CharField(read_only=True, help_text='"en" or "zh".')
    datasets: "serializers.PrimaryKeyRelatedField[Dataset]" = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True
    )

    class Meta:
        model = Study
        # Any length: the detail serializer's Meta extends it.
        fields: tuple[str, ...] = (
            "id",
            "name",
            "status",
            "datasets",
            "seed",
            "items_per_paradigm",
            "n_lists",
            "target_responses",
            "replication",
            "catch_per_list",
            "practice_items",
            "task",
            "confidence",
            "language",
            "consent_version",
            "lease_ttl_minutes",
            "slug",
            "opened_at",
            "closed_at",
            "created_at",
        )
        read_only_fields = fields


class ListStatusSerializer(serializers.Serializer):
    list_index = serializers.IntegerField(help_text="0-based.")
    active = serializers.IntegerField()
    completed = serializers.IntegerField()
    abandoned = serializers.IntegerField()
    withdrawn = serializers.IntegerField()
    needed = serializers.IntegerField(
        help_text="The list's quota: participants it takes (the study's quota per list, or the target "
        "responses per item over the lists per item); the study closes once every list has that many "
        "completed."
    )


class StudyDetailOutputSerializer(StudyOutputSerializer):
    design = serializers.JSONField(
        read_only=True, help_text="The engine's StudyDesign.to_dict() (gold included)."
    )
    lists = ListStatusSerializer(many=True, read_only=True, source="list_rows")
    paradigm_filter = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="A re-validation study's paradigms (uids); empty for any other study.",
    )
    prolific_completion_url = serializers.CharField(
        read_only=True, help_text="Where finished participants are sent; empty: none set."
    )

    class Meta(StudyOutputSerializer.Meta):
        fields = (
            *StudyOutputSerializer.Meta.fields,
            *(f for f in SETTING_FIELDS if f not in StudyOutputSerializer.Meta.fields),
            "revalidation_of",
            "paradigm_filter",
            "design",
            "lists",
        )
        read_only_fields = fields


class RevalidationOutputSerializer(StudyDetailOutputSerializer):
    missing_paradigms = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="Paradigms asked for of which the chosen datasets have no items.",
    )

    class Meta(StudyDetailOutputSerializer.Meta):
        fields = (*StudyDetailOutputSerializer.Meta.fields, "missing_paradigms")
        read_only_fields = fields


def _setting_kwargs() -> dict[str, dict[str, Any]]:
    """Return each numeric setting's range as the settings form checks it (the form owns those
    limits: the model's, and its own beyond them), as serializer field arguments."""
    form = StudyForm(project=None)  # type: ignore[arg-type]  # no query runs: only validators are read
    extra: dict[str, dict[str, Any]] = {}
    for name in SETTING_FIELDS:
        validators = form.fields[name].validators
        lows = [v.limit_value for v in validators if isinstance(v, MinValueValidator)]
        highs = [v.limit_value for v in validators if isinstance(v, MaxValueValidator)]
        if lows:
            extra.setdefault(name, {})["min_value"] = max(lows)
        if highs:
            extra.setdefault(name, {})["max_value"] = min(highs)
    return extra


class StudyInputSerializer(InputSerializer, serializers.ModelSerializer):
    """A study's settings as the settings form takes them: the datasets and every field of the
    service's DESIGN_FIELDS and TEXT_FIELDS. Creating needs `name` and `datasets`; the others
    have the form's defaults (instructions and consent text: the language's)."""

    datasets = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        allow_empty=False,
        help_text="Ids of the project's datasets that have pairs or triplets.",
    )

    class Meta:
        model = Study
        fields = ("datasets", *SETTING_FIELDS)
        extra_kwargs = _setting_kwargs()


def _rule_number(name: str, help_text: str, *, whole: bool = False) -> serializers.Field:
    """Return the field of a numeric rule: a number in its range (RULE_RANGES), or null (off)."""
    low, high = RULE_RANGES[name]
    limits: dict[str, Any] = {"min_value": low} if high is None else {"min_value": low, "max_value": high}
    if whole:
        return serializers.IntegerField(allow_null=True, required=False, help_text=help_text, **limits)
    return serializers.FloatField(allow_null=True, required=False, help_text=help_text, **limits)


class AnalysisRulesSerializer(InputSerializer):
    """The exclusion and flag rules of a study's analysis (`AnalysisRules`); null turns a
    numeric rule off, and a rule left out of a PUT takes its default."""

    min_catch_accuracy = _rule_number(
        "min_catch_accuracy", "Share of catch trials right, at least (default 1.0)."
    )
    min_median_rt_ms = _rule_number("min_median_rt_ms", "Fastest median response time in ms (default off).")
    max_left_share_deviation = _rule_number(
        "max_left_share_deviation", "Position bias: |left share - 0.5| at most (default off)."
    )
    min_items_answered = _rule_number(
        "min_items_answered", "Fewest experimental items answered (default off).", whole=True
    )
    include_incomplete = serializers.BooleanField(
        required=False, help_text="Analyse participants who did not finish (default false)."
    )
    preset = serializers.ChoiceField(
        choices=list(PARADIGM_PRESETS),
        required=False,
        help_text="The paradigm rule: zhoblimp (micro accuracy) or blimp (items the majority got right).",
    )
    threshold = _rule_number("threshold", "The paradigm rule's threshold (null: the preset's, 0.7 or 0.8).")
    tie = serializers.ChoiceField(
        choices=["half", "fail"], required=False, help_text="A majority-vote tie counts as half or fails."
    )


class PublishedDatasetSerializer(serializers.ModelSerializer):
    validation = serializers.JSONField(
        read_only=True, help_text="The summary the dataset card shows (per paradigm, under the rules)."
    )

    class Meta:
        model = Dataset
        fields = ("id", "name", "validation")
        read_only_fields = fields


class RevalidationInputSerializer(InputSerializer):
    """The paradigms to validate again, and the datasets whose items to take."""

    paradigms = serializers.ListField(
        child=serializers.CharField(max_length=200),
        allow_empty=False,
        help_text="The paradigm uids to validate again (the flagged ones, say).",
    )
    datasets = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        allow_empty=False,
        required=False,
        help_text="Ids of the project's datasets to take the items from (default: the study's own; "
        "choose a regenerated dataset to validate its new pairs).",
    )


class StudyPreviewQuerySerializer(InputSerializer):
    """Which list of the design to preview."""

    list = serializers.IntegerField(
        min_value=1, max_value=1000, required=False, default=1, help_text="The list, from 1 (default 1)."
    )


class StudyPreviewTrialSerializer(serializers.Serializer):
    """One trial as its participant's page gets it, with its number and kind."""

    number = serializers.IntegerField()
    kind = serializers.CharField(help_text="practice, experimental, filler or catch")
    trial_index = serializers.IntegerField()
    task = serializers.CharField(help_text="2afc, rank3, rating or magnitude")
    sentences = serializers.ListField(child=serializers.CharField())
    confidence = serializers.BooleanField()
    scale_points = serializers.IntegerField(required=False, help_text="rating trials")
    reference_sentence = serializers.CharField(required=False, help_text="magnitude trials")
    reference_value = serializers.IntegerField(required=False, help_text="magnitude trials")


class StudyPreviewOutputSerializer(serializers.Serializer):
    """A list's trials in the order a preview participant gets them (nothing is stored)."""

    list = serializers.IntegerField()
    lists = serializers.IntegerField()
    scale_labels = serializers.ListField(child=serializers.CharField())
    trials = StudyPreviewTrialSerializer(many=True)


class ProlificIdsInputSerializer(InputSerializer):
    """The Prolific IDs of the study's submissions, pasted as Prolific gives them."""

    prolific_ids = serializers.CharField(
        max_length=1_000_000,
        help_text="One a line, or separated by commas, semicolons or spaces (at most 5,000); with "
        "`with_submissions`, a line is an ID and its submission ID.",
    )
    with_submissions = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Each line is a Prolific ID and its submission ID (SESSION_ID): a participation that "
        "started with another submission is `other_submission`, never to approve.",
    )


class ReconciledIdSerializer(serializers.Serializer):
    """One pasted ID: its participation's status and the analysis' verdict."""

    prolific_id = serializers.CharField()
    status = serializers.CharField(
        help_text="completed, active, abandoned, withdrawn, not_found or other_submission"
    )
    completed_at = serializers.CharField(help_text="UTC, empty when not completed")
    excluded = serializers.BooleanField()
    reasons = serializers.ListField(child=serializers.CharField())
    to_approve = serializers.BooleanField()


class ProlificOutputSerializer(serializers.Serializer):
    """Each pasted ID's status, and those to approve (completed and kept by the analysis)."""

    ids = ReconciledIdSerializer(many=True)
    to_approve = serializers.ListField(child=serializers.CharField())
