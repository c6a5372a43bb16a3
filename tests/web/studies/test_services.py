"""Studies built from datasets, list assignment with leases, idempotent answers, one
participation per Prolific PID, STUDY_ID checks, completion and withdrawal."""

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from mpp_studio.datasets.models import Pair
from mpp_studio.studies.models import Participation, Response, Study
from mpp_studio.studies.services import (
    ParticipantProblem,
    mark_abandoned,
    next_trial_index,
    participation_withdraw,
    pid_hash,
    response_save,
    schedule_of,
    session_hash,
    study_close,
    study_update,
)
from study.design import StudyDesign
from tests.web.studies.conftest import gold_answer, make_pair_dataset, start

pytestmark = pytest.mark.django_db


def _answer_all(participation: Any, right: bool = True) -> None:
    for index in range(participation.trial_count):
        response_save(participation=participation, payload=gold_answer(participation, index, right))


# -- Designs ---------------------------------------------------------------------------------


def test_design_from_a_pair_dataset(study: Study, pair_dataset: Any) -> None:
    design = StudyDesign.from_dict(study.design)
    pairs = {str(p.pk): p for p in Pair.objects.filter(paradigm__dataset=pair_dataset)}
    assert len(design.items) == 12  # 4 of each of 3 paradigms
    assert Counter(i.paradigm for i in design.items) == {
        "en_sv_agreement": 4,
        "en_det_noun": 4,
        "en_anaphor": 4,
    }
    for item in design.items:
        pair = pairs[item.item_id]  # item ids are the Pair pks
        assert item.sentences == (pair.sentence_good, pair.sentence_bad)
        assert item.phenomenon == pair.record["phenomenon"]
        assert item.words == (("subj", pair.record["provenance"]["fillers"]["good"]["subj"]),)
    assert design.balance().balanced
    assert [len(s.item_ids) for s in design.lists] == [6, 6]
    assert all(len(s.catch) == 1 for s in design.lists)
    assert design.participants_needed() == 10
    assert study.design_settings["seed"] == 7
    assert study.instructions and study.consent_text  # the language's default texts


def test_design_from_a_triplet_dataset_pairwise_and_rank3(
    project: Any, triplet_dataset: Any, make_study: Any
) -> None:
    pairwise = make_study(project, [triplet_dataset], items_per_paradigm=2, opened=False)
    design = StudyDesign.from_dict(pairwise.design)
    assert {i.kind for i in design.items} == {"triplet"}
    assert len(design.items) == 6
    assert Counter(i.paradigm for i in design.items) == {"R:VERB:SVA": 2, "R:DET": 2, "R:PREP": 2}
    item = design.items[0]
    record = Pair.objects.get(pk=int(item.item_id)).record
    assert item.sentences == (record["corrected"], record["learner_error"], record["artificial_error"])
    first = start(study_open(pairwise))
    trials = schedule_of(first).trials
    # three comparisons per triplet, plus one catch trial
    assert len(trials) == 3 * 3 + 1
    assert {t.comparison for t in trials if t.kind == "experimental"} == {
        "corrected-learner",
        "learner-artificial",
        "corrected-artificial",
    }

    ranked = make_study(project, [triplet_dataset], items_per_paradigm=2, task="rank3", name="Ranked")
    trials = schedule_of(start(ranked)).trials
    assert {t.task for t in trials if t.kind == "experimental"} == {"rank3"}
    assert len([t for t in trials if t.kind == "experimental"]) == 3


def study_open(study: Study) -> Study:
    from mpp_studio.studies.services import study_open as open_study

    return open_study(study=study)


