"""A vocabulary updated from an edited file: read and compared first (nothing changes), then applied
as a new version (the earlier one kept), or discarded; refused files name their lines."""

from typing import Any
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from mpp_studio.core.stored_uploads import upload_root
from mpp_studio.jobs.models import Job
from mpp_studio.lexicon.models import VocabularySnapshot, VocabularyUpdate
from mpp_studio.lexicon.selectors_updates import undeclared_problems
from mpp_studio.lexicon.services import updates as update_services
from mpp_studio.lexicon.services import vocabulary_item_create
from mpp_studio.lexicon.services.updates import (
    vocabulary_update_apply_run,
    vocabulary_update_apply_start,
    vocabulary_update_discard,
    vocabulary_update_read_run,
    vocabulary_update_start,
)
from tests.web.conftest import EN_NOUNS_CSV

pytestmark = pytest.mark.django_db

# EN_NOUNS_CSV edited: cats becomes NNS, n3 (dog) and v4 (swim) go, two rows are added.
EDITED_CSV = """\
id,form,lemma,pos,number
n1,cat,cat,NN,sg
n2,cats,cat,NNS,pl
n4,dogs,dog,NN,pl
n5,bird,bird,NN,sg
n6,birds,bird,NN,pl
n7,horse,horse,NN,sg
n8,horses,horse,NN,pl
v1,sleep,sleep,VB,
v2,run,run,VB,
v3,jump,jump,VB,
n9,fish,fish,NN,sg
n10,fishes,fish,NN,pl
"""


def _items(vocabulary: Any) -> dict[str, tuple[str, str, str, dict[str, list[str]]]]:
    return {row.item_id: (row.form, row.lemma, row.pos, row.features) for row in vocabulary.items.all()}


def _start(
    vocabulary: Any, text: str, name: str = "en_nouns.csv", schema: str | None = None
) -> VocabularyUpdate:
    schema_file = SimpleUploadedFile("en_nouns.schema.yaml", schema.encode()) if schema is not None else None
    return vocabulary_update_start(
        vocabulary=vocabulary, table=SimpleUploadedFile(name, text.encode()), schema_file=schema_file
    )


def _read(vocabulary: Any, text: str, **kwargs: Any) -> VocabularyUpdate:
    update = _start(vocabulary, text, **kwargs)
    vocabulary_update_read_run(update_id=update.pk)
    update.refresh_from_db()
    return update


def _apply(update: VocabularyUpdate) -> VocabularyUpdate:
    vocabulary_update_apply_start(update=update)
    vocabulary_update_apply_run(update_id=update.pk)
    update.refresh_from_db()
    return update


def test_reading_says_what_the_file_changes_and_changes_nothing(vocabulary: Any) -> None:
    before = _items(vocabulary)
    update = _read(vocabulary, EDITED_CSV)
    assert update.status == VocabularyUpdate.Status.READY
    assert update.read_job is not None and update.read_job.status == Job.Status.DONE
    summary = update.summary
    assert (summary["added"], summary["changed"], summary["removed"], summary["unchanged"]) == (2, 1, 2, 9)
    assert [item["id"] for item in summary["added_items"]] == ["n9", "n10"]
    assert summary["added_items"][0]["features"] == {"number": "sg"}
    assert summary["changed_items"] == [{"id": "n2", "form": "cats", "cells": [["pos", "NN", "NNS"]]}]
    assert [item["id"] for item in summary["removed_items"]] == ["n3", "v4"]
    assert "2 items added, 1 changed, 2 removed" in update.read_job.message
    assert _items(vocabulary) == before
    assert update.uploads  # kept until applied or discarded


def test_applying_makes_the_vocabulary_the_file_and_keeps_the_earlier_version(vocabulary: Any) -> None:
    update = _apply(_read(vocabulary, EDITED_CSV))
    assert update.status == VocabularyUpdate.Status.APPLIED
    assert update.apply_job is not None and update.apply_job.status == Job.Status.DONE
    items = _items(vocabulary)
    assert sorted(items) == sorted(["n1", "n2", "n4", "n5", "n6", "n7", "n8", "v1", "v2", "v3", "n9", "n10"])
    assert items["n2"] == ("cats", "cat", "NNS", {"number": ["pl"]})
    assert items["n10"] == ("fishes", "fish", "NN", {"number": ["pl"]})
    assert update.before is not None and update.after is not None
    assert "n3,dog,dog,NN,sg" in update.before.items_text
    assert "n3," not in update.after.items_text and "n10,fishes" in update.after.items_text
    assert update.uploads == []
    # The same file again changes nothing and cannot be applied.
    again = _read(vocabulary, EDITED_CSV)
    assert (again.summary["added"], again.summary["changed"], again.summary["removed"]) == (0, 0, 0)
    with pytest.raises(ValidationError) as refused:
        vocabulary_update_apply_start(update=again)
    assert "nothing to apply" in refused.value.messages[0]


