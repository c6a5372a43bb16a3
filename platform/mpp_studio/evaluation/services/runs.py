"""Creating, cancelling and deleting scoring runs (with the scores only they stand for).

A run scores every chosen dataset with every chosen model configuration. Creating one checks
the choices (with a message per field), makes or reuses the scorer configurations, splits each
dataset into chunks (the same split for every configuration), creates the job and, once the
transaction has committed, queues one `evaluation.score_chunk` task per chunk and
configuration, configuration by configuration so that a worker keeps one model loaded.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser
from mpp_studio.core.wording import count_of
from mpp_studio.datasets.models import Dataset
from mpp_studio.evaluation.engine import DEFAULT_TOKEN_BUDGET
from mpp_studio.evaluation.linking_choice import LinkingChoiceError, read_linking
from mpp_studio.evaluation.models import (
    DEFAULT_TIE_TOLERANCE,
    LanguageModel,
    PairScore,
    ScoreConfig,
    ScoringChunk,
    ScoringRun,
    SentenceScore,
)
from mpp_studio.evaluation.selectors import dataset_languages
from mpp_studio.evaluation.services.language_models import language_model_unigram_ensure
from mpp_studio.evaluation.services.sentences import Range, chunk_plan, sentences_per_pair
from mpp_studio.jobs.models import Job
from mpp_studio.jobs.services import job_cancel, job_create
from scoring.errors import ScoringError
from scoring.settings import SCORING_VERSION, ScorerSettings, model_fingerprint

JOB_KIND = "scoring_run"
# Sentences per task: 1,000 short sentences are one to a few forward passes on a GPU (a token
# budget of 8k-64k), so a task lasts seconds once the model is loaded, and a killed worker
# loses at most one chunk.
CHUNK_SIZE = 1_000
MAX_CHUNK_SIZE = 100_000
MAX_TOKEN_BUDGET = 1_048_576
MAX_TIE_TOLERANCE = 10.0
DEVICE = re.compile(r"^(auto|cpu|mps|cuda(:\d+)?)$")


def _add(errors: dict[str, list[str]], field: str, message: str) -> None:
    errors.setdefault(field, []).append(message)


def _fingerprint(model: LanguageModel) -> str:
    try:
        return model_fingerprint(model.source) if model.source else ""
    except (ScoringError, OSError) as exc:
        raise ValidationError({"models": [f"Model '{model.name}': {exc}."]}) from None


def config_ensure(*, model: LanguageModel, method: str, dtype: str, score_eos: bool) -> ScoreConfig:
    """Return the model's configuration for these scorer settings, creating it if needed.

    A local model folder's fingerprint (file names, sizes, times) is part of the key, so
    replaced weights make a new configuration instead of reusing old scores.
    """
    settings = ScorerSettings(
        method=method,  # type: ignore[arg-type]  # a ScoreConfig.Method value, checked by run_create
        model=model.source,
        revision=model.revision or None,
        dtype=dtype,  # type: ignore[arg-type]  # a ScoreConfig.DType value, checked by run_create
        score_eos=score_eos,
        language=model.language,
        fingerprint=_fingerprint(model),
    )
    config, _ = ScoreConfig.objects.get_or_create(
        language_model=model,
        settings_key=settings.key(),
        defaults={
            "method": method,
            "dtype": dtype,
            "score_eos": score_eos,
            "source": model.source,
            "revision": model.revision,
            "language": model.language,
            "fingerprint": settings.fingerprint,
            "scoring_version": SCORING_VERSION,
        },
    )
    return config


def run_create(
    *,
    project: Project,
    name: str,
    language_models: Sequence[LanguageModel],
    datasets: Sequence[Dataset],
    method: str = "",
    dtype: str = ScoreConfig.DType.FLOAT32,
    score_eos: bool = False,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    token_budget: int = DEFAULT_TOKEN_BUDGET,
    device: str = "auto",
    chunk_size: int = CHUNK_SIZE,
    created_by: RequestUser | None = None,
) -> ScoringRun:
    """Create a run scoring each dataset with each model, and queue its chunks.

    `method` blank scores each model with its kind's default method (causal; pll_word_l2r for
    masked models); a method given must fit every model's kind. With method `unigram` and no
    model, the project's unigram baseline of each dataset's language is used (registered on
    first use). Nothing is stored if anything is wrong.

    Raises:
        ValidationError: keyed by field (`name`, `language_models`, `datasets`, `method`,
            `dtype`, `reduction`, `tie_tolerance`, `token_budget`, `device`, `chunk_size`),
            each message naming the model or dataset concerned.
    """
    errors: dict[str, list[str]] = {}
    name = name.strip()
    if not name:
        _add(errors, "name", "Give the run a name.")
    if method and method not in ScoreConfig.Method.values:
        choices = ", ".join(ScoreConfig.Method.values)
        _add(errors, "method", f"Unknown method '{method}': use one of {choices}.")
    if dtype not in ScoreConfig.DType.values:
        _add(errors, "dtype", f"Unknown dtype '{dtype}': use one of {', '.join(ScoreConfig.DType.values)}.")
    try:
        reduction = read_linking(reduction).key
    except LinkingChoiceError as exc:
        _add(errors, "reduction", str(exc))
    if not 0 <= tie_tolerance <= MAX_TIE_TOLERANCE:
        _add(errors, "tie_tolerance", f"The tie tolerance must be from 0 to {MAX_TIE_TOLERANCE:g}.")
    if not 64 <= token_budget <= MAX_TOKEN_BUDGET:
        _add(errors, "token_budget", f"The token budget must be from 64 to {MAX_TOKEN_BUDGET:,} tokens.")
    if not DEVICE.match(device):
        _add(errors, "device", f"Unknown device '{device}': use auto, cpu, cuda, cuda:<n> or mps.")
    if not 2 <= chunk_size <= MAX_CHUNK_SIZE:
        _add(errors, "chunk_size", f"Sentences per task must be from 2 to {MAX_CHUNK_SIZE:,}.")

    chosen_datasets = list(dict.fromkeys(datasets))
    if not chosen_datasets:
        _add(errors, "datasets", "Choose at least one dataset.")
    for dataset in chosen_datasets:
        if dataset.project_id != project.pk:
            _add(errors, "datasets", f"'{dataset.name}' is not a dataset of this project.")
        elif dataset.job is not None and not dataset.job.finished:
            _add(errors, "datasets", f"'{dataset.name}' is still being generated; score it when it is done.")

    models = list(dict.fromkeys(language_models))
    for model in models:
        if model.project_id != project.pk:
            _add(errors, "language_models", f"'{model.name}' is not a model of this project.")
        elif method and method not in model.methods:
            _add(
                errors,
                "method",
                f"'{model.name}' is a {model.get_kind_display()}: it is scored with "
                f"{' or '.join(model.methods)}, not {method}.",
            )
    if not models and method != ScoreConfig.Method.UNIGRAM:
        _add(
            errors,
            "language_models",
            "Choose at least one model (or the method unigram, which needs no model).",
        )
    if errors:
        raise ValidationError(errors)

    # Reading every pair for the plan takes seconds in a big dataset: before the transaction,
    # which holds the embedded database's write lock while it lasts.
    plans = {dataset.pk: chunk_plan(dataset, chunk_size) for dataset in chosen_datasets}
    paradigm_languages = {
        dataset.pk: dict(dataset.paradigms.values_list("pk", "language")) for dataset in chosen_datasets
    }
    empty = [d.name for d in chosen_datasets if not plans[d.pk]]
    if empty:
        raise ValidationError({"datasets": [f"'{name}' has no pairs to score." for name in empty]})

    # A unigram baseline scores only the datasets of its own language.
    languages_of = {dataset.pk: dataset_languages(dataset) for dataset in chosen_datasets}
    unused = [m for m in models if not any(m.scores_languages(languages_of[d.pk]) for d in chosen_datasets)]
    if unused:
        raise ValidationError(
            {
                "language_models": [
                    f"'{m.name}' is a unigram baseline of language '{m.language}', and none of the chosen "
                    "datasets is in that language."
                    for m in unused
                ]
            }
        )

    # Two sentences per pair, three per triplet (a learner dataset's artificial sentence).
    slots = {dataset.pk: sentences_per_pair(dataset) for dataset in chosen_datasets}
    with transaction.atomic(durable=True):
        if not models:  # the unigram baseline of each dataset's language
            languages = sorted({lang for langs in languages_of.values() for lang in langs}) or ["en"]
            models = [language_model_unigram_ensure(project=project, language=lang) for lang in languages]

        configs: list[ScoreConfig] = []
        for model in models:
            model_method = method or model.default_method
            model_dtype = dtype if model.kind != LanguageModel.Kind.UNIGRAM else ScoreConfig.DType.FLOAT32
            config = config_ensure(
                model=model,
                method=model_method,
                dtype=model_dtype,
                score_eos=score_eos and model_method == ScoreConfig.Method.CAUSAL,
            )
            if config not in configs:
                configs.append(config)

        def plan(config: ScoreConfig, dataset: Dataset) -> list[tuple[list[Range], int]]:
            """The dataset's chunks for a configuration: a unigram baseline scores only the
            paradigms of its language, in a dataset of several."""
            model = config.language_model
            if not model.scores_languages(languages_of[dataset.pk]):
                return []
            if model.kind != LanguageModel.Kind.UNIGRAM or len(languages_of[dataset.pk]) < 2:
                return plans[dataset.pk]
            own = [
                pk
                for pk, language in paradigm_languages[dataset.pk].items()
                if model.scores_paradigm(language)
            ]
            return chunk_plan(dataset, chunk_size, own)

        chosen_plans = {(c.pk, d.pk): plan(c, d) for c in configs for d in chosen_datasets}
        total = sum(
            slots[dataset.pk] * count
            for config in configs
            for dataset in chosen_datasets
            for _ranges, count in chosen_plans[(config.pk, dataset.pk)]
        )
        job = job_create(
            project=project,
            kind=JOB_KIND,
            created_by=created_by,
            total=total,
            message=f"Waiting to score {total:,} sentences with {count_of(len(configs), 'configuration')}.",
        )
        run = ScoringRun(
            project=project,
            name=name,
            job=job,
            reduction=reduction,
            tie_tolerance=tie_tolerance,
            settings={"device": device, "token_budget": token_budget, "chunk_size": chunk_size},
            created_by=created_by if created_by is not None and created_by.is_authenticated else None,
        )
        run.full_clean()
        run.save()
        run.datasets.set(chosen_datasets)
        run.configs.set(configs)
        chunks = [
            ScoringChunk(
                run=run,
                config=config,
                dataset=dataset,
                index=index,
                ranges=ranges,
                n_sentences=slots[dataset.pk] * count,
            )
            for config in configs
            for dataset in chosen_datasets
            for index, (ranges, count) in enumerate(chosen_plans[(config.pk, dataset.pk)])
        ]
        ScoringChunk.objects.bulk_create(chunks, batch_size=1_000)

        from mpp_studio.evaluation.tasks import score_chunk as score_chunk_task

        for chunk in chunks:
            score_chunk_task.delay_on_commit(run.pk, chunk.config_id, chunk.dataset_id, chunk.index)
        return run


def run_cancel(*, run: ScoringRun, user: RequestUser | None = None) -> bool:
    """Cancel the run's job; its chunks stop before scoring and the scores stored stay.
    Return whether it was queued or running."""
    if run.job_id is None:
        return False
    return job_cancel(job_id=run.job_id, user=user)


@dataclass(frozen=True, slots=True)
class StoredScores:
    """The stored scores a deletion removes: configurations (with every sentence score they
    hold) and pair scores of configurations that stay."""

    configs: int
    sentence_scores: int
    pair_scores: int

    @property
    def any(self) -> bool:
        """Whether anything would be removed."""
        return bool(self.configs or self.pair_scores)


def _run_scores(run: ScoringRun) -> tuple[QuerySet[ScoreConfig], QuerySet[PairScore]]:
    """The scores only this run stands for: its configurations no other run has, and, of its
    other configurations, the pair scores of its datasets no other run scored with them."""
    links = ScoringRun.configs.through.objects
    used_elsewhere = links.exclude(scoringrun_id=run.pk).values("scoreconfig_id")
    mine = ScoreConfig.objects.filter(pk__in=links.filter(scoringrun_id=run.pk).values("scoreconfig_id"))
    alone = mine.exclude(pk__in=used_elsewhere)
    pair_scores = PairScore.objects.none()
    for config in mine.filter(pk__in=used_elsewhere):
        other_runs = (
            links.filter(scoreconfig_id=config.pk).exclude(scoringrun_id=run.pk).values("scoringrun_id")
        )
        covered = ScoringRun.datasets.through.objects.filter(scoringrun_id__in=other_runs).values(
            "dataset_id"
        )
        datasets = run.datasets.exclude(pk__in=covered)
        pair_scores |= PairScore.objects.filter(config=config, paradigm__dataset__in=datasets)
    return alone, pair_scores


def run_scores_count(*, run: ScoringRun) -> StoredScores:
    """Return what deleting the run with its scores would remove (for the confirmation)."""
    alone, pair_scores = _run_scores(run)
    return StoredScores(
        configs=alone.count(),
        sentence_scores=SentenceScore.objects.filter(config__in=alone).count(),
        pair_scores=pair_scores.count(),
    )


@transaction.atomic(durable=True)
def run_delete(*, run: ScoringRun, delete_scores: bool = False) -> StoredScores:
    """Delete a run, its chunks and its job; return the stored scores deleted with it.

    Without `delete_scores` the scores it stored stay: they belong to the configurations and
    serve every later run and result (its rows leave the leaderboards all the same, which show
    the configurations a run scored a dataset with). With it, the scores only this run stands
    for go too (`_run_scores`): a mistaken run leaves nothing behind.
    """
    removed = run_scores_count(run=run) if delete_scores else StoredScores(0, 0, 0)
    if delete_scores:
        alone, pair_scores = _run_scores(run)
        pair_scores.delete()
        alone.delete()  # with their sentence and pair scores
    job_id = run.job_id
    run.delete()
    if job_id is not None:
        Job.objects.filter(pk=job_id).delete()
    return removed
