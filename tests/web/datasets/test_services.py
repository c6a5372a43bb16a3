"""Dataset services: what a dataset records, and generation that is deterministic, resumable and
idempotent, failing one paradigm at a time without losing what was stored."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from generator.errors import GenerationError, Problem
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.datasets.services import (
    dataset_cancel,
    dataset_create,
    dataset_delete,
    dataset_paradigm_generate,
)
from mpp_studio.jobs.models import Job
from mpp_studio.lexicon.models import VocabularySnapshot
from mpp_studio.paradigms.models import Phrase
from mpp_studio.paradigms.services import template_save
from tests.web.datasets.conftest import (
    EN_CAPACITY,
    EN_PHRASE_TEMPLATE,
    SG_NP_PHRASE,
    ZH_CAPACITY,
    run_generation,
)

pytestmark = pytest.mark.django_db

MakeDataset = Callable[..., Dataset]


def rows(dataset: Dataset) -> list[tuple[str, int, str, str, dict[str, object]]]:
    return list(
        Pair.objects.filter(paradigm__dataset=dataset)
        .order_by("paradigm__uid", "index")
        .values_list("paradigm__uid", "index", "sentence_good", "sentence_bad", "record")
    )


# -- Creating ---------------------------------------------------------------------------------


def test_dataset_create_records_versions_snapshots_and_used_phrases(
    make_dataset: MakeDataset, templates: dict[str, object], editor: object
) -> None:
    dataset = make_dataset("en", "zh", n=10, seed=7)
    assert (dataset.seed, dataset.pairs_per_paradigm, dataset.created_by) == (7, 10, editor)
    en, zh = dataset.paradigms.order_by("uid")
    assert en.template_version == templates["en"].latest_version()  # type: ignore[attr-defined]
    assert zh.template_version == templates["zh"].latest_version()  # type: ignore[attr-defined]
    assert en.vocabulary_snapshot.name == "en_nouns" and zh.vocabulary_snapshot.name == "zh_nouns"
    # Only the phrase the template uses is recorded, as it was.
    assert en.phrase_texts == {"SgNP": SG_NP_PHRASE} and zh.phrase_texts == {}
    assert (en.uid, en.phenomenon, en.language, en.requested, en.status) == (
        "en_sv_agreement",
        "subject_verb_agreement",
        "en",
        10,
        "pending",
    )
    assert len(en.template_hash) == 16 and en.generator_version
    job = dataset.job
    assert (job.kind, job.status, job.progress_total, job.created_by) == (
        "dataset_generate",
        "queued",
        20,
        editor,
    )


def test_dataset_create_queues_one_task_per_paradigm_after_commit(
    make_dataset: MakeDataset, django_capture_on_commit_callbacks: Callable[..., object]
) -> None:
    with mock.patch("mpp_studio.datasets.tasks.generate_paradigm.delay") as delay:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:  # type: ignore[operator]
            dataset = make_dataset("en", "zh")
        delay.assert_not_called()  # nothing is sent before the rows are committed
        for callback in callbacks:  # type: ignore[attr-defined]
            callback()
    assert sorted(call.args for call in delay.call_args_list) == sorted(
        (p.pk,) for p in dataset.paradigms.all()
    )


def test_snapshots_are_shared_and_reused(make_dataset: MakeDataset) -> None:
    first = make_dataset("en", n=5)
    second = make_dataset("en", n=5, name="Again")
    assert first.paradigms.get().vocabulary_snapshot == second.paradigms.get().vocabulary_snapshot
    assert VocabularySnapshot.objects.filter(name="en_nouns").count() == 1


def test_dataset_create_reads_each_vocabulary_once_and_counts_no_capacity(
    project: object, templates: dict[str, object], editor: object
) -> None:
    """The templates are checked for whether they can generate, each vocabulary read into the
    engine once for all the templates that use it; the capacity count is generation's business."""
    from mpp_studio.lexicon import engine as lexicon_engine
    from mpp_studio.paradigms import project_engine

    text = templates["en"].latest_version().source_text  # type: ignore[attr-defined]
    assert "uid: en_sv_agreement" in text
    second = template_save(
        project=project,  # type: ignore[arg-type]
        source_text=text.replace("uid: en_sv_agreement", "uid: en_sv_agreement_again"),
        user=editor,  # type: ignore[arg-type]
    )
    chosen = [templates["en"], second.template, templates["zh"]]
    read = mock.Mock(wraps=lexicon_engine.vocabulary_to_engine)
    with (
        mock.patch.object(project_engine, "vocabulary_to_engine", read),
        mock.patch("generator.generate.Generator.capacity") as capacity,
        mock.patch("mpp_studio.datasets.tasks.generate_paradigm.delay"),
    ):
        dataset = dataset_create(
            project=project,  # type: ignore[arg-type]
            name="Twice en",
            templates=chosen,  # type: ignore[arg-type]
            pairs_per_paradigm=5,
            created_by=editor,  # type: ignore[arg-type]
        )
    assert dataset.paradigms.count() == 3
    assert sorted(call.args[0].name for call in read.call_args_list) == ["en_nouns", "zh_nouns"]
    capacity.assert_not_called()


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"name": "  "}, "name", "Give the dataset a name."),
        ({"pairs_per_paradigm": 0}, "pairs_per_paradigm", "from 1 to 100,000; 0 was given"),
        ({"pairs_per_paradigm": 100_001}, "pairs_per_paradigm", "100,001 was given"),
        ({"seed": -1}, "seed", "The seed must be a whole number"),
        ({"unique": "words"}, "unique", "'words' was given"),
        ({"templates": []}, "templates", "Choose at least one paradigm."),
    ],
)
def test_dataset_create_rejects_bad_input_naming_the_field(
    project: object, templates: dict[str, object], changes: dict[str, object], field: str, words: str
) -> None:
    arguments: dict[str, object] = {
        "project": project,
        "name": "Set",
        "templates": [templates["en"]],
        "pairs_per_paradigm": 10,
        "seed": 0,
        "unique": "",
        **changes,
    }
    with pytest.raises(ValidationError) as caught:
        dataset_create(**arguments)  # type: ignore[arg-type]
    assert any(words in message for message in caught.value.message_dict[field])
    assert not Dataset.objects.exists() and not Job.objects.exists()


