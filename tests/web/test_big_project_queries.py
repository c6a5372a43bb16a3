"""Big projects stay fast, checked without timing anything (bench/big_project.py times them).

Every page and API read of a full project (tests/web/authorization_world.py) is requested
before and after its datasets grow; the number of SQL queries of each must not grow with the
pairs, and the pages that show counts of pairs must take them from the paradigms' `produced`
counts: no query of theirs counts pairs or reads pairs joined to their paradigms (a scan of
every pair of a dataset, sorted, at every page view: seconds at millions of pairs).
"""

import re
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.web.authorization_world import World, build_world
from tests.web.test_authorization_matrix import ADMIN_PREFIX, MATRIX, build_url, is_api, url_routes

pytestmark = pytest.mark.django_db

# Pairs added to every paradigm of the project between the two walks (more than a page).
GROWTH = 120
# Reading every pair of a dataset is what these do, by design: downloads stream every pair.
READS_EVERY_PAIR = ("/export/",)
# A query that counts pairs, or reads pairs through a join to their paradigms (the dataset's
# pairs, sorted or filtered, at every page view), rather than one paradigm's by its index.
COUNTS_PAIRS = re.compile(r'COUNT\(.*FROM "datasets_pair"', re.S)
JOINS_PAIRS = re.compile(r'^SELECT .* FROM "datasets_pair" (INNER|LEFT OUTER) JOIN', re.S)
ONE_PAIR = re.compile(r'"datasets_pair"\."id" = \d+')  # a pair by its id: one row


@pytest.fixture
def world(project: Any, owner: Any, editor: Any, viewer: Any, tmp_path: Path) -> World:
    from mpp_studio.datasets.models import Dataset
    from mpp_studio.jobs.models import Job
    from mpp_studio.learner.models import TripletRun

    with mock.patch("celery.app.task.Task.apply_async"):
        world = build_world(
            project=project, owner=owner, editor=editor, viewer=viewer, library_dir=tmp_path / "lib"
        )
    # The triplet run, finished, holds the world's triplet dataset (its paradigms' counts kept).
    run = TripletRun.objects.get(pk=world.args["learner_run_id"])
    triplets = Dataset.objects.filter(project=project, origin="learner", paradigms__isnull=False).first()
    TripletRun.objects.filter(pk=run.pk).update(dataset=triplets, report={"triplets": {"R:DET": 1}})
    Job.objects.filter(pk=run.job_id).update(status=Job.Status.DONE)
    return world


def _grow(project: Any, extra: int) -> None:
    """Add `extra` pairs to every paradigm of the project's datasets, counted in `produced`."""
    from django.db.models import F

    from mpp_studio.datasets.models import DatasetParadigm, Pair

    for paradigm in DatasetParadigm.objects.filter(dataset__project=project):
        last = Pair.objects.filter(paradigm=paradigm).order_by("-index").first()
        if last is None:
            continue
        Pair.objects.bulk_create(
            Pair(
                paradigm=paradigm,
                index=last.index + 64 * (n + 1),
                sentence_good=f"{last.sentence_good} {n}",
                sentence_bad=f"{last.sentence_bad} {n}",
                record=last.record,
            )
            for n in range(extra)
        )
        DatasetParadigm.objects.filter(pk=paradigm.pk).update(produced=F("produced") + extra)


def _reads(world: World, owner: Any) -> dict[str, list[str]]:
    """GET every route an owner can read; return each path's SQL statements."""
    from rest_framework.authtoken.models import Token

    pages = Client(raise_request_exception=True)
    pages.force_login(owner)
    token = Token.objects.get_or_create(user=owner)[0].key
    api = Client(raise_request_exception=True, HTTP_AUTHORIZATION=f"Token {token}")
    reads = {}
    for route in url_routes():
        rule = MATRIX.get(route.route, {}).get("GET")
        if route.route.startswith(ADMIN_PREFIX) or rule is None or rule in ("visitor", "participant"):
            continue
        path = build_url(route.route, world, "owner")
        with CaptureQueriesContext(connection) as captured:
            response = (api if is_api(route.route) else pages).get(path)
            if response.streaming:
                b"".join(response.streaming_content)  # type: ignore[attr-defined]
        assert response.status_code < 500, path
        reads[route.route] = [query["sql"] for query in captured.captured_queries]
    return reads


def test_queries_do_not_grow_with_the_pairs_and_counts_come_from_the_paradigms(
    world: World, project: Any, owner: Any
) -> None:
    """Every read of a project makes as many queries with 120 more pairs in each paradigm as
    before; outside downloads, no query counts pairs or reads the pairs of a
    dataset through a join (pages read one paradigm's pairs by its (paradigm, index) index)."""
    before = _reads(world, owner)
    _grow(project, GROWTH)
    after = _reads(world, owner)
    grew = [
        f"{route}: {len(before[route])} -> {len(queries)}"
        for route, queries in after.items()
        if len(queries) > len(before[route])
    ]
    assert not grew, "queries that grow with the pairs:\n" + "\n".join(grew)
    scans = [
        f"{route}: {sql[:2000]}"
        for route, queries in after.items()
        if not any(part in route for part in READS_EVERY_PAIR)
        for sql in queries
        if COUNTS_PAIRS.search(sql) or (JOINS_PAIRS.search(sql) and not ONE_PAIR.search(sql))
    ]
    assert not scans, "reads that count or scan the pairs of a dataset:\n" + "\n".join(scans)
    assert len(after) > 100  # every read of the project was walked
