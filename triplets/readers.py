"""Readers for learner corpora: M2 files, parallel learner/corrected tables, metadata tables.

Every reader reports what it cannot take as an ImportIssue (file, 1-based line, message) and
goes on with the rest of the file. Files are read as UTF-8 (a leading BOM is dropped, CRLF line
ends are accepted); a line that is not UTF-8 is reported and skipped.

The corpus readers stream: `m2_pairs` and `parallel_pairs` read an open binary stream a line at
a time and yield each pair as it is read (their issues go to the caller's `IssueList`), and
`MetadataJoin` joins pairs to a metadata table one at a time, so a corpus of any size is never
held whole. `read_m2`, `read_parallel` and `attach_metadata` collect them for callers that want
lists. A metadata table is read whole (`read_metadata`, `metadata_table`), as compactly as it can
be, and may be given a row limit (`max_rows`: past it, `TableTooLarge`).
"""

from __future__ import annotations

import csv
import dataclasses
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TypeVar

from formats.lines import numbered_lines
from formats.record import ImportIssue, IssueList
from triplets.corpus import (
    METADATA_FIELDS,
    NOOP,
    LearnerPair,
    M2Edit,
    MetadataResult,
    MetadataRow,
    ReadResult,
)

M2_FIELDS = 6  # span|||type|||correction|||REQUIRED|||-NONE-|||annotator


def _issues_of(issues: IssueList) -> list[ImportIssue]:
    """Return the collected issues, with the closing note when some were left out."""
    return issues.result([], "").issues


def _lines(path: Path, issues: IssueList) -> Iterator[tuple[int, str]]:
    try:
        stream = path.open("rb")
    except OSError as exc:
        issues.error(None, f"cannot open the file: {exc.strerror or exc}")
        return
    with stream:
        yield from numbered_lines(stream, issues)


# --- M2 ---------------------------------------------------------------------------------------


def parse_m2_edit(text: str) -> M2Edit:
    """Return the edit of an `A` line's text (after "A "); raise ValueError saying what is wrong."""
    fields = text.split("|||")
    if len(fields) != M2_FIELDS:
        raise ValueError(
            f"expected {M2_FIELDS} fields separated by '|||' "
            "(span, type, correction, REQUIRED, -NONE-, annotator), found "
            f"{len(fields)}"
        )
    span = fields[0].split()
    if len(span) != 2:
        raise ValueError(f"the span {fields[0].strip()!r} is not two token offsets 'start end'")
    try:
        start, end = int(span[0]), int(span[1])
    except ValueError:
        raise ValueError(f"the span {fields[0].strip()!r} is not two whole numbers") from None
    annotator_text = fields[5].strip()
    try:
        annotator = int(annotator_text)
    except ValueError:
        raise ValueError(f"the annotator id {annotator_text!r} is not a whole number") from None
    edit_type = fields[1].strip()
    if not edit_type:
        raise ValueError("the error type is empty")
    if (start, end) == (-1, -1) or edit_type == NOOP:
        return M2Edit(-1, -1, NOOP, "", annotator)
    if start < 0 or end < start:
        raise ValueError(f"the span {start} {end} is not a valid token range")
    correction = " ".join(fields[2].split())
    return M2Edit(start, end, edit_type, "" if correction == "-NONE-" else correction, annotator)


def apply_edits(tokens: Sequence[str], edits: Iterable[M2Edit]) -> list[str]:
    """Return the tokens with the edits applied (ERRANT's M2 offsets: original token indices,
    end exclusive). Edits are applied right to left so earlier offsets stay valid; insertions at
    one point keep their file order. Raise ValueError if an edit is outside the sentence or two
    edits overlap."""
    ordered = sorted((e for e in edits if not e.is_noop), key=lambda e: (e.start, e.end))
    previous: M2Edit | None = None
    for edit in ordered:
        if edit.end > len(tokens):
            raise ValueError(
                f"the edit {edit.start} {edit.end} ({edit.type}) is outside the sentence, "
                f"which has {len(tokens)} tokens"
            )
        if previous is not None and edit.start < previous.end:
            raise ValueError(
                f"the edits {previous.start} {previous.end} and {edit.start} {edit.end} "
                f"of annotator {edit.annotator} overlap"
            )
        previous = edit
    result = list(tokens)
    for edit in reversed(ordered):
        result[edit.start : edit.end] = edit.correction.split()
    return result


