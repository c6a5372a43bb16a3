"""API input and output shapes of datasets, their paradigms and pairs, and jobs."""

from rest_framework import serializers

from mpp_studio.datasets.models import Dataset
from mpp_studio.datasets.services import MAX_PAIRS_PER_PARADIGM
from mpp_studio.datasets.services.datasets import MAX_SEED
from mpp_studio.jobs.models import Job


class JobOutputSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    percent = serializers.IntegerField(read_only=True)
    finished = serializers.BooleanField(read_only=True)

    class Meta:
        model = Job
        fields = (
            "id",
            "kind",
            "status",
            "progress_done",
            "progress_total",
            "percent",
            "finished",
            "message",
            "created_at",
            "started_at",
            "finished_at",
        )
        read_only_fields = fields


class DatasetCreateInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    templates = serializers.ListField(
        child=serializers.CharField(max_length=200),
        allow_empty=False,
        help_text="The uids of the project's templates to generate (their newest versions).",
    )
    pairs_per_paradigm = serializers.IntegerField(min_value=1, max_value=MAX_PAIRS_PER_PARADIGM)
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, default=0)
    unique = serializers.ChoiceField(
        choices=[("", "each template's own setting"), *Dataset.Unique.choices],
        required=False,
        allow_blank=True,
        default="",
    )


class TemplateVersionRefSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    template_id = serializers.IntegerField()
    number = serializers.IntegerField()


class SnapshotRefSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()
    content_hash = serializers.CharField()


class ProblemSerializer(serializers.Serializer):  # type: ignore[type-arg]
    code = serializers.CharField()
    message = serializers.CharField()
    template = serializers.CharField(required=False)
    grammar = serializers.CharField(required=False)
    position = serializers.CharField(required=False)
    line = serializers.IntegerField(required=False, allow_null=True)


class ParadigmOutputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    uid = serializers.CharField()
    phenomenon = serializers.CharField()
    language = serializers.CharField()
    template_version = TemplateVersionRefSerializer()
    template_hash = serializers.CharField()
    vocabulary_snapshot = SnapshotRefSerializer(allow_null=True)
    phrase_texts = serializers.DictField(child=serializers.CharField())
    requested = serializers.IntegerField()
    produced = serializers.IntegerField()
    status = serializers.CharField()
    problems = ProblemSerializer(many=True)
    generator_version = serializers.CharField()


class DatasetOutputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    seed = serializers.IntegerField()
    pairs_per_paradigm = serializers.IntegerField()
    unique = serializers.CharField(help_text='"" means each template\'s own setting.')
    created_at = serializers.DateTimeField()
    created_by = serializers.CharField(source="created_by.username", allow_null=True, default=None)
    paradigm_count = serializers.IntegerField()
    pair_count = serializers.IntegerField()
    job = JobOutputSerializer(allow_null=True)


class DatasetDetailOutputSerializer(DatasetOutputSerializer):
    paradigms = ParadigmOutputSerializer(many=True, source="paradigm_rows")


class PairOutputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    uid = serializers.CharField(source="paradigm.uid")
    index = serializers.IntegerField()
    sentence_good = serializers.CharField()
    sentence_bad = serializers.CharField()
    record = serializers.JSONField(help_text="The generator's record: critical region and provenance.")
