"""What changes studies, participations and responses.

Researcher side: `study_create` / `study_update` build the design with the study engine
(`study`) from the chosen datasets, `study_open` / `study_close` change its status
(the design is frozen once it has opened).

Participant side: `participation_start` assigns a list on the server (the least-filled one,
counting completed participations and live leases, in a transaction that serialises starts of
one study), `response_save` stores an answer idempotently, `participation_withdraw` deletes a
participant's answers. The signed participant token is made and read in `tokens.py`.
"""

import dataclasses
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeGuard
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from mpp_studio.accounts.models import Project
from mpp_studio.core.database_outage import is_database_busy
from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.datasets.selectors import is_triplet_dataset
from mpp_studio.studies.i18n import (
    DEFAULT_CONSENT,
    DEFAULT_INSTRUCTIONS,
    DEFAULT_MAGNITUDE_INSTRUCTIONS,
    DEFAULT_RATING_INSTRUCTIONS,
    ui_strings,
)
from mpp_studio.studies.models import Participation, Response, Study
from study.assignment import Lease, ListsFull, assign_list, list_fills, open_list
from study.design import DesignSettings, StudyDesign, build_design, practice_items
from study.errors import StudyError
from study.items import StudyItem, item_from_pair_record, item_from_triplet_record
from study.order import ParticipantSchedule, Trial, build_schedule
from study.rating_scale import rating_agrees, validate_rating

CONFIDENCE_LEVELS = (1, 2, 3)
MAX_RT_MS = 24 * 60 * 60 * 1000  # longer than a day is no response time
PID_SALT = "mpp_studio.studies.prolific_pid"
SESSION_SALT = "mpp_studio.studies.prolific_session"  # migration 0004 hashes with the same salt
SEEN_EVERY = timedelta(minutes=1)  # how often reads refresh a participation's last_seen_at
LOCK_ATTEMPTS = 6  # tries of a write SQLite refused as locked (waits 0.05 s, 0.1 s, ... between)
# The record keys a study item is made from (the last pair key: the good sentence's fillers).
PAIR_KEYS = ("UID", "phenomenon", "provenance__fillers__good")
TRIPLET_KEYS = ("UID", "error_type", "corrected", "learner_error", "artificial_error")
# The fields a draft's settings form may change; the design is rebuilt from them.
DESIGN_FIELDS = (
    "seed",
    "items_per_paradigm",
    "n_lists",
    "target_responses",
    "replication",
    "catch_per_list",
    "practice_items",
    "catch_pairs",
    "filler_pairs",
    "task",
    "confidence",
    "scale_points",
    "scale_labels",
    "reference_sentence",
    "reference_value",
)
RATED_TASKS = ("rating", "magnitude")  # Study.Task values that rate one sentence at a time
TEXT_FIELDS = (
    "name",
    "language",
    "instructions",
    "consent_text",
    "consent_version",
    "lease_ttl_minutes",
    "completion_code",
    "prolific_completion_url",
    "prolific_study_id",
    "quota_per_list",
)


