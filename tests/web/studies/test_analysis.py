"""The analysis service on hand-built studies: judgements from stored answers give the engine's
numbers; exclusion by catch trials and (when set) by speed; gold agreement by hand; triplet
comparisons with the learner-artificial hypothesis kept out of gold; publishing to the dataset
card; re-validating only the flagged paradigms."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from mpp_studio.datasets.exports.card import ParadigmFile, dataset_card, dataset_info, paradigm_file_path
from mpp_studio.studies.analysis_rules import AnalysisRules, rules_from_data, rules_of
from mpp_studio.studies.models import Participation, Study
from mpp_studio.studies.report import participant_key, study_report
from mpp_studio.studies.report_exports import report_dict
from mpp_studio.studies.services import schedule_of, study_build_design
from mpp_studio.studies.services_analysis import revalidation_create, rules_save, validation_publish
from scoring.stats import wilson_interval
from study.agreement import ItemInfo, Judgement, ParticipantInfo, WordUse
from study.design import StudyDesign
from study.validation_study import analyse_study
from tests.web.studies.analysis_helpers import FLAGGED, SUBJ_LINE, answer, attach_template, build, shared_word
from tests.web.studies.conftest import make_pair_dataset, start

pytestmark = pytest.mark.django_db


def expected_analysis(built: Any, rules: AnalysisRules) -> Any:
    """Return the engine's analysis of the judgements the test gave (from the choice policy and
    each schedule, not from stored responses)."""
    study = built.study
    design = StudyDesign.from_dict(study.design)
    judgements, participants = [], []
    for p in Participation.objects.filter(study=study).exclude(status="withdrawn"):
        key = participant_key(p.token_id)
        participants.append(ParticipantInfo(key, p.status == "completed", f"List {p.list_index + 1}"))
        answered = p.responses.count()
        for trial in schedule_of(p).trials[:answered]:
            right = (p.pk != built.catch_failer.pk) if trial.kind == "catch" else built.right(trial)
            left = (trial.gold_index == 0) == right
            judgements.append(
                Judgement(
                    item_id=trial.item_id,
                    participant_id=key,
                    correct=right,
                    paradigm=trial.paradigm,
                    phenomenon=trial.phenomenon,
                    rt_ms=float(built.rts.get(p.pk, 1500)),
                    chose_left=left,
                    is_catch=trial.kind == "catch",
                    is_practice=trial.kind == "practice",
                    is_filler=trial.kind == "filler",
                )
            )
    items = [
        ItemInfo(i.item_id, i.paradigm, i.phenomenon, tuple(WordUse(*w) for w in i.words))
        for i in design.items
    ]
    return analyse_study(judgements, items, participants, rules.settings(int(study.seed)))


def test_the_report_gives_the_engines_numbers(study: Study) -> None:
    built = build(study)
    report = study_report(study)
    assert report.analysis.to_dict() == expected_analysis(built, AnalysisRules()).to_dict()

    flow = report.analysis.exclusion.flow
    assert (flow.started, flow.completed, flow.checked, flow.excluded, flow.analysed) == (7, 6, 6, 1, 5)
    assert flow.excluded_by_reason["catch_trials"] == 1
    assert sum(f.started for f in report.analysis.exclusion.flow_by_list) == 7
    checks = {p.participant_id: p for p in report.analysis.exclusion.participants}
    assert checks[participant_key(built.catch_failer.token_id)].reasons == ("catch_trials",)
    assert not checks[participant_key(built.too_fast.token_id)].excluded  # no speed rule yet
    assert participant_key(built.withdrawn.token_id) not in checks
    assert report.flagged_paradigms == [FLAGGED]
    position, word = shared_word(study)
    flagged_words = {(w.position, w.word) for w in report.analysis.word_flags}
    assert (position, word) in flagged_words
    # Lists: withdrawn and the stopped participant are counted, not analysed.
    assert sum(c.withdrawn for c in report.lists) == 1
    assert sum(c.started for c in report.lists) == 8
    assert sum(c.completed for c in report.lists) == 6


def test_agreement_by_hand(study: Study) -> None:
    build(study, with_word=False)
    analysis = study_report(study).analysis
    paradigms = {p.name: p for p in analysis.paradigms}
    # Five analysed participants, 2 items of each paradigm each: anaphor always against gold.
    assert paradigms[FLAGGED].micro == 0.0 and paradigms[FLAGGED].correct == 0
    agreement = paradigms["en_sv_agreement"]
    assert agreement.micro == 1.0 and agreement.n_responses == 10
    assert (agreement.wilson_low, agreement.wilson_high) == pytest.approx(wilson_interval(10, 10, 0.95))
    assert analysis.overall is not None
    assert analysis.overall.micro == pytest.approx(2 / 3)
    assert analysis.overall.majority_accuracy == pytest.approx(8 / 12)
    assert analysis.overall.n_participants == 5
    assert [f.paradigm for f in analysis.paradigm_flags] == [FLAGGED]


def test_a_speed_rule_excludes_the_fast_participant_live(study: Study) -> None:
    built = build(study)
    rules = rules_save(study=study, data={"min_catch_accuracy": "1", "min_median_rt_ms": "500"})
    study.refresh_from_db()
    assert rules_of(study) == rules and rules.min_median_rt_ms == 500
    report = study_report(study)
    assert report.analysis.to_dict() == expected_analysis(built, rules).to_dict()
    flow = report.analysis.exclusion.flow
    assert (flow.excluded, flow.analysed) == (2, 4)
    assert flow.excluded_by_reason == {**flow.excluded_by_reason, "too_fast": 1, "catch_trials": 1}
    assert participant_key(built.too_fast.token_id) in report.excluded_keys


def test_blimp_preset_and_the_researchers_threshold(study: Study) -> None:
    build(study, with_word=False)
    # Every paradigm but anaphor has all items right: a BLiMP 4-of-5 rule flags only anaphor,
    # a ZhoBLiMP threshold of 1.01 is refused, 0.0 flags nothing.
    assert study_report(study, rules_from_data({"preset": "blimp"})).flagged_paradigms == [FLAGGED]
    assert study_report(study, rules_from_data({"threshold": "0"})).flagged_paradigms == []
    with pytest.raises(ValidationError) as error:
        rules_from_data({"threshold": "1.01"})
    assert "threshold" in error.value.message_dict


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"min_median_rt_ms": "fast"}, "min_median_rt_ms", "write a number"),
        ({"min_items_answered": "2.5"}, "min_items_answered", "whole number"),
        ({"min_catch_accuracy": "2"}, "min_catch_accuracy", "between 0 and 1"),
        ({"max_left_share_deviation": "0.9"}, "max_left_share_deviation", "between 0 and 0.5"),
        ({"preset": "cola"}, "preset", "ZhoBLiMP or the BLiMP"),
        ({"tie": "coin"}, "tie", "half or as a failure"),
    ],
)
def test_rules_that_do_not_read_are_named(data: dict[str, str], field: str, words: str) -> None:
    with pytest.raises(ValidationError) as error:
        rules_from_data(data)
    assert words in " ".join(error.value.message_dict[field])


def test_pairwise_triplets_keep_the_hypothesis_out_of_gold(
    project: Any, triplet_dataset: Any, make_study: Any
) -> None:
    study = make_study(project, [triplet_dataset], items_per_paradigm=2, catch_per_list=0)
    # Gold comparisons answered as expected; the learner-artificial one always for the artificial.
    for pid in ("a", "b", "c"):
        answer(start(study, pid), lambda trial: trial.comparison != "learner-artificial")
    report = study_report(study)
    keys = {i.item_id for i in report.analysis.items}
    assert keys and not any(k.endswith("#learner-artificial") for k in keys)
    assert {k.split("#")[1] for k in keys} == {"corrected-learner", "corrected-artificial"}
    assert report.analysis.overall is not None and report.analysis.overall.micro == 1.0
    overall = report.hypothesis[-1]
    assert overall.paradigm == "all" and overall.chose_learner == 0
    assert overall.n == 9  # 3 participants x 3 items in their list (6 items over 2 lists)
    assert {h.paradigm for h in report.hypothesis} == {"all", "R:VERB:SVA", "R:DET", "R:PREP"}
    assert report_dict(report)["learner_artificial_preference"][-1]["share"] == 0.0


def test_a_rank3_ranking_gives_three_comparisons(project: Any, triplet_dataset: Any, make_study: Any) -> None:
    study = make_study(project, [triplet_dataset], items_per_paradigm=2, catch_per_list=0, task="rank3")
    participation = start(study, "ranker")
    answer(participation, lambda trial: True)
    report = study_report(study)
    n_items = participation.trial_count
    assert len(report.analysis.items) == 2 * n_items
    assert report.analysis.overall is not None and report.analysis.overall.micro == 1.0
    assert report.hypothesis[-1].chose_learner == report.hypothesis[-1].n == n_items


def test_publish_writes_the_summary_the_card_shows(project: Any, study: Study, pair_dataset: Any) -> None:
    files = [ParadigmFile(p, paradigm_file_path(p)) for p in pair_dataset.paradigms.order_by("uid")]
    assert "Human validation" not in dataset_card(pair_dataset, files)
    with pytest.raises(ValidationError, match="nothing to publish"):
        validation_publish(study=study)
    build(study, with_word=False)
    written = validation_publish(study=study)
    assert written == [pair_dataset]
    pair_dataset.refresh_from_db()
    summary = pair_dataset.validation
    assert summary["study"] == study.name and summary["rule"]["threshold"] == 0.7
    rows = {r["uid"]: r for r in summary["paradigms"]}
    assert rows[FLAGGED]["included"] is False and rows["en_det_noun"]["included"] is True
    assert rows["en_sv_agreement"]["n_responses"] == 10 and rows["en_sv_agreement"]["micro"] == 1.0
    assert rows["en_sv_agreement"]["n_items"] == 4
    card = dataset_card(
        pair_dataset, [ParadigmFile(p, paradigm_file_path(p)) for p in pair_dataset.paradigms.all()]
    )
    assert "## Human validation" in card
    assert f"validation study “{study.name}”" in card
    assert "| en_anaphor | 4 | 10 | 0.0% |" in card and "no (below the rule)" in card
    assert "| en_sv_agreement | 4 | 10 | 100.0% | 72.2% – 100.0% | 100.0% | yes |" in card
    assert dataset_info(pair_dataset, files)["mpp_studio"]["validation"]["study_id"] == study.pk  # type: ignore[index]


def test_revalidation_of_the_flagged_paradigm(project: Any, study: Study, editor: Any) -> None:
    new = revalidation_create(study=study, paradigms=[FLAGGED], created_by=editor)
    assert new.is_draft and new.revalidation_of == study and new.paradigm_filter == [FLAGGED]
    design = StudyDesign.from_dict(new.design)
    assert {i.paradigm for i in design.items} == {FLAGGED}
    assert (new.n_lists, new.seed, new.catch_per_list, new.items_per_paradigm) == (2, 7, 1, 4)
    assert list(new.datasets.all()) == list(study.datasets.all())
    # Rebuilding the draft (saving its settings) keeps it to the flagged paradigm.
    rebuilt = study_build_design(new, list(new.datasets.all()))
    assert {i.paradigm for i in rebuilt.items} == {FLAGGED}
    # Items from a regenerated dataset.
    regenerated = make_pair_dataset(project, name="Regenerated")
    again = revalidation_create(study=study, paradigms=[FLAGGED], datasets=[regenerated])
    pks = {str(pk) for pk in regenerated.paradigms.get(uid=FLAGGED).pairs.values_list("pk", flat=True)}
    assert {i.item_id for i in StudyDesign.from_dict(again.design).items} <= pks
    with pytest.raises(ValidationError, match="at least one paradigm"):
        revalidation_create(study=study, paradigms=[])
    with pytest.raises(ValidationError, match="no items of the paradigms en_unknown"):
        revalidation_create(study=study, paradigms=["en_unknown"])


def test_word_flags_link_to_the_template_position(project: Any, study: Study, pair_dataset: Any) -> None:
    version = attach_template(project, pair_dataset)
    build(study)
    report = study_report(study)
    page = f"/projects/{project.pk}/templates/{version.template_id}/versions/3/"
    assert report.provenance.templates[FLAGGED] == page
    flagged = [f for f in report.analysis.item_flags if f.paradigm == FLAGGED]
    assert flagged and report.provenance.positions[(FLAGGED, "subj")] == f"{page}#L{SUBJ_LINE}"
    assert "en_sv_agreement" not in report.provenance.templates  # not generated from a project template
    # Each flagged item's word of the templated paradigm: its form and its vocabulary edit page.
    from mpp_studio.lexicon.models import VocabularyItem

    for flag in flagged:
        for use in flag.words:
            entry = VocabularyItem.objects.get(item_id=use.word)
            edit = f"/projects/{project.pk}/vocabularies/{entry.vocabulary_id}/items/{entry.pk}/edit/"
            assert report.provenance.words[(FLAGGED, use.word)] == (entry.form, edit)
