"""A corpus of single edits (one row per correction of a sentence): the read job keys each pair by
its learner sentence, and every chunk of a run keeps its artificial errors off the sentence's
other errors, found across the whole corpus, so the cut into chunks changes nothing."""

import importlib
from pathlib import Path

import pytest
from django.apps import apps as django_apps

from mpp_studio.datasets.models import Pair
from mpp_studio.learner.models import LearnerCorpus, LearnerPairRecord
from tests.web.learner.conftest import make_run, upload
from triplets.other_errors import sentence_key
from triplets.report import ONLY_AT_OTHER_ERRORS

LEARNER = "We talk about life on earth and a nature."
FIRST = "We talk about life on the earth and a nature."  # M:DET; its only place is the other error
SECOND = "We talk about life on earth and nature."
OTHER = "She has two brother and she live in a big house."


@pytest.fixture
def single_edits(project: object, editor: object, tmp_path: Path) -> LearnerCorpus:
    path = tmp_path / "edits.tsv"
    path.write_text(
        "learner\tcorrected\n"
        f"{LEARNER}\t{FIRST}\n"
        f"{OTHER}\tShe has two brothers and she live in a big house.\n"
        f"{LEARNER}\t{SECOND}\n",  # the sentence's other row, in another chunk of one pair
        encoding="utf-8",
    )
    return upload(project, editor, path, name="Single edits").corpus  # type: ignore[return-value]


def test_the_read_job_keys_each_pair_by_its_learner_sentence(single_edits: LearnerCorpus) -> None:
    keys = list(
        LearnerPairRecord.objects.filter(corpus=single_edits)
        .order_by("index")
        .values_list("learner_key", flat=True)
    )
    assert keys == [sentence_key(LEARNER), sentence_key(OTHER), sentence_key(LEARNER)]


@pytest.mark.parametrize("chunk_size", [1, 3])
def test_no_artificial_error_at_the_sentences_other_errors(
    single_edits: LearnerCorpus, chunk_size: int
) -> None:
    run = make_run(single_edits, chunk_size=chunk_size)
    records = Pair.objects.filter(paradigm__dataset=run.dataset).values_list("record", flat=True)
    # Deleting "a" before "nature" would repair the other row's error: the M:DET row gets none.
    assert [r["error_type"] for r in records] == ["R:NOUN:NUM"]
    assert run.report["dropped"]["M:DET"] == {ONLY_AT_OTHER_ERRORS: 1}


def test_pairs_stored_without_a_key_are_never_matched(single_edits: LearnerCorpus) -> None:
    """Rows written by hand, keyed "", cannot pull in each other's corrections."""
    LearnerPairRecord.objects.filter(corpus=single_edits).update(learner_key="")
    run = make_run(single_edits, chunk_size=1)
    assert ONLY_AT_OTHER_ERRORS not in run.report["dropped"].get("M:DET", {})


def test_the_migration_keys_the_pairs_stored_before(
    single_edits: LearnerCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    migration = importlib.import_module("mpp_studio.learner.migrations.0007_fill_sentence_keys")
    monkeypatch.setattr(migration, "BATCH", 1)  # one row a batch
    stored = LearnerPairRecord.objects.filter(corpus=single_edits).order_by("index")
    stored.update(learner_key="")
    stored.filter(index=2).update(learner_key="kept")  # keyed by a backfill cut short: left alone
    migration.fill_keys(django_apps, None)
    assert list(stored.values_list("learner_key", flat=True)) == [
        sentence_key(LEARNER),
        sentence_key(OTHER),
        "kept",
    ]