class ParticipantProblem(Exception):
    """Something a participant cannot do, said in words: `code` picks the interface string
    (i18n.UI) the page shows, `status` the HTTP status."""

    def __init__(self, code: str, status: int = 400, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code = code
        self.status = status
        self.detail = detail


# -- Researcher side -----------------------------------------------------------------------


def dataset_items(datasets: Iterable[Dataset]) -> list[StudyItem]:
    """Return a StudyItem for every pair (or triplet) of the datasets, its id the Pair's pk.

    Pairs take their sentences from the Pair row and their paradigm from the dataset
    paradigm's uid when the record has none (imported datasets); triplets are read with
    `item_from_triplet_record`. A record the engine refuses is a ValidationError naming the
    dataset, paradigm and pair.
    """
    items: list[StudyItem] = []
    for dataset in datasets:
        triplets = is_triplet_dataset(dataset)
        # Only the record keys an item needs, not whole records (regions, provenance).
        keys = TRIPLET_KEYS if triplets else PAIR_KEYS
        rows = (
            Pair.objects.filter(paradigm__dataset=dataset)
            .order_by("paradigm__uid", "index")
            .values_list(
                "pk",
                "index",
                "sentence_good",
                "sentence_bad",
                "paradigm__uid",
                "paradigm__phenomenon",
                *(f"record__{key}" for key in keys),
            )
        )
        for pk, index, good, bad, uid, phenomenon, *values in rows.iterator(chunk_size=2000):
            record = {key.split("__")[0]: value for key, value in zip(keys, values, strict=True)}
            try:
                if triplets:
                    item = item_from_triplet_record(record)
                else:
                    fillers = {"good": values[-1] if isinstance(values[-1], dict) else {}}
                    record.update(sentence_good=good, sentence_bad=bad, item_id=str(pk))
                    record["provenance"] = {"fillers": fillers}
                    item = item_from_pair_record(record)
                item = dataclasses.replace(
                    item,
                    item_id=str(pk),
                    paradigm=item.paradigm or uid,
                    phenomenon=item.phenomenon or phenomenon,
                )
            except StudyError as error:
                raise ValidationError(
                    f"Dataset “{dataset.name}”, paradigm {uid}, pair {index}: {error}"
                ) from None
            items.append(item)
    return items


def design_settings_of(study: Study) -> DesignSettings:
    """Return the engine's DesignSettings of the study's fields (a StudyError if invalid)."""
    rated = study.task in RATED_TASKS
    return DesignSettings(
        seed=int(study.seed),
        items_per_paradigm=int(study.items_per_paradigm),
        n_lists=int(study.n_lists),
        target_responses=int(study.target_responses),
        replication=int(study.replication),
        catch_per_list=int(study.catch_per_list),
        task=study.task if rated else "2afc",  # type: ignore[arg-type]  # one of RATED_TASKS
        confidence=bool(study.confidence),
        triplet_task="rank3" if study.task == Study.Task.RANK3 else "pairwise",
        scale_points=int(study.scale_points),
        reference_sentence=study.reference_sentence.strip() if study.task == Study.Task.MAGNITUDE else "",
        reference_value=int(study.reference_value),
    )


def scale_labels_of(study: Study) -> list[str]:
    """Return the labels of a rating study's scale: the researcher's (one a line: the two ends,
    or one per point) or the study language's two ends. A ValidationError on `scale_labels`
    when the count fits neither."""
    written = [line.strip() for line in study.scale_labels.splitlines() if line.strip()]
    if not written:
        strings = ui_strings(study.language)
        return [strings["scale_low"], strings["scale_high"]]
    points = int(study.scale_points)
    if len(written) not in (2, points):
        raise ValidationError(
            {
                "scale_labels": f"Write 2 labels (the two ends of the scale) or {points} (one per point), "
                f"one a line; there are {len(written)}."
            }
        )
    return written


def parse_catch_pairs(text: str, field: str = "catch_pairs") -> list[tuple[str, str]]:
    """Return the hand-written pairs of a settings field (catch trials or fillers): one
    "good | bad" pair a line (a tab also separates them; empty lines are skipped). A line without
    two sentences is a ValidationError naming the field and its line number."""
    pairs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split("|") if "|" in line else line.split("\t")
        if len(parts) != 2 or not all(p.strip() for p in parts):
            raise ValidationError({field: f"Line {number}: write the good sentence, then | and the bad one."})
        pairs.append((parts[0].strip(), parts[1].strip()))
    return pairs


FILLER_PARADIGM = "filler"  # the paradigm label of the researcher's filler items


def filler_items(text: str) -> list[StudyItem]:
    """Return the filler items of the settings field ("good | bad" a line): shown in every list,
    never analysed for agreement (an optional exclusion rule may use them)."""
    return [
        StudyItem(f"filler-{n}", FILLER_PARADIGM, FILLER_PARADIGM, "pair", (good, bad))
        for n, (good, bad) in enumerate(parse_catch_pairs(text, "filler_pairs"), start=1)
    ]


def study_build_design(study: Study, datasets: Sequence[Dataset]) -> StudyDesign:
    """Return the design of the study's settings over `datasets`, and store it (with its
    settings) on the study without saving. A ValidationError says, by field where it can,
    what the engine could not do."""
    if not datasets:
        raise ValidationError({"datasets": "Choose at least one dataset."})
    triplet_sets = [d for d in datasets if is_triplet_dataset(d)]
    if study.task == Study.Task.RANK3 and len(triplet_sets) != len(datasets):
        raise ValidationError(
            {"task": "Ranking three sentences needs learner triplet datasets only; pairs have two sentences."}
        )
    if study.task in RATED_TASKS and triplet_sets:
        raise ValidationError(
            {
                "task": "Rating one sentence at a time takes pair datasets only; "
                "choose pairs, or a two-sentence task."
            }
        )
    if study.task in RATED_TASKS:
        scale_labels_of(study)
    if study.task == Study.Task.MAGNITUDE and not study.reference_sentence.strip():
        raise ValidationError(
            {"reference_sentence": "Magnitude estimation needs a reference sentence to compare with."}
        )
    items = dataset_items(datasets)
    if study.paradigm_filter:  # a re-validation study keeps to the paradigms it was made for
        items = [i for i in items if i.paradigm in set(study.paradigm_filter)]
    return study_design_store(study, items)


def study_design_store(study: Study, items: Sequence[StudyItem]) -> StudyDesign:
    """Return the design of the study's settings over `items` (its practice items drawn first
    from those the sample leaves out), and store it with its settings on the study without
    saving. A ValidationError says, by field where it can, what the engine could not do."""
    try:
        settings = design_settings_of(study)
    except StudyError as error:
        raise ValidationError(str(error)) from None
    try:
        practice = practice_items(items, settings, int(study.practice_items))
    except StudyError as error:
        raise ValidationError({"practice_items": str(error)}) from None
    chosen = {p.item_id for p in practice}
    try:
        design = build_design(
            [i for i in items if i.item_id not in chosen],
            settings,
            practice=practice,
            fillers=filler_items(study.filler_pairs),
            catch_pairs=parse_catch_pairs(study.catch_pairs),
        )
    except StudyError as error:
        raise ValidationError(str(error)) from None
    study.design_settings = settings.to_dict()
    study.design = design.to_dict()
    return design


def _fill_texts(study: Study) -> None:
    language = study.language if study.language in DEFAULT_INSTRUCTIONS else "en"
    if not study.instructions.strip():
        defaults = {
            Study.Task.RATING: DEFAULT_RATING_INSTRUCTIONS,
            Study.Task.MAGNITUDE: DEFAULT_MAGNITUDE_INSTRUCTIONS,
        }.get(study.task, DEFAULT_INSTRUCTIONS)  # type: ignore[call-overload]  # a Task value
        study.instructions = defaults[language]
    if not study.consent_text.strip():
        study.consent_text = DEFAULT_CONSENT[language]


def study_create(
    *, project: Project, datasets: Sequence[Dataset], created_by: User | None = None, **fields: Any
) -> Study:
    """Return a new draft study of the project with its design built from `datasets` (which
    must belong to the project). Empty instructions and consent get the language's defaults.
    A ValidationError leaves nothing behind."""
    foreign = [d.name for d in datasets if d.project_id != project.pk]
    if foreign:
        raise ValidationError({"datasets": f"Not datasets of this project: {', '.join(foreign)}."})
    allowed = set(DESIGN_FIELDS) | set(TEXT_FIELDS)
    study = Study(project=project, created_by=created_by, **{k: v for k, v in fields.items() if k in allowed})
    _fill_texts(study)
    study_build_design(study, datasets)
    with transaction.atomic():
        study.save()
        study.datasets.set(datasets)
    return study


def study_update(*, study: Study, datasets: Sequence[Dataset] | None = None, **fields: Any) -> Study:
    """Change a study's settings and return it. While it is a draft every setting may change and
    the design is rebuilt; once it has opened, the design, datasets and consent version (which
    participants agreed to) are frozen and only texts that do not change the design may."""
    if study.is_draft:
        for key, value in fields.items():
            if key in DESIGN_FIELDS or key in TEXT_FIELDS:
                setattr(study, key, value)
        chosen = list(datasets) if datasets is not None else list(study.datasets.all())
        foreign = [d.name for d in chosen if d.project_id != study.project_id]
        if foreign:
            raise ValidationError({"datasets": f"Not datasets of this project: {', '.join(foreign)}."})
        _fill_texts(study)
        study_build_design(study, chosen)
        with transaction.atomic():
            study.save()
            study.datasets.set(chosen)
        return study
    frozen = [k for k in fields if k in DESIGN_FIELDS or k == "consent_version"]
    changed = [k for k in frozen if getattr(study, k) != fields[k]]
    if changed or datasets is not None:
        raise ValidationError(
            "This study has opened: its design, datasets and consent version are frozen. "
            "Make a new study to change them."
        )
    for key, value in fields.items():
        if key in TEXT_FIELDS:
            setattr(study, key, value)
    study.save()
    return study


def study_design(study: Study) -> StudyDesign:
    """Return the study's stored StudyDesign (a ValidationError when none was built)."""
    if not study.design:
        raise ValidationError("This study has no design yet: save its settings first.")
    try:
        return StudyDesign.from_dict(study.design)
    except StudyError as error:
        raise ValidationError(str(error)) from None


PROLIFIC_COMPLETE = "https://app.prolific.com/submissions/complete"


def completion_url(study: Study) -> str:
    """Return where a participant who completed goes: the study's completion URL with its
    completion code as `cc` (added when the URL has none), or Prolific's completion URL with the
    code for a study run on Prolific (it has a STUDY_ID); "" shows the code on our page."""
    base = study.prolific_completion_url.strip()
    if not base and not study.prolific_study_id:
        return ""
    parts = urlsplit(base or PROLIFIC_COMPLETE)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "cc" or v]
    if not any(k == "cc" for k, _ in query):
        query.append(("cc", study.completion_code))
    return urlunsplit(parts._replace(query=urlencode(query)))