@dataclass(slots=True)
class _Block:
    line: int
    tokens: list[str]
    edits: list[tuple[int, M2Edit]]
    # Why the block's correction cannot be trusted (a bad line that may be the chosen annotator's).
    broken: str = ""


def _stem(name: str) -> str:
    """Return a file name's stem, whatever folder (or Windows folder) it names."""
    return Path(name.replace("\\", "/")).stem


@dataclass(slots=True)
class _M2Count:
    sentences: int = 0  # `S` lines met, read or skipped


def _m2_sentences(
    stream: IO[bytes], name: str, issues: IssueList, *, annotator: int, corpus: str, count: _M2Count
) -> Iterator[tuple[int, LearnerPair]]:
    """Yield (sentence number, pair) for each sentence of an M2 stream that gives a pair; the
    pair's id is its sentence number; `count` counts every sentence. See `read_m2`."""
    annotators_seen: set[int] = set()
    block: _Block | None = None
    sentences = 0

    def close(current: _Block, number: int) -> tuple[int, LearnerPair] | None:
        if current.broken:
            issues.error(current.line, f"sentence skipped: {current.broken}")
            return None
        chosen = [e for _, e in current.edits if e.annotator == annotator]
        try:
            corrected = apply_edits(current.tokens, chosen)
        except ValueError as exc:
            issues.error(current.line, f"sentence skipped: {exc}")
            return None
        return number, LearnerPair(
            pair_id=str(number),
            source_file=name,
            line=current.line,
            learner=" ".join(current.tokens),
            corrected=" ".join(corrected),
            edits=tuple(e for e in chosen if not e.is_noop),
            corpus=corpus,
        )

    previous_number = 0
    for number, text in numbered_lines(stream, issues):
        if number != previous_number + 1 and block is not None:
            # numbered_lines reported the unreadable line(s); it may have been one of this block's edits.
            block.broken = f"line {previous_number + 1} could not be read"
        previous_number = number
        if not text.strip():
            if block is not None:
                if (closed := close(block, sentences)) is not None:
                    yield closed
                block = None
            continue
        tag, _, rest = text.partition(" ")
        if tag == "S":
            if block is not None:
                # No blank line between two sentences: still two sentences.
                issues.warning(number, "no blank line before this S line")
                if (closed := close(block, sentences)) is not None:
                    yield closed
            sentences += 1
            count.sentences = sentences
            tokens = rest.split()
            block = _Block(number, tokens, [])
            if not tokens:
                block.broken = "the S line has no tokens"
        elif tag == "A":
            if block is None:
                issues.error(number, "an A line with no S line before it")
                continue
            try:
                edit = parse_m2_edit(rest)
            except ValueError as exc:
                issues.error(number, f"bad A line: {exc}")
                block.broken = block.broken or f"its edit on line {number} could not be read"
                continue
            annotators_seen.add(edit.annotator)
            if not edit.is_noop and edit.end > len(block.tokens):
                issues.error(
                    number,
                    f"bad A line: the span {edit.start} {edit.end} is outside the sentence, "
                    f"which has {len(block.tokens)} tokens",
                )
                if edit.annotator == annotator:
                    block.broken = block.broken or f"its edit on line {number} is outside the sentence"
                continue
            block.edits.append((number, edit))
        else:
            issues.error(number, f"not an M2 line (expected 'S ...', 'A ...' or a blank line): {text[:60]!r}")
    if block is not None and (closed := close(block, sentences)) is not None:
        yield closed
    if sentences and annotator not in annotators_seen and annotators_seen:
        issues.warning(
            None,
            f"annotator {annotator} has no edit in this file (annotators present: "
            f"{', '.join(str(a) for a in sorted(annotators_seen))}); every sentence is its own correction",
        )


def m2_pairs(
    stream: IO[bytes], name: str, issues: IssueList, *, annotator: int = 0, corpus: str = ""
) -> Iterator[LearnerPair]:
    """Yield the sentence pairs of an M2 stream one by one, as they are read (see `read_m2`);
    `name` is the file's name (the pairs' `source_file`; ids are `<its stem>-<sentence number>`).

    Every issue goes to `issues` as it is met; the note on an annotator without any edit comes
    when the stream ends. Only the sentence being read is held, whatever the file's size.
    """
    stem = _stem(name)
    count = _M2Count()
    for number, pair in _m2_sentences(stream, name, issues, annotator=annotator, corpus=corpus, count=count):
        yield dataclasses.replace(pair, pair_id=f"{stem}-{number}")


