"""Registering the language models a project scores with: one model, a series of training
checkpoints (one model per checkpoint, with its step, for learning curves), and the unigram
frequency baseline (no model files: a word-frequency list of the language)."""

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.evaluation.models import LanguageModel, ScoreConfig, ScoringRun, SentenceScore
from mpp_studio.jobs.models import Job
from scoring.checkpoints import find_checkpoints
from scoring.errors import ScoringError
from scoring.model_kind import (
    ConfigFacts,
    ModelConfigError,
    ScoredKind,
    hub_config,
    kind_problem,
    read_config_file,
)
from scoring.settings import model_fingerprint

# The fields a user may set; `kind` is fixed once configurations exist (see language_model_update).
EDITABLE = ("name", "source", "revision", "kind", "language", "series", "step", "notes")


def _name_taken(model: LanguageModel) -> bool:
    same = LanguageModel.objects.filter(project_id=model.project_id, name=model.name)
    return same.exclude(pk=model.pk).exists()


def _server_path(folder: str) -> Path | None:
    """Return the server path `folder` names, ~ expanded; None when it names none (the home
    folder of a user the server does not have)."""
    try:
        return Path(folder).expanduser()
    except RuntimeError:
        return None


def _is_folder(path: Path | None) -> bool:
    """Whether `path` is a folder on the server; False for a name the system cannot even look
    up (longer than its path or file-name limit), for which `Path.is_dir` raises."""
    try:
        return path is not None and path.is_dir()
    except (OSError, ValueError):
        return False


def _looks_local(source: str) -> bool:
    """Whether a model source names a folder on the server rather than a hub id ("org/name")."""
    return source.startswith(("/", ".", "~")) or _is_folder(_server_path(source))


def folder_problem(folder: str) -> str:
    """Return why the server folder `folder` may not be used as a model source ("" if it may).

    With MODEL_DIRS set (MPP_MODEL_DIRS), only folders inside one of them may be read, so an
    editor cannot point the workers at arbitrary server paths.
    """
    path = _server_path(folder)
    if path is None:
        return f"'{folder}' is not a folder on the server."
    roots = [Path(root).expanduser().resolve() for root in settings.MODEL_DIRS]
    if roots and not any(path.resolve().is_relative_to(root) for root in roots):
        allowed = ", ".join(str(root) for root in roots)
        return f"'{folder}' is outside the model folders this server allows ({allowed})."
    try:
        model_fingerprint(str(path))
    except ScoringError as exc:
        return f"{exc}."
    except OSError as exc:
        return f"'{folder}' cannot be read on the server ({exc.strerror or exc})."
    return ""


def _source_problems(model: LanguageModel) -> tuple[str, str]:
    """Return why the model's source cannot be used (a folder the server may not read, a hub
    model it cannot reach or that does not exist) and why its config does not fit its kind
    (a masked model registered as a causal LM, or the reverse): "" for each that is fine."""
    if _looks_local(model.source):
        problem = folder_problem(model.source)
        if problem:
            return problem, ""
        path = _server_path(model.source)
        assert path is not None  # folder_problem said it names a folder
        try:
            config = read_config_file(path / "config.json")
        except ModelConfigError as exc:
            return f"{exc}.", ""
    else:
        try:
            config = hub_config(model.source, model.revision)
        except ModelConfigError as exc:
            return f"{exc}.", ""
    kind: ScoredKind = "causal" if model.kind == LanguageModel.Kind.CAUSAL else "masked"
    mismatch = kind_problem(ConfigFacts.of(config), kind)
    label = LanguageModel.Kind(model.kind).label
    return "", f"'{model.source}' cannot be scored as a {label}: {mismatch}." if mismatch else ""