def study_open(*, study: Study) -> Study:
    """Open the study to participants (from draft or closed) and return it; its design is
    frozen from now on."""
    study_design(study)
    if study.is_open:
        return study
    study.status = Study.Status.OPEN
    if study.opened_at is None:
        study.opened_at = timezone.now()
    study.closed_at = None
    study.save(update_fields=["status", "opened_at", "closed_at", "updated_at"])
    return study


def study_close(*, study: Study) -> Study:
    """Close the study to new participants and return it (those working may finish)."""
    if study.status != Study.Status.OPEN:
        raise ValidationError("Only an open study can be closed.")
    study.status = Study.Status.CLOSED
    study.closed_at = timezone.now()
    study.save(update_fields=["status", "closed_at", "updated_at"])
    return study


# -- Participant side ----------------------------------------------------------------------


def pid_hash(pid: str) -> str:
    """Return the HMAC-SHA256 of a Prolific PID with the server's secret (64 hex characters):
    the same PID gives the same hash in every study, so it can also exclude people across
    studies without storing the PID."""
    return salted_hmac(PID_SALT, pid.strip(), algorithm="sha256").hexdigest()


def session_hash(session_id: str) -> str:
    """Return the HMAC-SHA256 of a Prolific SESSION_ID ("" without one): the proof a PID
    needs to resume its participation from a browser that does not hold its token."""
    session_id = session_id.strip()[:100]
    if not session_id:
        return ""
    return salted_hmac(SESSION_SALT, session_id, algorithm="sha256").hexdigest()


