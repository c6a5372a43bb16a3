"""Pages of a finished run's triplets read from its paradigms' kept counts
(`selectors.triplet_pages`): the triplets `triplet_list` gives, in its order, without counting."""

from django.core.paginator import Paginator
from django.db import connection
from django.test.utils import CaptureQueriesContext

from mpp_studio.learner.models import TripletChunk, TripletRun
from mpp_studio.learner.selectors import (
    TripletFilter,
    TripletPages,
    run_error_types,
    triplet_list,
    triplet_pages,
)


def _pages(triplets: object, per_page: int) -> list[int]:
    paginator = Paginator(triplets, per_page)
    return [pair.pk for number in paginator.page_range for pair in paginator.page(number).object_list]


def test_pages_of_a_finished_run_equal_the_queryset_and_count_nothing(small_run: TripletRun) -> None:
    run = TripletRun.objects.select_related("job", "dataset").get(pk=small_run.pk)
    types = run_error_types(run=run)
    assert types and all(n > 0 for _, n in types)
    for chosen in (TripletFilter(), TripletFilter(error_type=types[0][0])):
        triplets = triplet_pages(run=run, chosen=chosen)
        assert isinstance(triplets, TripletPages)
        assert triplets._spans(0, 1)[0][1] < 2**62  # placed through the chunks' counts
        assert _pages(triplets, 4) == _pages(triplet_list(run=run, chosen=chosen), 4)
    with CaptureQueriesContext(connection) as queries:
        page = Paginator(triplet_pages(run=run), 5).page(2)
        assert [pair.paradigm.uid for pair in page.object_list]
        run_error_types(run=run)
    for query in queries.captured_queries:
        assert "COUNT(" not in query["sql"] and " JOIN " not in query["sql"], query["sql"]


def test_filters_by_l1_or_cefr_stay_a_counted_queryset(small_run: TripletRun) -> None:
    run = TripletRun.objects.select_related("job", "dataset").get(pk=small_run.pk)
    assert not isinstance(triplet_pages(run=run, chosen=TripletFilter(l1="Spanish")), TripletPages)


def test_chunk_counts_that_do_not_add_up_read_the_whole_run(small_run: TripletRun) -> None:
    """A chunk whose report miscounts its triplets: the pages are still right (read through)."""
    chunk = TripletChunk.objects.filter(run=small_run).order_by("index").first()
    TripletChunk.objects.filter(pk=chunk.pk).update(report={**chunk.report, "triplets": {}})
    run = TripletRun.objects.select_related("job", "dataset").get(pk=small_run.pk)
    triplets = triplet_pages(run=run)
    assert isinstance(triplets, TripletPages) and triplets._spans(0, 1)[0][1] == 2**62
    assert _pages(triplets, 4) == _pages(triplet_list(run=run), 4)
