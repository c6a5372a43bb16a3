"""From stored pairs to the engine's sentences: their keys, their deterministic order and chunks.

A dataset's sentences are its pairs' good and bad sentences, in the order (paradigm uid, pair
index), good before bad. Each carries the word spans of the record's `words_good` /
`words_bad` (None where the record has none or a word is not found: the scorer then splits the
sentence itself). A learner triplet dataset (BLiSS: origin "learner", its pairs' records
holding `artificial_error`) adds each pair's artificial sentence as a third, after the bad
(learner) one, without word spans (as `mpp score` reads a BLiSS line). A sentence's key
hashes its text and those spans, so the same sentence scored the same way is stored once,
whichever pairs, paradigms or datasets hold it.
"""

import hashlib
import json
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from formats.pair_id import pair_id as stable_pair_id
from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.datasets.selectors import ARTIFICIAL_ERROR, is_triplet_dataset
from mpp_studio.evaluation.models import PairKey
from scoring.items import Sentence
from scoring.words import spans_of_words

# A range of pairs in one paradigm: [paradigm id, first pair index, last pair index] (inclusive).
Range = list[int]
# Pairs read from the database at once while walking a dataset (two texts and two word lists each).
READ_BATCH = 2_000
# The record key of a triplet's third sentence (BLiSS layout).
ARTIFICIAL = ARTIFICIAL_ERROR


def sentences_per_pair(dataset: Dataset) -> int:
    """Return the sentence slots of each pair of the dataset: 3 for triplets, else 2."""
    return 3 if is_triplet_dataset(dataset) else 2


def artificial_sentence(value: object) -> Sentence | None:
    """Return the Sentence of a record's `artificial_error` (None when it has none)."""
    if isinstance(value, str) and value.strip():
        return Sentence(value)
    return None