def test_dataset_create_names_a_template_with_problems_and_stores_nothing(
    project: object, templates: dict[str, object]
) -> None:
    with pytest.raises(ValidationError) as caught:
        dataset_create(
            project=project,  # type: ignore[arg-type]
            name="Set",
            templates=[templates["en"], templates["broken"]],  # type: ignore[list-item]
            pairs_per_paradigm=5,
        )
    [message] = caught.value.message_dict["templates"]
    assert message.startswith("en_broken_number (version 1) cannot generate pairs: line 9:")
    assert "dual" in message
    assert not Dataset.objects.exists() and not DatasetParadigm.objects.exists()
    assert not VocabularySnapshot.objects.exists() and not Job.objects.exists()


def test_dataset_create_checks_templates_against_the_project_as_it_is_now(
    project: object, templates: dict[str, object]
) -> None:
    """A version saved valid is refused when its phrase has gone since."""
    Phrase.objects.filter(project=project, name="SgNP").delete()
    with pytest.raises(ValidationError) as caught:
        dataset_create(project=project, name="Set", templates=[templates["en"]], pairs_per_paradigm=5)  # type: ignore[arg-type,list-item]
    assert "en_sv_agreement (version 1) cannot generate pairs" in caught.value.message_dict["templates"][0]


def test_dataset_create_refuses_another_projects_template(
    project: object, other_project: object, templates: dict[str, object]
) -> None:
    from tests.web.datasets.conftest import prepare_project

    foreign = prepare_project(other_project)
    with pytest.raises(ValidationError) as caught:
        dataset_create(project=project, name="Set", templates=[foreign["en"]], pairs_per_paradigm=5)  # type: ignore[arg-type,list-item]
    assert caught.value.message_dict["templates"] == ["Not templates of this project: en_sv_agreement."]


# -- Generating -------------------------------------------------------------------------------