def same_session(participation: Participation, session_id: str) -> bool:
    """Return True when `session_id` is the SESSION_ID the participation started with (never
    when it started without one: a Prolific ID alone is not a secret and proves nothing)."""
    return bool(participation.session_hash) and session_hash(session_id) == participation.session_hash


def lease_ttl(study: Study) -> timedelta:
    """Return how long a started participation holds its list slot."""
    return timedelta(minutes=max(1, int(study.lease_ttl_minutes)))


def mark_abandoned(*, study: Study, now: datetime | None = None) -> int:
    """Mark the study's active participations whose lease has expired as abandoned; return how
    many. (Assignment already ignores them; this makes the status panel say so.)"""
    now = now or timezone.now()
    return Participation.objects.filter(
        study=study, status=Participation.Status.ACTIVE, lease_started_at__lt=now - lease_ttl(study)
    ).update(status=Participation.Status.ABANDONED)


def _leases(study: Study) -> list[Lease]:
    rows = Participation.objects.filter(study=study).values_list(
        "token_id", "list_index", "lease_started_at", "completed_at", "status"
    )
    return [
        Lease(token, index, started, completed, released=status == Participation.Status.WITHDRAWN)
        for token, index, started, completed, status in rows
    ]


def _resume(participation: Participation, session_id: str, now: datetime) -> Participation:
    if not same_session(participation, session_id):
        # Anyone may know a Prolific ID; only its own Prolific session (or the browser holding
        # its token, see participant_views) may take the participation up again.
        raise ParticipantProblem("started_elsewhere", 403)
    if participation.status == Participation.Status.COMPLETED:
        raise ParticipantProblem("already_done", 200)
    if participation.status == Participation.Status.WITHDRAWN:
        raise ParticipantProblem("withdrawn_text", 403)
    # A return renews the lease: the participant keeps their list and their answers.
    participation.status = Participation.Status.ACTIVE
    participation.lease_started_at = now
    participation.last_seen_at = now
    participation.save(update_fields=["status", "lease_started_at", "last_seen_at"])
    return participation


