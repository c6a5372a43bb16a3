"""A hand-built study for the analysis tests: participants answering with known choices.

In the pair study (3 paradigms x 4 items, 2 lists, 1 catch trial per list) every participant
answers every `en_anaphor` item against gold and, when `shared_word` is given, every item made
with that word; everything else with gold. One participant fails their catch trial, one answers
in 200 ms, one stops after two trials and one withdraws.
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mpp_studio.studies.services import participation_withdraw, response_save, schedule_of
from study.design import StudyDesign
from study.order import Trial
from tests.web.studies.conftest import start

FLAGGED = "en_anaphor"
Policy = Callable[[Trial], bool]


@dataclass
class Built:
    """The study with, per participation pk, the choices it was given, and who is who."""

    study: Any
    right: Policy
    catch_failer: Any = None
    too_fast: Any = None
    stopped: Any = None
    withdrawn: Any = None
    complete: list[Any] = field(default_factory=list)
    rts: dict[int, int] = field(default_factory=dict)


def shared_word(study: Any) -> tuple[str, str]:
    """Return the (position, word) used by the most items of the study's design (at least two)."""
    design = StudyDesign.from_dict(study.design)
    counts = Counter(w for item in design.items for w in item.words)
    (word, count), *_ = counts.most_common(1)
    assert count >= 2, "the fixture's design should reuse a word"
    return word


def answer(
    participation: Any, right: Policy, *, rt: int = 1500, fail_catch: bool = False, upto: int | None = None
) -> None:
    """Answer the participation's trials (all, or the first `upto`) with `right(trial)` deciding
    whether the gold sentence is chosen; catch trials right unless `fail_catch`."""
    schedule = schedule_of(participation)
    for trial in schedule.trials[:upto]:
        ok = not fail_catch if trial.kind == "catch" else right(trial)
        if trial.task == "rank3":
            choice: Any = list(trial.gold_ranking) if ok else list(reversed(trial.gold_ranking))
        else:
            choice = trial.gold_index if ok else 1 - int(trial.gold_index or 0)
        payload = {"trial_index": trial.trial_index, "choice": choice, "rt_ms": rt}
        if trial.confidence:
            payload["confidence"] = 2
        response_save(participation=participation, payload=payload)


def build(study: Any, *, with_word: bool = True, honest: int = 4) -> Built:
    """Run the hand-built study: `honest` complete participants, a catch failer, a too-fast one,
    one who stopped after two trials and one who withdrew."""
    word = shared_word(study) if with_word else None
    items = {i.item_id: i for i in StudyDesign.from_dict(study.design).items}

    def right(trial: Trial) -> bool:
        if trial.kind != "experimental":
            return True
        if trial.paradigm == FLAGGED:
            return False
        return not (word is not None and word in items[trial.item_id].words)

    built = Built(study=study, right=right)
    for n in range(honest):
        participation = start(study, f"honest{n}")
        answer(participation, right)
        built.complete.append(participation)
        built.rts[participation.pk] = 1500
    built.catch_failer = start(study, "catchfail")
    answer(built.catch_failer, right, fail_catch=True)
    built.too_fast = start(study, "speedy")
    answer(built.too_fast, right, rt=200)
    built.rts[built.too_fast.pk] = 200
    built.stopped = start(study, "stopper")
    answer(built.stopped, right, upto=2)
    built.withdrawn = start(study, "quitter")
    answer(built.withdrawn, right, upto=1)
    participation_withdraw(participation=built.withdrawn)
    for p in (built.catch_failer, built.too_fast, built.stopped, built.withdrawn, *built.complete):
        p.refresh_from_db()
    return built


TEMPLATE_YAML = """\
uid: en_anaphor
phenomenon: anaphora
language: en
vocabulary: ../vocabularies/en_nouns.csv
good:
  - {direct: the}
  - {id: subj, lexical: {pos: NN, number: sg}}
  - {direct: washed itself}
bad:
  - {same: "1"}
  - {same: subj}
  - {direct: washed themselves}
"""
SUBJ_LINE = 7  # the line of TEMPLATE_YAML that defines position `subj`


def attach_template(project: Any, dataset: Any, uid: str = FLAGGED) -> Any:
    """Give the dataset's paradigm `uid` a project template version and a vocabulary snapshot
    whose items n0..n11 are the fixture's nouns (as generation does); return the TemplateVersion."""
    from mpp_studio.datasets.models import DatasetParadigm
    from mpp_studio.lexicon.models import Vocabulary, VocabularyItem, VocabularySnapshot
    from mpp_studio.paradigms.models import Template, TemplateVersion
    from tests.web.studies.conftest import NOUNS

    template = Template.objects.create(project=project, uid=uid, phenomenon="anaphora", language="en")
    version = TemplateVersion.objects.create(template=template, number=3, source_text=TEMPLATE_YAML)
    vocabulary = Vocabulary.objects.create(project=project, name="en_nouns", language="en")
    VocabularyItem.objects.bulk_create(
        VocabularyItem(vocabulary=vocabulary, item_id=f"n{i}", form=noun, pos="NN")
        for i, noun in enumerate(NOUNS)
    )
    snapshot = VocabularySnapshot.objects.create(
        vocabulary=vocabulary, name="en_nouns", content_hash="abc", items_text="id,form\n"
    )
    DatasetParadigm.objects.filter(dataset=dataset, uid=uid).update(
        template_version=version, vocabulary_snapshot=snapshot
    )
    return version
