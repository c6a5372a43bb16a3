"""Items to score, read from files: minimal pairs (MPP Studio JSONL, BLiMP JSONL, ZhoBLiMP JSONL,
Zorro text) and BLiSS triplets (JSONL). Every line that cannot be used is reported with its
file and line, never dropped silently.

The released formats are read by the `formats` engine (their rules are in docs/formats.md).
MPP Studio JSONL is the generator's records: `sentence_good`, `sentence_bad`, `UID`,
`phenomenon`, `pairID`, `item_id`, `language`, and `words_good`/`words_bad`, whose words give
the scorers the word boundaries. A BLiSS line holds `corrected`, `learner_error` and
`artificial_error` (or `learner`/`artificial`) and, optionally, `learnerID`, `L1`, `cefr`,
`topic`, `corpus`, `errant_edits`, `all_error_types`; its error type is `error_type` when
given, else the type of its ERRANT edit (the learner's edit, which the artificial error
copies), else the first of `all_error_types`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import IO, TypeVar

import orjson

from formats.detect import MAX_LINES, detect_format
from formats.jsonl import json_objects, required_text, sentences, type_name
from formats.lines import HEAD_BYTES, binary_reason
from formats.pair_id import pair_id
from formats.record import FileRead, ImportedPair, ImportIssue, IssueList, ReadResult
from formats.sources import is_zip, path_sources, read_stream, zip_sources
from formats.zorro import Order
from scoring.items import Sentence
from scoring.words import spans_of_words

FORMATS: tuple[str, ...] = ("auto", "mpp", "blimp", "zhoblimp", "zorro", "bliss")
# Keys only the generator's records have (a ZhoBLiMP line has UID and phenomenon too).
MPP_KEYS = frozenset({"item_id", "words_good", "words_bad", "critical_region", "provenance", "language"})
# A line is a BLiSS triplet when it has the corrected sentence and both errors, under these names.
LEARNER_KEYS = ("learner_error", "learner")
ARTIFICIAL_KEYS = ("artificial_error", "artificial")
# Metadata names used by BLiSS, the public toolkit's W&I/FCE/EFCAMDAT records and our pipeline.
L1_KEYS = ("L1", "l1", "l1_language", "native_language")
CEFR_KEYS = ("cefr", "human_cefr", "auto_cefr")
LEARNER_ID_KEYS = ("learnerID", "learner_id", "user_id")
CORPUS_KEYS = ("corpus", "dataset")
TRIPLET_ID_KEYS = ("item_id", "id", "UID", "triplet_id")


@dataclass(frozen=True, slots=True)
class PairItem:
    """A minimal pair to score. `source` is "file:line"; `language` is the data's ("" unknown)."""

    item_id: str
    uid: str
    phenomenon: str
    good: Sentence
    bad: Sentence
    language: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class TripletItem:
    """A BLiSS triplet to score: the corrected sentence, the learner's, and the artificial one."""

    item_id: str
    corrected: Sentence
    learner: Sentence
    artificial: Sentence
    l1: str = ""
    cefr: str = ""
    error_type: str = ""
    corpus: str = ""
    learner_id: str = ""
    source: str = ""


_Item = TypeVar("_Item", PairItem, TripletItem)


@dataclass(slots=True)
class ScoringData:
    """What the files hold: pairs, triplets, every issue met, and each file's outcome."""

    pairs: list[PairItem] = field(default_factory=list)
    triplets: list[TripletItem] = field(default_factory=list)
    issues: list[ImportIssue] = field(default_factory=list)
    files: list[FileRead] = field(default_factory=list)

    @property
    def errors(self) -> list[ImportIssue]:
        """Return the issues that skipped an item or a file."""
        return [i for i in self.issues if i.skipped]

    @property
    def warnings(self) -> list[ImportIssue]:
        return [i for i in self.issues if not i.skipped]

    def languages(self) -> set[str]:
        """Return the languages the pairs and triplets are in (triplets: English learner data)."""
        found = {p.language for p in self.pairs if p.language}
        if self.triplets:
            found.add("en")
        return found


def detect_scoring_format(file_name: str, head: bytes) -> tuple[str, str]:
    """Return (format, reason) for a file to score: "bliss" or "mpp" when its first JSON object
    says so, else what `formats.detect_format` tells ("" with the reason if nothing)."""
    first = _first_object(head)
    if first is not None:
        keys = set(first)
        if "corrected" in keys and keys & set(LEARNER_KEYS) and keys & set(ARTIFICIAL_KEYS):
            return "bliss", "its lines are JSON objects with corrected, learner and artificial sentences"
        if {"sentence_good", "sentence_bad"} <= keys and keys & MPP_KEYS:
            return "mpp", "its lines are JSON objects with the generator's fields (item_id, words_good, ...)"
        pair_id = first.get("pairID")
        zhoblimp_id = isinstance(pair_id, int) and not isinstance(pair_id, bool)
        if {"sentence_good", "sentence_bad", "phenomenon"} <= keys and not zhoblimp_id:
            # ZhoBLiMP numbers its pairs; text or missing pairIDs are the generator's layout.
            return "mpp", "its lines are JSON objects with sentence_good, sentence_bad and phenomenon"
    fmt, reason = detect_format(file_name, head)
    if not fmt and first is not None and {"sentence_good", "sentence_bad"} <= set(first):
        return "mpp", "its lines are JSON objects with sentence_good and sentence_bad"
    return fmt, reason