def prolific_study_id_problem(study: Study, study_id: str) -> ParticipantProblem | None:
    """Return the problem with the STUDY_ID a participant arrived with (None when fine): a study
    with a Prolific STUDY_ID takes only participants who come from that Prolific study
    ("prolific_only" without one, "wrong_study_id" with another). Checked on landing, before
    anyone reads the consent, and again when they start."""
    if not study.prolific_study_id:
        return None
    given = study_id.strip()[:100]
    if not given:
        return ParticipantProblem("prolific_only", 403)
    if given != study.prolific_study_id:
        return ParticipantProblem("wrong_study_id", 403)
    return None


def list_quota(study: Study, design: StudyDesign) -> int:
    """Return how many participants each list takes: the study's own quota when set, else the
    design's participants per list (target responses / replication)."""
    return int(study.quota_per_list or design.participants_per_list())


def _close_full(study: Study, now: datetime) -> None:
    """Close a study whose every list has reached its quota of completed participations."""
    Study.objects.filter(pk=study.pk, status=Study.Status.OPEN).update(
        status=Study.Status.CLOSED, closed_at=now, updated_at=now
    )
    study.status, study.closed_at = Study.Status.CLOSED, now


def close_when_full(*, study: Study, now: datetime | None = None) -> bool:
    """Close the study when every list has its quota of completed participations (auto-close);
    return True when it closed it."""
    now = now or timezone.now()
    if not study.is_open or not study.design:
        return False
    design = study_design(study)
    quota = list_quota(study, design)
    fills = list_fills(len(design.lists), _leases(study), now, lease_ttl(study))
    if all(fill.completed >= quota for fill in fills):
        _close_full(study, now)
        return True
    return False


def places_problem(*, study: Study, now: datetime | None = None) -> ParticipantProblem | None:
    """Return why nobody new can start the open study now ("full" when every list has its quota
    of completed participations, "full_for_now" when participants still working hold the last
    places), or None when there is a place: checked on landing, so nobody reads the consent of
    a study that has no place for them. Reads only; starting re-checks inside its lock."""
    if not study.design:
        return None
    now = now or timezone.now()
    design = study_design(study)
    try:
        fills = list_fills(len(design.lists), _leases(study), now, lease_ttl(study))
        open_list(fills, list_quota(study, design))
    except ListsFull as full:
        return ParticipantProblem("full_for_now" if full.for_now else "full", 403)
    return None


