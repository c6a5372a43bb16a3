"""Creating, cancelling and deleting datasets.

Creating one records, for each chosen paradigm, exactly what it will be generated from (the
template's newest version, the phrase texts it uses, a snapshot of its vocabulary), then queues
one generation task per paradigm once the transaction has committed.
"""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from generator import GENERATOR_VERSION
from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.core.stored_uploads import StoredUpload, uploads_discard
from mpp_studio.datasets.engine import phrase_texts_used
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.datasets.problem_text import problem_summary
from mpp_studio.jobs.models import Job
from mpp_studio.jobs.services import job_cancel, job_create
from mpp_studio.lexicon.models import VocabularySnapshot
from mpp_studio.lexicon.services import vocabulary_snapshot_ensure
from mpp_studio.paradigms.models import Template, TemplateVersion
from mpp_studio.paradigms.project_engine import (
    ProjectTemplateCheck,
    project_phrase_texts,
    template_version_check,
)
from vocab.lexicon import Vocabulary as Lexicon

JOB_KIND = "dataset_generate"
MAX_PAIRS_PER_PARADIGM = 100_000
MAX_SEED = 2**63 - 1  # Dataset.seed is a signed 64-bit integer
UNIQUE_CHOICES = ("", *Dataset.Unique.values)


def dataset_create(
    *,
    project: Project,
    name: str,
    templates: Sequence[Template],
    pairs_per_paradigm: int,
    seed: int = 0,
    unique: str = "",
    description: str = "",
    balanced_words_only: bool = False,
    as_many_as_possible: bool = False,
    refuse_short: bool = False,
    created_by: RequestUser | None = None,
) -> Dataset:
    """Create a dataset of the templates' newest versions and queue its generation.

    A paradigm whose template can make fewer different pairs than asked for fails with the
    reason, keeping the others; with `as_many_as_possible` it makes all it can and is done.
    `refuse_short` (the web form, until the author chose) stores nothing when some paradigm is
    known to be short, and names each with what it can make (`ShortParadigms`).

    Each paradigm records the newest template version, the project phrase texts it uses and a
    snapshot of its vocabulary as they are now; generation reads only those. With
    `balanced_words_only`, generation leaves out the items a frequency balance marked
    `balanced` = 0 (a paradigm that then cannot reach its count fails with the reason). The job's total is
    `pairs_per_paradigm` times the number of paradigms. Nothing is stored if anything is wrong.

    The engine checks every template before the transaction that stores the dataset begins: a
    write transaction holds the embedded database's lock, and other saves wait for it.

    Raises:
        ValidationError: keyed by field (`name`, `templates`, `pairs_per_paradigm`, `seed`,
            `unique`); a template that cannot generate is named with its first problem.
        ShortParadigms: with `refuse_short`, the paradigms that cannot make that many pairs.
    """
    errors: dict[str, list[str]] = {}
    name = name.strip()
    if not name:
        errors.setdefault("name", []).append("Give the dataset a name.")
    if not 1 <= pairs_per_paradigm <= MAX_PAIRS_PER_PARADIGM:
        errors.setdefault("pairs_per_paradigm", []).append(
            f"Pairs per paradigm must be from 1 to {MAX_PAIRS_PER_PARADIGM:,}; "
            f"{pairs_per_paradigm:,} was given."
        )
    if not 0 <= seed <= MAX_SEED:
        errors.setdefault("seed", []).append(f"The seed must be a whole number from 0 to {MAX_SEED}.")
    if unique not in UNIQUE_CHOICES:
        errors.setdefault("unique", []).append(
            f"Uniqueness must be blank (each template's own) or one of {', '.join(Dataset.Unique.values)}; "
            f"'{unique}' was given."
        )
    chosen = list(dict.fromkeys(templates))
    if not chosen:
        errors.setdefault("templates", []).append("Choose at least one paradigm.")
    foreign = [t.uid for t in chosen if t.project_id != project.pk]
    if foreign:
        errors.setdefault("templates", []).append(f"Not templates of this project: {', '.join(foreign)}.")
    if errors:
        raise ValidationError(errors)

    phrase_texts = project_phrase_texts(project)
    recorded: list[tuple[Template, TemplateVersion, ProjectTemplateCheck]] = []
    lexicons: dict[int, Lexicon] = {}  # each vocabulary read once for every template using it
    for template in sorted(chosen, key=lambda t: t.uid):
        version = template.latest_version()
        if version is None:
            errors.setdefault("templates", []).append(f"{template.uid}: the template has no saved version.")
            continue
        # Whether it can generate, not how many pairs it can make: generation reports a shortfall.
        check = template_version_check(version, capacity=False, lexicons=lexicons)
        if not check.valid or check.parsed is None or check.vocabulary is None:
            problems = [p.to_dict() for p in check.problems]
            errors.setdefault("templates", []).append(
                f"{template.uid} (version {version.number}) cannot generate pairs: "
                f"{problem_summary(problems, empty='the generator could not be built')}."
            )
            continue
        recorded.append((template, version, check))
    if errors:
        raise ValidationError(errors)
    if refuse_short and not as_many_as_possible:
        short = paradigms_short(recorded, pairs_per_paradigm=pairs_per_paradigm, unique=unique)
        if short:
            raise ShortParadigms(short, pairs_per_paradigm)
    # One snapshot per vocabulary, made before the dataset's transaction (reading every item and
    # writing its copy takes seconds; its own short transaction, reused by content hash).
    snapshots: dict[int, VocabularySnapshot] = {}
    for _template, _version, check in recorded:
        assert check.vocabulary is not None  # checked above
        if check.vocabulary.pk not in snapshots:
            snapshots[check.vocabulary.pk] = vocabulary_snapshot_ensure(vocabulary=check.vocabulary)
    with transaction.atomic(durable=True):
        return _dataset_store(
            project=project,
            name=name,
            description=description,
            recorded=recorded,
            snapshots=snapshots,
            phrase_texts=phrase_texts,
            pairs_per_paradigm=pairs_per_paradigm,
            seed=seed,
            unique=unique,
            balanced_words_only=balanced_words_only,
            as_many_as_possible=as_many_as_possible,
            created_by=created_by,
        )


