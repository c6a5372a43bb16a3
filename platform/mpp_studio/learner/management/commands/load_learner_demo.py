"""`manage.py load_learner_demo`: the shipped learner corpus with its triplets in the demo
project, safe to run again (run `load_demo` first: it makes the demo user and project)."""

from pathlib import Path
from typing import cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from mpp_studio.learner.demo import DEMO_CORPUS_NAME, demo_learner_ensure
from mpp_studio.paradigms.services.demo import demo_project_ensure

DEMO_USERNAME = "demo"


class Command(BaseCommand):
    help = (
        "Upload templates/learner/mpp_learner_corpus.tsv (+ .meta.tsv) into the demo user's demo "
        "project and make its triplets in this process. Left alone when already done."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--folder",
            type=Path,
            default=None,
            help="folder holding the demo corpus files (default: templates/learner)",
        )

    def handle(self, *args: object, **options: object) -> None:
        user = get_user_model().objects.filter(username=DEMO_USERNAME).first()
        if user is None:
            raise CommandError(f"There is no user '{DEMO_USERNAME}': run `manage.py load_demo` first.")
        folder = cast(Path | None, options["folder"]) or Path(settings.GRAMMAR_LIBRARY_DIR) / "learner"
        if not folder.is_dir():
            raise CommandError(f"No learner corpus folder at {folder}.")
        project, _ = demo_project_ensure(user=user)
        outcome = demo_learner_ensure(project=project, user=user, folder=folder)
        run = outcome.run
        if outcome.action == "unchanged":
            self.stdout.write(f"'{DEMO_CORPUS_NAME}' already has its triplets; left as it is.")
            return
        job = run.job
        status = job.get_status_display().lower() if job is not None else "gone"
        note = f": {job.message}" if job is not None and job.message else ""
        self.stdout.write(
            f"'{DEMO_CORPUS_NAME}' in '{project.name}': {outcome.corpus.pair_count} pairs, "
            f"{run.triplet_total or 0} triplets (run {status}){note}"
        )