def _check(model: LanguageModel, *, check_source: bool = True) -> None:
    """Validate a model's fields with messages per field; raise ValidationError if any fails.

    `check_source` reads the source's config (a folder's, or the hub's): on registration, and
    when the source, revision or kind changes, never for an edit of the name or notes alone
    (which must not fail because the hub is out of reach)."""
    errors: dict[str, list[str]] = {}
    model.name = model.name.strip()
    model.source = model.source.strip()
    model.revision = model.revision.strip()
    model.language = model.language.strip()
    model.series = model.series.strip()
    if not model.name:
        errors.setdefault("name", []).append("Give the model a name.")
    elif _name_taken(model):
        errors.setdefault("name", []).append(f"This project already has a model named '{model.name}'.")
    if model.kind not in LanguageModel.Kind.values:
        errors.setdefault("kind", []).append(
            f"Unknown kind '{model.kind}': use one of {', '.join(LanguageModel.Kind.values)}."
        )
    elif model.kind != LanguageModel.Kind.UNIGRAM and not model.source:
        errors.setdefault("source", []).append(
            "Give a Hugging Face model id (e.g. gpt2) or the path of a local model folder."
        )
    if check_source and model.kind != LanguageModel.Kind.UNIGRAM and model.source and not errors.get("kind"):
        source_problem, kind_mismatch = _source_problems(model)
        if source_problem:
            errors.setdefault("source", []).append(source_problem)
        if kind_mismatch:
            errors.setdefault("kind", []).append(kind_mismatch)
    if not model.language:
        errors.setdefault("language", []).append("Give the model's language code (e.g. en, zh).")
    if model.step is not None and model.step < 0:
        errors.setdefault("step", []).append("A training step is a whole number from 0.")
    if model.step is not None and not model.series:
        errors.setdefault("series", []).append("A checkpoint step needs the name of its series.")
    if errors:
        raise ValidationError(errors)
    model.full_clean()


@transaction.atomic
def language_model_create(
    *,
    project: Project,
    name: str,
    source: str = "",
    kind: str = LanguageModel.Kind.CAUSAL,
    revision: str = "",
    language: str = "en",
    series: str = "",
    step: int | None = None,
    notes: str = "",
    created_by: RequestUser | None = None,
) -> LanguageModel:
    """Register a model in the project; return it.

    Raises:
        ValidationError: keyed by field (a taken name, a missing source, an unknown kind).
    """
    model = LanguageModel(
        project=project,
        name=name,
        source=source,
        kind=kind,
        revision=revision,
        language=language,
        series=series,
        step=step,
        notes=notes,
        created_by=signed_in_or_none(created_by),
    )
    _check(model)
    model.save()
    return model


@transaction.atomic
def language_model_update(*, model: LanguageModel, **changes: object) -> LanguageModel:
    """Change a model's fields (those in EDITABLE); return it.

    Scores already stored stay with the configurations they were made with, which copied the
    source and revision: a changed source or revision is scored anew by the next run.

    Raises:
        ValidationError: keyed by field; `kind` cannot change once the model has been scored.
    """
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise ValidationError({name: ["This field cannot be changed."] for name in unknown})
    if "kind" in changes and changes["kind"] != model.kind and model.score_configs.exists():
        raise ValidationError(
            {"kind": ["The model has been scored already; register a new model to use another kind."]}
        )
    reread = any(
        changes.get(f, getattr(model, f)) != getattr(model, f) for f in ("source", "revision", "kind")
    )
    before = {field: getattr(model, field) for field in changes}
    for field, value in changes.items():
        setattr(model, field, value)
    try:
        _check(model, check_source=reread)
    except ValidationError:
        for field, value in before.items():  # a refused change leaves the model as it was
            setattr(model, field, value)
        raise
    model.save()
    return model


@dataclass(frozen=True, slots=True)
class ModelDeletion:
    """What deleting a model removes: its configurations, their stored sentence scores, and
    the runs that scored nothing else (`emptied_runs`, by name; other runs keep their other
    models)."""

    configs: int
    sentence_scores: int
    emptied_runs: list[str]


def _emptied_runs(model: LanguageModel) -> QuerySet[ScoringRun]:
    """The runs every configuration of which is this model's."""
    runs = ScoringRun.objects.filter(configs__language_model=model).distinct()
    return runs.exclude(configs__in=ScoreConfig.objects.exclude(language_model=model))


def language_model_deletion(*, model: LanguageModel) -> ModelDeletion:
    """Return what deleting the model would remove (for the confirmation)."""
    return ModelDeletion(
        configs=model.score_configs.count(),
        sentence_scores=SentenceScore.objects.filter(config__language_model=model).count(),
        emptied_runs=list(_emptied_runs(model).order_by("-created_at").values_list("name", flat=True)),
    )