def _first_object(head: bytes) -> dict[str, object] | None:
    if binary_reason(head):
        return None
    lines = head.splitlines()
    if len(head) >= HEAD_BYTES and len(lines) > 1:
        lines = lines[:-1]  # the last line may be cut off
    for line in lines[:MAX_LINES]:
        try:
            value = orjson.loads(line.removeprefix(b"\xef\xbb\xbf"))
        except orjson.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def read_items(
    paths: Sequence[str | Path], *, fmt: str = "auto", zorro_order: Order = "bad-first"
) -> ScoringData:
    """Return the pairs and triplets in `paths` (files, folders, zip archives), each file's
    format detected unless `fmt` names one, and every issue met.

    Nothing raises for bad content: a missing file, an unknown format or a malformed line is
    an issue of the result (an error when the item or file was skipped). Item ids are unique:
    a repeated one gets "@file:line" added, with a warning.

    Raises:
        ValueError: for an unknown `fmt`.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (choose from {', '.join(FORMATS)})")
    sources, missing = path_sources(paths)
    data = ScoringData(issues=list(missing))
    for source in sources:
        try:
            with source.open() as stream:
                _read_stream(source.name, stream, fmt, zorro_order, data)
        except OSError as exc:
            data.issues.append(ImportIssue(source.name, None, f"could not be opened: {exc}"))
            data.files.append(FileRead(source.name, "", 0, 1, 0))
    _make_ids_unique(data)
    return data


def _read_stream(name: str, stream: IO[bytes], fmt: str, order: Order, data: ScoringData) -> None:
    head = stream.read(HEAD_BYTES)
    stream.seek(0)
    if is_zip(name, head):
        members, issues = zip_sources(name, stream)
        data.issues.extend(issues)
        for member in members:
            with member.open() as handle:
                _read_stream(member.name, handle, fmt, order, data)
        return
    chosen = fmt
    if fmt == "auto":
        chosen, reason = detect_scoring_format(name, head)
        if not chosen:
            data.issues.append(ImportIssue(name, None, f"format not recognised: {reason}"))
            data.files.append(FileRead(name, "", 0, 1, 0))
            return
    if chosen == "mpp":
        pairs, result = read_mpp(stream, name)
        data.pairs.extend(pairs)
    elif chosen == "bliss":
        triplets, result = read_bliss(stream, name)
        data.triplets.extend(triplets)
    else:
        result = read_stream(name, stream, chosen, order)
        data.pairs.extend(pair_item(p) for p in result.pairs)
    data.issues.extend(result.issues)
    data.files.extend(result.files)


def pair_item(pair: ImportedPair) -> PairItem:
    """Return a released dataset's pair as a PairItem, its id "UID/pairID" (`formats.pair_id`)."""
    return PairItem(
        item_id=pair_id(pair.uid, pair.pair_id),
        uid=pair.uid,
        phenomenon=pair.phenomenon,
        good=Sentence(pair.sentence_good),
        bad=Sentence(pair.sentence_bad),
        language=pair.language,
        source=f"{pair.file}:{pair.line}",
    )


def _file_result(issues: IssueList, fmt: str, count: int) -> ReadResult:
    result = issues.result([], fmt)
    result.files = [dataclasses.replace(result.files[0], pairs=count)]
    return result


def record_text(data: Mapping[str, object], keys: Sequence[str]) -> str:
    """Return the first of `keys` that holds text or a number, as text ("" when none)."""
    for key in keys:
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
    return ""


def _sentence(data: Mapping[str, object], side: str, text: str, number: int, issues: IssueList) -> Sentence:
    """Return the sentence with word spans from `words_<side>` where they fit the text."""
    words = data.get(f"words_{side}")
    if words is None:
        return Sentence(text)
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        issues.warning(
            number, "must be a list of words; the sentence is split into words instead", field=f"words_{side}"
        )
        return Sentence(text)
    spans = spans_of_words(text, words)
    if spans is None:
        issues.warning(
            number,
            f"the words are not all found, in order, in sentence_{side}; it is split into words instead",
            field=f"words_{side}",
        )
    return Sentence(text, spans)