class ShortParadigms(ValidationError):
    """Paradigms that cannot make the pairs asked for: (uid, how many it can make) each."""

    def __init__(self, short: list[tuple[str, int]], pairs_per_paradigm: int) -> None:
        self.short = short
        named = ", ".join(f"{uid} ({count:,})" for uid, count in short)
        super().__init__(
            {
                "pairs_per_paradigm": [
                    f"{len(short)} paradigm{'s' if len(short) != 1 else ''} can make fewer than "
                    f"{pairs_per_paradigm:,} different pairs: {named}. Choose to make as many as each "
                    "can, ask for fewer pairs, or leave them out."
                ]
            }
        )


def paradigms_short(
    recorded: Sequence[tuple[Template, TemplateVersion, ProjectTemplateCheck]],
    *,
    pairs_per_paradigm: int,
    unique: str,
) -> list[tuple[str, int]]:
    """Return (uid, capacity) of each checked template known to make fewer different pairs (under
    the dataset's uniqueness) than asked for; a capacity only counted in part is not known."""
    short = []
    for template, _version, check in recorded:
        if check.generator is None:
            continue
        capacity = check.generator.capacity(unique or None)
        if capacity.complete and capacity.count < pairs_per_paradigm:
            short.append((template.uid, capacity.count))
    return short


def _dataset_store(
    *,
    project: Project,
    name: str,
    description: str,
    recorded: list[tuple[Template, TemplateVersion, ProjectTemplateCheck]],
    snapshots: dict[int, VocabularySnapshot],
    phrase_texts: dict[str, str],
    pairs_per_paradigm: int,
    seed: int,
    unique: str,
    balanced_words_only: bool,
    as_many_as_possible: bool,
    created_by: RequestUser | None,
) -> Dataset:
    """Store the checked dataset, its paradigms and job; queue the generation on commit."""
    job = job_create(
        project=project,
        kind=JOB_KIND,
        created_by=created_by,
        total=pairs_per_paradigm * len(recorded),
        message=f"Waiting to generate {len(recorded)} paradigm{'s' if len(recorded) != 1 else ''}.",
    )
    dataset = Dataset(
        project=project,
        name=name,
        description=description.strip(),
        seed=seed,
        pairs_per_paradigm=pairs_per_paradigm,
        unique=unique,
        balanced_words_only=balanced_words_only,
        job=job,
        created_by=signed_in_or_none(created_by),
    )
    dataset.full_clean()
    dataset.save()
    paradigms = []
    for _template, version, check in recorded:
        assert check.parsed is not None and check.vocabulary is not None  # checked above
        paradigm = DatasetParadigm(
            dataset=dataset,
            template_version=version,
            vocabulary_snapshot=snapshots[check.vocabulary.pk],
            phrase_texts=phrase_texts_used(check.parsed, phrase_texts),
            uid=check.parsed.uid,
            phenomenon=check.parsed.phenomenon,
            language=check.parsed.language,
            requested=pairs_per_paradigm,
            as_many_as_possible=as_many_as_possible,
            template_hash=check.parsed.content_hash,
            generator_version=GENERATOR_VERSION,
        )
        paradigm.full_clean()
        paradigm.save()
        paradigms.append(paradigm)

    from mpp_studio.datasets.tasks import generate_paradigm as generate_paradigm_task

    for paradigm in paradigms:
        generate_paradigm_task.delay_on_commit(paradigm.pk)
    return dataset


def dataset_cancel(*, dataset: Dataset, user: RequestUser | None = None) -> bool:
    """Cancel the dataset's generation; the pairs stored so far stay. Return whether it was running."""
    if dataset.job_id is None:
        return False
    return job_cancel(job_id=dataset.job_id, user=user)


# Pairs removed per transaction when a dataset goes (see `pairs_delete`).
DELETE_CHUNK = 5_000


def pairs_delete(*, paradigm_ids: Sequence[int]) -> None:
    """Delete the pairs of these paradigms (and what hangs on them) DELETE_CHUNK at a time, each
    chunk its own short transaction: one statement over 500,000 pairs would hold SQLite's write
    lock for many seconds, and every participant's save would wait for it."""
    for paradigm_id in paradigm_ids:
        while True:
            pairs = Pair.objects.filter(paradigm_id=paradigm_id)
            chunk = list(pairs.values_list("pk", flat=True)[:DELETE_CHUNK])
            if not chunk:
                break
            with transaction.atomic():
                Pair.objects.filter(pk__in=chunk).delete()


def dataset_delete(*, dataset: Dataset) -> None:
    """Delete a dataset, its paradigms, pairs and job; a running generation stops at its next chunk.

    The pairs go first, in short transactions (`pairs_delete`), after the job is cancelled; then
    the rest in one. The template versions and vocabulary snapshots it used stay (other datasets
    may use them).
    """
    job_id = dataset.job_id
    if job_id is not None:
        job_cancel(job_id=job_id)
    pairs_delete(paradigm_ids=list(dataset.paradigms.values_list("pk", flat=True)))
    kept_uploads = [StoredUpload.from_dict(record) for record in dataset.import_uploads]
    with transaction.atomic(durable=True):
        dataset.delete()
        if job_id is not None:
            Job.objects.filter(pk=job_id).delete()
    uploads_discard(kept_uploads)  # an import that never finished reading them
