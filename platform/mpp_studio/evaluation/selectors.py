"""Reads for model evaluation; every lookup is scoped to a project (another project's rows 404)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet
from django.http import Http404

from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Dataset
from mpp_studio.evaluation.models import (
    LanguageModel,
    ScoreConfig,
    ScoringChunk,
    ScoringRun,
    SentenceScore,
    TokenFrequencyTable,
)

# Keys per `IN (...)` query: well under SQLite's and PostgreSQL's parameter limits.
KEY_BATCH = 2_000
# Above this many keys, the configuration's rows are read in one pass instead.
SCAN_ABOVE = 4_000


def language_model_list(*, project: Project, series: str | None = None) -> QuerySet[LanguageModel]:
    """Return the project's models by series, step and name; `series` keeps one series."""
    models = LanguageModel.objects.filter(project=project)
    if series is not None:
        models = models.filter(series=series)
    return models.order_by("series", "step", "name")


def language_model_get(*, project: Project, model_id: int) -> LanguageModel:
    """Return the project's model with this id.

    Raises:
        Http404: if the project has no such model.
    """
    model = LanguageModel.objects.filter(project=project, pk=model_id).first()
    if model is None:
        raise Http404("No such language model in this project.")
    return model


def series_list(*, project: Project) -> list[str]:
    """Return the names of the project's checkpoint series, sorted."""
    names = LanguageModel.objects.filter(project=project).exclude(series="").values_list("series", flat=True)
    return sorted(set(names))


def token_frequency_tables(*, project: Project) -> QuerySet[TokenFrequencyTable]:
    """Return the project's token frequency tables, newest first, with their jobs and models."""
    return TokenFrequencyTable.objects.filter(project=project).select_related("job", "language_model")


def token_frequency_table_get(*, project: Project, table_id: int) -> TokenFrequencyTable:
    """Return the project's token frequency table with this id.

    Raises:
        Http404: if the project has no such table.
    """
    table = TokenFrequencyTable.objects.filter(project=project, pk=table_id).first()
    if table is None:
        raise Http404("No such token frequencies in this project.")
    return table


def run_list(*, project: Project) -> QuerySet[ScoringRun]:
    """Return the project's scoring runs, newest first, with their job."""
    return (
        ScoringRun.objects.filter(project=project)
        .select_related("job", "created_by")
        .prefetch_related("datasets", "configs__language_model")
        .order_by("-created_at", "-pk")
    )


def run_get(*, project: Project, run_id: int) -> ScoringRun:
    """Return the project's run with this id (job, datasets and configurations loaded).

    Raises:
        Http404: if the project has no such run.
    """
    run = run_list(project=project).filter(pk=run_id).first()
    if run is None:
        raise Http404("No such scoring run in this project.")
    return run


def run_chunk_counts(*, run: ScoringRun) -> dict[str, int]:
    """Return the run's chunk counts by status (pending, done, failed)."""
    counts = dict(run.chunks.values_list("status").annotate(n=Count("pk")).values_list("status", "n"))
    return {status: int(counts.get(status, 0)) for status in ScoringChunk.Status.values}


def config_get(*, project: Project, config_id: int) -> ScoreConfig:
    """Return a configuration of one of the project's models.

    Raises:
        Http404: if no model of the project has this configuration.
    """
    config = (
        ScoreConfig.objects.select_related("language_model")
        .filter(language_model__project=project, pk=config_id)
        .first()
    )
    if config is None:
        raise Http404("No such scorer configuration in this project.")
    return config


def dataset_languages(dataset: Dataset) -> list[str]:
    """Return the languages of the dataset's paradigms, sorted (blank ones left out)."""
    languages = dataset.paradigms.exclude(language="").values_list("language", flat=True).distinct()
    return sorted(set(languages))


def dataset_configs(*, dataset: Dataset) -> QuerySet[ScoreConfig]:
    """Return the configurations some run of the dataset's project scored it with (any
    status: results show how much of the dataset each has stored), by model and method. A
    unigram baseline of another language is left out: a run over datasets of two languages
    made by an earlier version scored each with both word lists."""
    languages = dataset_languages(dataset)
    return (
        ScoreConfig.objects.select_related("language_model")
        .filter(
            Q(runs__datasets=dataset) & Q(runs__project_id=dataset.project_id),
            LanguageModel.scores_languages_q(languages, prefix="language_model__"),
            language_model__project_id=dataset.project_id,
        )
        .distinct()
        .order_by(
            "language_model__series", "language_model__step", "language_model__name", "method", "dtype", "pk"
        )
    )


def scored_datasets(*, project: Project) -> QuerySet[Dataset]:
    """Return the project's datasets that some run scored, newest first."""
    scored = Dataset.objects.filter(project=project, scoring_runs__isnull=False)
    return scored.distinct().order_by("-created_at")


@dataclass(frozen=True, slots=True)
class StoredScore:
    """The numbers of one stored sentence score that accuracies need."""

    lp_sum: float
    lp_mean: float
    n_tokens: int


def stored_scores(config: ScoreConfig, keys: Iterable[str]) -> dict[str, StoredScore]:
    """Return the configuration's stored scores of these sentence keys (missing keys left out)."""
    wanted = list(dict.fromkeys(keys))
    found: dict[str, StoredScore] = {}
    fields = ("sentence_key", "lp_sum", "lp_mean", "n_tokens")
    if len(wanted) > SCAN_ABOVE:
        # One pass over the configuration's rows beats many `IN (...)` queries (building one
        # with 2,000 parameters costs Django more than reading the rows).
        wanted_set = set(wanted)
        rows = SentenceScore.objects.filter(config=config).values_list(*fields)
        for key, lp_sum, lp_mean, n_tokens in rows.iterator(chunk_size=10_000):
            if key in wanted_set:
                found[key] = StoredScore(lp_sum, lp_mean, n_tokens)
        return found
    for start in range(0, len(wanted), KEY_BATCH):
        keys_part = wanted[start : start + KEY_BATCH]
        batch = SentenceScore.objects.filter(config=config, sentence_key__in=keys_part)
        for key, lp_sum, lp_mean, n_tokens in batch.values_list(*fields):
            found[key] = StoredScore(lp_sum, lp_mean, n_tokens)
    return found


def score_data(config: ScoreConfig, keys: Sequence[str]) -> dict[str, dict[str, object]]:
    """Return the stored `SentenceScore.to_dict()` data of these sentence keys (missing left out)."""
    found: dict[str, dict[str, object]] = {}
    wanted = list(dict.fromkeys(keys))
    for start in range(0, len(wanted), KEY_BATCH):
        rows = SentenceScore.objects.filter(config=config, sentence_key__in=wanted[start : start + KEY_BATCH])
        found.update(rows.values_list("sentence_key", "data"))
    return found
