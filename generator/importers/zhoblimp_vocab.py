"""Convert ZhoBLiMP's vocabulary TSV (`assets/zh_vocab_saved.tsv` layout) into our vocabulary.

The file has an `expression` column and one column per feature; `/` separates several values
(our separator is `|`). ZhoBLiMP's own files have blank spacer rows (dropped and counted), a
row with features but no expression (reported), homographs (same expression, different
features: they become distinct items `word#1`, `word#2`), `nchar`, the number of characters,
which is derived from the expression (dropped and reported once), values repeated within a
cell and cells holding only `/` (both reported, see `_cell_values`).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from vocab.errors import E_CELL_COUNT, E_EMPTY_FILE, E_HEADER, E_MISSING_COLUMN, RowError, VocabularyError
from vocab.import_report import ImportNote
from vocab.lexicon import FeatureSchema, FeatureSpec, LexicalItem, Vocabulary
from vocab.table_reader import decode_table

SOURCE_SEPARATOR = "/"
MULTI_SEPARATOR = "|"
DERIVED_COLUMNS = ("nchar",)


def _times(n: int) -> str:
    """Return "twice" or "<n> times"."""
    return "twice" if n == 2 else f"{n} times"


def _cell_values(cell: str, column: str) -> tuple[tuple[str, ...], list[str]]:
    """Return the values of one feature cell, each once, and what to report about the cell.

    ZhoBLiMP's reader splits every cell on `/` and keeps one row of the word per piece, empty
    pieces included. A value written twice thus makes the word twice as likely to be drawn where
    a rule asks for that value, and an empty piece is a value no rule asks for. Our features are
    sets of values: each is kept once, an empty piece left out, and both are reported.
    """
    pieces = [piece.strip() for piece in cell.split(SOURCE_SEPARATOR)]
    messages: list[str] = []
    if not any(pieces):
        messages.append(
            f"'{cell}' holds only separators, no value: ZhoBLiMP reads {len(pieces)} empty "
            f"values, which no rule asks for; left blank (the word has no '{column}' value)"
        )
        return (), messages
    if not all(pieces):
        messages.append(
            f"'{cell}' has an empty value between its separators, which ZhoBLiMP reads as a "
            "value no rule asks for; left out (the other values are kept)"
        )
    counts = Counter(piece for piece in pieces if piece)
    repeated = [(value, n) for value, n in counts.items() if n > 1]
    if repeated:
        listed = ", ".join(f"'{value}' {_times(n)}" for value, n in repeated)
        which = "that value" if len(repeated) == 1 else "one of them"
        factor = " or ".join(_times(n) for n in sorted({n for _, n in repeated}))
        messages.append(
            f"{listed} in one cell: ZhoBLiMP keeps one row of the word per value written, so a rule "
            f"asking for {which} draws this word {factor} as often as if it were written once; "
            "each value is kept once here"
        )
    parts: list[str] = []
    for part in counts:
        if MULTI_SEPARATOR in part:
            messages.append(f"'{part}' holds '{MULTI_SEPARATOR}', our multi-value separator; value left out")
            continue
        parts.append(part)
    return tuple(parts), messages


@dataclass(frozen=True, slots=True)
class ZhoblimpVocabularyImport:
    """The converted vocabulary and the report of what was not imported as written."""

    vocabulary: Vocabulary
    notes: tuple[ImportNote, ...]


def import_zhoblimp_vocabulary(
    data: bytes, *, file_name: str = "vocab.tsv", name: str | None = None
) -> ZhoblimpVocabularyImport:
    """Return the vocabulary converted from the bytes of a ZhoBLiMP vocabulary TSV, and its report.

    Raises:
        VocabularyError: if the file cannot be used at all (no header, no `expression` column,
            repeated columns, no row left), naming the line and column.
    """
    text, errors, bad_lines = decode_table(data, file_name)
    notes = [ImportNote(file_name, f"line {e.line}", f"row skipped: {e.message}", "skipped") for e in errors]
    records: list[tuple[int, list[str]]] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t", quoting=csv.QUOTE_NONE)
    try:
        for number, record in enumerate(reader, start=1):
            records.append((number, [cell.strip() for cell in record]))
    except csv.Error as exc:
        # With QUOTE_NONE a record is one line, so the failing record is the next line.
        raise VocabularyError(
            [
                *errors,
                RowError(
                    file_name,
                    len(records) + 1,
                    None,
                    f"this line cannot be read ({exc}); is it one row of the table?",
                    E_CELL_COUNT,
                ),
            ]
        ) from None
    header_at = next((i for i, (_, cells) in enumerate(records) if any(cells)), None)
    if header_at is None or records[header_at][0] in bad_lines:
        raise VocabularyError(
            [*errors, RowError(file_name, None, None, "the file has no header row", E_EMPTY_FILE)]
        )
    header_line, header = records[header_at]
    while header and not header[-1]:
        header.pop()
    if "expression" not in header:
        hint = " (the file has no tab; ZhoBLiMP vocabularies are tab-separated)" if len(header) == 1 else ""
        raise VocabularyError(
            [
                RowError(
                    file_name,
                    header_line,
                    "expression",
                    f"a ZhoBLiMP vocabulary needs an 'expression' column{hint}",
                    E_MISSING_COLUMN,
                )
            ]
        )
    columns: dict[str, int] = {}
    problems: list[RowError] = []
    for index, column in enumerate(header):
        if not column or column.startswith("Unnamed"):
            notes.append(
                ImportNote(
                    file_name,
                    f"line {header_line}, column {index + 1}",
                    f"column '{column}' without a name dropped (ZhoBLiMP drops it too)",
                    "info",
                )
            )
        elif column in columns:
            problems.append(RowError(file_name, header_line, column, "this column appears twice", E_HEADER))
        elif column in DERIVED_COLUMNS:
            notes.append(
                ImportNote(
                    file_name,
                    f"column '{column}'",
                    "derived from the expression (its length); dropped",
                    "changed",
                )
            )
        else:
            columns[column] = index
    if problems:
        raise VocabularyError(problems)
    features = [c for c in columns if c not in ("expression", "pos")]

    spacers = 0
    kept: list[tuple[int, str, str, dict[str, tuple[str, ...]]]] = []
    first_line: dict[tuple[str, ...], int] = {}
    for line, cells in records[header_at + 1 :]:
        if line in bad_lines:
            continue
        if not any(cells):
            spacers += 1
            continue
        cells = cells + [""] * (len(header) - len(cells))
        if len(cells) > len(header) and any(cells[len(header) :]):
            notes.append(
                ImportNote(
                    file_name,
                    f"line {line}",
                    f"row skipped: it has {len(cells)} cells but the header has {len(header)} columns",
                    "skipped",
                )
            )
            continue
        form = cells[columns["expression"]]
        if not form:
            notes.append(
                ImportNote(
                    file_name,
                    f"line {line}, column 'expression'",
                    "row skipped: it has features but no expression",
                    "skipped",
                )
            )
            continue
        key = tuple(cells[i] for i in columns.values())
        if key in first_line:
            notes.append(
                ImportNote(
                    file_name,
                    f"line {line}",
                    f"row skipped: the same expression and features as line {first_line[key]}",
                    "skipped",
                )
            )
            continue
        first_line[key] = line
        values: dict[str, tuple[str, ...]] = {}
        for column in features:
            cell = cells[columns[column]]
            if not cell:
                continue
            if "," in cell:
                notes.append(
                    ImportNote(
                        file_name,
                        f"line {line}, column '{column}'",
                        f"'{cell}' holds a comma, which ZhoBLiMP's reader would split "
                        "into another column; kept as written",
                        "info",
                    )
                )
            parts, cell_notes = _cell_values(cell, column)
            notes += [
                ImportNote(file_name, f"line {line}, column '{column}'", m, "changed") for m in cell_notes
            ]
            if parts:
                values[column] = parts
        pos = cells[columns["pos"]] if "pos" in columns else ""
        kept.append((line, form, pos, values))
    if spacers:
        notes.append(ImportNote(file_name, "", f"{spacers} blank spacer row(s) dropped", "info"))

    homographs = Counter(form for _, form, _, _ in kept)
    lines_of: dict[str, list[int]] = {}
    for line, form, _, _ in kept:
        lines_of.setdefault(form, []).append(line)
    seen: Counter[str] = Counter()
    items: list[LexicalItem] = []
    for _line, form, pos, values in kept:
        seen[form] += 1
        item_id = form if homographs[form] == 1 else f"{form}#{seen[form]}"
        if homographs[form] > 1 and seen[form] == 1:
            where = ", ".join(str(n) for n in lines_of[form])
            notes.append(
                ImportNote(
                    file_name,
                    f"lines {where}",
                    f"homograph '{form}' (same expression, different features): items "
                    f"{form}#1 to {form}#{homographs[form]}",
                    "info",
                )
            )
        items.append(LexicalItem(id=item_id, form=form, lemma=form, pos=pos, features=values))
    if not items:
        raise VocabularyError(
            [
                *errors,
                RowError(file_name, None, None, "no row could be imported (see the report)", E_EMPTY_FILE),
            ]
        )
    specs: dict[str, FeatureSpec] = {}
    for column in features:
        observed = {v for item in items for v in item.features.get(column, ())}
        multi = any(len(item.features.get(column, ())) > 1 for item in items)
        specs[column] = FeatureSpec(column, "category", tuple(sorted(observed)), multi=multi)
    schema = FeatureSchema(features=specs, multi_separator=MULTI_SEPARATOR)
    vocabulary = Vocabulary(items, schema, name=name or Path(file_name).stem, language="zh")
    return ZhoblimpVocabularyImport(vocabulary, tuple(notes))