def test_generation_stores_every_pair_and_finishes_the_job(generated: Dataset) -> None:
    job = generated.job
    assert (job.status, job.progress_done, job.progress_total, job.percent) == ("done", 20, 20, 100)
    assert job.message == "Generated 20 pairs in 2 paradigms." and job.finished_at is not None
    for paradigm in generated.paradigms.all():
        assert (paradigm.status, paradigm.produced, paradigm.problems) == ("done", 10, [])
        assert list(paradigm.pairs.values_list("index", flat=True)) == list(range(10))
    pair = Pair.objects.filter(paradigm__uid="en_sv_agreement").first()
    assert pair.record["sentence_good"] == pair.sentence_good and pair.record["pairID"] == str(pair.index)
    provenance = pair.record["provenance"]
    assert provenance["seed"] == 0 and provenance["template_version"] == pair.paradigm.template_hash
    assert provenance["vocabulary_version"] == pair.paradigm.vocabulary_snapshot.content_hash


def test_generation_is_deterministic_per_versions_and_seed(make_dataset: MakeDataset) -> None:
    first, again, other = make_dataset(n=10, seed=3), make_dataset(n=10, seed=3), make_dataset(n=10, seed=4)
    for dataset in (first, again, other):
        run_generation(dataset)
    assert [r[1:] for r in rows(first)] == [r[1:] for r in rows(again)]
    assert [r[2] for r in rows(first)] != [r[2] for r in rows(other)]


def test_generation_uses_the_recorded_versions_not_the_live_project(
    project: object, templates: dict[str, object], make_dataset: MakeDataset
) -> None:
    """Changing the template, phrase and vocabulary after creation changes nothing in the dataset."""
    reference = make_dataset("en", n=8, seed=1)
    run_generation(reference)
    dataset = make_dataset("en", n=8, seed=1, name="Later")
    template_save(
        project=project,  # type: ignore[arg-type]
        source_text=EN_PHRASE_TEMPLATE.replace('{direct: "."}', '{direct: "!"}'),
        user=None,
        template=templates["en"],  # type: ignore[arg-type]
    )
    Phrase.objects.filter(project=project, name="SgNP").update(
        text="- [{direct: a}, {id: head, lexical: {pos: NN}}]\n"
    )
    project.vocabularies.get(name="en_nouns").items.filter(form__in=["cat", "dog"]).delete()  # type: ignore[attr-defined]
    run_generation(dataset)
    assert [r[1:] for r in rows(dataset)] == [r[1:] for r in rows(reference)]


def test_running_a_task_twice_writes_the_same_rows(generated: Dataset) -> None:
    before = rows(generated)
    for paradigm in generated.paradigms.all():
        assert dataset_paradigm_generate(paradigm_id=paradigm.pk) is False
    assert rows(generated) == before and Pair.objects.count() == 20


def test_a_restarted_run_regenerates_and_skips_stored_indexes(make_dataset: MakeDataset) -> None:
    """A worker that died after some chunks: the rerun fills in exactly the missing indexes."""
    complete = make_dataset("en", n=12, seed=5)
    run_generation(complete)
    broken = make_dataset("en", n=12, seed=5, name="Interrupted")
    run_generation(broken)
    paradigm = broken.paradigms.get()
    paradigm.pairs.filter(index__in=[0, 5, 6, 11]).delete()
    DatasetParadigm.objects.filter(pk=paradigm.pk).update(status="pending")
    Job.objects.filter(pk=broken.job_id).update(status="running", finished_at=None)
    assert dataset_paradigm_generate(paradigm_id=paradigm.pk) is False
    assert [r[1:] for r in rows(broken)] == [r[1:] for r in rows(complete)]
    broken.job.refresh_from_db()
    assert broken.job.status == "done"


def test_runs_are_chunked_and_continue_where_they_stopped(make_dataset: MakeDataset) -> None:
    one_go = make_dataset("en", n=EN_CAPACITY, seed=2)
    run_generation(one_go)
    chunked = make_dataset("en", n=EN_CAPACITY, seed=2, name="Chunked")
    paradigm = chunked.paradigms.get()
    produced = []
    while dataset_paradigm_generate(paradigm_id=paradigm.pk, chunk_size=3, pairs_per_run=6):
        paradigm.refresh_from_db()
        produced.append(paradigm.produced)
        chunked.job.refresh_from_db()
        assert chunked.job.status == "running" and chunked.job.progress_done == paradigm.produced
    assert produced == [6, 12]
    assert [r[1:] for r in rows(chunked)] == [r[1:] for r in rows(one_go)]
    chunked.job.refresh_from_db()
    assert chunked.job.status == "done"


