"""Parse the text of a vocabulary table into items, collecting every problem with its location."""

from __future__ import annotations

import codecs
import io
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vocab.csv_cells import restore_cell
from vocab.csv_records import csv_records
from vocab.errors import (
    E_CELL_COUNT,
    E_DUPLICATE_ID,
    E_EMPTY_FILE,
    E_ENCODING,
    E_HEADER,
    E_MISSING_COLUMN,
    E_MISSING_FORM,
    E_UNDECLARED_COLUMN,
    E_VALUE,
    RowError,
    VocabularyError,
)
from vocab.lexicon import (
    RESERVED_COLUMNS,
    FeatureSchema,
    FeatureSpec,
    FeatureValueError,
    LexicalItem,
    Vocabulary,
)

_DELIMITERS = (",", "\t", ";")
# Column names other tools use for the form; only used to give a helpful hint.
_FORM_ALIASES = ("expression", "word", "Word", "Form", "token")


# Reports one problem: (line, column, message, code).
_Fail = Callable[[int | None, str | None, str, str], None]


@dataclass(frozen=True, slots=True)
class _Row:
    start: int  # 1-based line where the record starts
    end: int  # line where it ends (quoted cells may span lines)
    cells: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Pending:
    line: int
    id: str | None  # None: the id is made from the form
    form: str
    lemma: str
    pos: str
    features: dict[str, tuple[str, ...]]


def decode_table(data: bytes, file_name: str) -> tuple[str, list[RowError], frozenset[int]]:
    """Return the UTF-8 text (BOM dropped), one error per undecodable line, and those lines."""
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8"), [], frozenset()
    except UnicodeDecodeError:
        pass
    errors: list[RowError] = []
    bad: set[int] = set()
    parts: list[str] = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            parts.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            bad.add(number)
            errors.append(
                RowError(
                    file_name,
                    number,
                    None,
                    f"this line is not UTF-8 text (byte 0x{raw[exc.start]:02X} at position "
                    f"{exc.start + 1}); save the file as UTF-8 (it may be in GBK or Latin-1)",
                    E_ENCODING,
                )
            )
            parts.append(raw.decode("utf-8", errors="replace"))
    return "\n".join(parts), errors, frozenset(bad)


def _pick_delimiter(file_name: str, header_line: str) -> str:
    """Return the delimiter by extension, or the one the header line uses most."""
    suffix = Path(file_name).suffix.lower()
    by_extension = {".csv": ",", ".tsv": "\t", ".tab": "\t"}.get(suffix)
    counts = {d: header_line.count(d) for d in _DELIMITERS}
    if by_extension is not None and (counts[by_extension] or not any(counts.values())):
        return by_extension
    best = max(_DELIMITERS, key=lambda d: counts[d])  # ties go to the earlier delimiter
    return best if counts[best] else (by_extension or ",")


def _rows(text: str, delimiter: str, fail: _Fail) -> list[_Row]:
    """Return the non-blank records of the table; a record the csv module rejects is reported."""
    records, problem = csv_records(text, delimiter)
    rows: list[_Row] = []
    for record in records:
        cells = tuple(restore_cell(cell.strip()) for cell in record.cells)
        if any(cells):
            rows.append(_Row(record.line, record.end_line, cells))
    if problem is not None:
        fail(
            problem.line,
            None,
            f"this row cannot be read ({problem.reason}); check for a stray double quote",
            E_CELL_COUNT,
        )
    return rows


def parse_table(
    text: str,
    *,
    file_name: str,
    schema: FeatureSchema | None,
    schema_name: str | None,
    name: str,
    language: str,
    delimiter: str | None,
    multi_separator: str | None,
    errors: list[RowError],
    bad_lines: frozenset[int],
) -> Vocabulary:
    """Return the vocabulary in table `text`, adding its problems to `errors`.

    `bad_lines` are lines already reported as undecodable; their rows are skipped. A None
    `schema` is inferred from the table; `delimiter` None picks one by file name or header.

    Raises:
        VocabularyError: with `errors` and every problem found, if there is any.
    """

    def fail(line: int | None, column: str | None, message: str, code: str) -> None:
        errors.append(RowError(file_name, line, column, message, code))

    first_line = next((ln for ln in io.StringIO(text) if ln.strip()), "")
    delimiter = delimiter or _pick_delimiter(file_name, first_line)
    rows = _rows(text, delimiter, fail)
    if not rows:
        if not errors:
            fail(
                None,
                None,
                "the file is empty; its first line must be a header with at least a 'form' column",
                E_EMPTY_FILE,
            )
        raise VocabularyError(errors)

    header_row, body = rows[0], rows[1:]
    header = list(header_row.cells)
    hline = header_row.start
    while header and not header[-1]:  # spreadsheets often add empty trailing columns
        header.pop()
    positions: dict[str, int] = {}
    for index, column in enumerate(header):
        if not column:
            fail(hline, None, f"column {index + 1} of the header has no name", E_HEADER)
        elif column in positions:
            fail(
                hline,
                column,
                f"this column appears twice (columns {positions[column] + 1} and {index + 1})",
                E_HEADER,
            )
        else:
            positions[column] = index

    has_form = "form" in positions
    if not has_form:
        fail(hline, "form", _missing_form_message(header, delimiter), E_MISSING_COLUMN)

    feature_columns = [c for c in positions if c not in RESERVED_COLUMNS]
    if schema is None:
        schema = _infer_schema(body, positions, feature_columns, multi_separator or "|")
    else:
        where = f"the schema ({schema_name})" if schema_name else "the schema"
        for column in feature_columns:
            if column not in schema.features:
                fail(
                    hline,
                    column,
                    f"this column is not declared in {where}; declare it there or remove the column",
                    E_UNDECLARED_COLUMN,
                )
        for feature in schema.features:
            if feature not in positions:
                fail(
                    hline,
                    feature,
                    f"{where} declares this feature but the file has no "
                    "such column (add the column; its cells may be blank)",
                    E_MISSING_COLUMN,
                )

    specs = {c: schema.features[c] for c in feature_columns if c in schema.features}
    pending: list[_Pending] = []
    for row in body:
        if any(line in bad_lines for line in range(row.start, row.end + 1)):
            continue  # already reported as undecodable; its cells are not trustworthy
        cells = _fit_cells(row, len(header), delimiter, fail)
        if cells is None:
            continue
        values = {column: cells[i] for column, i in positions.items()}
        features = _row_features(row.start, values, specs, schema.multi_separator, fail)
        form = values.get("form", "")
        if not has_form:
            continue
        if not form:
            fail(
                row.start,
                "form",
                "the form is empty; every row needs a form (leave the whole row blank to skip it)",
                E_MISSING_FORM,
            )
            continue
        if features is not None:
            pending.append(
                _Pending(
                    row.start,
                    values.get("id") or None,
                    form,
                    values.get("lemma") or form,
                    values.get("pos", ""),
                    features,
                )
            )

    items = _assign_ids(pending, file_name, errors)
    if errors:
        raise VocabularyError(errors)
    return Vocabulary(items, schema, name=name, language=language)