@transaction.atomic
def language_model_delete(*, model: LanguageModel) -> ModelDeletion:
    """Delete a model with its configurations and stored scores, and the runs (with their
    jobs) that scored no other model; return what went. A run that scored other models too
    keeps them; its chunks for this model go, so a running one stops scoring it at its next
    chunk."""
    removed = language_model_deletion(model=model)
    emptied = list(_emptied_runs(model).values_list("pk", "job_id"))
    model.delete()
    ScoringRun.objects.filter(pk__in=[pk for pk, _ in emptied]).delete()
    Job.objects.filter(pk__in=[job for _, job in emptied if job is not None]).delete()
    return removed


def unigram_baseline_name(language: str) -> str:
    return f"Unigram baseline ({language})"


@transaction.atomic
def language_model_unigram_ensure(*, project: Project, language: str) -> LanguageModel:
    """Return the project's unigram frequency baseline for `language`, registering it if needed."""
    model = LanguageModel.objects.filter(
        project=project, kind=LanguageModel.Kind.UNIGRAM, language=language, series=""
    ).first()
    if model is not None:
        return model
    name = unigram_baseline_name(language)
    if LanguageModel.objects.filter(project=project, name=name).exists():  # a user took the name
        name = f"{name} (wordfreq)"
    return language_model_create(
        project=project,
        name=name,
        kind=LanguageModel.Kind.UNIGRAM,
        language=language,
        notes="Word frequencies of the language (wordfreq); needs no model files.",
    )


@dataclass(frozen=True, slots=True)
class SeriesRegistration:
    """What registering a checkpoint series did: the models created, and those already there."""

    created: list[LanguageModel]
    existing: list[LanguageModel]


@transaction.atomic(durable=True)
def language_model_series_register(
    *,
    project: Project,
    folder: str,
    series: str,
    kind: str = LanguageModel.Kind.CAUSAL,
    language: str = "en",
    created_by: RequestUser | None = None,
) -> SeriesRegistration:
    """Register one model per training checkpoint found in `folder` (scoring.checkpoints), named
    "<series> step <step>", with the series name and step; checkpoints already registered (same
    series and step) are left as they are.

    Raises:
        ValidationError: keyed by field: `folder` when it is not a folder or holds no
            checkpoint, `series` when blank, `kind` for unigram.
    """
    errors: dict[str, list[str]] = {}
    series = series.strip()
    if not series:
        errors.setdefault("series", []).append("Give the series a name.")
    if kind not in (LanguageModel.Kind.CAUSAL, LanguageModel.Kind.MASKED):
        errors.setdefault("kind", []).append("A checkpoint series is of causal or masked models.")
    path = _server_path(folder.strip())
    if path is None or not folder.strip() or not _is_folder(path):
        errors.setdefault("folder", []).append(f"'{folder}' is not a folder on the server.")
    else:
        roots = [Path(root).expanduser().resolve() for root in settings.MODEL_DIRS]
        if roots and not any(path.resolve().is_relative_to(root) for root in roots):
            allowed = ", ".join(str(root) for root in roots)
            errors.setdefault("folder", []).append(
                f"'{folder}' is outside the model folders this server allows ({allowed})."
            )
    if errors:
        raise ValidationError(errors)
    assert path is not None  # a folder without a path was refused above
    try:
        checkpoints = find_checkpoints(path)
    except ScoringError as exc:  # not a folder, or no checkpoint in it: the engine says what it saw
        raise ValidationError({"folder": [str(exc)]}) from None
    if not checkpoints:
        raise ValidationError({"folder": [f"No checkpoint found in '{folder}'."]})
    created: list[LanguageModel] = []
    existing: list[LanguageModel] = []
    for checkpoint in checkpoints:
        found = LanguageModel.objects.filter(project=project, series=series, step=checkpoint.step).first()
        if found is not None:
            existing.append(found)
            continue
        created.append(
            language_model_create(
                project=project,
                name=f"{series} step {checkpoint.step}",
                source=str(checkpoint.path),
                kind=kind,
                language=language,
                series=series,
                step=checkpoint.step,
                created_by=created_by,
            )
        )
    return SeriesRegistration(created=created, existing=existing)