def test_a_run_that_stores_the_last_pair_asks_for_no_other(make_dataset: MakeDataset) -> None:
    paradigm = make_dataset("en", n=12).paradigms.get()
    assert dataset_paradigm_generate(paradigm_id=paradigm.pk, chunk_size=3, pairs_per_run=6) is True
    assert dataset_paradigm_generate(paradigm_id=paradigm.pk, chunk_size=3, pairs_per_run=6) is False
    paradigm.refresh_from_db()
    assert (paradigm.status, paradigm.produced) == ("done", 12)


def test_a_shortfall_fails_that_paradigm_with_the_engine_reason_and_keeps_the_others(
    make_dataset: MakeDataset,
) -> None:
    dataset = make_dataset("en", "zh", n=ZH_CAPACITY + 1)
    run_generation(dataset)
    en = dataset.paradigms.get(uid="en_sv_agreement")
    zh = dataset.paradigms.get(uid="zh_classifier_noun")
    assert (en.status, en.produced) == ("done", ZH_CAPACITY + 1)
    assert (zh.status, zh.produced) == ("failed", 0)
    [problem] = zh.problems
    assert (
        problem["code"] == "E_SHORTFALL"
        and "can make at most 11 different good sentences" in problem["message"]
    )
    job = Job.objects.get(pk=dataset.job_id)
    assert job.status == "failed"
    assert job.message.startswith(
        "1 of 2 paradigms failed:\nzh_classifier_noun: zh_classifier_noun can make at most"
    )
    assert job.message.endswith(
        f"The {ZH_CAPACITY + 1} pairs stored are kept; a failed paradigm can be retried alone."
    )
    assert Pair.objects.filter(paradigm=en).count() == ZH_CAPACITY + 1


def test_as_many_as_possible_makes_all_a_short_paradigm_can_and_finishes_the_dataset(
    make_dataset: MakeDataset,
) -> None:
    dataset = make_dataset("en", "zh", n=ZH_CAPACITY + 4, as_many_as_possible=True)
    run_generation(dataset, chunk_size=4)
    zh = dataset.paradigms.get(uid="zh_classifier_noun")
    assert (zh.status, zh.produced, zh.requested) == ("done", ZH_CAPACITY, ZH_CAPACITY + 4) and zh.is_short
    assert zh.problems[0]["code"] == "E_SHORTFALL"  # why it made no more, beside the count
    assert dataset.paradigms.get(uid="en_sv_agreement").problems == []
    job = Job.objects.get(pk=dataset.job_id)
    assert job.status == "done"
    total = ZH_CAPACITY + ZH_CAPACITY + 4  # all of zh, and en's full count
    assert (job.progress_done, job.progress_total) == (total, total)  # not "26 of 26" for 22 pairs
    assert job.message.endswith(
        f"Made fewer than asked, all they can make: zh_classifier_noun ({ZH_CAPACITY} of {ZH_CAPACITY + 4})."
    )


def test_refuse_short_names_each_short_paradigm_and_stores_nothing(make_dataset: MakeDataset) -> None:
    from mpp_studio.datasets.services import ShortParadigms

    with pytest.raises(ShortParadigms) as caught:
        make_dataset("en", "zh", n=ZH_CAPACITY + 1, refuse_short=True)
    assert caught.value.short == [("zh_classifier_noun", ZH_CAPACITY)]
    assert f"zh_classifier_noun ({ZH_CAPACITY})" in caught.value.message_dict["pairs_per_paradigm"][0]
    assert not Dataset.objects.exists()
    # Enough pairs, or the author's choice: created.
    assert make_dataset("en", "zh", n=ZH_CAPACITY, refuse_short=True, name="fits").paradigms.count() == 2
    chosen = make_dataset("zh", n=ZH_CAPACITY + 1, refuse_short=True, as_many_as_possible=True, name="all")
    assert chosen.paradigms.get().as_many_as_possible