def participation_of_pid(*, study: Study, prolific_pid: str) -> Participation | None:
    """Return the study's participation of this Prolific PID (None without a PID or when it
    has none)."""
    pid = prolific_pid.strip()[:100]
    if not pid:
        return None
    return Participation.objects.filter(study=study, pid_hash=pid_hash(pid)).first()


def participation_start(
    *,
    study: Study,
    prolific_pid: str = "",
    study_id: str = "",
    session_id: str = "",
    consent_version: str,
    now: datetime | None = None,
) -> Participation:
    """Return the participation of a participant who has just consented: their own earlier one
    when their PROLIFIC_PID has one and they come from the same Prolific SESSION_ID (resumed,
    its lease renewed), else a new one on the least-filled list under its quota (completed +
    live leases) with its schedule built.

    Starts of one study are serialised (the study row is written first inside the transaction,
    which locks it in PostgreSQL and takes SQLite's write lock), so concurrent starts see each
    other's leases and lists stay balanced.

    Raises:
        ParticipantProblem: the study is a draft, or closed to new participants, or full
            (every list at its quota: "full"; places held by people still working:
            "full_for_now"), STUDY_ID is missing or differs from the configured one, the
            consent version is not the current one, the PID started in another session
            ("started_elsewhere"), or it completed or withdrew.
    """
    now = now or timezone.now()
    if study.is_draft:
        raise ParticipantProblem("not_open", 403)
    study_id_problem = prolific_study_id_problem(study, study_id)
    if study_id_problem is not None:
        raise study_id_problem
    pid = prolific_pid.strip()[:100]
    earlier = participation_of_pid(study=study, prolific_pid=pid)
    # A returning PID resumes under the consent it gave; a new one must consent to the current text.
    if consent_version != (earlier.consent_version if earlier else study.consent_version):
        raise ParticipantProblem("consent_required", 400)
    design = study_design(study)
    hashed = pid_hash(pid) if pid else None
    for attempt in range(LOCK_ATTEMPTS):
        try:
            return _start_locked(study, design, hashed, study_id, session_id, consent_version, now)
        except ParticipantProblem as problem:
            if problem.code == "full":  # every list has its completes: the study closes itself
                close_when_full(study=study, now=now)
            raise
        except OperationalError as error:
            # SQLite answers "database is locked" when a writer waited longer than its timeout
            # (many starts at once); wait a little and try again. Other databases wait on the lock.
            if not is_database_busy(error) or attempt == LOCK_ATTEMPTS - 1:
                raise
            time.sleep(0.05 * 2**attempt)
    raise AssertionError("unreachable")


def _start_locked(
    study: Study,
    design: StudyDesign,
    hashed: str | None,
    study_id: str,
    session_id: str,
    consent_version: str,
    now: datetime,
) -> Participation:
    """Create or resume the participation inside the per-study lock (see participation_start)."""
    try:
        with transaction.atomic():
            Study.objects.filter(pk=study.pk).update(updated_at=now)  # the per-study lock
            if hashed is not None:
                existing = Participation.objects.filter(study=study, pid_hash=hashed).first()
                if existing is not None:
                    return _resume(existing, session_id, now)
            if not study.is_open:  # closed: those who started may come back, nobody new starts
                raise ParticipantProblem("not_open", 403)
            mark_abandoned(study=study, now=now)
            participation = Participation(
                study=study,
                pid_hash=hashed,
                session_hash=session_hash(session_id),
                study_id_param=study_id.strip()[:100],
                consent_version=consent_version,
                consented_at=now,
                started_at=now,
                lease_started_at=now,
                last_seen_at=now,
            )
            try:
                assignment = assign_list(
                    participation.token_id,
                    len(design.lists),
                    _leases(study),
                    now,
                    lease_ttl(study),
                    quota=list_quota(study, design),
                )
            except ListsFull as full:
                raise ParticipantProblem("full_for_now" if full.for_now else "full", 403) from None
            schedule = build_schedule(design, assignment.list_index, participation.token_id)
            participation.list_index = assignment.list_index
            participation.schedule = schedule.to_dict()
            participation.trial_count = len(schedule.trials)
            participation.save()
            return participation
    except IntegrityError:
        # The same PID started twice at once: the other request made it; resume that one.
        existing = Participation.objects.filter(study=study, pid_hash=hashed).first()
        if hashed is None or existing is None:
            raise
        return _resume(existing, session_id, now)


