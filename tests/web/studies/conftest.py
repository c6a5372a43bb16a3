"""Fixtures for validation studies: a pair dataset and a learner triplet dataset made with the
ORM (as the datasets and learner apps store them), and studies built from them."""

from collections.abc import Callable
from typing import Any

import pytest

PAIR_PARADIGMS = {
    "en_sv_agreement": (
        "agreement",
        "The {n} near the door sleeps soundly.",
        "The {n} near the door sleep soundly.",
    ),
    "en_det_noun": (
        "determiners",
        "She saw this {n} in the garden yesterday.",
        "She saw these {n} in the garden yesterday.",
    ),
    "en_anaphor": (
        "anaphora",
        "The {n} washed itself after the long walk.",
        "The {n} washed themselves after the long walk.",
    ),
}
NOUNS = (
    "cat",
    "dog",
    "bird",
    "horse",
    "teacher",
    "child",
    "farmer",
    "pilot",
    "singer",
    "baker",
    "nurse",
    "clerk",
)
TRIPLET_TYPES = ("R:VERB:SVA", "R:DET", "R:PREP")


def pair_records(per_paradigm: int = 12) -> list[dict[str, Any]]:
    """Return generated-style (BLiMP layout + provenance) records: `per_paradigm` per paradigm."""
    records = []
    for uid, (phenomenon, good, bad) in PAIR_PARADIGMS.items():
        for i in range(per_paradigm):
            noun = NOUNS[i % len(NOUNS)]
            records.append(
                {
                    "sentence_good": good.format(n=noun),
                    "sentence_bad": bad.format(n=noun),
                    "UID": uid,
                    "phenomenon": phenomenon,
                    "pairID": str(i),
                    "item_id": f"{uid}-{i:04x}",
                    "language": "en",
                    "provenance": {
                        "template": uid,
                        "fillers": {"good": {"subj": f"n{i}"}, "bad": {"subj": f"n{i}"}},
                    },
                }
            )
    return records


def make_pair_dataset(project: object, *, per_paradigm: int = 12, name: str = "Agreement pairs") -> Any:
    """Create a generated pair dataset of `pair_records(per_paradigm)` in `project`."""
    from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair

    dataset = Dataset.objects.create(project=project, name=name, pairs_per_paradigm=per_paradigm)
    by_uid: dict[str, list[dict[str, Any]]] = {}
    for record in pair_records(per_paradigm):
        by_uid.setdefault(record["UID"], []).append(record)
    for uid, group in by_uid.items():
        paradigm = DatasetParadigm.objects.create(
            dataset=dataset,
            uid=uid,
            phenomenon=group[0]["phenomenon"],
            language="en",
            requested=len(group),
            produced=len(group),
            status=DatasetParadigm.Status.DONE,
        )
        Pair.objects.bulk_create(
            Pair(
                paradigm=paradigm,
                index=i,
                sentence_good=r["sentence_good"],
                sentence_bad=r["sentence_bad"],
                record=r,
            )
            for i, r in enumerate(group)
        )
    return dataset


def triplet_records(per_type: int = 8) -> list[dict[str, Any]]:
    """Return BLiSS-layout learner triplet records: `per_type` of each of three ERRANT types."""
    records = []
    for t, error_type in enumerate(TRIPLET_TYPES):
        for i in range(per_type):
            noun = NOUNS[i % len(NOUNS)]
            corrected, learner, artificial = {
                "R:VERB:SVA": (
                    f"The {noun} sees the river.",
                    f"The {noun} see the river.",
                    f"The {noun} sees the rivers go.",
                ),
                "R:DET": (
                    f"She found the book near the {noun}.",
                    f"She found book near the {noun}.",
                    f"She found the book near a {noun}.",
                ),
                "R:PREP": (
                    f"He walked to the park with the {noun}.",
                    f"He walked at the park with the {noun}.",
                    f"He walked to the park on the {noun}.",
                ),
            }[error_type]
            records.append(
                {
                    "UID": f"t{t}-{i:03d}",
                    "learnerID": f"learner-{i}",
                    "L1": "Spanish",
                    "cefr": "B1",
                    "corrected": corrected,
                    "learner_error": learner,
                    "artificial_error": artificial,
                    "error_type": error_type,
                }
            )
    return records