def read_m2(
    path: str | Path, *, annotator: int = 0, corpus: str = "", ids: str | Path | None = None
) -> ReadResult:
    """Return the sentence pairs of an M2 file, the correction built from `annotator`'s edits.

    A bad `A` line (wrong field count, bad span or annotator id, span outside the sentence,
    overlapping edits, an unreadable line inside the block) skips its sentence, reported at the
    `S` line and at the bad line, when the bad line may belong to the chosen annotator; a bad
    line of another annotator is reported and the sentence kept. A sentence without any edit of
    the chosen annotator is corrected as itself (ERRANT writes no `A` line for an annotator
    with nothing to change, or a noop).

    `ids` is an optional file with one sentence id a line, in the M2 file's sentence order
    (Write & Improve 2024's `.ids`); the ids become the pair ids. Without it, or when its count
    of ids differs from the M2 file's count of sentences (reported; ids that may be misaligned
    are not used), pairs are numbered `<file stem>-<sentence number>`.
    """
    path = Path(path)
    issues = IssueList(str(path))
    numbered: list[tuple[int, LearnerPair]] = []
    count = _M2Count()
    try:
        stream = path.open("rb")
    except OSError as exc:
        issues.error(None, f"cannot open the file: {exc.strerror or exc}")
    else:
        with stream:
            sentences = _m2_sentences(
                stream, str(path), issues, annotator=annotator, corpus=corpus, count=count
            )
            numbered = list(sentences)
    found = _issues_of(issues)
    names = _sentence_ids(Path(ids), count.sentences, found) if ids is not None else None
    if names:
        pairs = [_with_id(p, names[number - 1]) for number, p in numbered]
    else:
        pairs = [dataclasses.replace(p, pair_id=f"{path.stem}-{number}") for number, p in numbered]
    return ReadResult(pairs, found)


_SENTENCE_SUFFIX = re.compile(r"^(?P<essay>.+?)[_-]sentence[_-]?\d+$", re.IGNORECASE)


def essay_of(sentence_id: str) -> str:
    """Return the essay id a sentence id names: the first field of "essay<TAB>3", the prefix of
    "essay_ab12_sentence_3" (Write & Improve 2024 style), else "" (unknown)."""
    fields = sentence_id.split()
    if len(fields) > 1:
        return fields[0]
    match = _SENTENCE_SUFFIX.match(sentence_id)
    return match.group("essay") if match else ""


def _with_id(pair: LearnerPair, sentence_id: str) -> LearnerPair:
    # Metadata tables are keyed by essay: knowing the essay lets `attach_metadata` join them.
    return dataclasses.replace(
        pair, pair_id="_".join(sentence_id.split()), essay_id=pair.essay_id or essay_of(sentence_id)
    )


def _sentence_ids(path: Path, sentences: int, found: list[ImportIssue]) -> list[str] | None:
    """Return the ids file's ids when there is one per sentence; else None, the reason added."""
    issues = IssueList(str(path))
    names = [text.strip() for _, text in _lines(path, issues) if text.strip()]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        issues.error(None, f"repeated id(s) {', '.join(repeated[:5])}; the ids are not used")
    elif not issues.errors and len(names) != sentences:
        issues.error(None, f"{len(names)} ids for {sentences} sentences; the ids are not used")
    found.extend(_issues_of(issues))
    return None if issues.errors else names


# --- tables -----------------------------------------------------------------------------------


_C = TypeVar("_C", "ParallelColumns", "MetadataColumns")


# The names learner corpora give the metadata columns (Write & Improve, FCE, EFCAMDAT, Lang-8
# exports), tried in order when a field's own name is not a column and no --column named one.
# Only names that say what they hold: "essay" (the text?), "level" (of what?) or "source" are
# never guessed.
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "learner_id": ("public_user_id", "user_id", "author_id", "student_id", "writer_id"),
    "essay_id": ("public_essay_id", "text_id", "document_id", "doc_id"),
    "l1": ("native_language", "first_language", "mother_tongue"),
    "cefr": ("human_cefr", "cefr_level"),
}


