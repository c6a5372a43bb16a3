"""A learner triplet dataset made with the ORM, as the learner app stores one: origin "learner",
one paradigm per ERRANT error type, one pair per triplet (good = corrected, bad = learner) whose
record is the BLiSS record, pair indexes with gaps. The sentences are invented; 66 triplets by
two L1s (33 each: slices above the minimum of 30), three CEFR levels (C1 has 6: a suppressed
slice) and three types."""

import json
from pathlib import Path

NOUNS = (
    "cat",
    "dog",
    "teacher",
    "student",
    "child",
    "bird",
    "horse",
    "musician",
    "traveler",
    "senator",
    "boy",
)
OBJECTS = ("ball", "book", "apple", "river", "souvenir", "present")
TYPES = ("R:VERB:SVA", "R:DET", "R:PREP")
N_DEFAULT = 66
# The learner app gives a source pair's triplets the indexes source * slots + k.
SLOTS = 4
L1S = ("Spanish", "German")


def _sentences(error_type: str, noun: str, obj: str) -> tuple[str, str, str, dict[str, object]]:
    """Return (corrected, learner, artificial, artificial edit) of one invented triplet."""
    if error_type == "R:VERB:SVA":
        corrected = f"The {noun} sees the {obj}."
        learner = f"The {noun} see the {obj}."
        artificial = f"The {noun} sees the {obj} and smile."
        edit = {"o_start": 5, "o_end": 6, "c_start": 5, "c_end": 5, "o_str": "smile", "c_str": ""}
    elif error_type == "R:DET":
        corrected = f"She found the {obj} near the {noun}."
        learner = f"She found {obj} near the {noun}."
        artificial = f"She found the {obj} near a {noun}."
        edit = {"o_start": 5, "o_end": 6, "c_start": 5, "c_end": 6, "o_str": "a", "c_str": "the"}
    else:
        corrected = f"He walked to the {obj} with the {noun}."
        learner = f"He walked at the {obj} with the {noun}."
        artificial = f"He walked to the {obj} on the {noun}."
        edit = {"o_start": 5, "o_end": 6, "c_start": 5, "c_end": 6, "o_str": "on", "c_str": "with"}
    return corrected, learner, artificial, edit


def triplet_records(n: int = N_DEFAULT) -> list[dict[str, object]]:
    """Return `n` BLiSS records in the learner pipeline's layout."""
    records = []
    for i in range(n):
        error_type = TYPES[i % len(TYPES)]
        noun, obj = NOUNS[i % len(NOUNS)], OBJECTS[i % len(OBJECTS)]
        corrected, learner, artificial, edit = _sentences(error_type, noun, obj)
        cefr = "C1" if i >= n - 6 else ("A2" if i % 2 else "B1")
        records.append(
            {
                "UID": f"demo-{i:03d}",
                "learnerID": f"learner-{i % 12}",
                "L1": L1S[i % 2],
                "cefr": cefr,
                "topic": "daily life",
                "corpus": "invented",
                "essay_id": f"essay-{i // 3}",
                "sentence_id": str(i),
                "corrected": corrected,
                "learner_error": learner,
                "artificial_error": artificial,
                "error_type": error_type,
                "errant_edits": [{"type": error_type, "o_start": 2, "o_end": 3, "c_start": 2, "c_end": 3}],
                "all_error_types": [error_type],
                "artificial_edit": {"type": error_type, **edit, "rule": "invented", "strict": True},
                "learner_error_position": [2, 3],
                "artificial_error_position": [5, 6],
                "source": {"file": "invented.m2", "line": i + 1},
                "generator": {"name": "tests", "version": "0"},
            }
        )
    return records


def make_triplet_dataset(project: object, *, n: int = N_DEFAULT, name: str = "Learner set") -> object:
    """Create the learner triplet dataset of `triplet_records(n)` in `project`; return it."""
    from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair

    records = triplet_records(n)
    dataset = Dataset.objects.create(project=project, name=name, pairs_per_paradigm=n, origin="learner")
    by_type: dict[str, list[dict[str, object]]] = {}
    for record in records:
        by_type.setdefault(str(record["error_type"]), []).append(record)
    for error_type, group in sorted(by_type.items()):
        paradigm = DatasetParadigm.objects.create(
            dataset=dataset,
            uid=error_type,
            phenomenon=error_type.split(":", 1)[1],
            language="en",
            requested=len(group),
            produced=len(group),
            status=DatasetParadigm.Status.DONE,
        )
        Pair.objects.bulk_create(
            Pair(
                paradigm=paradigm,
                index=position * SLOTS,  # as the learner app numbers them: with gaps
                sentence_good=str(record["corrected"]),
                sentence_bad=str(record["learner_error"]),
                record=record,
            )
            for position, record in enumerate(group)
        )
    return dataset


def write_bliss_jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    """Write the records as a BLiSS JSONL file for `mpp score`; return its path."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path
