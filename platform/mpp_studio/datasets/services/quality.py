"""The quality report of one paradigm of a dataset, computed by the engine from its stored pairs.

The tokenizers a report may use are named in the setting `MPP_TOKENIZERS` (name -> local
tokenizer folder); with none configured the report has no token or OOV part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings

from generator.quality import QualityInputError, QualityPair, QualityReport, pair_from_record, quality_report
from generator.word_diff import guess_language
from mpp_studio.datasets.models import DatasetParadigm, Pair
from mpp_studio.datasets.selectors import counts_settled
from vocab.coverage import Tokenizer, load_tokenizer
from vocab.errors import CoverageError
from vocab.frequency import FREQUENCY_SOURCES, source_frequencies

# A report reads at most this many pairs (the first by index): enough for stable shares, and
# it keeps the page quick for paradigms of 50,000 pairs.
MAX_REPORT_PAIRS = 5_000


@dataclass(frozen=True, slots=True)
class ParadigmQuality:
    """A paradigm's report (None without pairs), what it was computed from, and what went wrong."""

    report: QualityReport | None
    pairs_read: int
    pairs_stored: int
    tokenizer: str
    frequency_source: str
    problems: tuple[str, ...]


def configured_tokenizers() -> dict[str, str]:
    """Return the tokenizers named in the setting MPP_TOKENIZERS (name -> local path)."""
    configured = getattr(settings, "MPP_TOKENIZERS", {}) or {}
    return {str(name): str(path) for name, path in dict(configured).items()}


@lru_cache(maxsize=8)
def _tokenizer_at(path: str) -> Tokenizer:
    # Loading a tokenizer takes a second or more; each web process keeps the few it has used.
    return load_tokenizer(path)


def paradigm_quality(
    *, paradigm: DatasetParadigm, tokenizer_name: str = "", frequency_source: str = "wordfreq"
) -> ParadigmQuality:
    """Return the quality report of a paradigm's stored pairs (the first MAX_REPORT_PAIRS).

    `tokenizer_name` is a key of MPP_TOKENIZERS ("" for none). A tokenizer that cannot be
    loaded, an unknown frequency source or an unreadable record is reported in `problems`
    (the report then leaves that part out, or is None for an unreadable record).
    """
    problems: list[str] = []
    tokenizers = configured_tokenizers()
    tokenizer: Tokenizer | None = None
    if tokenizer_name:
        path = tokenizers.get(tokenizer_name)
        if path is None:
            problems.append(f"There is no tokenizer named “{tokenizer_name}” in MPP_TOKENIZERS.")
            tokenizer_name = ""
        else:
            try:
                tokenizer = _tokenizer_at(path)
            except CoverageError as exc:
                problems.append(f"Tokenizer “{tokenizer_name}”: {exc}")
                tokenizer_name = ""
    if frequency_source not in FREQUENCY_SOURCES:
        problems.append(f"Unknown frequency source “{frequency_source}”; wordfreq is used.")
        frequency_source = "wordfreq"
    # The paradigm's kept count; counted only while an import or triplet run is writing it.
    settled = counts_settled(paradigm.dataset)
    stored = paradigm.produced if settled else Pair.objects.filter(paradigm=paradigm).count()
    rows = list(
        Pair.objects.filter(paradigm=paradigm)
        .order_by("index")
        .values_list("index", "record")[:MAX_REPORT_PAIRS]
    )
    language = paradigm.language or _language_of(rows)
    report: QualityReport | None = None
    if rows:
        try:
            pairs = _pairs(rows, language)
            report = quality_report(
                pairs,
                uid=paradigm.uid,
                language=language,
                tokenizer=tokenizer,
                tokenizer_name=tokenizer_name,
                frequencies=lambda words: source_frequencies(frequency_source, words, language),
                frequency_source=frequency_source,
            )
        except QualityInputError as exc:
            problems.append(str(exc))
    return ParadigmQuality(
        report=report,
        pairs_read=len(rows),
        pairs_stored=stored,
        tokenizer=tokenizer_name,
        frequency_source=frequency_source,
        problems=tuple(problems),
    )


def _language_of(rows: Sequence[tuple[int, Mapping[str, object]]]) -> str:
    """The language of an imported paradigm that does not record one: its first record's, or a guess."""
    if not rows:
        return "en"
    record = rows[0][1]
    stated, good = record.get("language"), record.get("sentence_good")
    if isinstance(stated, str) and stated:
        return stated
    return guess_language(good) if isinstance(good, str) else "en"


def _pairs(rows: Sequence[tuple[int, Mapping[str, object]]], language: str) -> list[QualityPair]:
    return [pair_from_record(record, language, f"pair {index}") for index, record in rows]