def _matched_case(columns: _C, header: Sequence[str]) -> _C:
    """Return the column names with each one that is not in the header exactly replaced by the
    header's name that differs only in case ("L1" for "l1")."""
    by_lower = {h.lower(): h for h in header}
    changes = {
        f.name: by_lower[value.lower()]
        for f in dataclasses.fields(columns)
        if (value := getattr(columns, f.name)) and value not in header and value.lower() in by_lower
    }
    return dataclasses.replace(columns, **changes)


def _matched_columns(columns: _C, header: Sequence[str], issues: IssueList, line: int) -> _C:
    """Return the column names matched to the header: by case (`_matched_case`), then, for a
    metadata field still at its own name and not a column, by the first of its COLUMN_ALIASES
    the header has (any case), each said in a warning so the reader knows where a value came
    from. A name the reader chose (`--column`) is never replaced."""
    columns = _matched_case(columns, header)
    by_lower = {h.lower(): h for h in header}
    taken = {getattr(columns, f.name) for f in dataclasses.fields(columns)}
    changes: dict[str, str] = {}
    for name, aliases in COLUMN_ALIASES.items():
        value = getattr(columns, name)
        if value != name or value in header:
            continue
        found = next((by_lower[a.lower()] for a in aliases if a.lower() in by_lower), None)
        if found is None or found in taken:
            continue
        changes[name] = found
        taken.add(found)
        issues.warning(line, f"the column {found!r} is read as {name} (--column {name}=COLUMN names another)")
    renamed = changes.get("essay_id", columns.essay_id)
    if isinstance(columns, MetadataColumns) and columns.key == "essay_id" and renamed != "essay_id":
        # The default join key follows the essay id, whether a --column or a known name gave it.
        changes["key"] = renamed
    return dataclasses.replace(columns, **changes)


def _delimiter(name: str, delimiter: str | None) -> str:
    if delimiter is not None:
        return delimiter
    return "\t" if Path(name).suffix.lower() in {".tsv", ".tab"} else ","


def _table_rows(stream: IO[bytes], delimiter: str, issues: IssueList) -> Iterator[tuple[int, list[str]]]:
    """Yield (first line number, cells) for each non-blank row of a CSV/TSV stream.

    TSV is read without quoting (learner text keeps its quote marks as typed); CSV follows the
    usual quoting, so a quoted cell may span lines.
    """
    consumed: list[int] = []

    def source() -> Iterator[str]:
        for number, text in numbered_lines(stream, issues):
            consumed.append(number)
            yield text + "\n"

    if delimiter == "\t":
        reader = csv.reader(source(), delimiter="\t", quoting=csv.QUOTE_NONE)
    else:
        reader = csv.reader(source(), delimiter=delimiter, strict=True)
    while True:
        consumed.clear()
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            issues.error(consumed[0] if consumed else None, f"cannot split the row into cells: {exc}")
            continue
        if not any(cell.strip() for cell in row):
            continue
        yield consumed[0], row


def _opened(path: Path, issues: IssueList) -> IO[bytes] | None:
    """Return the file open for reading bytes, or None with the reason reported."""
    try:
        return path.open("rb")
    except OSError as exc:
        issues.error(None, f"cannot open the file: {exc.strerror or exc}")
        return None


@dataclass(frozen=True, slots=True)
class ParallelColumns:
    """Header names of a parallel table. `pair_id` "" = pairs numbered by row; the metadata
    columns are taken when the table has them."""

    learner: str = "learner"
    corrected: str = "corrected"
    pair_id: str = ""
    learner_id: str = "learner_id"
    essay_id: str = "essay_id"
    l1: str = "l1"
    cefr: str = "cefr"
    topic: str = "topic"
    corpus: str = "corpus"


