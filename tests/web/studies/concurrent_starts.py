"""Run in a child process (DATABASE_URL and DJANGO_SETTINGS_MODULE set, database migrated):
make an open two-list study, then start 200 participants from 16 threads at once, each PID
twice, and print what the database holds as JSON: participations per list, how many
participations, any error the starts raised, and the first item's words (read from the records
by the database's JSON key lookups)."""

import json
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from mpp_studio.accounts.models import Project  # noqa: E402
from mpp_studio.studies.models import Participation  # noqa: E402
from mpp_studio.studies.services import participation_start, study_create, study_open  # noqa: E402
from tests.web.studies.conftest import make_pair_dataset  # noqa: E402

PEOPLE = int(sys.argv[1]) if len(sys.argv) > 1 else 200


def main() -> None:
    user = get_user_model().objects.create_user("concurrent")
    project = Project.objects.create(name="Concurrent", created_by=user)
    dataset = make_pair_dataset(project)
    study = study_create(
        project=project,
        datasets=[dataset],
        name="Load",
        items_per_paradigm=4,
        n_lists=2,
        target_responses=100,
    )
    study_open(study=study)

    def one(pid: str) -> str:
        try:
            participation_start(
                study=study,
                prolific_pid=pid,
                session_id=f"session-{pid}",
                consent_version=study.consent_version,
            )
            return ""
        except Exception as error:  # reported, not raised: the parent test names it
            return f"{pid}: {type(error).__name__}: {error}"
        finally:
            connection.close()

    pids = [f"PID{i:04d}" for i in range(PEOPLE)] * 2
    with ThreadPoolExecutor(max_workers=16) as pool:
        errors = [e for e in pool.map(one, pids) if e]
    lists = Counter(Participation.objects.filter(study=study).values_list("list_index", flat=True))
    print(
        json.dumps(
            {
                "lists": {str(k): v for k, v in sorted(lists.items())},
                "participations": Participation.objects.filter(study=study).count(),
                "distinct_pids": Participation.objects.filter(study=study)
                .values("pid_hash")
                .distinct()
                .count(),
                "errors": errors[:5],
                "first_item_words": study.design["items"][0]["words"],
            }
        )
    )


main()
