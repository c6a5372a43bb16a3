"""API output shapes of studies (read-only: studies are built and opened on their pages)."""

from rest_framework import serializers

from mpp_studio.datasets.models import Dataset
from mpp_studio.studies.models import Study


class StudyOutputSerializer(serializers.ModelSerializer):
    # Plain text, not choices: other apps have `status` and `task` fields with other choices.
    status = serializers.CharField(read_only=True, help_text='"draft", "open" or "closed".')
    task = serializers.CharField(read_only=True, help_text='"2afc" or "rank3".')
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
    needed = serializers.IntegerField(help_text="Completes the list needs for the target responses per item.")


class StudyDetailOutputSerializer(StudyOutputSerializer):
    design = serializers.JSONField(
        read_only=True, help_text="The engine's StudyDesign.to_dict() (gold included)."
    )
    lists = ListStatusSerializer(many=True, read_only=True, source="list_rows")

    class Meta(StudyOutputSerializer.Meta):
        fields = (*StudyOutputSerializer.Meta.fields, "instructions", "consent_text", "design", "lists")
        read_only_fields = fields
