"""API input and output shapes of model evaluation: models, configurations, runs and results."""

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from mpp_studio.core.api_input import InputSerializer
from mpp_studio.core.uploads import NamedUploadField
from mpp_studio.datasets.serializers import JobOutputSerializer
from mpp_studio.evaluation.linking_choice import LinkingChoiceError, read_linking
from mpp_studio.evaluation.models import (
    DEFAULT_TIE_TOLERANCE,
    LanguageModel,
    ScoreConfig,
    ScoringRun,
    TokenFrequencyTable,
)
from mpp_studio.evaluation.results import MAX_PAGE_SIZE, OUTCOMES, PAGE_SIZE
from mpp_studio.evaluation.services.runs import (
    CHUNK_SIZE,
    DEFAULT_TOKEN_BUDGET,
    DEVICE,
    MAX_CHUNK_SIZE,
    MAX_TIE_TOLERANCE,
    MAX_TOKEN_BUDGET,
)
from scoring.triplet_metrics import DEFAULT_MIN_SLICE, DEFAULT_TAU

# -- Language models --------------------------------------------------------------------------


LINKING_HELP = (
    "How a pair's sentences are compared: a linking function (sum, mean, bpt, slln, lognorm, penlp), "
    "with parameters after a colon, e.g. slln:alpha=0.7 or penlp:alpha=0.8."
)


# A linking function's key as the schema documents it; its parameters' names and ranges are
# checked by scoring.linking (a 400 naming `reduction`).
LINKING_PATTERN = (
    r"^(sum|mean|bpt|slln|lognorm|penlp|slor|morcela)(:[a-z]+=[-+0-9.eE]+(,[a-z]+=[-+0-9.eE]+)*)?$"
)