def test_an_apply_that_dies_part_way_finishes_when_run_again(vocabulary: Any) -> None:
    update = _read(vocabulary, EDITED_CSV)
    vocabulary_update_apply_start(update=update)
    calls = {"n": 0}
    real = update_services.job_progress

    def dies_after_the_first_chunk(**kwargs: Any) -> bool:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("worker killed")
        return bool(real(**kwargs))

    with (
        mock.patch.object(update_services, "ITEM_WRITE_CHUNK", 1),
        mock.patch.object(update_services, "job_progress", dies_after_the_first_chunk),
        pytest.raises(RuntimeError),
    ):
        vocabulary_update_apply_run(update_id=update.pk)
    assert "n3" not in _items(vocabulary) and "v4" in _items(vocabulary)  # one removal written
    vocabulary_update_apply_run(update_id=update.pk)  # the message delivered again
    update.refresh_from_db()
    assert update.status == VocabularyUpdate.Status.APPLIED
    assert sorted(_items(vocabulary)) == sorted(
        ["n1", "n2", "n4", "n5", "n6", "n7", "n8", "v1", "v2", "v3", "n9", "n10"]
    )
    # The earlier version is the vocabulary before the first run, not the half-written one.
    assert "v4,swim" in update.before.items_text and "n3,dog" in update.before.items_text  # type: ignore[union-attr]


def test_a_vocabulary_edited_after_the_preview_is_previewed_again_not_changed(vocabulary: Any) -> None:
    update = _read(vocabulary, EDITED_CSV)
    vocabulary_item_create(
        vocabulary=vocabulary, item_id="n11", form="cow", lemma="cow", pos="NN", features={"number": ["sg"]}
    )
    edited = _items(vocabulary)
    update = _apply(update)
    assert update.status == VocabularyUpdate.Status.READY
    assert update.apply_job is not None and update.apply_job.status == Job.Status.FAILED
    assert "edited after the file was read" in update.apply_job.message
    assert _items(vocabulary) == edited
    assert update.summary["removed"] == 3  # n3, v4 and the new n11
    assert update.before is None and not VocabularySnapshot.objects.filter(vocabulary=vocabulary).exists()
    # Applying again now does what the page shows.
    update = _apply(update)
    assert update.status == VocabularyUpdate.Status.APPLIED
    assert "n11" not in _items(vocabulary)


def test_a_refused_file_names_its_lines_and_says_where_to_declare_values(vocabulary: Any) -> None:
    bad = EN_NOUNS_CSV.replace("n4,dogs,dog,NN,pl", "n4,dogs,dog,NN,dual").replace(
        "id,form,lemma,pos,number", "id,form,lemma,pos,number,colour"
    )
    bad = "\n".join(line + ("," if i else "") for i, line in enumerate(bad.splitlines())) + "\n"
    before = _items(vocabulary)
    update = _read(vocabulary, bad)
    assert update.status == VocabularyUpdate.Status.REFUSED
    assert update.read_job is not None and update.read_job.status == Job.Status.FAILED
    located = {(problem["line"], problem["column"]) for problem in update.problems}
    assert (1, "colour") in located and (5, "number") in located
    assert undeclared_problems(update)
    assert update.uploads == []
    assert _items(vocabulary) == before
    with pytest.raises(ValidationError):
        vocabulary_update_apply_start(update=update)


def test_a_schema_file_sent_with_the_table_declares_new_features(vocabulary: Any) -> None:
    table = "id,form,lemma,pos,number,animacy\nn1,cat,cat,NN,sg,animate\nn12,stone,stone,NN,sg,inanimate\n"
    schema = (
        "language: en\nfeatures:\n  number: {type: category, values: [sg, pl]}\n"
        "  animacy: {type: category, values: [animate, inanimate]}\n"
    )
    update = _apply(_read(vocabulary, table, schema=schema))
    assert update.summary["features"] == [["animacy", "added"]]
    assert update.status == VocabularyUpdate.Status.APPLIED
    assert _items(vocabulary) == {
        "n1": ("cat", "cat", "NN", {"number": ["sg"], "animacy": ["animate"]}),
        "n12": ("stone", "stone", "NN", {"number": ["sg"], "animacy": ["inanimate"]}),
    }
    vocabulary.refresh_from_db()
    assert "animacy" in vocabulary.schema["features"]


def test_discarding_leaves_the_vocabulary_and_removes_the_kept_file(vocabulary: Any) -> None:
    update = _read(vocabulary, EDITED_CSV)
    kept = [upload_root() / str(record["path"]) for record in update.uploads]
    assert kept and all(path.exists() for path in kept)
    vocabulary_update_discard(update=update)
    update.refresh_from_db()
    assert update.status == VocabularyUpdate.Status.DISCARDED and update.uploads == []
    assert not any(path.exists() for path in kept)
    with pytest.raises(ValidationError):
        vocabulary_update_apply_start(update=update)
    applied = _apply(_read(vocabulary, EDITED_CSV))
    with pytest.raises(ValidationError):
        vocabulary_update_discard(update=applied)


def test_no_second_file_while_one_is_being_applied(vocabulary: Any) -> None:
    update = _read(vocabulary, EDITED_CSV)
    vocabulary_update_apply_start(update=update)  # queued, not run: the update is applying
    with pytest.raises(ValidationError) as refused:
        _start(vocabulary, EN_NOUNS_CSV)
    assert "file" in refused.value.message_dict
