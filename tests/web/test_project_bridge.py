"""The bridge from project rows to the engines: vocabularies from rows, snapshots, template saves."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from mpp_studio.accounts.models import Membership, Project
from mpp_studio.accounts.roles import Role
from mpp_studio.lexicon.engine import vocabulary_to_engine
from mpp_studio.lexicon.services import vocabulary_create_from_lexicon, vocabulary_snapshot_ensure
from mpp_studio.paradigms.models import Phrase
from mpp_studio.paradigms.services import template_save
from vocab.io import read_vocabulary_text

pytestmark = pytest.mark.django_db

CSV = "form,lemma,pos,number\ndog,dog,NN,sg\ncat,cat,NN,sg\nrun,run,VB,\nsleep,sleep,VB,\n"
TEMPLATE = """\
uid: sva
phenomenon: subject_verb_agreement
language: en
vocabulary: ../vocabularies/animals.csv
good:
  - {id: subj, phrase: NP}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
bad:
  - {same: subj}
  - {same: verb, form: VBP}
"""


@pytest.fixture()
def project() -> Project:
    user = get_user_model().objects.create_user("owner", password="pw-12345-xyz")
    project = Project.objects.create(name="Agreement", created_by=user)
    Membership.objects.create(project=project, user=user, role=Role.OWNER)
    lexicon = read_vocabulary_text(CSV, file_name="animals.csv", language="en")
    vocabulary_create_from_lexicon(project=project, lexicon=lexicon, name="animals")
    Phrase.objects.create(
        project=project, name="NP", text="- [{direct: the}, {id: head, lexical: {pos: NN}}]\n"
    )
    return project


def test_vocabulary_rows_give_the_same_engine_vocabulary(project: Project) -> None:
    original = read_vocabulary_text(CSV, file_name="animals.csv", language="en")
    rebuilt = vocabulary_to_engine(project.vocabularies.get())
    assert rebuilt.version == original.version and len(rebuilt) == 4


def test_snapshot_is_made_once_per_content(project: Project) -> None:
    vocabulary = project.vocabularies.get()
    first = vocabulary_snapshot_ensure(vocabulary=vocabulary)
    assert vocabulary_snapshot_ensure(vocabulary=vocabulary) == first
    assert first.items_text.startswith("id,form,lemma,pos") or "form" in first.items_text.splitlines()[0]
    vocabulary.items.filter(form="cat").delete()
    assert vocabulary_snapshot_ensure(vocabulary=vocabulary) != first


def test_template_save_adds_versions_with_problems_and_capacity(project: Project) -> None:
    version = template_save(project=project, source_text=TEMPLATE, user=None)
    assert version.number == 1 and version.problems == [] and version.capacity_text == "4"
    broken = template_save(
        project=project,
        source_text=TEMPLATE.replace("pos: VB", "pos: VERB"),
        user=None,
        template=version.template,
    )
    assert broken.number == 2 and broken.problems[0]["code"] == "E_UNKNOWN_VALUE"
    assert version.template.versions.count() == 2


def test_template_save_names_a_missing_vocabulary(project: Project) -> None:
    version = template_save(
        project=project, source_text=TEMPLATE.replace("animals.csv", "plants.csv"), user=None
    )
    [problem] = version.problems
    assert problem["code"] == "E_VOCABULARY" and "no vocabulary called 'plants'" in problem["message"]
    assert "(it has: animals)" in problem["message"] and problem["line"] == 4


def test_template_save_needs_uid_for_new_template(project: Project) -> None:
    with pytest.raises(ValidationError) as caught:
        template_save(project=project, source_text="good: [", user=None)
    assert "uid" in str(caught.value)
    template_save(project=project, source_text=TEMPLATE, user=None)
    with pytest.raises(ValidationError):
        template_save(project=project, source_text=TEMPLATE, user=None)


def test_template_save_keeps_unreadable_text_of_existing_template(project: Project) -> None:
    template = template_save(project=project, source_text=TEMPLATE, user=None).template
    broken = template_save(project=project, source_text="good: [\n", user=None, template=template)
    assert broken.problems[0]["code"] == "E_SYNTAX" and broken.source_text == "good: [\n"