def test_a_failed_paradigm_is_retried_alone_under_a_new_job(
    make_dataset: MakeDataset, editor: object
) -> None:
    from mpp_studio.datasets.services import dataset_paradigm_retry

    dataset = make_dataset("en", "zh", n=ZH_CAPACITY + 1)
    run_generation(dataset)
    zh = dataset.paradigms.get(uid="zh_classifier_noun")
    en = dataset.paradigms.get(uid="en_sv_agreement")
    first_job = dataset.job_id
    en_pairs = list(
        Pair.objects.filter(paradigm=en).order_by("index").values_list("sentence_good", flat=True)
    )

    with pytest.raises(ValidationError):
        dataset_paradigm_retry(paradigm=en)  # only a failed paradigm
    retried = dataset_paradigm_retry(paradigm=zh, as_many_as_possible=True, user=editor)  # type: ignore[arg-type]
    assert (retried.status, retried.problems, retried.as_many_as_possible) == ("pending", [], True)
    dataset.refresh_from_db()
    assert dataset.job_id != first_job and Job.objects.get(pk=dataset.job_id).status == "queued"
    assert Job.objects.get(pk=first_job).status == "failed"  # the old job's record stays

    run_generation(dataset)
    zh.refresh_from_db()
    assert (zh.status, zh.produced) == ("done", ZH_CAPACITY)
    assert Job.objects.get(pk=dataset.job_id).status == "done"
    # The other paradigm was not touched.
    again = list(Pair.objects.filter(paradigm=en).order_by("index").values_list("sentence_good", flat=True))
    assert again == en_pairs
    with pytest.raises(ValidationError):
        dataset_paradigm_retry(paradigm=zh)  # done now


def test_pairs_made_before_a_shortfall_are_kept(make_dataset: MakeDataset) -> None:
    """The engine gives up after 5 pairs: those 5 stay stored, the paradigm is failed."""
    from mpp_studio.datasets.services import generation

    real = generation.paradigm_generator

    def stopping_after_five(paradigm: DatasetParadigm) -> object:
        generator = real(paradigm)
        pairs = generator.pairs

        def five_then_shortfall(n: int, seed: int, **kw: object) -> object:
            yield from pairs(5, seed, **kw)  # type: ignore[arg-type]
            raise GenerationError(
                Problem("E_SHORTFALL", "made only 5 of 9 unique pairs", "en_sv_agreement.yaml")
            )

        generator.pairs = five_then_shortfall  # type: ignore[method-assign]
        return generator

    dataset = make_dataset("en", n=9)
    with mock.patch.object(generation, "paradigm_generator", stopping_after_five):
        run_generation(dataset, chunk_size=2)
    paradigm = dataset.paradigms.get()
    assert (paradigm.status, paradigm.produced) == ("failed", 5)
    assert paradigm.problems[0]["message"] == "made only 5 of 9 unique pairs"
    assert list(paradigm.pairs.values_list("index", flat=True)) == [0, 1, 2, 3, 4]
    job = Job.objects.get(pk=dataset.job_id)
    assert job.status == "failed" and job.progress_done == 5


def test_an_engine_bug_fails_the_paradigm_in_words(make_dataset: MakeDataset) -> None:
    dataset = make_dataset("en", n=4)
    with mock.patch(
        "mpp_studio.datasets.services.generation.paradigm_generator", side_effect=KeyError("slot")
    ):
        run_generation(dataset)
    [problem] = dataset.paradigms.get().problems
    assert problem["code"] == "E_ENGINE" and "KeyError" in problem["message"]
    assert Job.objects.get(pk=dataset.job_id).status == "failed"


def test_uniqueness_option_is_passed_to_the_engine(make_dataset: MakeDataset) -> None:
    """With unique good sentences, no two pairs of a paradigm share a good sentence."""
    dataset = make_dataset("en", n=EN_CAPACITY, unique="good")
    run_generation(dataset)
    goods = [r[2] for r in rows(dataset)]
    assert len(goods) == len(set(goods)) == EN_CAPACITY


def test_cancelled_generation_stops_and_keeps_stored_pairs(make_dataset: MakeDataset, editor: object) -> None:
    dataset = make_dataset("en", n=EN_CAPACITY)
    paradigm = dataset.paradigms.get()
    assert dataset_paradigm_generate(paradigm_id=paradigm.pk, chunk_size=4, pairs_per_run=4) is True
    assert dataset_cancel(dataset=dataset, user=editor)  # type: ignore[arg-type]
    assert dataset_paradigm_generate(paradigm_id=paradigm.pk, chunk_size=4, pairs_per_run=4) is False
    paradigm.refresh_from_db()
    assert (paradigm.status, paradigm.produced) == ("pending", 4)
    job = Job.objects.get(pk=dataset.job_id)
    assert job.status == "cancelled" and job.message == "Cancelled by ed."
    assert not dataset_cancel(dataset=dataset)