def read_mpp(stream: IO[bytes], file_name: str) -> tuple[list[PairItem], ReadResult]:
    """Return the pairs of an MPP Studio JSONL file (the generator's records) and its issues.

    A line without usable sentences is skipped (an error). A missing UID (the file name gives
    it), phenomenon, pairID or item_id (made from UID and pairID), or unusable words, is a
    warning and the pair is kept.
    """
    issues = IssueList(file_name)
    pairs: list[PairItem] = []
    stem = PurePath(file_name).stem
    for number, data in json_objects(stream, issues):
        texts = sentences(data, number, issues)
        if texts is None:
            continue
        uid = record_text(data, ("UID",))
        if not uid:
            uid = stem
            issues.warning(number, f"missing; the file name gives the paradigm '{stem}'", field="UID")
        pair_id = record_text(data, ("pairID", "pair_id")) or str(number)
        item_id = record_text(data, ("item_id",)) or f"{uid}/{pair_id}"
        phenomenon = data.get("phenomenon", "")
        if not isinstance(phenomenon, str):
            issues.warning(
                number, f"must be text; found {type_name(phenomenon)}; left blank", field="phenomenon"
            )
            phenomenon = ""
        language = data.get("language", "")
        pairs.append(
            PairItem(
                item_id=item_id,
                uid=uid,
                phenomenon=phenomenon.strip(),
                good=_sentence(data, "good", texts[0], number, issues),
                bad=_sentence(data, "bad", texts[1], number, issues),
                language=language.strip() if isinstance(language, str) else "",
                source=f"{file_name}:{number}",
            )
        )
    return pairs, _file_result(issues, "mpp", len(pairs))


def bliss_error_type(data: Mapping[str, object]) -> str:
    """Return a BLiSS triplet's error type: `error_type` (or `error_type_errant`,
    `target_edit_type`) when given, else the type of its first ERRANT edit (the learner's edit,
    which the artificial error copies), else the first of `all_error_types`; "" when none."""
    given = record_text(data, ("error_type", "error_type_errant", "target_edit_type"))
    if given:
        return given
    edits = data.get("errant_edits")
    if isinstance(edits, list) and edits and isinstance(edits[0], dict):
        edit_type = edits[0].get("type")
        if isinstance(edit_type, str) and edit_type.strip():
            return edit_type.strip()
    types = data.get("all_error_types")
    if isinstance(types, list) and types and isinstance(types[0], str):
        return types[0].strip()
    return ""


def read_bliss(stream: IO[bytes], file_name: str) -> tuple[list[TripletItem], ReadResult]:
    """Return the triplets of a BLiSS JSONL file and its issues.

    A line without the three sentences as non-empty text is skipped (an error); equal learner
    and artificial sentences, or a line with no error type, are kept with a warning.
    """
    issues = IssueList(file_name)
    triplets: list[TripletItem] = []
    stem = PurePath(file_name).stem
    for number, data in json_objects(stream, issues):
        learner_key = next((k for k in LEARNER_KEYS if k in data), LEARNER_KEYS[0])
        artificial_key = next((k for k in ARTIFICIAL_KEYS if k in data), ARTIFICIAL_KEYS[0])
        corrected = required_text(data, "corrected", number, issues)
        learner = required_text(data, learner_key, number, issues)
        artificial = required_text(data, artificial_key, number, issues)
        if corrected is None or learner is None or artificial is None:
            continue
        if learner == artificial:
            issues.warning(number, "the learner and the artificial sentence are identical")
        if learner == corrected:
            issues.warning(number, "the learner and the corrected sentence are identical")
        error_type = bliss_error_type(data)
        if not error_type:
            issues.warning(number, "no error type (error_type, errant_edits or all_error_types)")
        triplets.append(
            TripletItem(
                item_id=record_text(data, TRIPLET_ID_KEYS) or f"{stem}/{number}",
                corrected=Sentence(corrected),
                learner=Sentence(learner),
                artificial=Sentence(artificial),
                l1=record_text(data, L1_KEYS),
                cefr=record_text(data, CEFR_KEYS),
                error_type=error_type,
                corpus=record_text(data, CORPUS_KEYS),
                learner_id=record_text(data, LEARNER_ID_KEYS),
                source=f"{file_name}:{number}",
            )
        )
    return triplets, _file_result(issues, "bliss", len(triplets))


def _make_ids_unique(data: ScoringData) -> None:
    seen: dict[str, str] = {}
    data.pairs = _unique_ids(data.pairs, seen, data.issues)
    data.triplets = _unique_ids(data.triplets, seen, data.issues)


def _unique_ids(items: list[_Item], seen: dict[str, str], issues: list[ImportIssue]) -> list[_Item]:
    """Return `items` with each repeated id made unique by its source, reporting each one."""
    out: list[_Item] = []
    for item in items:
        if item.item_id in seen:
            new_id = f"{item.item_id}@{item.source}"
            file, _, line = item.source.rpartition(":")
            issues.append(
                ImportIssue(
                    file,
                    int(line) if line.isdigit() else None,
                    f"item id '{item.item_id}' was already read at {seen[item.item_id]}; "
                    f"this one is '{new_id}'",
                    "warning",
                )
            )
            item = dataclasses.replace(item, item_id=new_id)
        seen[item.item_id] = item.source
        out.append(item)
    return out