def parallel_pairs(
    stream: IO[bytes],
    name: str,
    issues: IssueList,
    *,
    columns: ParallelColumns | None = None,
    delimiter: str | None = None,
    corpus: str = "",
) -> Iterator[LearnerPair]:
    """Yield the pairs of a CSV or TSV stream with a header row one by one, as they are read (see
    `read_parallel`); `name` is the file's name (the pairs' `source_file`, the stem of numbered
    ids, and the delimiter when none is given: tab for .tsv and .tab, comma otherwise).

    Every issue goes to `issues` as it is met. What is held while reading is the row being read
    and the ids seen so far (to report a repeated one), whatever the file's size.
    """
    columns = columns or ParallelColumns()
    rows = _table_rows(stream, _delimiter(name, delimiter), issues)
    header_row = next(rows, None)
    if header_row is None:
        issues.error(None, "the file has no header row")
        return
    header_line, header = header_row
    header = [h.strip() for h in header]
    columns = _matched_case(columns, header)
    required = [c for c in (columns.learner, columns.corrected, columns.pair_id) if c]
    missing = [c for c in required if c not in header]
    if missing:
        issues.error(
            header_line,
            f"the header has no column {', '.join(repr(m) for m in missing)} (columns: {', '.join(header)})",
        )
        return
    columns = _matched_columns(columns, header, issues, header_line)
    field_of = {getattr(columns, name): name for name in METADATA_FIELDS if getattr(columns, name) in header}
    own = {columns.learner, columns.corrected, columns.pair_id, *field_of}
    stem = _stem(name)
    seen_ids: dict[str, int] = {}
    count = 0
    for number, row in rows:
        if len(row) != len(header):
            what = "missing" if len(row) < len(header) else "extra"
            issues.error(number, f"{what} column(s): {len(row)} cells, the header has {len(header)}")
            continue
        cells = dict(zip(header, row, strict=True))
        learner, corrected = cells[columns.learner].strip(), cells[columns.corrected].strip()
        if not learner or not corrected:
            empty = columns.learner if not learner else columns.corrected
            issues.error(number, "the cell is empty", field=empty)
            continue
        if columns.pair_id:
            pair_id = cells[columns.pair_id].strip()
            if not pair_id:
                issues.error(number, "the id is empty", field=columns.pair_id)
                continue
            if pair_id in seen_ids:
                issues.error(
                    number,
                    f"the id {pair_id!r} was already used on line {seen_ids[pair_id]}",
                    field=columns.pair_id,
                )
                continue
            seen_ids[pair_id] = number
        else:
            pair_id = f"{stem}-{count + 1}"
        values = {name: cells[column].strip() for column, name in field_of.items()}
        if corpus and not values.get("corpus"):
            values["corpus"] = corpus
        count += 1
        yield LearnerPair(
            pair_id=pair_id,
            source_file=name,
            line=number,
            learner=learner,
            corrected=corrected,
            learner_id=values.get("learner_id", ""),
            essay_id=values.get("essay_id", ""),
            l1=values.get("l1", ""),
            cefr=values.get("cefr", ""),
            topic=values.get("topic", ""),
            corpus=values.get("corpus", ""),
            extra={k: v for k, v in cells.items() if k not in own},
        )


def read_parallel(
    path: str | Path,
    *,
    columns: ParallelColumns | None = None,
    delimiter: str | None = None,
    corpus: str = "",
) -> ReadResult:
    """Return the pairs of a CSV or TSV table with a header row (tab for .tsv and .tab, comma
    otherwise, unless `delimiter` is given). Columns the pair has no field for go to `extra`.
    A row with a missing or extra cell, an empty learner or corrected cell, or a repeated or
    empty id is reported and skipped."""
    path = Path(path)
    issues = IssueList(str(path))
    pairs: list[LearnerPair] = []
    stream = _opened(path, issues)
    if stream is not None:
        with stream:
            pairs = list(
                parallel_pairs(stream, str(path), issues, columns=columns, delimiter=delimiter, corpus=corpus)
            )
    return ReadResult(pairs, _issues_of(issues))


# --- metadata ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MetadataColumns:
    """Header names of a metadata table; `key` is the essay or sentence id every row is joined on."""

    key: str = "essay_id"
    learner_id: str = "learner_id"
    essay_id: str = "essay_id"
    l1: str = "l1"
    cefr: str = "cefr"
    topic: str = "topic"
    corpus: str = "corpus"


class TableTooLarge(Exception):
    """A metadata table has more rows than the reader was told to take (`max_rows`): `line` is
    where the first row over the limit starts."""

    def __init__(self, file: str, line: int, limit: int) -> None:
        super().__init__(f"{file} has more than {limit:,} rows (line {line} is row {limit + 1:,})")
        self.file = file
        self.line = line
        self.limit = limit