def schedule_of(participation: Participation) -> ParticipantSchedule:
    """Return the participation's ParticipantSchedule (server side: gold included)."""
    return ParticipantSchedule.from_dict(participation.schedule)


def answered_indices(participation: Participation) -> set[int]:
    """Return the trial indices the participation has answered."""
    return set(Response.objects.filter(participation=participation).values_list("trial_index", flat=True))


def next_trial_index(participation: Participation) -> int | None:
    """Return the first unanswered trial index (None when every trial is answered)."""
    answered = answered_indices(participation)
    return next((i for i in range(participation.trial_count) if i not in answered), None)


@dataclass(frozen=True, slots=True)
class SaveOutcome:
    """What saving an answer did: the stored response (the first one when the trial had been
    answered: `created` False), the feedback of a practice trial (True: the answer agrees with
    the expected one; None for other trials), and whether the participation is now complete."""

    response: Response
    created: bool
    feedback: bool | None
    completed: bool


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class CheckedAnswer:
    """A posted answer, checked against its trial: the displayed index chosen (None for a
    rating), the ranking (rank3), the rating (rating and magnitude trials), the confidence and
    whether it agrees with the expected answer."""

    choice: int | None
    ranking: list[int]
    rating: float | None
    confidence: int | None
    correct: bool


def answer_check(trial: Trial, payload: Mapping[str, object]) -> CheckedAnswer:
    """Return the CheckedAnswer of a posted answer to `trial` ({choice} for 2AFC, {choice: a
    ranking} for rank3, {rating} for a rating or magnitude trial; {confidence} when asked),
    or a ParticipantProblem (400) saying what is wrong with it."""
    choice, ranking, rating, correct = _check_choice(trial, payload)
    confidence = payload.get("confidence")
    if trial.confidence:
        if not _is_int(confidence) or confidence not in CONFIDENCE_LEVELS:
            raise ParticipantProblem("error_title", 400, "confidence must be 1, 2 or 3")
    else:
        confidence = None
    return CheckedAnswer(choice, ranking, rating, confidence, correct)


def _check_choice(
    trial: Trial, payload: Mapping[str, object]
) -> tuple[int | None, list[int], float | None, bool]:
    if trial.rated:
        try:
            rating = validate_rating(trial, payload.get("rating"))
        except StudyError as error:
            raise ParticipantProblem("error_title", 400, f"rating: {error}") from None
        return None, [], rating, rating_agrees(trial, rating)
    raw = payload.get("choice")
    if trial.task == "rank3":
        if not isinstance(raw, list) or not all(_is_int(v) for v in raw) or sorted(raw) != [0, 1, 2]:
            raise ParticipantProblem("error_title", 400, "choice must rank the three sentences: [2, 0, 1]")
        ranking = [int(v) for v in raw]
        return ranking[0], ranking, None, tuple(ranking) == tuple(trial.gold_ranking)
    if not _is_int(raw) or raw not in (0, 1):
        raise ParticipantProblem("error_title", 400, "choice must be 0 or 1")
    return int(raw), [], None, int(raw) == trial.gold_index


