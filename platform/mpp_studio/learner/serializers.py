"""API input and output shapes of learner corpora, triplet runs and triplets."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from mpp_studio.core.api_input import InputSerializer
from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.datasets.serializers import JobOutputSerializer
from mpp_studio.learner.exports import bliss_record
from mpp_studio.learner.models import LearnerCorpus, TripletRun
from mpp_studio.learner.services import CHUNK_SIZE, MAX_CHUNK_SIZE, MAX_TRIES


class LearnerCorpusOutputSerializer(serializers.ModelSerializer):
    # Plain text, not a choice: the datasets' `source_format` has other choices under the same name.
    source_format = serializers.CharField(read_only=True, help_text='"m2" or "parallel".')
    job = JobOutputSerializer(
        read_only=True,
        allow_null=True,
        help_text="The job reading the files: `pair_count` and `read_report` are final once it is "
        "`done`; `failed` means nothing was stored (its `message` says why). Null for a corpus read "
        "before uploads were jobs.",
    )

    class Meta:
        model = LearnerCorpus
        # Any length: the detail serializer's Meta extends it.
        fields: tuple[str, ...] = (
            "id",
            "name",
            "source_format",
            "file_name",
            "metadata_file_name",
            "m2_annotator",
            "pair_count",
            "job",
            "created_at",
        )
        read_only_fields = fields


class LearnerCorpusDetailOutputSerializer(LearnerCorpusOutputSerializer):
    read_report = serializers.JSONField(
        read_only=True, help_text="Every issue the readers reported: file, line, field, severity, message."
    )
    read_settings = serializers.JSONField(read_only=True)

    class Meta(LearnerCorpusOutputSerializer.Meta):
        fields = (*LearnerCorpusOutputSerializer.Meta.fields, "read_settings", "read_report")
        read_only_fields = fields


class TripletRunOutputSerializer(serializers.ModelSerializer):
    job = JobOutputSerializer(read_only=True, allow_null=True)
    dataset: "serializers.PrimaryKeyRelatedField[Dataset]" = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True
    )
    triplets = serializers.IntegerField(source="triplet_total", read_only=True, allow_null=True)

    class Meta:
        model = TripletRun
        # Any length: the detail serializer's Meta extends it.
        fields: tuple[str, ...] = (
            "id",
            "corpus",
            "seed",
            "strict",
            "max_tries",
            "chunk_size",
            "job",
            "dataset",
            "triplets",
            "created_at",
        )
        read_only_fields = fields


class TripletRunDetailOutputSerializer(TripletRunOutputSerializer):
    report = serializers.JSONField(
        read_only=True,
        help_text="The merged yield report (YieldReport.to_dict()); empty while the run is going.",
    )

    class Meta(TripletRunOutputSerializer.Meta):
        fields = (*TripletRunOutputSerializer.Meta.fields, "report")
        read_only_fields = fields


class TripletRunCreateInputSerializer(InputSerializer):
    seed = serializers.IntegerField(default=0)
    strict = serializers.BooleanField(default=True)
    max_tries = serializers.IntegerField(min_value=1, max_value=MAX_TRIES, default=20)
    chunk_size = serializers.IntegerField(min_value=1, max_value=MAX_CHUNK_SIZE, default=CHUNK_SIZE)


class TripletOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    index = serializers.IntegerField(read_only=True)
    error_type = serializers.CharField(source="paradigm.uid", read_only=True)
    record = serializers.SerializerMethodField(help_text="The BLiSS record, as exported.")

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_record(self, pair: Pair) -> dict[str, object]:
        return bliss_record(pair)