def metadata_table(
    stream: IO[bytes],
    name: str,
    *,
    columns: MetadataColumns | None = None,
    delimiter: str | None = None,
    max_rows: int | None = None,
) -> MetadataResult:
    """Return the rows by key of a metadata table read from a stream (see `read_metadata`);
    `name` is the file's name (the rows' file, and the delimiter when none is given).

    The table is held whole, compactly: equal cells share one string, consecutive rows with
    equal values one `values` mapping, and rows without extra columns one empty `extra` (never
    change them).

    Raises:
        TableTooLarge: the table has more than `max_rows` rows (blank lines and the header not
            counted); it is raised as soon as the first row over the limit is read.
    """
    columns = columns or MetadataColumns()
    issues = IssueList(name)
    result = MetadataResult(key_column=columns.key, source_file=name)
    rows = _table_rows(stream, _delimiter(name, delimiter), issues)
    header_row = next(rows, None)
    if header_row is None:
        issues.error(None, "the file has no header row")
        result.issues = _issues_of(issues)
        return result
    header_line, header = header_row
    header = [h.strip() for h in header]
    columns = _matched_columns(columns, header, issues, header_line)
    result.key_column = columns.key
    if columns.key not in header:
        issues.error(
            header_line, f"the header has no key column {columns.key!r} (columns: {', '.join(header)})"
        )
        result.issues = _issues_of(issues)
        return result
    field_of = {getattr(columns, name): name for name in METADATA_FIELDS if getattr(columns, name) in header}
    if not set(field_of) - {columns.key}:
        # No L1, level, learner or topic for any triplet (other columns still travel as extra):
        # said, not silent.
        wanted = ", ".join(n for n in METADATA_FIELDS if n != "essay_id")
        issues.warning(
            header_line,
            f"no column gives a metadata field ({wanted}); name them with --column FIELD=COLUMN "
            f"(columns: {', '.join(header)})",
        )
    shared: dict[str, str] = {}
    previous: dict[str, str] = {}
    no_extra: dict[str, str] = {}
    read = 0
    for number, row in rows:
        read += 1
        if max_rows is not None and read > max_rows:
            raise TableTooLarge(name, number, max_rows)
        if len(row) != len(header):
            what = "missing" if len(row) < len(header) else "extra"
            issues.error(number, f"{what} column(s): {len(row)} cells, the header has {len(header)}")
            continue
        cells = {}
        for column, cell in zip(header, row, strict=True):
            value = cell.strip()
            # Keys are unique; other cells (an L1, a level) repeat: one string for each value.
            cells[column] = value if column == columns.key else shared.setdefault(value, value)
        key = cells[columns.key]
        if not key:
            issues.error(number, "the key is empty", field=columns.key)
            continue
        if key in result.rows:
            issues.error(
                number,
                f"the key {key!r} was already given on line {result.rows[key].line}",
                field=columns.key,
            )
            continue
        values = {name: cells[column] for column, name in field_of.items() if cells[column]}
        if values == previous:  # the rows of one essay or learner, one after the other
            values = previous
        previous = values
        extra = {k: v for k, v in cells.items() if k not in field_of and k != columns.key} or no_extra
        result.rows[key] = MetadataRow(key, number, values, extra)
    result.issues = _issues_of(issues)
    return result


def read_metadata(
    path: str | Path, *, columns: MetadataColumns | None = None, delimiter: str | None = None
) -> MetadataResult:
    """Return a metadata table's rows by key (the `columns.key` column). A row with a missing or
    extra cell, an empty key or a key already seen is reported and skipped."""
    path = Path(path)
    stream = _opened(path, issues := IssueList(str(path)))
    if stream is None:
        return MetadataResult(
            key_column=(columns or MetadataColumns()).key, source_file=str(path), issues=_issues_of(issues)
        )
    with stream:
        return metadata_table(stream, str(path), columns=columns, delimiter=delimiter)


@dataclass(slots=True)
class AttachResult:
    """Pairs with metadata attached, which pair field was the key, and what did not match."""

    key: str
    pairs: list[LearnerPair]
    issues: list[ImportIssue]
    unmatched_pairs: int = 0
    unused_rows: int = 0


JOIN_KEYS = ("essay_id", "pair_id")


