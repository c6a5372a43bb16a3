"""Reads of a dataset's curation: the decisions on its pairs, their counts, and the pairs a
search or a decision picks out for the pairs browser."""

from collections.abc import Iterable

from django.db.models import Count, Q, QuerySet

from mpp_studio.datasets.models import Dataset, Pair, PairReview

# Search texts longer than this are cut (a sentence is rarely longer).
SEARCH_LIMIT = 200


def review_counts(*, dataset: Dataset) -> dict[str, int]:
    """Return how many of the dataset's pairs are flagged and excluded ({decision: count})."""
    counts = dict.fromkeys(PairReview.Decision.values, 0)
    rows = PairReview.objects.filter(dataset=dataset).values("decision").annotate(n=Count("pk"))
    counts.update({row["decision"]: int(row["n"]) for row in rows})
    return counts


def excluded_counts(*, dataset: Dataset) -> dict[int, int]:
    """Return paradigm id -> how many of its pairs are excluded (paradigms with none left out)."""
    rows = (
        PairReview.objects.filter(dataset=dataset, decision=PairReview.Decision.EXCLUDED)
        .values("pair__paradigm_id")
        .annotate(n=Count("pk"))
    )
    return {int(row["pair__paradigm_id"]): int(row["n"]) for row in rows}


def excluded_reviews(*, dataset: Dataset) -> QuerySet[PairReview]:
    """Return the dataset's excluded pairs' decisions, by paradigm and pair order (with the pair)."""
    return (
        PairReview.objects.filter(dataset=dataset, decision=PairReview.Decision.EXCLUDED)
        .select_related("pair", "pair__paradigm")
        .order_by("pair__paradigm__uid", "pair__index")
    )


def reviews_of(pairs: Iterable[Pair]) -> dict[int, PairReview]:
    """Return pair id -> its decision, for the pairs of a page that have one (one query)."""
    return {review.pair_id: review for review in PairReview.objects.filter(pair__in=[p.pk for p in pairs])}


def pairs_picked(*, dataset: Dataset, uid: str = "", text: str = "", decision: str = "") -> QuerySet[Pair]:
    """Return the dataset's pairs (of paradigm `uid`, if given) whose good or bad sentence holds
    `text` (case-insensitive) and that have `decision` (flagged, excluded; "" any), in the pairs
    browser's order. A text search reads each pair's sentences; a decision alone reads only the
    decisions."""
    pairs = Pair.objects.filter(paradigm__dataset=dataset).select_related("paradigm")
    if uid:
        pairs = pairs.filter(paradigm__uid=uid)
    if decision in PairReview.Decision.values:
        pairs = pairs.filter(review__decision=decision)
    text = text.strip()[:SEARCH_LIMIT]
    if text:
        pairs = pairs.filter(Q(sentence_good__icontains=text) | Q(sentence_bad__icontains=text))
    return pairs.order_by("paradigm__uid", "index")