def sentence_key(sentence: Sentence) -> str:
    """Return the SHA-256 hex digest of the sentence's text and word spans."""
    spans = None if sentence.word_spans is None else [list(s) for s in sentence.word_spans]
    blob = json.dumps([sentence.text, spans], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def sentence_of(text: str, words: object) -> Sentence:
    """Return the Sentence of a text with the word spans of `words` (a record's word list), or
    without spans when there is no list or a word is not found in the text."""
    if not isinstance(words, list) or not words:
        return Sentence(text)
    return Sentence(text, spans_of_words(text, [str(w) for w in words]))


@dataclass(frozen=True, slots=True)
class PairSentences:
    """One pair with its two sentences and their keys; a triplet's artificial sentence and its
    key too (None and "" for a minimal pair)."""

    pair_id: int
    paradigm_id: int
    uid: str
    phenomenon: str
    index: int
    good: Sentence
    bad: Sentence
    good_key: str
    bad_key: str
    artificial: Sentence | None = None
    artificial_key: str = ""

    def sentences(self) -> list[tuple[str, Sentence]]:
        """Return (key, sentence) of the pair's sentences: good, bad, then the artificial one."""
        out = [(self.good_key, self.good), (self.bad_key, self.bad)]
        if self.artificial is not None:
            out.append((self.artificial_key, self.artificial))
        return out

    @property
    def item_id(self) -> str:
        """Return the pair id "<uid>/<index>" (`formats.pair_id`): unique within a dataset,
        stable across runs."""
        return stable_pair_id(self.uid, self.index)


_FIELDS = (
    "pk",
    "paradigm_id",
    "paradigm__uid",
    "paradigm__phenomenon",
    "index",
    "sentence_good",
    "sentence_bad",
    "record__words_good",
    "record__words_bad",
)


def _pair_sentences(row: tuple[Any, ...]) -> PairSentences:
    pk, paradigm_id, uid, phenomenon, index, good_text, bad_text, words_good, words_bad = row[:9]
    good, bad = sentence_of(str(good_text), words_good), sentence_of(str(bad_text), words_bad)
    artificial = artificial_sentence(row[9]) if len(row) > 9 else None
    return PairSentences(
        pair_id=int(pk),
        paradigm_id=int(paradigm_id),
        uid=str(uid),
        phenomenon=str(phenomenon),
        index=int(index),
        good=good,
        bad=bad,
        good_key=sentence_key(good),
        bad_key=sentence_key(bad),
        artificial=artificial,
        artificial_key=sentence_key(artificial) if artificial is not None else "",
    )


def dataset_pairs(
    dataset: Dataset, *, uid: str = "", ranges: Sequence[Range] | None = None
) -> Iterator[PairSentences]:
    """Yield the dataset's pairs in order (paradigm uid, pair index) with their sentences.

    `uid` keeps one paradigm; `ranges` keeps the pairs of those index ranges (a chunk). The
    pairs of a triplet dataset carry their artificial sentence.
    """
    fields = (*_FIELDS, f"record__{ARTIFICIAL}") if is_triplet_dataset(dataset) else _FIELDS
    pairs = Pair.objects.filter(paradigm__dataset=dataset)
    if uid:
        pairs = pairs.filter(paradigm__uid=uid)
    if ranges is not None:
        if not ranges:
            return
        condition = Q()
        for paradigm_id, first, last in ranges:
            condition |= Q(paradigm_id=paradigm_id, index__gte=first, index__lte=last)
        pairs = pairs.filter(condition)
    rows = pairs.order_by("paradigm__uid", "index").values_list(*fields)
    for row in rows.iterator(chunk_size=READ_BATCH):
        yield _pair_sentences(row)


@dataclass(frozen=True, slots=True)
class PairRef:
    """A pair as results need it: where it is, its two texts and their sentence keys; for a
    triplet, its artificial sentence and key ("" for a minimal pair)."""

    pair_id: int
    paradigm_id: int
    uid: str
    phenomenon: str
    index: int
    good_text: str
    bad_text: str
    good_key: str
    bad_key: str
    artificial_text: str = ""
    artificial_key: str = ""

    @property
    def item_id(self) -> str:
        """Return the pair id "<uid>/<index>", as PairSentences.item_id."""
        return stable_pair_id(self.uid, self.index)


_REF_FIELDS = (
    "pk",
    "paradigm_id",
    "paradigm__uid",
    "paradigm__phenomenon",
    "index",
    "sentence_good",
    "sentence_bad",
    "sentence_keys__good_key",
    "sentence_keys__bad_key",
)
_TRIPLET_REF_FIELDS = (*_REF_FIELDS, f"record__{ARTIFICIAL}", "sentence_keys__artificial_key")


def dataset_pair_refs(dataset: Dataset, *, uid: str = "") -> list[PairRef]:
    """Return the dataset's pairs (or paradigm `uid`'s) in order with their sentence keys (and,
    in a triplet dataset, each artificial sentence with its key).

    The keys come from the PairKey rows the scoring chunks recorded; a pair without one (its
    chunk has not run) gets its keys computed here from its record, as a chunk would.
    """
    triplets = is_triplet_dataset(dataset)
    pairs = Pair.objects.filter(paradigm__dataset=dataset)
    if uid:
        pairs = pairs.filter(paradigm__uid=uid)
    rows = pairs.order_by("paradigm__uid", "index").values_list(
        *(_TRIPLET_REF_FIELDS if triplets else _REF_FIELDS)
    )
    refs: list[PairRef] = []
    missing: list[int] = []
    for row in rows.iterator(chunk_size=10_000):
        pk, paradigm_id, puid, phenomenon, index, good, bad, good_key, bad_key = row[:9]
        artificial_text, artificial_key = "", ""
        if triplets:
            artificial = artificial_sentence(row[9])
            artificial_text = artificial.text if artificial is not None else ""
            artificial_key = row[10] or ""
            if artificial is not None and not artificial_key:
                artificial_key = sentence_key(artificial)  # no words: no need to read the record
        if good_key is None or bad_key is None:
            missing.append(len(refs))
        keys = (good_key or "", bad_key or "")
        third = (artificial_text, artificial_key)
        refs.append(PairRef(pk, paradigm_id, puid, phenomenon, index, good, bad, *keys, *third))
    for start in range(0, len(missing), READ_BATCH):
        block = missing[start : start + READ_BATCH]
        ids = [refs[i].pair_id for i in block]
        words = {
            pk: (good, bad)
            for pk, good, bad in Pair.objects.filter(pk__in=ids).values_list(
                "pk", "record__words_good", "record__words_bad"
            )
        }
        for i in block:
            ref = refs[i]
            words_good, words_bad = words[ref.pair_id]
            refs[i] = PairRef(
                ref.pair_id,
                ref.paradigm_id,
                ref.uid,
                ref.phenomenon,
                ref.index,
                ref.good_text,
                ref.bad_text,
                sentence_key(sentence_of(ref.good_text, words_good)),
                sentence_key(sentence_of(ref.bad_text, words_bad)),
                ref.artificial_text,
                ref.artificial_key,
            )
    return refs


def pair_keys_store(dataset: Dataset, pairs: Sequence[PairSentences]) -> None:
    """Record the sentence keys of these pairs of the dataset (kept if already recorded); a
    triplet's artificial key too."""
    PairKey.objects.bulk_create(
        [
            PairKey(
                pair_id=p.pair_id,
                dataset=dataset,
                good_key=p.good_key,
                bad_key=p.bad_key,
                artificial_key=p.artificial_key or None,
            )
            for p in pairs
        ],
        batch_size=READ_BATCH,
        ignore_conflicts=True,
    )


def distinct_sentences(pairs: Iterable[PairSentences]) -> list[tuple[str, Sentence]]:
    """Return the distinct sentences of these pairs (a triplet's three) as (key, sentence), in
    their order."""
    seen: dict[str, Sentence] = {}
    for pair in pairs:
        for key, sentence in pair.sentences():
            seen.setdefault(key, sentence)
    return list(seen.items())


def chunk_sentences(dataset: Dataset, ranges: Sequence[Range]) -> list[tuple[str, Sentence]]:
    """Return the distinct sentences of a chunk's pairs as (key, sentence), in dataset order."""
    return distinct_sentences(dataset_pairs(dataset, ranges=ranges))


def chunk_plan(
    dataset: Dataset, chunk_size: int, paradigm_ids: Collection[int] | None = None
) -> list[tuple[list[Range], int]]:
    """Split the dataset's pairs (of the paradigms `paradigm_ids` only, when given), in order,
    into chunks of at most `chunk_size` sentences (two per pair, three per triplet; at least
    one pair per chunk). Return each chunk's ranges and its pair count.

    The plan depends only on the stored pairs and `chunk_size`, so it is the same every time.
    """
    pairs_per_chunk = max(1, chunk_size // sentences_per_pair(dataset))
    pairs = Pair.objects.filter(paradigm__dataset=dataset)
    if paradigm_ids is not None:
        pairs = pairs.filter(paradigm_id__in=list(paradigm_ids))
    rows = pairs.order_by("paradigm__uid", "index").values_list("paradigm_id", "index")
    chunks: list[tuple[list[Range], int]] = []
    ranges: list[Range] = []
    count = 0
    for paradigm_id, index in rows.iterator(chunk_size=10_000):
        # A paradigm's pairs follow one another in this order, so a chunk holds one range per
        # paradigm even where indexes leave gaps (the learner app numbers a source pair's
        # triplets apart: source * slots + k).
        if ranges and ranges[-1][0] == paradigm_id:
            ranges[-1][2] = index
        else:
            ranges.append([paradigm_id, index, index])
        count += 1
        if count == pairs_per_chunk:
            chunks.append((ranges, count))
            ranges, count = [], 0
    if ranges:
        chunks.append((ranges, count))
    return chunks