class MetadataJoin:
    """Joins pairs to a metadata table one at a time (see `attach_metadata`), for a corpus read
    as a stream: `attach` each pair as it is read, then `finish` for the rows no pair used.

    `max_issues` keeps at most that many issues of each kind (about pairs, about unused rows)
    and ends each kind with a note counting the rest; None keeps them all.
    """

    def __init__(
        self, metadata: MetadataResult, *, key: str = "essay_id", max_issues: int | None = None
    ) -> None:
        if key not in JOIN_KEYS:
            raise ValueError(f"unknown join key {key!r}; use one of {', '.join(JOIN_KEYS)}")
        self.metadata = metadata
        self.key = key
        self.max_issues = max_issues
        self.issues: list[ImportIssue] = []
        self.used: set[str] = set()
        self.unmatched = 0
        self.unused = 0
        self._pair_notes = 0
        self._dropped_pair_notes = 0
        self._dropped_file = ""

    def _note(self, issue: ImportIssue) -> None:
        if self.max_issues is not None and self._pair_notes >= self.max_issues:
            self._dropped_pair_notes += 1
            self._dropped_file = self._dropped_file or issue.file
            return
        self._pair_notes += 1
        self.issues.append(issue)

    def attach(self, pair: LearnerPair) -> LearnerPair:
        """Return the pair with its metadata filled in (see `attach_metadata`); a pair without a
        row, or whose own value differs from its row's, is noted."""
        metadata, key = self.metadata, self.key
        value = getattr(pair, key)
        row = metadata.rows.get(value) if value else None
        if row is None:
            self.unmatched += 1
            reason = f"no {key}" if not value else f"no row with {metadata.key_column} {value!r}"
            self._note(
                ImportIssue(
                    pair.source_file,
                    pair.line,
                    f"pair {pair.pair_id}: {reason} in {metadata.source_file}; kept without metadata",
                    "warning",
                )
            )
            return pair
        self.used.add(value)
        changes: dict[str, str] = {}
        for name, meta_value in row.values.items():
            current = getattr(pair, name)
            if not current:
                changes[name] = meta_value
            elif current != meta_value:
                self._note(
                    ImportIssue(
                        pair.source_file,
                        pair.line,
                        f"pair {pair.pair_id}: its {name} {current!r} differs from {meta_value!r} in "
                        f"{metadata.source_file} line {row.line}; the pair's own value is kept",
                        "warning",
                    )
                )
        return dataclasses.replace(
            pair,
            learner_id=changes.get("learner_id", pair.learner_id),
            essay_id=changes.get("essay_id", pair.essay_id),
            l1=changes.get("l1", pair.l1),
            cefr=changes.get("cefr", pair.cefr),
            topic=changes.get("topic", pair.topic),
            corpus=changes.get("corpus", pair.corpus),
            extra={**row.extra, **pair.extra},
        )

    def finish(self) -> list[ImportIssue]:
        """Note each row no pair used (at the table's line) and return every issue of the join:
        the pairs' notes in the order met, then the unused rows."""
        if self._dropped_pair_notes:
            self.issues.append(
                ImportIssue(
                    self._dropped_file,
                    None,
                    f"{self._dropped_pair_notes:,} more note(s) on pairs and the metadata are not listed "
                    f"(only the first {self.max_issues} are)",
                    "warning",
                )
            )
        dropped = 0
        for row_key, row in self.metadata.rows.items():
            if row_key in self.used:
                continue
            self.unused += 1
            if self.max_issues is not None and self.unused > self.max_issues:
                dropped += 1
                continue
            self.issues.append(
                ImportIssue(
                    self.metadata.source_file,
                    row.line,
                    f"no pair has {self.key} {row.key!r}; the row was not used",
                    "warning",
                )
            )
        if dropped:
            self.issues.append(
                ImportIssue(
                    self.metadata.source_file,
                    None,
                    f"{dropped:,} more row(s) no pair used are not listed "
                    f"(only the first {self.max_issues} are)",
                    "warning",
                )
            )
        return self.issues


def attach_metadata(
    pairs: Iterable[LearnerPair], metadata: MetadataResult, *, key: str = "essay_id"
) -> AttachResult:
    """Return the pairs with metadata filled in, joined on the pair's `key` field ("essay_id", or
    "pair_id" for a table keyed by sentence id) against the table's key column.

    A pair whose key has no row (or is empty) is kept without metadata and reported as a
    warning at its own line; a row no pair used is reported at the table's line. A pair's own
    non-empty value wins over a different metadata value (reported as a warning); the row's
    other columns go to `extra` without replacing the pair's own.
    """
    join = MetadataJoin(metadata, key=key)
    out = [join.attach(pair) for pair in pairs]
    issues = join.finish()
    return AttachResult(key, out, issues, join.unmatched, join.unused)
