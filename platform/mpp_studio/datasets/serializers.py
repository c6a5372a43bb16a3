"""API input and output shapes of datasets, their paradigms and pairs, and jobs."""

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from formats.zorro import ORDERS
from mpp_studio.core.api_input import InputSerializer
from mpp_studio.core.uploads import NamedUploadField
from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.datasets.services import IMPORT_FORMATS, MAX_PAIRS_PER_PARADIGM
from mpp_studio.datasets.services.datasets import MAX_SEED
from mpp_studio.datasets.services.imports import import_size_problem
from mpp_studio.jobs.serializers import JobOutputSerializer
from mpp_studio.lexicon.validation import ONE_LINE_NON_BLANK_PATTERN


class DatasetCreateInputSerializer(InputSerializer):
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
    balanced_words_only = serializers.BooleanField(
        default=False,
        help_text="Leave out vocabulary items marked balanced=0 by a frequency balance (Zorro-style).",
    )
    as_many_as_possible = serializers.BooleanField(
        default=False,
        help_text="A paradigm that cannot make pairs_per_paradigm different pairs makes all it can and "
        "is done (its problems say why no more); otherwise it fails with the reason.",
    )


class TemplateVersionRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    template_id = serializers.IntegerField()
    number = serializers.IntegerField()


class SnapshotRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    content_hash = serializers.CharField()


class ProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    template = serializers.CharField(required=False)
    grammar = serializers.CharField(required=False)
    position = serializers.CharField(required=False)
    line = serializers.IntegerField(required=False, allow_null=True)


class ParadigmOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    uid = serializers.CharField()
    phenomenon = serializers.CharField()
    language = serializers.CharField()
    template_version = TemplateVersionRefSerializer(
        allow_null=True, help_text="null for an imported paradigm."
    )
    template_hash = serializers.CharField()
    vocabulary_snapshot = SnapshotRefSerializer(allow_null=True)
    phrase_texts = serializers.DictField(child=serializers.CharField())
    requested = serializers.IntegerField()
    produced = serializers.IntegerField()
    status = serializers.CharField()
    problems = ProblemSerializer(
        many=True, help_text="Why it failed; for a paradigm done short of `requested`, why it made no more."
    )
    as_many_as_possible = serializers.BooleanField()
    generator_version = serializers.CharField()


class DatasetOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    origin = serializers.CharField(help_text='"generated", or "imported" (read-only: never regenerated).')
    source_format = serializers.CharField(help_text="Imported only: blimp, zhoblimp, zorro or mixed.")
    seed = serializers.IntegerField()
    pairs_per_paradigm = serializers.IntegerField()
    unique = serializers.CharField(help_text='"" means each template\'s own setting.')
    balanced_words_only = serializers.BooleanField(
        help_text="The words a frequency balance dropped (balanced=0) were left out."
    )
    created_at = serializers.DateTimeField()
    created_by = serializers.CharField(source="created_by.username", allow_null=True, default=None)
    paradigm_count = serializers.IntegerField()
    pair_count = serializers.IntegerField()
    job = JobOutputSerializer(allow_null=True)


class ImportFileSerializer(serializers.Serializer):
    file = serializers.CharField()
    format = serializers.CharField(help_text='"" when the format could not be told.')
    pairs = serializers.IntegerField()
    errors = serializers.IntegerField(  # type: ignore[assignment]  # a declared field, not Serializer.errors
        help_text="Items skipped."
    )
    warnings = serializers.IntegerField(help_text="Items kept with a note.")


class ImportIssueSerializer(serializers.Serializer):
    file = serializers.CharField()
    line = serializers.IntegerField(allow_null=True, help_text="1-based; null for the whole file.")
    field = serializers.CharField(allow_blank=True)
    severity = serializers.CharField(help_text='"error": the item was skipped; "warning": kept, with a note.')
    message = serializers.CharField()


class DatasetDetailOutputSerializer(DatasetOutputSerializer):
    paradigms = ParadigmOutputSerializer(many=True, source="paradigm_rows")
    zorro_order = serializers.CharField(help_text="Imported Zorro files only: bad-first or good-first.")
    source_files = ImportFileSerializer(many=True, help_text="Imported only: each file read.")
    import_report = ImportIssueSerializer(many=True, help_text="Imported only: every issue, item by item.")


class DatasetImportInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    files = serializers.ListField(
        child=NamedUploadField(),
        allow_empty=False,
        help_text="BLiMP/ZhoBLiMP .jsonl, Zorro .txt, or .zip files (send the field once per file); "
        "MPP_DATASET_IMPORT_MAX_BYTES in all.",
    )
    source_format = serializers.ChoiceField(choices=list(IMPORT_FORMATS), default="auto")
    zorro_order = serializers.ChoiceField(choices=list(ORDERS), default="bad-first")

    def validate_files(self, files: list[Any]) -> list[Any]:
        problem = import_size_problem([(f.name, f.size or 0) for f in files])
        if problem is not None:
            raise serializers.ValidationError(problem)
        return files


class PairReviewSerializer(InputSerializer):
    decision = serializers.ChoiceField(
        choices=["flagged", "excluded"],
        help_text="flagged: kept, to look at again; excluded: left out of every export, listed by the card.",
    )
    reason = serializers.CharField(
        max_length=500,
        validators=[RegexValidator(ONE_LINE_NON_BLANK_PATTERN, message="Keep it on one line.")],
        help_text="Why (one line).",
    )


class PairReviewOutputSerializer(serializers.Serializer):
    decision = serializers.CharField()
    reason = serializers.CharField()
    updated_at = serializers.DateTimeField()


class PairOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    uid = serializers.CharField(source="paradigm.uid")
    index = serializers.IntegerField()
    sentence_good = serializers.CharField()
    sentence_bad = serializers.CharField()
    record = serializers.JSONField(help_text="The generator's record: critical region and provenance.")
    review = serializers.SerializerMethodField(help_text="A person's decision on the pair (null: none).")

    @extend_schema_field(PairReviewOutputSerializer(allow_null=True))
    def get_review(self, pair: Pair) -> object:
        """The decision from the page's reviews (context `reviews`: pair id -> review, one query)."""
        review = self.context.get("reviews", {}).get(pair.pk)
        return PairReviewOutputSerializer(review).data if review is not None else None