def make_triplet_dataset(project: object, *, per_type: int = 8, name: str = "Learner set") -> Any:
    """Create a learner triplet dataset (origin "learner", one paradigm per ERRANT type)."""
    from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair

    dataset = Dataset.objects.create(
        project=project, name=name, pairs_per_paradigm=per_type, origin="learner"
    )
    by_type: dict[str, list[dict[str, Any]]] = {}
    for record in triplet_records(per_type):
        by_type.setdefault(record["error_type"], []).append(record)
    for error_type, group in by_type.items():
        paradigm = DatasetParadigm.objects.create(
            dataset=dataset, uid=error_type, phenomenon=error_type, requested=len(group), produced=len(group)
        )
        Pair.objects.bulk_create(
            Pair(
                paradigm=paradigm,
                index=i * 4,
                sentence_good=r["corrected"],
                sentence_bad=r["learner_error"],
                record=r,
            )
            for i, r in enumerate(group)
        )
    return dataset


@pytest.fixture
def pair_dataset(project: object) -> Any:
    return make_pair_dataset(project)


@pytest.fixture
def triplet_dataset(project: object) -> Any:
    return make_triplet_dataset(project)


STUDY_DEFAULTS: dict[str, Any] = {
    "name": "Agreement check",
    "items_per_paradigm": 4,
    "n_lists": 2,
    "target_responses": 5,
    "catch_per_list": 1,
    "seed": 7,
}


@pytest.fixture
def make_study(editor: object) -> Callable[..., Any]:
    """Return a function making a study of `datasets` (opened unless opened=False)."""
    from mpp_studio.studies.services import study_create, study_open

    def make(project: Any, datasets: list[Any], *, opened: bool = True, **fields: Any) -> Any:
        study = study_create(
            project=project, datasets=datasets, created_by=editor, **{**STUDY_DEFAULTS, **fields}
        )
        if opened:
            study_open(study=study)
        return study

    return make


@pytest.fixture
def study(project: object, pair_dataset: object, make_study: Callable[..., Any]) -> Any:
    """An open study of the pair dataset: 3 paradigms x 4 items over 2 lists, 1 catch trial each."""
    return make_study(project, [pair_dataset])


def start(study: Any, pid: str = "", **params: str) -> Any:
    """Start (consent to) the study as a participant; return the Participation."""
    from mpp_studio.studies.services import participation_start

    return participation_start(
        study=study,
        prolific_pid=pid,
        study_id=params.get("study_id", ""),
        # A Prolific participant's return comes from the same Prolific session.
        session_id=params.get("session_id", f"session-{pid}" if pid else ""),
        consent_version=study.consent_version,
    )


def gold_answer(participation: Any, index: int, right: bool = True) -> dict[str, Any]:
    """Return the answer payload to trial `index`: the gold answer (or the other one)."""
    from mpp_studio.studies.services import schedule_of

    trial = schedule_of(participation).trials[index]
    if trial.rated:  # the far end the sentence is expected at (or the other one)
        high = (trial.expected == "high") == right
        if trial.task == "rating":
            value: Any = trial.scale_points if high else 1
        else:
            value = trial.reference_value * (2 if high else 0.5)
        return {
            "trial_index": index,
            "rating": value,
            "confidence": 2 if trial.confidence else None,
            "rt_ms": 1500,
        }
    if trial.task == "rank3":
        ranking = list(trial.gold_ranking) if right else list(reversed(trial.gold_ranking))
        choice: Any = ranking
    else:
        choice = trial.gold_index if right else 1 - int(trial.gold_index)
    return {
        "trial_index": index,
        "choice": choice,
        "confidence": 2 if trial.confidence else None,
        "rt_ms": 1500,
    }