def test_delete_removes_pairs_paradigms_and_job_but_not_versions(generated: Dataset) -> None:
    job_id = generated.job_id
    snapshot_ids = list(generated.paradigms.values_list("vocabulary_snapshot_id", flat=True))
    dataset_delete(dataset=generated)
    assert not Dataset.objects.exists() and not Pair.objects.exists() and not DatasetParadigm.objects.exists()
    assert not Job.objects.filter(pk=job_id).exists()
    assert VocabularySnapshot.objects.filter(pk__in=snapshot_ids).count() == 2


def test_delete_removes_pairs_a_chunk_at_a_time(generated: Dataset, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pairs go DELETE_CHUNK at a time (each chunk its own short transaction), never in one
    statement over all of them."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from mpp_studio.datasets.services import datasets as dataset_services

    monkeypatch.setattr(dataset_services, "DELETE_CHUNK", 2)
    pairs = Pair.objects.filter(paradigm__dataset=generated).count()
    assert pairs > 4
    with CaptureQueriesContext(connection) as queries:
        dataset_delete(dataset=generated)
    pair_deletes = [q["sql"] for q in queries if q["sql"].startswith('DELETE FROM "datasets_pair"')]
    assert len(pair_deletes) >= pairs // 2
    assert not Pair.objects.exists() and not Dataset.objects.exists()


def test_generation_of_a_deleted_dataset_does_nothing(make_dataset: MakeDataset) -> None:
    dataset = make_dataset("en", n=4)
    paradigm_id = dataset.paradigms.get().pk
    dataset_delete(dataset=dataset)
    assert dataset_paradigm_generate(paradigm_id=paradigm_id) is False
    assert not Pair.objects.exists()


BALANCED_CSV = """\
id,form,lemma,pos,number,balanced
n1,cat,cat,NN,sg,1
n3,dog,dog,NN,sg,0
n5,bird,bird,NN,sg,1
v1,sleep,sleep,VB,,1
v2,run,run,VB,,0
v3,jump,jump,VB,,
"""
BALANCED_TEMPLATE = EN_PHRASE_TEMPLATE.replace("uid: en_sv_agreement", "uid: en_balanced").replace(
    "vocabulary: en_nouns", "vocabulary: en_balanced"
)


def test_balanced_words_only_leaves_out_the_words_a_balance_dropped(project: object, editor: object) -> None:
    from tests.web.datasets.conftest import make_vocabulary

    make_vocabulary(project, "en_balanced", BALANCED_CSV, "en_balanced.csv")
    Phrase.objects.create(project=project, name="SgNP", text=SG_NP_PHRASE)
    template = template_save(project=project, source_text=BALANCED_TEMPLATE, user=None).template  # type: ignore[arg-type]

    def words(balanced: bool, n: int) -> set[str]:
        dataset = dataset_create(
            project=project,  # type: ignore[arg-type]
            name=f"balanced {balanced}",
            templates=[template],
            pairs_per_paradigm=n,
            balanced_words_only=balanced,
            created_by=editor,  # type: ignore[arg-type]
        )
        assert dataset.balanced_words_only is balanced
        run_generation(dataset)
        return {w for r in rows(dataset) for w in r[2].lower().rstrip(".").split()}

    # cat/bird x sleep/jump (the blank `balanced` of "jump" is not a 0): 4 pairs, no dog or run.
    assert words(True, 4) == {"the", "cat", "bird", "sleeps", "jumps"}
    assert {"dog", "runs"} <= words(False, 9)
    short = dataset_create(
        project=project,  # type: ignore[arg-type]
        name="too many",
        templates=[template],
        pairs_per_paradigm=5,
        balanced_words_only=True,
        created_by=editor,  # type: ignore[arg-type]
    )
    run_generation(short)
    [problem] = short.paradigms.get().problems
    assert problem["code"] == "E_SHORTFALL"
    assert problem["message"].endswith(
        "(this dataset uses counterbalanced words only: the vocabulary items marked balanced = 0 "
        "were left out)"
    )


def test_a_paradigm_whose_runs_keep_dying_before_a_chunk_fails_in_words(make_dataset: MakeDataset) -> None:
    """Each run counts an attempt and a stored chunk resets the count; a paradigm whose worker
    died MAX_ATTEMPTS times without storing a chunk is failed with the reason instead of being
    redelivered for ever, keeping the pairs stored before, and its job ends."""
    from mpp_studio.datasets.services.generation import MAX_ATTEMPTS

    dataset = make_dataset("en", n=12, seed=5)
    paradigm = dataset.paradigms.get()
    assert dataset_paradigm_generate(paradigm_id=paradigm.pk, chunk_size=3, pairs_per_run=6) is True
    paradigm.refresh_from_db()
    assert (paradigm.produced, paradigm.attempts) == (6, 0)  # the run stored chunks

    # Three runs whose worker died before their first chunk (as a SIGKILL would leave them).
    for died in range(1, MAX_ATTEMPTS + 1):
        with (
            mock.patch("mpp_studio.datasets.services.generation._store_pairs", side_effect=SystemExit),
            pytest.raises(SystemExit),
        ):
            dataset_paradigm_generate(paradigm_id=paradigm.pk)
        paradigm.refresh_from_db()
        assert paradigm.attempts == died and paradigm.status == "pending"

    assert dataset_paradigm_generate(paradigm_id=paradigm.pk) is False
    paradigm.refresh_from_db()
    assert paradigm.status == "failed" and paradigm.produced == 6
    assert paradigm.problems[0]["code"] == "E_WORKER"
    assert f"stopped {MAX_ATTEMPTS} times" in paradigm.problems[0]["message"]
    assert Pair.objects.filter(paradigm=paradigm).count() == 6  # nothing stored is lost
    dataset.job.refresh_from_db()
    assert dataset.job.status in ("failed", "done") and dataset.job.finished_at is not None


def test_a_run_after_deaths_that_stores_a_chunk_clears_the_count(make_dataset: MakeDataset) -> None:
    dataset = make_dataset("en", n=12, seed=5)
    paradigm = dataset.paradigms.get()
    DatasetParadigm.objects.filter(pk=paradigm.pk).update(attempts=2)
    assert dataset_paradigm_generate(paradigm_id=paradigm.pk, chunk_size=3) is False
    paradigm.refresh_from_db()
    assert (paradigm.status, paradigm.produced, paradigm.attempts) == ("done", 12, 0)


def test_a_database_outage_in_a_run_does_not_count_as_a_dead_worker(make_dataset: MakeDataset) -> None:
    from django.db import OperationalError

    dataset = make_dataset("en", n=12, seed=5)
    paradigm = dataset.paradigms.get()
    outage = OperationalError("server closed the connection unexpectedly")
    for _ in range(5):  # more outages than MAX_ATTEMPTS
        with (
            mock.patch("mpp_studio.datasets.services.generation._store_pairs", side_effect=outage),
            pytest.raises(OperationalError),
        ):
            dataset_paradigm_generate(paradigm_id=paradigm.pk)
        paradigm.refresh_from_db()
        assert paradigm.attempts == 0
    assert dataset_paradigm_generate(paradigm_id=paradigm.pk) is False
    paradigm.refresh_from_db()
    assert (paradigm.status, paradigm.produced) == ("done", 12)


def test_engine_checks_run_outside_the_write_transaction(
    make_dataset: MakeDataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saving a template version and creating a dataset check templates with the engine (seconds
    for big ones) before their transaction begins: SQLite's write lock is never held meanwhile."""
    from django.db import connection

    from mpp_studio.datasets.services import datasets as dataset_services
    from mpp_studio.paradigms.services import project_templates

    outer = len(connection.atomic_blocks)  # the test's own transaction
    depths: list[int] = []

    def watching(real: Any) -> Any:
        def check(*args: Any, **kwargs: Any) -> Any:
            depths.append(len(connection.atomic_blocks) - outer)
            return real(*args, **kwargs)

        return check

    monkeypatch.setattr(
        dataset_services, "template_version_check", watching(dataset_services.template_version_check)
    )
    monkeypatch.setattr(
        project_templates, "project_template_check", watching(project_templates.project_template_check)
    )
    dataset = make_dataset("en", n=4)
    version = dataset.paradigms.get().template_version
    project_templates.template_save(
        project=dataset.project, source_text=version.source_text, user=None, template=version.template
    )
    assert depths and all(depth == 0 for depth in depths), depths