@extend_schema_field({"type": "string", "pattern": LINKING_PATTERN, "maxLength": 100, "default": "sum"})
class LinkingField(serializers.CharField):
    """A linking function's key (`linking_choice.read_linking`), given back in its full form
    (`slln` reads as `slln:alpha=0.5`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=100, default="sum", **kwargs)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        try:
            return read_linking(text).key
        except LinkingChoiceError as exc:
            raise serializers.ValidationError(str(exc)) from None


class LanguageModelOutputSerializer(serializers.ModelSerializer):
    methods = serializers.ListField(child=serializers.CharField(), read_only=True)
    default_method = serializers.CharField(read_only=True)

    class Meta:
        model = LanguageModel
        fields = (
            "id",
            "name",
            "source",
            "revision",
            "kind",
            "language",
            "series",
            "step",
            "notes",
            "methods",
            "default_method",
            "created_at",
            "updated_at",
        )
        read_only_fields = fields


class LanguageModelInputSerializer(InputSerializer):
    name = serializers.CharField(max_length=200)
    source = serializers.CharField(  # type: ignore[assignment]  # a declared field, not Field.source
        max_length=1000,
        required=False,
        allow_blank=True,
        default="",
        help_text="A Hugging Face model id (e.g. gpt2) or a local folder on the workers; blank for unigram.",
    )
    revision = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    kind = serializers.ChoiceField(choices=LanguageModel.Kind.choices, default=LanguageModel.Kind.CAUSAL)
    language = serializers.CharField(max_length=35, default="en")
    series = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    step = serializers.IntegerField(min_value=0, required=False, allow_null=True, default=None)
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class SeriesInputSerializer(InputSerializer):
    folder = serializers.CharField(
        max_length=1000, help_text="A folder on the server holding one model folder per checkpoint."
    )
    series = serializers.CharField(max_length=200)
    kind = serializers.ChoiceField(
        choices=[(k, label) for k, label in LanguageModel.Kind.choices if k != LanguageModel.Kind.UNIGRAM],
        default=LanguageModel.Kind.CAUSAL,
        help_text="causal or masked (a checkpoint series is never unigram).",
    )
    language = serializers.CharField(max_length=35, default="en")


class SeriesOutputSerializer(serializers.Serializer):
    created = LanguageModelOutputSerializer(many=True)
    existing = LanguageModelOutputSerializer(many=True, help_text="Checkpoints registered before.")


# -- Configurations and runs ------------------------------------------------------------------


class ScoreConfigOutputSerializer(serializers.ModelSerializer):
    model_name = serializers.CharField(source="language_model.name", read_only=True)
    label = serializers.CharField(  # type: ignore[assignment]  # a declared field, not Field.label
        read_only=True
    )

    class Meta:
        model = ScoreConfig
        fields = (
            "id",
            "language_model",
            "model_name",
            "label",
            "method",
            "dtype",
            "score_eos",
            "source",
            "revision",
            "language",
            "fingerprint",
            "settings_key",
            "scoring_version",
            "describe",
        )
        read_only_fields = fields


class DatasetRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


# The largest id a database row can have (64-bit keys): a larger one is refused with 400, never
# sent to the database (SQLite cannot even bind it: a 500).
MAX_ID = 2**63 - 1


class RunCreateInputSerializer(InputSerializer):
    name = serializers.CharField(max_length=200)
    language_models = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        default=list,
        help_text="Ids of the project's models; may be empty with method unigram (the baseline).",
    )
    datasets = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        allow_empty=False,
        help_text="Ids of the project's datasets.",
    )
    method = serializers.ChoiceField(
        choices=[("", "each model's default"), *ScoreConfig.Method.choices],
        required=False,
        allow_blank=True,
        default="",
    )
    dtype = serializers.ChoiceField(choices=ScoreConfig.DType.choices, default=ScoreConfig.DType.FLOAT32)
    score_eos = serializers.BooleanField(default=False, help_text="Causal models: add the end-of-text token.")
    reduction = LinkingField(help_text=LINKING_HELP + " The default the run's results are shown with.")
    tie_tolerance = serializers.FloatField(
        min_value=0, max_value=MAX_TIE_TOLERANCE, default=DEFAULT_TIE_TOLERANCE
    )
    token_budget = serializers.IntegerField(
        min_value=64, max_value=MAX_TOKEN_BUDGET, default=DEFAULT_TOKEN_BUDGET
    )
    device = serializers.CharField(
        max_length=20,
        default="auto",
        validators=[
            RegexValidator(
                DEVICE, message="Unknown device '%(value)s': use auto, cpu, cuda, cuda:<n> or mps."
            )
        ],
    )
    chunk_size = serializers.IntegerField(
        min_value=2, max_value=MAX_CHUNK_SIZE, default=CHUNK_SIZE, help_text="Sentences per task."
    )


class TokenFrequenciesInputSerializer(serializers.Serializer):
    language_model = serializers.IntegerField(min_value=1, help_text="A causal model of the project.")
    origin = serializers.ChoiceField(
        choices=TokenFrequencyTable.Origin.choices,
        default=TokenFrequencyTable.Origin.TEXT,
        help_text="text: counted with the model's tokenizer; zhoblimp: a JSON of token id to frequency.",
    )
    file = NamedUploadField()


class TokenFrequenciesOutputSerializer(serializers.ModelSerializer):
    job = JobOutputSerializer(read_only=True, allow_null=True)
    language_model = serializers.IntegerField(source="language_model_id", allow_null=True)
    distinct_tokens = serializers.SerializerMethodField()

    class Meta:
        model = TokenFrequencyTable
        fields = (
            "id",
            "language_model",
            "tokenizer_source",
            "tokenizer_revision",
            "tokenizer_key",
            "origin",
            "file_name",
            "n_tokens",
            "distinct_tokens",
            "ready",
            "job",
            "created_at",
        )
        read_only_fields = fields

    def get_distinct_tokens(self, table: TokenFrequencyTable) -> int:
        """Return how many token ids have a frequency."""
        return len(table.frequencies)


class RunDeleteQuerySerializer(InputSerializer):
    delete_scores = serializers.BooleanField(
        default=False,
        help_text="Also delete the scores only this run stands for (kept by default for later runs).",
    )


class RunOutputSerializer(serializers.ModelSerializer):
    job = JobOutputSerializer(read_only=True)
    datasets = DatasetRefSerializer(many=True, read_only=True)
    configs = ScoreConfigOutputSerializer(many=True, read_only=True)

    class Meta:
        model = ScoringRun
        # Any length: the detail serializer's Meta extends it.
        fields: tuple[str, ...] = (
            "id",
            "name",
            "job",
            "datasets",
            "configs",
            "reduction",
            "tie_tolerance",
            "settings",
            "created_at",
        )
        read_only_fields = fields


class RunDetailOutputSerializer(RunOutputSerializer):
    chunks = serializers.DictField(
        child=serializers.IntegerField(), source="chunk_counts", help_text="Chunks by status."
    )

    class Meta(RunOutputSerializer.Meta):
        fields = (*RunOutputSerializer.Meta.fields, "chunks")
        read_only_fields = fields


# -- Results queries --------------------------------------------------------------------------


class ResultsQuerySerializer(InputSerializer):
    reduction = LinkingField(help_text=LINKING_HELP)
    tie_tolerance = serializers.FloatField(
        min_value=0, max_value=MAX_TIE_TOLERANCE, default=DEFAULT_TIE_TOLERANCE
    )


class ParadigmQuerySerializer(ResultsQuerySerializer):
    bootstrap = serializers.IntegerField(
        min_value=0, max_value=2000, default=0, help_text="Bootstrap resamples for the intervals (0: Wilson)."
    )


class ItemsQuerySerializer(ResultsQuerySerializer):
    uid = serializers.CharField(required=False, allow_blank=True, default="")
    outcome = serializers.ChoiceField(choices=list(OUTCOMES), required=False, allow_blank=True, default="")
    search = serializers.CharField(required=False, allow_blank=True, default="")
    page = serializers.IntegerField(min_value=1, default=1)
    page_size = serializers.IntegerField(min_value=1, max_value=MAX_PAGE_SIZE, default=PAGE_SIZE)
    differs_from = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="Another configuration scored on the dataset: only the pairs it decides otherwise.",
    )


# Comma-separated ids, as `_id_list` reads them: parts of digits, blank parts skipped, spaces
# around each part trimmed.
ID_LIST_PATTERN = r"^\s*([0-9]+\s*)?(,\s*([0-9]+\s*)?)*$"


@extend_schema_field({"type": "string", "pattern": ID_LIST_PATTERN})
class IdListField(serializers.CharField):
    """A query field of comma-separated configuration ids; `_id_list` reads (and checks) it."""


def _id_list(value: str) -> list[int]:
    """Return the ids of a comma-separated list; a part that is not an id a row can have is a
    ValidationError (never a database error: SQLite cannot bind an integer beyond 64 bits)."""
    ids = []
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        if not (part.isascii() and part.isdigit()) or int(part) > MAX_ID:
            raise serializers.ValidationError(f"'{part}' is not a configuration id.")
        ids.append(int(part))
    return ids


class CompareQuerySerializer(ResultsQuerySerializer):
    configs = IdListField(help_text="Comma-separated configuration ids (two or more).")

    def validate_configs(self, value: str) -> list[int]:
        ids = list(dict.fromkeys(_id_list(value)))
        if len(ids) < 2:
            raise serializers.ValidationError("Give two or more configuration ids to compare.")
        return ids


class CurveQuerySerializer(ResultsQuerySerializer):
    series = serializers.CharField(max_length=200)
    method = serializers.ChoiceField(
        choices=ScoreConfig.Method.choices, required=False, allow_blank=True, default=""
    )
    download = serializers.ChoiceField(
        choices=["csv"],
        required=False,
        help_text="csv: the curve as a CSV file (a row per checkpoint and phenomenon) instead of JSON.",
    )


class TripletQuerySerializer(InputSerializer):
    tau = serializers.FloatField(
        min_value=0,
        max_value=MAX_TIE_TOLERANCE,
        default=DEFAULT_TAU,
        help_text="HAP-τ margin, bits per token.",
    )
    tie_tolerance = serializers.FloatField(
        min_value=0, max_value=MAX_TIE_TOLERANCE, default=DEFAULT_TIE_TOLERANCE
    )
    min_slice = serializers.IntegerField(
        min_value=1, max_value=1_000_000, default=DEFAULT_MIN_SLICE, help_text="Smallest slice reported."
    )
    bootstrap = serializers.IntegerField(
        min_value=0, max_value=5000, default=1000, help_text="Bootstrap resamples (0: Wilson intervals)."
    )
    seed = serializers.IntegerField(default=0, help_text="Bootstrap seed.")
    configs = IdListField(
        required=False, allow_blank=True, default="", help_text="Configuration ids (blank: all scored)."
    )

    def validate_configs(self, value: str) -> list[int]:
        return list(dict.fromkeys(_id_list(value)))


class ExportQuerySerializer(ResultsQuerySerializer):
    what = serializers.ChoiceField(
        choices=["items", "metrics", "triplets", "triplet_metrics"],
        default="items",
        help_text="triplets, triplet_metrics: learner triplet datasets only (BLiSS).",
    )
    format = serializers.ChoiceField(
        choices=["csv", "jsonl", "json"],
        default="csv",
        help_text="items, triplets: csv or jsonl; metrics, triplet_metrics: csv or json.",
    )
    config = serializers.IntegerField(
        min_value=1, required=False, help_text="items, triplets: the configuration."
    )
    configs = IdListField(
        required=False,
        allow_blank=True,
        default="",
        help_text="metrics: configuration ids (blank: all scored).",
    )

    def validate_configs(self, value: str) -> list[int]:
        return list(dict.fromkeys(_id_list(value)))

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        what, fmt = attrs["what"], attrs["format"]
        if what in ("items", "triplets") and fmt not in ("csv", "jsonl"):
            raise serializers.ValidationError({"format": "Per-item scores export as csv or jsonl."})
        if what in ("metrics", "triplet_metrics") and fmt not in ("csv", "json"):
            raise serializers.ValidationError({"format": "Metrics export as csv or json."})
        if what in ("items", "triplets") and not attrs.get("config"):
            raise serializers.ValidationError(
                {"config": "Give the configuration whose item scores to export."}
            )
        return attrs


# -- Results ----------------------------------------------------------------------------------


class CellSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    correct = serializers.FloatField()
    ties = serializers.IntegerField()
    accuracy = serializers.FloatField(allow_null=True)
    ci_low = serializers.FloatField(allow_null=True)
    ci_high = serializers.FloatField(allow_null=True)
    p_value = serializers.FloatField(allow_null=True)


class LeaderboardRowSerializer(CellSerializer):
    config = ScoreConfigOutputSerializer()
    model_name = serializers.CharField()
    method = serializers.CharField()
    dtype = serializers.CharField()
    n_pairs = serializers.IntegerField()
    complete = serializers.BooleanField()
    macro_accuracy = serializers.FloatField(allow_null=True)
    by_phenomenon = serializers.DictField(child=serializers.FloatField())
    warnings = serializers.ListField(child=serializers.CharField())


class LeaderboardSerializer(serializers.Serializer):
    dataset = DatasetRefSerializer()
    reduction = serializers.CharField()
    tie_tolerance = serializers.FloatField()
    phenomena = serializers.ListField(child=serializers.CharField())
    rows = LeaderboardRowSerializer(many=True)


class ParadigmRowSerializer(CellSerializer):
    uid = serializers.CharField()
    phenomenon = serializers.CharField()
    n_pairs = serializers.IntegerField()


class PairedComparisonSerializer(serializers.Serializer):
    n = serializers.IntegerField(help_text="Pairs both configurations scored.")
    first_accuracy = serializers.FloatField()
    second_accuracy = serializers.FloatField()
    difference = serializers.FloatField(help_text="second_accuracy - first_accuracy.")
    first_better = serializers.IntegerField(help_text="Pairs the first configuration decides better.")
    second_better = serializers.IntegerField(help_text="Pairs the second configuration decides better.")
    p_value = serializers.FloatField(help_text="Exact McNemar test (two-sided).")
    p_holm = serializers.FloatField(
        allow_null=True, help_text="Holm-corrected across the paradigms (null for all pairs)."
    )
    ci_low = serializers.FloatField(
        allow_null=True, help_text="95% paired bootstrap interval of the difference."
    )
    ci_high = serializers.FloatField(allow_null=True)


class ComparisonRowSerializer(serializers.Serializer):
    uid = serializers.CharField()
    phenomenon = serializers.CharField()
    n_pairs = serializers.IntegerField()
    accuracies = serializers.ListField(child=serializers.FloatField(allow_null=True))
    n_common = serializers.IntegerField(help_text="Pairs every configuration has scored.")
    n_differ = serializers.IntegerField(help_text="Of those, pairs whose outcomes differ.")
    paired = PairedComparisonSerializer(
        allow_null=True,
        help_text="Two configurations only: the second against the first on the common pairs.",
    )


class ComparisonSerializer(serializers.Serializer):
    dataset = DatasetRefSerializer()
    configs = ScoreConfigOutputSerializer(many=True)
    reduction = serializers.CharField()
    rows = ComparisonRowSerializer(many=True)
    overall = ComparisonRowSerializer()


class CurvePointSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    model = LanguageModelOutputSerializer()
    config = ScoreConfigOutputSerializer()
    n = serializers.IntegerField()
    accuracy = serializers.FloatField(allow_null=True)
    by_phenomenon = serializers.DictField(child=serializers.FloatField())


class LearningCurveSerializer(serializers.Serializer):
    series = serializers.CharField()
    dataset = DatasetRefSerializer()
    reduction = serializers.CharField()
    phenomena = serializers.ListField(child=serializers.CharField())
    points = CurvePointSerializer(many=True)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    text = serializers.CharField()
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    logprob = serializers.FloatField()
    surprisal = serializers.FloatField(help_text="-logprob, in nats.")


class WordSerializer(serializers.Serializer):
    text = serializers.CharField()
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    logprob = serializers.FloatField()
    surprisal = serializers.FloatField()


class SentenceViewSerializer(serializers.Serializer):
    text = serializers.CharField()
    score = serializers.FloatField(allow_null=True)
    n_tokens = serializers.IntegerField(allow_null=True)
    tokens = TokenSerializer(many=True)
    words = WordSerializer(many=True)


class ItemRowSerializer(serializers.Serializer):
    pair_id = serializers.IntegerField()
    item_id = serializers.CharField()
    uid = serializers.CharField()
    phenomenon = serializers.CharField()
    index = serializers.IntegerField()
    good = SentenceViewSerializer()
    bad = SentenceViewSerializer()
    difference = serializers.FloatField(
        allow_null=True, help_text="good - bad, in the linking function's unit."
    )
    outcome = serializers.ChoiceField(choices=list(OUTCOMES))
    artificial = SentenceViewSerializer(
        allow_null=True, help_text="A learner triplet's artificial sentence (null for a minimal pair)."
    )


class ItemPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(source="total")
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    n_pages = serializers.IntegerField()
    reduction = serializers.CharField()
    results = ItemRowSerializer(many=True, source="items")
