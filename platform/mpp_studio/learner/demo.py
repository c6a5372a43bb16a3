"""The learner demo: the shipped learner corpus (templates/learner/) in the demo project, with
one finished triplet run made in this process (no worker or broker needed)."""

from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth.models import User

from mpp_studio.accounts.models import Project
from mpp_studio.jobs.models import Job
from mpp_studio.learner.models import LearnerCorpus, TripletRun
from mpp_studio.learner.services import Upload, corpus_read, corpus_upload_start, run_all_chunks, run_create

DEMO_CORPUS_NAME = "MPP learner demo"
CORPUS_FILE = "mpp_learner_corpus.tsv"
METADATA_FILE = "mpp_learner_corpus.meta.tsv"


@dataclass(frozen=True, slots=True)
class DemoOutcome:
    """The demo corpus and its run; what this call did ("created", "rerun" or "unchanged")."""

    corpus: LearnerCorpus
    run: TripletRun
    action: str


def demo_learner_ensure(*, project: Project, user: User, folder: Path) -> DemoOutcome:
    """Return the project's demo corpus with a finished run, uploading the corpus from `folder`
    and making its triplets when absent (a run that did not finish is made again)."""
    corpus = LearnerCorpus.objects.filter(project=project, name=DEMO_CORPUS_NAME).order_by("pk").first()
    action = "unchanged"
    if corpus is None:
        with (folder / CORPUS_FILE).open("rb") as main, (folder / METADATA_FILE).open("rb") as meta:
            corpus = corpus_upload_start(
                project=project,
                name=DEMO_CORPUS_NAME,
                source_format=LearnerCorpus.SourceFormat.PARALLEL,
                file=Upload(CORPUS_FILE, main),
                metadata_file=Upload(METADATA_FILE, meta),
                created_by=user,
                dispatch=False,
            )
        corpus_read(corpus_id=corpus.pk)  # here, in this process: the demo needs no worker
        corpus.refresh_from_db()
        action = "created"
    elif corpus.job is not None and not corpus.job.finished:  # a read that did not finish
        corpus_read(corpus_id=corpus.pk)
        corpus.refresh_from_db()
    run = corpus.runs.filter(job__status=Job.Status.DONE).order_by("-pk").first()
    if run is None:
        run = run_create(corpus=corpus, created_by=user, dispatch=False)
        run_all_chunks(run=run)
        run.refresh_from_db()
        action = "created" if action == "created" else "rerun"
    return DemoOutcome(corpus, run, action)
