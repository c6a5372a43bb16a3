"""Pages of pairs read from the paradigms' kept counts (`selectors.pair_pages`): the same pairs
in the same order as the `pair_list` queryset, page after page, however deep, without counting."""

from collections.abc import Callable
from unittest import mock

import pytest
from django.core.paginator import Paginator
from django.db import connection
from django.test.utils import CaptureQueriesContext

from mpp_studio.datasets.models import Dataset, DatasetParadigm
from mpp_studio.datasets.selectors import (
    ParadigmPairs,
    dataset_pair_count,
    dataset_paradigms,
    first_pair_record,
    pair_list,
    pair_pages,
)
from mpp_studio.jobs.models import Job
from tests.web.datasets.conftest import run_generation

pytestmark = pytest.mark.django_db


def _pages(pairs: object, per_page: int) -> list[int]:
    paginator = Paginator(pairs, per_page)
    return [pair.pk for number in paginator.page_range for pair in paginator.page(number).object_list]


@pytest.mark.parametrize("skip_by_index", [1_000, 2])
@pytest.mark.parametrize("uid", ["", "zh_classifier_noun"])
def test_every_page_holds_the_pairs_the_queryset_holds(
    make_dataset: Callable[..., Dataset], uid: str, skip_by_index: int
) -> None:
    """Pages of 3 (spanning paradigms, and past SKIP_BY_INDEX into one) equal the queryset's."""
    dataset = make_dataset("en", "zh", n=10)
    run_generation(dataset)
    paradigms = list(dataset_paradigms(dataset=dataset))
    with mock.patch("mpp_studio.datasets.selectors.SKIP_BY_INDEX", skip_by_index):
        pairs = pair_pages(dataset=dataset, paradigms=paradigms, uid=uid)
        assert isinstance(pairs, ParadigmPairs)
        assert _pages(pairs, 3) == _pages(pair_list(dataset=dataset, uid=uid), 3)
    assert pairs.count() == (10 if uid else 20) == len(_pages(pairs, 3))
    assert dataset_pair_count(dataset=dataset) == 20


def test_a_page_is_counted_from_the_paradigms(make_dataset: Callable[..., Dataset]) -> None:
    """Neither the count nor a page counts pairs, and a page's pairs carry their paradigm."""
    dataset = make_dataset("en", "zh", n=10)
    run_generation(dataset)
    paradigms = list(dataset_paradigms(dataset=dataset))
    with CaptureQueriesContext(connection) as queries:
        page = Paginator(pair_pages(dataset=dataset, paradigms=paradigms), 4).page(3)
        uids = [pair.paradigm.uid for pair in page.object_list]
        total = dataset_pair_count(dataset=dataset)
    assert page.paginator.count == total == 20 and len(uids) == 4
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert "COUNT(" not in sql.replace('SUM("datasets_datasetparadigm"."produced")', "")
    assert len(queries.captured_queries) <= 3  # two paradigms spanned at most, and the sum


def test_a_triplet_run_still_writing_is_counted(make_dataset: Callable[..., Dataset]) -> None:
    """While a triplet run's job is open its paradigms' counts are not kept yet: the stored
    pairs count (imports keep theirs after every chunk, test_import_services)."""
    dataset = make_dataset("en", "zh", n=10)
    run_generation(dataset)
    Dataset.objects.filter(pk=dataset.pk).update(origin=Dataset.Origin.LEARNER)
    Job.objects.filter(pk=dataset.job_id).update(status=Job.Status.RUNNING)
    DatasetParadigm.objects.filter(dataset=dataset).update(produced=0)
    dataset = Dataset.objects.select_related("job").get(pk=dataset.pk)
    assert dataset_pair_count(dataset=dataset) == 20
    pairs = pair_pages(dataset=dataset, paradigms=list(dataset_paradigms(dataset=dataset)))
    assert len(_pages(pairs, 7)) == 20


def test_first_pair_record_reads_one_paradigm_by_its_index(generated: Dataset) -> None:
    with CaptureQueriesContext(connection) as queries:
        record = first_pair_record(dataset=generated)
    assert isinstance(record, dict) and record["sentence_good"]
    pair_queries = [q["sql"] for q in queries.captured_queries if '"datasets_pair"' in q["sql"]]
    assert pair_queries and all("JOIN" not in sql for sql in pair_queries)
