"""`manage.py load_demo`: the demo user and the shipped grammar library, safe to run again."""

from pathlib import Path
from typing import cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from mpp_studio.core.services import demo_user_ensure
from mpp_studio.paradigms.services import library_import
from mpp_studio.paradigms.services.demo import demo_project_ensure

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo"


class Command(BaseCommand):
    help = (
        "Create the demo superuser (demo/demo) if absent and import every vocabulary and "
        "template file of the grammar library. Files already imported with the same content "
        "are left alone; a changed file is stored as a new version."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--library",
            type=Path,
            default=None,
            help="grammar library folder (default: the GRAMMAR_LIBRARY_DIR setting)",
        )
        parser.add_argument(
            "--no-demo-user",
            action="store_true",
            help="import the library only; create no demo user (for a server)",
        )

    def handle(self, *args: object, **options: object) -> None:
        if not options["no_demo_user"]:
            self._ensure_demo_user()
        library_dir = cast(Path | None, options["library"]) or Path(settings.GRAMMAR_LIBRARY_DIR)
        if not library_dir.is_dir():
            self.stdout.write(f"No grammar library folder at {library_dir}; nothing to import.")
            return

        report = library_import(library_dir=library_dir)
        for result in report.results:
            if result.outcome == "skipped":
                self.stderr.write(f"Skipped {result.file_name}: {result.message}")
            elif result.outcome == "created" and result.details:
                count = len(result.details)
                self.stderr.write(
                    f"Imported {result.file_name} with {count} problem{'s' if count != 1 else ''}:"
                )
            elif result.outcome == "created":
                self.stdout.write(f"Imported {result.file_name}")
            if result.details and result.outcome != "unchanged":
                for line in result.details:
                    self.stderr.write("  " + line.replace("\n", "\n    "))
        with_problems = len(report.with_problems())
        self.stdout.write(
            f"Grammar library {library_dir}: {report.count('created')} imported, "
            f"{report.count('unchanged')} already up to date, {report.count('skipped')} skipped"
            + (
                f"; {with_problems} template{'s' if with_problems != 1 else ''} with problems "
                "(each paradigm's page lists them)."
                if with_problems
                else "."
            )
        )
        if not options["no_demo_user"]:
            self._ensure_demo_project()

    def _ensure_demo_project(self) -> None:
        user = get_user_model().objects.get(username=DEMO_USERNAME)
        project, import_report = demo_project_ensure(user=user)
        if import_report is None:
            self.stdout.write(f"'{project.name}' already exists; left as it is.")
            return
        for result in import_report.skipped:
            self.stderr.write(f"Not imported into '{project.name}': {result.source.uid}: {result.message}")
        self.stdout.write(
            f"Created '{project.name}' for {DEMO_USERNAME} with {len(import_report.imported)} paradigms."
        )

    def _ensure_demo_user(self) -> None:
        if demo_user_ensure(username=DEMO_USERNAME, password=DEMO_PASSWORD):
            self.stdout.write(
                f"Created the demo superuser. Sign in with user name '{DEMO_USERNAME}' "
                f"and password '{DEMO_PASSWORD}'."
            )
        else:
            self.stdout.write(f"User '{DEMO_USERNAME}' already exists; left unchanged.")
