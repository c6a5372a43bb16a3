"""BLiMP's JSONL (`alexwarstadt/blimp` data/<UID>.jsonl, and the Hugging Face copy `nyu-mll/blimp`).

Each line holds `sentence_good, sentence_bad, field, linguistics_term, UID, simple_LM_method,
one_prefix_method, two_prefix_method, lexically_identical, pairID` (a string "0".."999"; the
Hugging Face copy has the int `pair_id` instead), and on some paradigms the prefix fields,
`crucial_item` or `dependency_length`. The reader keeps every field but the sentences, UID and
pair id as the pair's fields; `linguistics_term` is its phenomenon.

BLiMP writes each line with Python's `json` defaults through `jsonlines` (`", "` and `": "`
between items, non-ASCII characters as they are): the pair's own fields (the sentences, then the
prefix fields, `crucial_item`, `dependency_length`), then the paradigm's (`field` ... `pairID`).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import PurePath
from typing import IO

from formats.jsonl import json_objects, sentences, type_name
from formats.record import (
    FORMAT_LANGUAGES,
    ImportedPair,
    IssueList,
    ReadResult,
    record_pair_id,
    record_text,
    source_fields,
)

FORMAT = "blimp"
BOOLEAN_FIELDS = ("simple_LM_method", "one_prefix_method", "two_prefix_method", "lexically_identical")
TEXT_FIELDS = ("field", "linguistics_term")
OPTIONAL_TEXT_FIELDS = (
    "one_prefix_prefix",
    "one_prefix_word_good",
    "one_prefix_word_bad",
    "two_prefix_prefix_good",
    "two_prefix_prefix_bad",
    "two_prefix_word",
    "crucial_item",
)
OPTIONAL_FIELDS = (*OPTIONAL_TEXT_FIELDS, "dependency_length")
# The pair's own optional fields in the order BLiMP writes them (after the sentences; no pair has
# both prefix methods' fields): kept in this order whatever order a store gave them back in.
PAIR_FIELDS = ("crucial_item", *OPTIONAL_TEXT_FIELDS[:6], "dependency_length")
# The paradigm's fields, which BLiMP writes after the pair's own (sentences, optional fields).
PARADIGM_FIELDS = ("field", "linguistics_term", "UID", *BOOLEAN_FIELDS, "pairID")
# The fields a BLiMP line always has, in the order BLiMP writes them.
BASE_FIELDS = ("sentence_good", "sentence_bad", *PARADIGM_FIELDS)
KNOWN_FIELDS = frozenset((*BASE_FIELDS, "pair_id", *OPTIONAL_FIELDS))


def _pair_id(data: Mapping[str, object], number: int, issues: IssueList) -> str | None:
    """Return the pair id as text from `pairID` (text) or `pair_id` (int); None if there is none."""
    for key in ("pairID", "pair_id"):
        if key not in data:
            continue
        value = data[key]
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            if key == "pairID":
                issues.warning(
                    number, "is a number; BLiMP writes it as text (pair_id is the number)", field=key
                )
            return str(value)
        issues.error(number, f"must be a pair number; found {type_name(value)} {value!r}", field=key)
        return ""
    return None


def read_blimp(stream: IO[bytes], file_name: str) -> ReadResult:
    """Return the pairs of a BLiMP JSONL file and every issue met, line by line (see `blimp_pairs`)."""
    issues = IssueList(file_name)
    return issues.result(list(blimp_pairs(stream, file_name, issues)), FORMAT)


def blimp_pairs(stream: IO[bytes], file_name: str, issues: IssueList) -> Iterator[ImportedPair]:
    """Yield the pairs of a BLiMP JSONL file as they are read, adding every issue met to `issues`.

    A line that is not a JSON object, or lacks usable sentences or pair number, is skipped
    (an error); a line with a field of the wrong type, equal sentences, a repeated pair number,
    or no UID (the file name gives it, as BLiMP names its files) is kept with a warning.
    """
    stem = PurePath(file_name).stem
    seen: dict[tuple[str, str], int] = {}
    per_uid: dict[str, int] = {}  # pairs read per UID: the number of a pair without one
    unknown_reported: set[str] = set()
    for number, data in json_objects(stream, issues):
        texts = sentences(data, number, issues)
        pair_id = _pair_id(data, number, issues)
        uid_value = data.get("UID")
        if "UID" in data and not (isinstance(uid_value, str) and uid_value.strip()):
            issues.error(number, f"must be the paradigm's name; found {type_name(uid_value)}", field="UID")
            continue
        if texts is None or pair_id == "":
            continue
        uid = uid_value.strip() if isinstance(uid_value, str) else ""
        if not uid:
            uid = stem
            issues.warning(number, f"missing; the file name gives the paradigm '{stem}'", field="UID")
        if pair_id is None:
            pair_id = str(per_uid.get(uid, 0))
            issues.warning(
                number, f"no pairID or pair_id; numbered {pair_id} by its place among its paradigm's pairs"
            )
        if (uid, pair_id) in seen:
            issues.warning(
                number,
                f"pair {pair_id} of {uid} was already read on line {seen[uid, pair_id]}",
                field="pairID",
            )
        seen.setdefault((uid, pair_id), number)
        per_uid[uid] = per_uid.get(uid, 0) + 1
        fields: dict[str, object] = {}
        for key, value in data.items():
            if key in ("sentence_good", "sentence_bad", "UID", "pairID", "pair_id"):
                continue
            wrong = (
                (key in BOOLEAN_FIELDS and not isinstance(value, bool))
                or (key in TEXT_FIELDS + OPTIONAL_TEXT_FIELDS and not isinstance(value, str))
                or (key == "dependency_length" and (isinstance(value, bool) or not isinstance(value, int)))
            )
            if wrong:
                issues.warning(number, f"has the wrong type ({type_name(value)}); left out", field=key)
                continue
            if key not in KNOWN_FIELDS and key not in unknown_reported:
                unknown_reported.add(key)
                issues.warning(number, "not a BLiMP field; kept as it is (noted once per file)", field=key)
            fields[key] = value
        term = fields.get("linguistics_term")
        yield (
            ImportedPair(
                uid=uid,
                phenomenon=term if isinstance(term, str) else "",
                sentence_good=texts[0],
                sentence_bad=texts[1],
                pair_id=pair_id,
                source_format=FORMAT,
                file=file_name,
                line=number,
                language=FORMAT_LANGUAGES[FORMAT],
                fields=fields,
            )
        )


def _words(record: Mapping[str, object], side: str) -> list[str]:
    words = record.get(f"words_{side}")
    if isinstance(words, list):
        return [str(w) for w in words]
    text = record_text(record, f"sentence_{side}")
    tokens = text.split()
    return tokens if len(tokens) > 1 else list(text)


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char).startswith("P")


def bare_word(token: str) -> str:
    """Return a token without the punctuation around it, case-folded ("Dog." and "dog" give
    "dog"; "can't" keeps its apostrophe); "" for a token of punctuation alone ("?", "。")."""
    start, end = 0, len(token)
    while start < end and _is_punctuation(token[start]):
        start += 1
    while end > start and _is_punctuation(token[end - 1]):
        end -= 1
    return token[start:end].casefold()


def lexical_words(tokens: Sequence[str]) -> list[str]:
    """Return the words of a sentence's tokens as `lexically_identical` compares them: each
    without its punctuation and case-folded, punctuation alone left out, sorted."""
    return sorted(word for word in map(bare_word, tokens) if word)


def lexically_identical(record: Mapping[str, object]) -> bool:
    """Return whether the two sentences hold the same multiset of words, in any order (the
    `lexically_identical` of a pair that has none of its own).

    Words are the record's `words_good`/`words_bad`, else the sentence split at spaces (a
    sentence without spaces, as Chinese is written: its characters), compared by `lexical_words`:
    punctuation next to a word ("dog." against "dog") and the capital of a word moved to or from
    the start of the sentence do not make two sentences differ.
    """
    return lexical_words(_words(record, "good")) == lexical_words(_words(record, "bad"))


def one_prefix_fields(good: list[str], bad: list[str], joiner: str) -> dict[str, str] | None:
    """Return BLiMP's one-prefix fields of a pair (a shared prefix, then the good and the bad
    word), or None if the pair does not fit the method: the two sentences must share at least
    one word before the first word in which they differ, and both have a word there."""
    at = next((i for i, (g, b) in enumerate(zip(good, bad, strict=False)) if g != b), None)
    if at is None or at == 0:
        return None
    return {
        "one_prefix_prefix": joiner.join(good[:at]),
        "one_prefix_word_good": good[at],
        "one_prefix_word_bad": bad[at],
    }


def two_prefix_fields(good: list[str], bad: list[str], joiner: str) -> dict[str, str] | None:
    """Return BLiMP's two-prefix fields of a pair (the good and the bad prefix, then the word
    both continue with), or None if the pair does not fit the method: the two sentences must end
    alike from a word on (not punctuation alone) after prefixes that differ."""
    shared = 0
    while shared < min(len(good), len(bad)) and good[-1 - shared] == bad[-1 - shared]:
        shared += 1
    good_prefix, bad_prefix = good[: len(good) - shared], bad[: len(bad) - shared]
    if not shared or not good_prefix or not bad_prefix:
        return None
    word = good[len(good) - shared]
    if not any(ch.isalnum() for ch in word):
        return None
    return {
        "two_prefix_prefix_good": joiner.join(good_prefix),
        "two_prefix_prefix_bad": joiner.join(bad_prefix),
        "two_prefix_word": word,
    }


def blimp_record(record: Mapping[str, object]) -> dict[str, object]:
    """Return a record as a BLiMP line, its keys in BLiMP's order: the sentences, the pair's own
    fields, then the paradigm's (`PARADIGM_FIELDS`, pairID as text).

    An imported BLiMP pair gets its own values back, its own fields in BLiMP's order
    (`PAIR_FIELDS`, then any field BLiMP does not have, as kept), so a released line read and
    written again is the same line, even after a store (PostgreSQL's jsonb) reordered its keys.
    Other pairs get what their template set (`blimp: {field, linguistics_term,
    one_prefix_method, two_prefix_method}`), else the phenomenon as `linguistics_term` and
    `field` blank; the simple LM method always, a prefix method where the template asks for it
    and the pair fits it (its fields derived from the pair's words), and `lexically_identical`
    computed from their words (`lexically_identical`).
    """
    fields = source_fields(record)
    template_set = record.get("blimp")
    set_by_template = template_set if isinstance(template_set, Mapping) else {}
    from_blimp = _source_format(record) == FORMAT

    def kept(key: str, default: object) -> object:
        return fields.get(key, set_by_template.get(key, default))

    paradigm: dict[str, object] = {
        "field": kept("field", ""),
        "linguistics_term": kept("linguistics_term", record_text(record, "phenomenon")),
        "UID": record_text(record, "UID"),
        "simple_LM_method": kept("simple_LM_method", True),
        "one_prefix_method": kept("one_prefix_method", False),
        "two_prefix_method": kept("two_prefix_method", False),
        "lexically_identical": kept("lexically_identical", lexically_identical(record)),
        "pairID": record_pair_id(record),
    }
    out: dict[str, object] = {
        "sentence_good": record_text(record, "sentence_good"),
        "sentence_bad": record_text(record, "sentence_bad"),
    }
    if fields:  # an imported pair keeps its source's prefix fields (a BLiMP one, all its own)
        out.update((key, fields[key]) for key in PAIR_FIELDS if key in fields)
        if from_blimp:
            out.update((key, value) for key, value in fields.items() if key not in KNOWN_FIELDS)
    else:  # a generated pair: derived from its words where the template asks for them
        out.update(_derived_prefix_fields(record, paradigm))
    out.update(paradigm)
    return out


def _source_format(record: Mapping[str, object]) -> str:
    provenance = record.get("provenance")
    return record_text(provenance, "source_format") if isinstance(provenance, Mapping) else ""


def _derived_prefix_fields(record: Mapping[str, object], paradigm: dict[str, object]) -> dict[str, str]:
    """Return the prefix fields of the methods a template asked for (flags true in `paradigm`),
    derived from the pair's words; a method the pair does not fit gets its flag set false."""
    joiner = "" if record_text(record, "language").startswith("zh") else " "
    good, bad = _words(record, "good"), _words(record, "bad")
    derived_fields: dict[str, str] = {}
    for flag, derive in (("one_prefix_method", one_prefix_fields), ("two_prefix_method", two_prefix_fields)):
        if paradigm[flag] is not True:
            continue
        derived = derive(good, bad, joiner)
        paradigm[flag] = derived is not None
        derived_fields.update(derived or {})
    return derived_fields


def blimp_line(record: Mapping[str, object]) -> bytes:
    """Return a record as one BLiMP JSONL line (newline-terminated UTF-8), written as BLiMP's
    `jsonlines` writes it: `", "` and `": "` between items, non-ASCII characters as they are."""
    return json.dumps(blimp_record(record), ensure_ascii=False).encode("utf-8") + b"\n"


def blimp_lines(records: Iterable[Mapping[str, object]]) -> Iterator[bytes]:
    """Yield BLiMP JSONL lines (see `blimp_line`), one per record."""
    for record in records:
        yield blimp_line(record)
