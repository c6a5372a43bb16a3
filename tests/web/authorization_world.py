"""One project holding an object of every kind a URL can name, for the authorization matrix and
the API contract tests: a vocabulary (item, feature), templates (a version), a phrase, a generated
dataset (pair, job, paradigm uid), a learner triplet dataset, a language model and a scoring run
(config, job), a learner corpus and its run (job), a study with a participant, an invitation.

Built with the apps' own services and the other test packages' helpers; no worker, no model.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA, write_library
from tests.web.datasets.conftest import prepare_project, run_generation
from tests.web.learner.conftest import DEMO_META, DEMO_TSV, upload
from tests.web.studies.conftest import STUDY_DEFAULTS, make_pair_dataset, make_triplet_dataset, start


@dataclass
class World:
    """The ids every URL argument is built from (`args`) and the participant's token."""

    args: dict[str, Any]
    participant_token: str
    project: Any


def build_world(*, project: Any, owner: Any, editor: Any, viewer: Any, library_dir: Path) -> World:
    """Fill `project` with one object of every kind (and import the tiny grammar library written
    to `library_dir`); return the URL arguments naming them."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from mpp_studio.accounts.services import invitation_create
    from mpp_studio.datasets.services import dataset_create
    from mpp_studio.evaluation.models import TokenFrequencyTable
    from mpp_studio.evaluation.services import language_model_unigram_ensure, run_create
    from mpp_studio.learner.services import run_create as triplet_run_create
    from mpp_studio.lexicon.services import Upload, vocabulary_import_upload
    from mpp_studio.lexicon.services.updates import vocabulary_update_start
    from mpp_studio.lexicon.services.vocabularies import vocabulary_snapshot_ensure
    from mpp_studio.paradigms.models import LibraryTemplate, Phrase
    from mpp_studio.paradigms.services.library import library_import
    from mpp_studio.studies.services import study_create, study_open
    from mpp_studio.studies.tokens import participant_token

    library_import(library_dir=write_library(library_dir))
    templates = prepare_project(project)
    vocabulary = vocabulary_import_upload(
        project=project,
        table=Upload("matrix_nouns.csv", EN_NOUNS_CSV.encode()),
        schema_file=Upload("matrix_nouns.schema.yaml", EN_NOUNS_SCHEMA.encode()),
    )
    dataset = dataset_create(
        project=project,
        name="Matrix set",
        templates=[templates["en"], templates["zh"]],
        pairs_per_paradigm=4,
        seed=0,
        unique="",
        created_by=editor,
    )
    run_generation(dataset)
    dataset.refresh_from_db()
    paradigm = dataset.paradigms.order_by("pk").first()
    pair = paradigm.pairs.order_by("pk").first()
    model = language_model_unigram_ensure(project=project, language="en")
    scoring_run = run_create(
        project=project, name="Matrix run", language_models=[model], datasets=[dataset], created_by=editor
    )
    config = scoring_run.configs.order_by("pk").first()
    frequencies = TokenFrequencyTable.objects.create(
        project=project, tokenizer_source="gpt2", origin="text", file_name="matrix.txt"
    )
    corpus = upload(project, editor, DEMO_TSV, DEMO_META, name="Matrix learners").corpus
    triplet_run = triplet_run_create(corpus=corpus, dispatch=False, created_by=editor)
    triplet_dataset = make_triplet_dataset(project, per_type=2, name="Matrix triplets")
    pairs_for_study = make_pair_dataset(project, per_paradigm=4, name="Matrix study pairs")
    study = study_create(project=project, datasets=[pairs_for_study], created_by=editor, **STUDY_DEFAULTS)
    study_open(study=study)
    participation = start(study)
    invitation = invitation_create(project=project, role="viewer", created_by=owner)
    imports = _imports(project, editor)
    update = vocabulary_update_start(
        vocabulary=vocabulary, table=SimpleUploadedFile("en_nouns.csv", b"form\ncat\n"), created_by=editor
    )
    template = templates["en"]
    args = {
        "project_id": project.pk,
        "vocabulary_id": vocabulary.pk,
        "item_pk": vocabulary.items.order_by("pk").first().pk,
        "feature": "number",
        "fmt": "csv",
        "template_id": template.pk,
        "number": template.versions.order_by("number").first().number,
        "phrase_id": Phrase.objects.filter(project=project).order_by("pk").first().pk,
        "dataset_id": dataset.pk,
        "triplet_dataset_id": triplet_dataset.pk,
        "pair_id": pair.pk,
        "uid": paradigm.uid,
        "paradigm_id": paradigm.pk,
        "job_id": dataset.job_id,
        "model_id": model.pk,
        "table_id": frequencies.pk,
        "run_id": scoring_run.pk,
        "config_id": config.pk,
        "scoring_job_id": scoring_run.job_id,
        "corpus_id": corpus.pk,
        "learner_run_id": triplet_run.pk,
        "learner_job_id": triplet_run.job_id,
        "study_id": study.pk,
        "slug": study.slug,
        "what": "responses",
        "user_id": viewer.pk,
        "invitation_id": invitation.pk,
        "invitation_token": invitation.token,
        "library_template_id": LibraryTemplate.objects.order_by("pk").first().pk,
        "update_id": update.pk,
        "snapshot_id": vocabulary_snapshot_ensure(vocabulary=vocabulary).pk,
        **imports,
    }
    return World(args=args, participant_token=participant_token(participation), project=project)


def _imports(project: Any, editor: Any) -> dict[str, int]:
    """Start one import job of each kind the paradigms and lexicon apps run (never run here: the
    test's transaction does not commit); return their ids as URL arguments."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from mpp_studio.lexicon.services.import_jobs import vocabulary_import_start
    from mpp_studio.paradigms.models import LibraryTemplate
    from mpp_studio.paradigms.services.library_into_project import library_templates_import_start
    from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_start

    vocabulary = vocabulary_import_start(
        project=project, table=SimpleUploadedFile("waiting.csv", b"form\ncat\n"), created_by=editor
    )
    zhoblimp = zhoblimp_import_start(
        project=project, files=[SimpleUploadedFile("waiting.zip", b"PK")], created_by=editor
    )
    library = library_templates_import_start(
        project=project, templates=[LibraryTemplate.objects.order_by("pk").first()], user=editor
    )
    return {
        "vocabulary_import_id": vocabulary.pk,
        "zhoblimp_import_id": zhoblimp.pk,
        "library_import_id": library.pk,
    }
