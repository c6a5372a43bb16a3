"""Selectors of the accounts app: the dashboard's counts, what a deletion would delete, member order."""

import pytest

from mpp_studio.accounts.models import Membership, Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import (
    invitation_list_open,
    invitation_list_open_for_owner,
    membership_list,
    project_contents_count,
    project_list_with_counts_for_user,
)
from mpp_studio.accounts.services import invitation_create, invitation_revoke, project_delete
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.jobs.models import Job
from mpp_studio.lexicon.models import Vocabulary, VocabularyItem, VocabularySnapshot
from mpp_studio.paradigms.models import Phrase, Template, TemplateVersion

pytestmark = pytest.mark.django_db


def fill(project: Project, owner: object) -> None:
    """Give the project two vocabularies, one template with two versions, a phrase, a job and a
    dataset whose paradigm uses a template version and a vocabulary snapshot."""
    nouns = Vocabulary.objects.create(project=project, name="nouns", language="en")
    Vocabulary.objects.create(project=project, name="名词", language="zh")
    VocabularyItem.objects.create(vocabulary=nouns, item_id="n1", form="cat", lemma="cat", pos="NN")
    snapshot = VocabularySnapshot.objects.create(
        vocabulary=nouns, name="nouns", content_hash="h1", items_text="id,form\nn1,cat\n"
    )
    VocabularySnapshot.objects.create(
        vocabulary=nouns, name="nouns", content_hash="h2", items_text="id,form\n"
    )
    Phrase.objects.create(project=project, name="np", text="- [{direct: the}]\n")
    template = Template.objects.create(project=project, uid="en_sv")
    version = TemplateVersion.objects.create(template=template, number=1, source_text="uid: en_sv\n")
    TemplateVersion.objects.create(template=template, number=2, source_text="uid: en_sv\n")
    job = Job.objects.create(project=project, kind="dataset_generate")
    dataset = Dataset.objects.create(project=project, name="set", pairs_per_paradigm=1, job=job)
    paradigm = DatasetParadigm.objects.create(
        dataset=dataset, template_version=version, vocabulary_snapshot=snapshot, uid="en_sv", requested=1
    )
    Pair.objects.create(paradigm=paradigm, index=0, sentence_good="a", sentence_bad="b", record={})


def test_project_list_with_counts_counts_each_kind_once(
    project: Project, owner: object, viewer: object
) -> None:
    fill(project, owner)
    (row,) = project_list_with_counts_for_user(user=viewer)
    assert row.role == Role.VIEWER
    counts = (row.vocabulary_count, row.template_count, row.phrase_count, row.dataset_count)
    assert counts == (2, 1, 1, 1)


def test_project_list_with_counts_shows_only_the_users_projects(
    project: Project, other_project: Project, outsider: object
) -> None:
    assert [p.name for p in project_list_with_counts_for_user(user=outsider)] == ["Someone else's"]


def test_project_contents_count_names_what_a_deletion_deletes(project: Project, owner: object) -> None:
    fill(project, owner)
    invitation_create(project=project, role=Role.VIEWER, created_by=owner)
    assert project_contents_count(project=project) == {
        "vocabularies": 2,
        "templates": 1,
        "phrases": 1,
        "datasets": 1,
        "jobs": 1,
        "members": 3,
        "invitations": 1,
    }


def test_project_delete_deletes_everything_in_a_full_project(
    project: Project, other_project: Project, owner: object, outsider: object
) -> None:
    fill(project, owner)
    fill(other_project, outsider)
    project_delete(project=project)
    assert not Project.objects.filter(pk=project.pk).exists()
    for model in (Vocabulary, Template, Phrase, Dataset, Job):
        assert model.objects.count() == model.objects.filter(project=other_project).count() > 0
    assert TemplateVersion.objects.count() == 2 and Pair.objects.count() == 1
    # The deleted project's snapshots go too; the other project's stay.
    assert VocabularySnapshot.objects.count() == 2
    assert not VocabularySnapshot.objects.filter(vocabulary__isnull=True).exists()


def test_membership_list_puts_owners_first(project: Project, editor: object) -> None:
    Membership.objects.filter(user=editor).update(role=Role.OWNER)
    assert [(m.user.username, m.role) for m in membership_list(project=project)] == [
        ("ed", "owner"),
        ("olga", "owner"),
        ("vic", "viewer"),
    ]


def test_open_invitation_lists_leave_out_revoked_ones(
    project: Project, owner: object, editor: object
) -> None:
    kept = invitation_create(project=project, role=Role.VIEWER, created_by=owner)
    invitation_revoke(invitation=invitation_create(project=project, role=Role.EDITOR, created_by=owner))
    assert list(invitation_list_open(project=project)) == [kept]
    assert list(invitation_list_open_for_owner(user=owner)) == [kept]
    assert list(invitation_list_open_for_owner(user=editor)) == []
