"""After a vocabulary changes, the templates that name it are counted again (issue 16, item 8):
the template list and the new-dataset form stop showing a capacity or a problem counted against
the vocabulary as it was."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.test import Client

from mpp_studio.lexicon.services import vocabulary_item_create, vocabulary_item_delete, vocabulary_update
from mpp_studio.paradigms.models import TemplateVersion
from mpp_studio.paradigms.services.project_templates import template_save
from mpp_studio.paradigms.services.recount import templates_recount_run
from mpp_studio.paradigms.tasks import recount_templates
from tests.web.conftest import PASSWORD, SV_AGREEMENT_YAML
from tests.web.lexicon.conftest import vocabulary  # noqa: F401 (fixture: en_nouns, 12 items)

pytestmark = pytest.mark.django_db

OTHER_YAML = SV_AGREEMENT_YAML.replace("uid: en_sv_agreement", "uid: en_other").replace(
    "vocabularies/en_nouns.csv", "vocabularies/fr_nouns.csv"
)


@pytest.fixture
def versions(
    project: Any,
    editor: Any,
    vocabulary: Any,  # noqa: F811
) -> tuple[TemplateVersion, TemplateVersion]:
    """en_sv_agreement over en_nouns (4 singular nouns x 4 verbs = 16 pairs), and a template that
    names a vocabulary the project lacks."""
    return (
        template_save(project=project, source_text=SV_AGREEMENT_YAML, user=editor),
        template_save(project=project, source_text=OTHER_YAML, user=editor),
    )


def _changed(capture: Callable[..., Any], change: Callable[[], object]) -> list[int]:
    """Make the change, run its on-commit announcements, and return the projects queued."""
    queued: list[int] = []
    with mock.patch.object(recount_templates, "delay", side_effect=queued.append), capture(execute=True):
        change()
    return queued


def test_a_grown_vocabulary_is_counted_again(
    django_capture_on_commit_callbacks: Callable[..., Any],
    project: Any,
    vocabulary: Any,  # noqa: F811
    versions: tuple[TemplateVersion, TemplateVersion],
) -> None:
    sv, other = versions
    assert sv.capacity_text == "16"
    queued = _changed(
        django_capture_on_commit_callbacks,
        lambda: vocabulary_item_create(
            vocabulary=vocabulary, form="fish", lemma="fish", pos="NN", features={"number": "sg"}
        ),
    )
    assert queued == [project.pk]
    sv.refresh_from_db()
    other.refresh_from_db()
    assert sv.recount_requested_at is not None and other.recount_requested_at is None
    assert sv.capacity_text == "16"  # until the worker counts it
    assert templates_recount_run(project_id=project.pk) == 1
    sv.refresh_from_db()
    assert (sv.capacity_text, sv.recount_requested_at, sv.problems) == ("20", None, [])
    assert templates_recount_run(project_id=project.pk) == 0  # run twice: nothing left


def test_problems_follow_the_vocabulary_both_ways(
    django_capture_on_commit_callbacks: Callable[..., Any],
    project: Any,
    vocabulary: Any,  # noqa: F811
    versions: tuple[TemplateVersion, TemplateVersion],
) -> None:
    sv, other = versions
    assert other.problems and other.problems[0]["code"] == "E_VOCABULARY"
    # Renaming en_nouns to fr_nouns: the template naming fr_nouns now works, the other breaks.
    _changed(
        django_capture_on_commit_callbacks, lambda: vocabulary_update(vocabulary=vocabulary, name="fr_nouns")
    )
    assert templates_recount_run(project_id=project.pk) == 2
    sv.refresh_from_db()
    other.refresh_from_db()
    assert other.problems == [] and other.capacity_text == "16"
    assert sv.problems[0]["code"] == "E_VOCABULARY" and sv.capacity_text == ""


def test_a_version_marked_again_while_counted_stays_marked(
    django_capture_on_commit_callbacks: Callable[..., Any],
    project: Any,
    vocabulary: Any,  # noqa: F811
    versions: tuple[TemplateVersion, TemplateVersion],
) -> None:
    sv, _ = versions
    cat = vocabulary.items.get(item_id="n1")
    _changed(django_capture_on_commit_callbacks, lambda: vocabulary_item_delete(item=cat))
    real = TemplateVersion.objects.filter

    def marked_meanwhile(*args: Any, **kwargs: Any) -> Any:
        if "recount_requested_at" in kwargs and "pk" in kwargs:  # the store of the count
            TemplateVersion.objects.filter(pk=kwargs["pk"]).update(
                recount_requested_at="2030-01-01T00:00:00Z"
            )
        return real(*args, **kwargs)

    with mock.patch.object(TemplateVersion.objects, "filter", side_effect=marked_meanwhile):
        assert templates_recount_run(project_id=project.pk) == 0
    sv.refresh_from_db()
    assert sv.recount_requested_at is not None
    assert templates_recount_run(project_id=project.pk) == 1
    sv.refresh_from_db()
    assert sv.capacity_text == "12" and sv.recount_requested_at is None


def test_the_list_and_the_dataset_form_say_a_recount_is_due(
    django_capture_on_commit_callbacks: Callable[..., Any],
    project: Any,
    editor: Any,
    vocabulary: Any,  # noqa: F811
    versions: tuple[TemplateVersion, TemplateVersion],
) -> None:
    client = Client()
    assert client.login(username=editor.get_username(), password=PASSWORD)
    form = client.get(f"/projects/{project.pk}/datasets/new/").content.decode()
    assert 'data-capacity="16"' in form and "recount-due" not in form
    _changed(
        django_capture_on_commit_callbacks,
        lambda: vocabulary_item_create(
            vocabulary=vocabulary, form="fish", lemma="fish", pos="NN", features={"number": "sg"}
        ),
    )
    listed = client.get(f"/projects/{project.pk}/templates/").content.decode()
    assert "recounting: the vocabulary changed" in listed
    form = client.get(f"/projects/{project.pk}/datasets/new/").content.decode()
    assert "being counted again" in form and 'data-capacity="16"' not in form
    templates_recount_run(project_id=project.pk)
    listed = client.get(f"/projects/{project.pk}/templates/").content.decode()
    assert "recount-due" not in listed and '<td class="capacity">20' in listed
    assert 'data-capacity="20"' in client.get(f"/projects/{project.pk}/datasets/new/").content.decode()