def _missing_form_message(header: Sequence[str], delimiter: str) -> str:
    message = "the file needs a 'form' column holding each item as it appears in sentences"
    alias = next((c for c in header if c in _FORM_ALIASES), None)
    if alias is not None:
        return f"{message} (rename the column '{alias}' to 'form')"
    if len(header) == 1:
        others = [d for d in _DELIMITERS if d != delimiter and d in header[0]]
        if others:
            shown = "tab" if others[0] == "\t" else f"'{others[0]}'"
            return f"{message} (the header was read as one column; is the file separated by {shown}?)"
    return message


def _fit_cells(row: _Row, width: int, delimiter: str, fail: _Fail) -> tuple[str, ...] | None:
    """Return the row's cells cut to the header width, or None after reporting a bad count."""
    cells = row.cells
    if len(cells) > width and not any(cells[width:]):
        cells = cells[:width]  # extra empty cells at the end are harmless
    if len(cells) == width:
        return cells
    hint = ""
    if len(cells) > width and delimiter != "\t":
        hint = f" (a value containing '{delimiter}' must be put in double quotes)"
    fail(
        row.start,
        None,
        f"this row has {len(cells)} cells but the header has {width} columns{hint}",
        E_CELL_COUNT,
    )
    return None


def _row_features(
    line: int,
    values: Mapping[str, str],
    specs: Mapping[str, FeatureSpec],
    separator: str,
    fail: _Fail,
) -> dict[str, tuple[str, ...]] | None:
    """Return the row's normalised features, or None after reporting a bad value."""
    features: dict[str, tuple[str, ...]] = {}
    ok = True
    for column, spec in specs.items():
        cell = values[column]
        if not cell:
            continue
        if spec.multi:
            parts = [part.strip() for part in cell.split(separator)]
        elif separator in cell and spec.type != "text":
            fail(
                line,
                column,
                f"'{cell}' holds several values but '{column}' takes one value "
                f"(declare it with multi: true to allow several)",
                E_VALUE,
            )
            ok = False
            continue
        else:
            parts = [cell]
        normalized: list[str] = []
        for part in parts:
            if not part:
                continue
            try:
                value = spec.normalize(part)
            except FeatureValueError as exc:
                fail(line, column, str(exc), E_VALUE)
                ok = False
                continue
            if value not in normalized:
                normalized.append(value)
        if normalized:
            features[column] = tuple(normalized)
    return features if ok else None


def _infer_schema(
    body: Sequence[_Row], positions: Mapping[str, int], columns: Sequence[str], separator: str
) -> FeatureSchema:
    """Return a schema declaring each feature column a category of its observed values."""
    specs: dict[str, FeatureSpec] = {}
    for column in columns:
        index = positions[column]
        cells = [r.cells[index] for r in body if index < len(r.cells) and r.cells[index]]
        multi = any(separator in cell for cell in cells)
        observed: set[str] = set()
        for cell in cells:
            parts = cell.split(separator) if multi else [cell]
            observed.update(part.strip() for part in parts if part.strip())
        specs[column] = FeatureSpec(name=column, type="category", values=tuple(sorted(observed)), multi=multi)
    return FeatureSchema(features=specs, multi_separator=separator)


def _assign_ids(pending: Sequence[_Pending], file_name: str, errors: list[RowError]) -> list[LexicalItem]:
    """Return the items with ids: the `id` cell, else the form, else `form#n` for homographs."""
    homographs = Counter(p.form for p in pending if p.id is None)
    seen_forms: Counter[str] = Counter()
    first_line: dict[str, int] = {}
    items: list[LexicalItem] = []
    for p in pending:
        item_id = p.id
        if item_id is None:
            seen_forms[p.form] += 1
            item_id = p.form if homographs[p.form] == 1 else f"{p.form}#{seen_forms[p.form]}"
        if item_id in first_line:
            made = (
                ""
                if p.id is not None
                else (
                    " (this row has no id, so it was given one made from its form; give the rows "
                    "distinct ids)"
                )
            )
            column = "id" if p.id is not None else "form"
            errors.append(
                RowError(
                    file_name,
                    p.line,
                    column,
                    f"the id '{item_id}' is already used on line {first_line[item_id]}{made}",
                    E_DUPLICATE_ID,
                )
            )
            continue
        first_line[item_id] = p.line
        items.append(LexicalItem(id=item_id, form=p.form, lemma=p.lemma, pos=p.pos, features=p.features))
    return items