def _rt(value: object) -> int | None:
    """Return a response time in whole milliseconds, clamped to 0..MAX_RT_MS (None when the
    client sent no number, or NaN or an infinity)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return max(0, min(int(value), MAX_RT_MS))


def response_save(
    *, participation: Participation, payload: Mapping[str, object], now: datetime | None = None
) -> SaveOutcome:
    """Save one answer ({trial_index, choice, confidence, rt_ms}) and return the SaveOutcome.

    Idempotent: a trial answered before keeps its first answer, which is returned. Trials are
    answered in order: only the first unanswered one may be answered. The last answer
    completes the participation.

    Raises:
        ParticipantProblem: the participation has completed or withdrawn, or the answer is
            malformed or not for the next trial.
    """
    now = now or timezone.now()
    if participation.status == Participation.Status.WITHDRAWN:
        raise ParticipantProblem("withdrawn_text", 403)
    index = payload.get("trial_index")
    if not _is_int(index) or not 0 <= index < participation.trial_count:
        raise ParticipantProblem("error_title", 400, "trial_index is not a trial of this session")
    existing = Response.objects.filter(participation=participation, trial_index=index).first()
    if existing is not None:
        return SaveOutcome(existing, False, _feedback(participation, existing), _is_complete(participation))
    if participation.status == Participation.Status.COMPLETED:
        raise ParticipantProblem("already_done", 409)
    expected = next_trial_index(participation)
    if index != expected:
        raise ParticipantProblem("error_title", 409, f"the next trial to answer is {expected}")
    trial = schedule_of(participation).trials[index]
    answer = answer_check(trial, payload)
    try:
        with transaction.atomic():
            # One transaction, its first statement a write: it locks the participation (and sees a
            # withdrawal that committed meanwhile, so a withdrawal never leaves an answer behind).
            back: dict[str, object] = {"last_seen_at": now}
            if participation.status == Participation.Status.ABANDONED:
                # Answering after the lease expired: the participant is back, their slot with them.
                back.update(status=Participation.Status.ACTIVE, lease_started_at=now)
            alive = (
                Participation.objects.filter(pk=participation.pk)
                .exclude(status=Participation.Status.WITHDRAWN)
                .update(**back)
            )
            if not alive:
                raise ParticipantProblem("withdrawn_text", 403)
            response = Response.objects.create(
                participation=participation,
                trial_index=index,
                item_id=trial.item_id,
                comparison=trial.comparison,
                trial_kind=trial.kind,
                choice=answer.choice,
                ranking=answer.ranking,
                rating=answer.rating,
                confidence=answer.confidence,
                correct=answer.correct,
                rt_ms=_rt(payload.get("rt_ms")),
                received_at=now,
            )
            if Response.objects.filter(participation=participation).count() >= participation.trial_count:
                Participation.objects.filter(pk=participation.pk).update(
                    completed_at=now, status=Participation.Status.COMPLETED
                )
    except IntegrityError:
        # The same answer arrived twice at once: the first one stays.
        response = Response.objects.get(participation=participation, trial_index=index)
        participation.refresh_from_db()
        return SaveOutcome(response, False, _feedback(participation, response), _is_complete(participation))
    participation.refresh_from_db()
    if _is_complete(participation):
        close_when_full(study=participation.study, now=now)
    return SaveOutcome(response, True, _feedback(participation, response), _is_complete(participation))


def _feedback(participation: Participation, response: Response) -> bool | None:
    return response.correct if response.trial_kind == "practice" else None


def _is_complete(participation: Participation) -> bool:
    return participation.status == Participation.Status.COMPLETED


def participation_seen(*, participation: Participation, now: datetime | None = None) -> None:
    """Record that the participant is still there (a page or trial was loaded), at most once a
    minute: a write on every read would make readers queue for SQLite's one write lock."""
    now = now or timezone.now()
    if participation.last_seen_at and now - participation.last_seen_at < SEEN_EVERY:
        return
    Participation.objects.filter(pk=participation.pk).update(last_seen_at=now)


def participation_withdraw(*, participation: Participation, now: datetime | None = None) -> Participation:
    """Withdraw the participant: delete every response, forget the STUDY_ID they came with (the
    PID and session hashes stay, so the same person cannot start again and is told they
    withdrew), mark it withdrawn; return it."""
    now = now or timezone.now()
    with transaction.atomic():
        # The row first: an answer being saved waits for this transaction, then sees the status.
        Participation.objects.filter(pk=participation.pk).update(status=Participation.Status.WITHDRAWN)
        Response.objects.filter(participation=participation).delete()
        participation.status = Participation.Status.WITHDRAWN
        participation.withdrawn_at = now
        participation.completed_at = None
        participation.study_id_param = ""
        participation.save(
            update_fields=[
                "status",
                "withdrawn_at",
                "completed_at",
                "study_id_param",
            ]
        )
    return participation