def test_rank3_needs_triplets(project: Any, pair_dataset: Any, make_study: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        make_study(project, [pair_dataset], task="rank3")
    assert "task" in caught.value.message_dict
    assert not Study.objects.exists()


def test_an_impossible_design_is_refused_in_words(project: Any, pair_dataset: Any, make_study: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        make_study(project, [pair_dataset], items_per_paradigm=1, n_lists=5)
    assert "lists" in " ".join(caught.value.messages)
    assert not Study.objects.exists()


def test_practice_items_come_from_items_the_sample_left_out(
    project: Any, pair_dataset: Any, make_study: Any
) -> None:
    study = make_study(project, [pair_dataset], practice_items=3)
    design = StudyDesign.from_dict(study.design)
    assert len(design.practice) == 3
    assert not {i.item_id for i in design.practice} & {i.item_id for i in design.items}
    assert len({i.paradigm for i in design.practice}) == 3  # one of each paradigm first
    trials = schedule_of(start(study)).trials
    assert [t.kind for t in trials[:3]] == ["practice"] * 3

    with pytest.raises(ValidationError) as caught:
        make_study(project, [pair_dataset], practice_items=40, name="Too much practice")
    assert "practice_items" in caught.value.message_dict


def test_two_datasets_pool_their_items(project: Any, pair_dataset: Any, make_study: Any) -> None:
    second = make_pair_dataset(project, per_paradigm=3, name="Second")
    study = make_study(project, [pair_dataset, second], items_per_paradigm=20)
    design = StudyDesign.from_dict(study.design)
    assert len(design.items) == 3 * (12 + 3)
    assert set(study.datasets.all()) == {pair_dataset, second}


def test_a_draft_is_rebuilt_an_opened_study_is_frozen(
    project: Any, pair_dataset: Any, make_study: Any
) -> None:
    draft = make_study(project, [pair_dataset], opened=False)
    study_update(study=draft, items_per_paradigm=2)
    assert len(StudyDesign.from_dict(draft.design).items) == 6
    study_open(draft)
    before = dict(draft.design)
    with pytest.raises(ValidationError):
        study_update(study=draft, items_per_paradigm=3)
    study_update(study=draft, instructions="Read carefully.")
    draft.refresh_from_db()
    assert draft.design == before
    assert draft.instructions == "Read carefully."


def test_datasets_of_another_project_are_refused(project: Any, other_project: Any, make_study: Any) -> None:
    foreign = make_pair_dataset(other_project)
    with pytest.raises(ValidationError):
        make_study(project, [foreign])


# -- Assignment ------------------------------------------------------------------------------


def test_lists_fill_evenly_and_abandoned_leases_free_their_slot(study: Study) -> None:
    people = [start(study, f"PID{i}") for i in range(6)]
    assert Counter(p.list_index for p in people) == {0: 3, 1: 3}
    # Two participants of list 0 let their lease expire: the next two starts go to list 0.
    gone = [p for p in people if p.list_index == 0][:2]
    Participation.objects.filter(pk__in=[p.pk for p in gone]).update(
        lease_started_at=timezone.now() - timedelta(minutes=study.lease_ttl_minutes + 1)
    )
    newcomers = [start(study, f"NEW{i}") for i in range(2)]
    assert [p.list_index for p in newcomers] == [0, 0]
    assert Participation.objects.get(pk=gone[0].pk).status == Participation.Status.ABANDONED
    # A withdrawn participant frees their slot too.
    participation_withdraw(participation=newcomers[0])
    assert start(study, "AFTER").list_index == 0


def test_many_starts_stay_balanced(study: Study) -> None:
    study.quota_per_list = 100  # places for all 200
    study.save(update_fields=["quota_per_list"])
    people = [start(study, f"P{i:03d}") for i in range(200)]
    counts = Counter(p.list_index for p in people)
    assert counts == {0: 100, 1: 100}
    assert len({p.token_id for p in people}) == 200


def test_completed_participants_keep_counting(study: Study) -> None:
    first = start(study, "DONE1")
    _answer_all(first)
    Participation.objects.filter(pk=first.pk).update(lease_started_at=timezone.now() - timedelta(days=3))
    assert mark_abandoned(study=study) == 0
    assert start(study, "NEXT").list_index != first.list_index


# -- One participation per PID, STUDY_ID ----------------------------------------------------


def test_one_participation_per_pid_resumes_it(study: Study) -> None:
    first = start(study, "5f0c1e2d3b4a")
    response_save(participation=first, payload=gold_answer(first, 0))
    again = start(study, "5f0c1e2d3b4a")
    assert again.pk == first.pk
    assert again.list_index == first.list_index
    assert next_trial_index(again) == 1
    assert Participation.objects.filter(study=study).count() == 1
    stored = Participation.objects.get(pk=first.pk)
    assert stored.pid_hash == pid_hash("5f0c1e2d3b4a") != "5f0c1e2d3b4a"
    assert len(stored.pid_hash) == 64
    # The raw PID is stored nowhere: no column of the row holds it.
    row = Participation.objects.filter(pk=first.pk).values().get()
    assert "5f0c1e2d3b4a" not in repr(row)


def test_a_returning_pid_after_expiry_keeps_its_list_and_answers(study: Study) -> None:
    first = start(study, "SLOW")
    response_save(participation=first, payload=gold_answer(first, 0))
    Participation.objects.filter(pk=first.pk).update(lease_started_at=timezone.now() - timedelta(days=1))
    mark_abandoned(study=study)
    again = start(study, "SLOW")
    assert (again.pk, again.list_index, again.status) == (first.pk, first.list_index, "active")
    assert next_trial_index(again) == 1


def test_a_completed_pid_is_already_done(study: Study) -> None:
    first = start(study, "FINISHED")
    _answer_all(first)
    first.refresh_from_db()
    assert first.status == Participation.Status.COMPLETED
    assert first.completed_at is not None
    with pytest.raises(ParticipantProblem) as caught:
        start(study, "FINISHED")
    assert caught.value.code == "already_done"


def test_study_id_must_match_when_configured(study: Study) -> None:
    study.prolific_study_id = "STUDY-A"
    study.save()
    with pytest.raises(ParticipantProblem) as caught:
        start(study, "PID1", study_id="STUDY-B")
    assert caught.value.code == "wrong_study_id"
    with pytest.raises(ParticipantProblem):
        start(study, "PID1")  # missing counts as different
    ok = start(study, "PID1", study_id="STUDY-A", session_id="SESSION-9")
    assert ok.study_id_param == "STUDY-A"
    assert ok.session_hash == session_hash("SESSION-9") != "SESSION-9"


def test_consent_version_must_be_the_current_one(study: Study) -> None:
    from mpp_studio.studies.services import participation_start

    with pytest.raises(ParticipantProblem):
        participation_start(study=study, prolific_pid="X", consent_version="old")
    p = start(study, "Y")
    assert p.consent_version == study.consent_version
    assert p.consented_at is not None


def test_draft_and_closed_studies_take_no_new_participants(
    project: Any, pair_dataset: Any, make_study: Any, study: Study
) -> None:
    draft = make_study(project, [pair_dataset], opened=False, name="Draft")
    with pytest.raises(ParticipantProblem):
        start(draft, "A")
    working = start(study, "WORKING")
    study_close(study=study)
    with pytest.raises(ParticipantProblem) as caught:
        start(study, "NEWCOMER")
    assert caught.value.code == "not_open"
    assert start(study, "WORKING").pk == working.pk  # those who started may come back


# -- Answers --------------------------------------------------------------------------------


def test_saving_is_idempotent(study: Study) -> None:
    p = start(study, "IDEM")
    payload = gold_answer(p, 0)
    first = response_save(participation=p, payload=payload)
    assert first.created
    other = {**payload, "choice": 1 - payload["choice"], "rt_ms": 99}
    again = response_save(participation=p, payload=other)
    assert not again.created
    assert again.response.pk == first.response.pk
    assert again.response.choice == payload["choice"]
    assert Response.objects.filter(participation=p).count() == 1
    stored = Response.objects.get(participation=p)
    trial = schedule_of(p).trials[0]
    assert (stored.item_id, stored.trial_kind, stored.correct, stored.rt_ms) == (
        trial.item_id,
        trial.kind,
        True,
        1500,
    )
    assert stored.received_at is not None


def test_trials_are_answered_in_order_and_checked(study: Study) -> None:
    p = start(study, "ORDER")
    with pytest.raises(ParticipantProblem) as caught:
        response_save(participation=p, payload=gold_answer(p, 2))
    assert caught.value.status == 409
    for bad in (
        {"trial_index": 0, "choice": 2},
        {"trial_index": 0, "choice": True},
        {"trial_index": 0, "choice": "0"},
        {"trial_index": 99, "choice": 0},
        {"trial_index": -1, "choice": 0},
        {"choice": 0},
    ):
        with pytest.raises(ParticipantProblem) as caught:
            response_save(participation=p, payload=bad)
        assert caught.value.status == 400
    assert not Response.objects.filter(participation=p).exists()


def test_confidence_is_required_when_asked(project: Any, pair_dataset: Any, make_study: Any) -> None:
    study = make_study(project, [pair_dataset], confidence=True)
    p = start(study, "CONF")
    payload = gold_answer(p, 0)
    with pytest.raises(ParticipantProblem):
        response_save(participation=p, payload={**payload, "confidence": None})
    with pytest.raises(ParticipantProblem):
        response_save(participation=p, payload={**payload, "confidence": 4})
    saved = response_save(participation=p, payload=payload).response
    assert saved.confidence == 2


def test_rank3_answers_store_the_ranking(project: Any, triplet_dataset: Any, make_study: Any) -> None:
    study = make_study(project, [triplet_dataset], items_per_paradigm=2, task="rank3")
    p = start(study, "RANK")
    trials = schedule_of(p).trials
    index = next(t.trial_index for t in trials if t.task == "rank3")
    for i in range(index):
        response_save(participation=p, payload=gold_answer(p, i))
    with pytest.raises(ParticipantProblem):
        response_save(participation=p, payload={"trial_index": index, "choice": [0, 0, 1]})
    saved = response_save(participation=p, payload=gold_answer(p, index)).response
    assert saved.ranking == list(trials[index].gold_ranking)
    assert saved.choice == saved.ranking[0]
    assert saved.correct is True


def test_practice_answers_get_feedback_others_do_not(
    project: Any, pair_dataset: Any, make_study: Any
) -> None:
    study = make_study(project, [pair_dataset], practice_items=1)
    p = start(study, "PRACTICE")
    assert response_save(participation=p, payload=gold_answer(p, 0, right=False)).feedback is False
    assert response_save(participation=p, payload=gold_answer(p, 1)).feedback is None


def test_the_last_answer_completes(study: Study) -> None:
    p = start(study, "LAST")
    for index in range(p.trial_count - 1):
        assert not response_save(participation=p, payload=gold_answer(p, index)).completed
    assert response_save(participation=p, payload=gold_answer(p, p.trial_count - 1)).completed
    p.refresh_from_db()
    assert p.status == Participation.Status.COMPLETED
    assert next_trial_index(p) is None


def test_withdraw_deletes_responses_and_the_pid_cannot_return(study: Study) -> None:
    p = start(study, "LEAVING", session_id="S1")
    keep = start(study, "STAYING")
    for index in range(3):
        response_save(participation=p, payload=gold_answer(p, index))
    response_save(participation=keep, payload=gold_answer(keep, 0))
    participation_withdraw(participation=p)
    p.refresh_from_db()
    assert p.status == Participation.Status.WITHDRAWN
    assert p.withdrawn_at is not None
    assert p.study_id_param == ""
    assert not Response.objects.filter(participation=p).exists()
    assert Response.objects.filter(participation=keep).count() == 1
    with pytest.raises(ParticipantProblem):
        start(study, "LEAVING")
    with pytest.raises(ParticipantProblem):
        response_save(participation=p, payload=gold_answer(p, 0))


def test_no_ip_or_user_agent_is_stored() -> None:
    names = {f.name.lower() for model in (Study, Participation, Response) for f in model._meta.get_fields()}
    assert not any(n == "ip" or "ip_" in n or "agent" in n or "address" in n for n in names)


def test_hand_written_catch_pairs_come_first(project: Any, pair_dataset: Any, make_study: Any) -> None:
    study = make_study(
        project,
        [pair_dataset],
        catch_per_list=2,
        catch_pairs="The sun is hot today. | Hot the today sun is.\n\n"
        "A dog barks loudly.\tBarks dog a loudly.",
    )
    design = StudyDesign.from_dict(study.design)
    for study_list in design.lists:
        assert [(c.good, c.bad, c.method) for c in study_list.catch] == [
            ("The sun is hot today.", "Hot the today sun is.", "hand-written"),
            ("A dog barks loudly.", "Barks dog a loudly.", "hand-written"),
        ]
    with pytest.raises(ValidationError) as caught:
        make_study(project, [pair_dataset], catch_pairs="fine | fine too\nno bar here", name="Broken")
    assert "Line 2" in caught.value.message_dict["catch_pairs"][0]


def test_a_start_sqlite_refused_as_locked_is_tried_again(
    study: Study, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    from mpp_studio.studies import services

    real = services._start_locked
    calls: list[int] = []

    def flaky(*args: Any) -> Any:
        calls.append(1)
        if len(calls) < 3:
            raise OperationalError("database is locked")
        return real(*args)

    monkeypatch.setattr(services, "_start_locked", flaky)
    monkeypatch.setattr(services.time, "sleep", lambda seconds: None)
    assert start(study, "RETRY").pid_hash == pid_hash("RETRY")
    assert len(calls) == 3
    monkeypatch.setattr(
        services, "_start_locked", lambda *a: (_ for _ in ()).throw(OperationalError("disk I/O"))
    )
    with pytest.raises(OperationalError):
        start(study, "OTHER")


def test_pairwise_triplet_answers_keep_their_comparison(
    project: Any, triplet_dataset: Any, make_study: Any
) -> None:
    study = make_study(project, [triplet_dataset], items_per_paradigm=1)
    p = start(study, "CMP")
    _answer_all(p)
    trials = schedule_of(p).trials
    keys = {
        f"{r.item_id}#{r.comparison}" if r.comparison else r.item_id
        for r in Response.objects.filter(participation=p)
    }
    assert keys == {t.analysis_key for t in trials}
    assert len(keys) == len(trials)  # three comparisons of one triplet are three judgements


def test_an_answer_racing_a_withdrawal_is_refused(study: Study) -> None:
    p = start(study, "RACE")
    stale = Participation.objects.get(pk=p.pk)  # loaded before the withdrawal, as a request would
    participation_withdraw(participation=p)
    with pytest.raises(ParticipantProblem):
        response_save(participation=stale, payload=gold_answer(stale, 0))
    assert not Response.objects.filter(participation=p).exists()


def test_filler_items_are_in_every_list_and_never_analysed(
    project: Any, pair_dataset: Any, make_study: Any
) -> None:
    from mpp_studio.studies.report import study_data

    study = make_study(
        project,
        [pair_dataset],
        n_lists=2,
        catch_per_list=0,
        filler_pairs="The cat sleeps on the mat. | The cat sleep on the mat.\nWe saw it. | We seen it.",
    )
    design = StudyDesign.from_dict(study.design)
    assert [f.sentences for f in design.fillers] == [
        ("The cat sleeps on the mat.", "The cat sleep on the mat."),
        ("We saw it.", "We seen it."),
    ]
    study_open(study=study)
    participation = start(study, "pid-fill")
    trials = schedule_of(participation).trials
    fillers = [t for t in trials if t.kind == "filler"]
    assert len(fillers) == 2
    for index in range(len(trials)):
        response_save(participation=participation, payload=gold_answer(participation, index))
    data = study_data(study)
    assert sorted(j.item_id for j in data.judgements if j.is_filler) == ["filler-1", "filler-2"]
    analysed = {j.item_id for j in data.judgements if j.is_experimental}
    assert not any(i.startswith("filler-") for i in analysed)
    with pytest.raises(ValidationError) as caught:
        make_study(project, [pair_dataset], filler_pairs="only one sentence", name="Broken fillers")
    assert "Line 1" in caught.value.message_dict["filler_pairs"][0]
