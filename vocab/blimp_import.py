"""Convert BLiMP's `vocabulary.csv` (alexwarstadt/data_generation) into an MPP Studio vocabulary.

BLiMP's table has one row per word form and ~88 feature columns. They become features:

- 0/1/blank flags become bool features (blank = not applicable, kept blank);
- `gender` (m/f/n), `person` (1/2/3), `category` (CCG-style) and `category_2` become categories;
- the `;`-lists in `adjs` and `locative_prepositions` become multi-valued categories;
- `expression` becomes the form, and `root` (which links the forms of one lemma and argument
  frame) the lemma;
- the selectional restrictions `arg_1`, `arg_2`, `arg_3`, `arg_clause` and `initial_state` are
  formulas in disjunctive normal form (`;` = or, `^` = and, `col=value`). They become
  `restriction` features (vocab/restrictions.py), which a template enforces with `satisfies:`;
  `expression=` in them becomes `form=` (BLiMP's expression is our form), and a row whose
  restriction cannot be read is skipped, since a blank one would allow every word;
- rows sharing an expression (homographs) get ids `form#1`, `form#2`, ..., reported once.

Every row or cell that is not imported as written is reported by its line; nothing is guessed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vocab.csv_records import csv_records
from vocab.errors import E_EMPTY_FILE, E_HEADER, E_MISSING_COLUMN, RowError, VocabularyError
from vocab.import_report import ImportNote
from vocab.lexicon import FeatureSchema, FeatureSpec, LexicalItem, Vocabulary
from vocab.restrictions import RestrictionError, parse_restriction
from vocab.table_reader import decode_table

MULTI_SEPARATOR = "|"
SELECTION_COLUMNS = ("arg_1", "arg_2", "arg_3", "arg_clause", "initial_state")
LIST_COLUMNS = ("adjs", "locative_prepositions")
CATEGORY_COLUMNS = ("category", "category_2")
GENDER_VALUES = ("m", "f", "n")
PERSON_VALUES = ("1", "2", "3")
# How many homograph ids the report names as examples.
HOMOGRAPH_EXAMPLES = 4
# The 0/1 flag columns of BLiMP's vocabulary (master and `blimp` branch).
BOOL_COLUMNS = frozenset(
    [
        "verb",
        "noun",
        "non_v_pred",
        "frequent",
        "sg",
        "pl",
        "mass",
        "animate",
        "properNoun",
        "finite",
        "bare",
        "pres",
        "past",
        "ing",
        "en",
        "3sg",
        "wh_np_verb",
        "responsive",
        "passive",
        "strict_intrans",
        "strict_trans",
        "causative",
        "spray_load",
        "inchoative",
        "agentive",
        "event",
        "restrictor_DE",
        "scope_DE",
        "NPI",
        "agent",
        "occupation",
        "clothing",
        "appearance",
        "physical",
        "conceptual",
        "artifact",
        "start_with_vowel",
        "frontable",
        "document",
        "negated",
        "locale",
        "institution",
        "homophonous",
        "sgequalspl",
        "topic",
        "image",
        "v_embed_sc",
        "change_of_state",
        "vehicle",
        "vegetable",
        "food",
        "light",
        "liquid",
        "animal",
        "openable",
        "climbable",
        "cleanable",
        "buildable",
        "drinkable",
        "singable",
        "boat",
        "money",
        "interior",
        "quantifier",
        "OOV_inductive_biases",
        "past_or_participle",
    ]
)
# Known BLiMP columns whose type is read from their values (flags in some releases, words in others).
FREE_COLUMNS = frozenset(
    [
        "irrpl",
        "special_en_form",
        "irr_verb",
        "irr_past",
        "pluralform",
        "singularform",
        "antonym",
        "synonym_hypernym_hyponym",
        "change_arg",
    ]
)
KNOWN_COLUMNS = (
    BOOL_COLUMNS
    | FREE_COLUMNS
    | set(SELECTION_COLUMNS)
    | set(LIST_COLUMNS)
    | set(CATEGORY_COLUMNS)
    | {"expression", "root", "gender", "person"}
)
_FLAGS = {"0", "1"}


@dataclass(frozen=True, slots=True)
class BlimpVocabularyImport:
    """The converted vocabulary and the report of everything not imported exactly as written."""

    vocabulary: Vocabulary
    notes: tuple[ImportNote, ...]


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    cells: tuple[str, ...]


def _records(text: str, file_name: str, errors: list[RowError]) -> list[_Row]:
    records, problem = csv_records(text)
    if problem is not None:
        errors.append(
            RowError(
                file_name, problem.line, None, f"this row cannot be read as CSV ({problem.reason})", E_HEADER
            )
        )
    return [_Row(record.line, tuple(cell.strip() for cell in record.cells)) for record in records]


def _column_spec(column: str, values: Sequence[str]) -> FeatureSpec:
    """Return the declared feature for one BLiMP column, given its non-blank cells."""
    if column in SELECTION_COLUMNS:
        return FeatureSpec(
            column,
            "restriction",
            description="BLiMP selectional restriction in DNF (; = or, ^ = and, col=value)",
        )
    if column in LIST_COLUMNS:
        parts = {part.strip() for cell in values for part in cell.split(";")}
        found = sorted(p for p in parts if p and MULTI_SEPARATOR not in p)
        return FeatureSpec(column, "category", tuple(found), multi=True, description="BLiMP ;-list")
    if column == "gender":
        return FeatureSpec(column, "category", GENDER_VALUES, description="BLiMP gender m/f/n")
    if column == "person":
        return FeatureSpec(column, "category", PERSON_VALUES, description="BLiMP person 1/2/3")
    if column in CATEGORY_COLUMNS:
        return FeatureSpec(column, "category", tuple(sorted(set(values))))
    if column in BOOL_COLUMNS or (values and set(values) <= _FLAGS):
        return FeatureSpec(column, "bool")
    return FeatureSpec(column, "text")


def import_blimp_vocabulary(
    data: bytes, *, file_name: str = "vocabulary.csv", name: str | None = None
) -> BlimpVocabularyImport:
    """Return the vocabulary converted from the bytes of a BLiMP `vocabulary.csv`, and its report.

    Raises:
        VocabularyError: if the file cannot be used at all (not CSV, no `expression` column,
            repeated header columns, no row left to import), naming the line.
    """
    text, errors, bad_lines = decode_table(data, file_name)
    notes: list[ImportNote] = []
    if any(line == 1 for line in bad_lines):
        raise VocabularyError(errors)
    for error in errors:
        notes.append(ImportNote(file_name, f"line {error.line}", f"row skipped: {error.message}", "skipped"))
    parse_errors: list[RowError] = []
    rows = _records(text, file_name, parse_errors)
    rows = [r for r in rows if r.line not in bad_lines]
    if parse_errors:
        raise VocabularyError(parse_errors)
    header_row = next((r for r in rows if any(r.cells)), None)
    if header_row is None:
        raise VocabularyError(
            [RowError(file_name, None, None, "the file is empty; expected BLiMP's header row", E_EMPTY_FILE)]
        )
    header = list(header_row.cells)
    while header and not header[-1]:
        header.pop()
    positions: dict[str, int] = {}
    header_errors: list[RowError] = []
    for index, column in enumerate(header):
        if not column:
            # pandas writes an unnamed index column first; it carries no feature.
            notes.append(
                ImportNote(
                    file_name,
                    f"line {header_row.line}, column {index + 1}",
                    "column without a name dropped",
                    "info",
                )
            )
        elif column in positions:
            header_errors.append(
                RowError(file_name, header_row.line, column, "this column appears twice", E_HEADER)
            )
        else:
            positions[column] = index
    if "expression" not in positions:
        header_errors.append(
            RowError(
                file_name,
                header_row.line,
                "expression",
                "a BLiMP vocabulary needs an 'expression' column (the word form)",
                E_MISSING_COLUMN,
            )
        )
    if header_errors:
        raise VocabularyError(header_errors)

    body: list[_Row] = []
    blank = 0
    for row in rows:
        if row.line <= header_row.line:
            continue
        cells = row.cells
        if not any(cells):
            blank += 1
            continue
        if len(cells) > len(header) and not any(cells[len(header) :]):
            cells = cells[: len(header)]
        if len(cells) != len(header):
            notes.append(
                ImportNote(
                    file_name,
                    f"line {row.line}",
                    f"row skipped: it has {len(cells)} cells but the header has {len(header)} columns",
                    "skipped",
                )
            )
            continue
        body.append(_Row(row.line, cells))
    if blank:
        notes.append(ImportNote(file_name, "", f"{blank} blank row(s) ignored", "info"))

    feature_columns = [c for c in positions if c not in ("expression", "root")]
    specs: dict[str, FeatureSpec] = {}
    for column in feature_columns:
        index = positions[column]
        values = [r.cells[index] for r in body if r.cells[index]]
        specs[column] = _column_spec(column, values)
        if column not in KNOWN_COLUMNS:
            notes.append(
                ImportNote(
                    file_name,
                    f"column '{column}'",
                    f"not a documented BLiMP column; read as a {specs[column].type} feature from its values",
                    "info",
                )
            )

    items: list[LexicalItem] = []
    first_seen: dict[tuple[str, ...], int] = {}
    pending: list[tuple[_Row, dict[str, tuple[str, ...]]]] = []
    rewritten = 0
    for row in body:
        form = row.cells[positions["expression"]]
        if not form:
            notes.append(
                ImportNote(
                    file_name,
                    f"line {row.line}, column 'expression'",
                    "row skipped: it has features but no expression",
                    "skipped",
                )
            )
            continue
        # Compared on the named columns only: an unnamed index column numbers every row.
        content = tuple(row.cells[i] for i in positions.values())
        if content in first_seen:
            notes.append(
                ImportNote(
                    file_name,
                    f"line {row.line}",
                    f"row skipped: a duplicate of line {first_seen[content]}",
                    "skipped",
                )
            )
            continue
        first_seen[content] = row.line
        features, rewrote = _row_features(row, specs, positions, file_name, notes)
        if features is not None:
            pending.append((row, features))
            rewritten += rewrote
    notes += _restriction_notes(file_name, pending, specs, set(positions), rewritten)

    homographs = Counter(r.cells[positions["expression"]] for r, _ in pending)
    seen: Counter[str] = Counter()
    for row, features in pending:
        form = row.cells[positions["expression"]]
        seen[form] += 1
        item_id = form if homographs[form] == 1 else f"{form}#{seen[form]}"
        root = row.cells[positions["root"]] if "root" in positions else ""
        items.append(LexicalItem(id=item_id, form=form, lemma=root or form, pos="", features=features))
    shared = sorted(form for form, count in homographs.items() if count > 1)
    if shared:
        ids = sum(homographs[form] for form in shared)
        examples = ", ".join(f"{form}#1" for form in shared[:HOMOGRAPH_EXAMPLES])
        notes.append(
            ImportNote(
                file_name,
                "column 'expression'",
                f"{ids} item(s) share their expression with another row (homographs); their ids "
                f"are numbered in file order ({examples}, ...): `id:` names one of them, "
                "`form:` all of them",
                "info",
            )
        )
    held_out = sum(1 for item in items if item.features.get("OOV_inductive_biases") == ("1",))
    if held_out:
        notes.append(
            ImportNote(
                file_name,
                "column 'OOV_inductive_biases'",
                f"{held_out} item(s) have OOV_inductive_biases = 1, which BLiMP's generator leaves out; "
                'they are kept: exclude them in a template with `not: {OOV_inductive_biases: "1"}`',
                "info",
            )
        )
    if not items:
        raise VocabularyError(
            [RowError(file_name, None, None, "no row could be imported (see the report)", E_EMPTY_FILE)]
        )
    schema = FeatureSchema(features=specs, multi_separator=MULTI_SEPARATOR)
    vocabulary = Vocabulary(items, schema, name=name or Path(file_name).stem, language="en")
    return BlimpVocabularyImport(vocabulary, tuple(notes))


def _row_features(
    row: _Row,
    specs: dict[str, FeatureSpec],
    positions: dict[str, int],
    file_name: str,
    notes: list[ImportNote],
) -> tuple[dict[str, tuple[str, ...]] | None, int]:
    """Return a row's features (None when a restriction of it cannot be read, so the row is
    skipped) and how many of its restriction cells had `expression=` rewritten."""
    features: dict[str, tuple[str, ...]] = {}
    readable = True
    rewritten = 0
    for column, spec in specs.items():
        cell = row.cells[positions[column]]
        if not cell:
            continue
        where = f"line {row.line}, column '{column}'"
        if spec.type == "restriction":
            restriction, problem = _restriction_cell(cell)
            if problem:
                readable = False
                notes.append(ImportNote(file_name, where, f"row skipped: {problem}", "skipped"))
            elif restriction != cell:
                rewritten += 1
            features[column] = (restriction,)
            continue
        value = _cell_values(cell, spec, where, file_name, notes)
        if value:
            features[column] = value
    return (features if readable else None), rewritten


def _restriction_notes(
    file_name: str,
    pending: Sequence[tuple[_Row, dict[str, tuple[str, ...]]]],
    specs: dict[str, FeatureSpec],
    columns: set[str],
    rewritten: int,
) -> list[ImportNote]:
    """Return the report's lines on the restriction columns: what they became, the columns
    they name that the file lacks, and the `expression=` conditions rewritten."""
    restriction_columns = [c for c, spec in specs.items() if spec.type == "restriction"]
    if not restriction_columns:
        return []
    filled = sum(1 for _, features in pending for c in restriction_columns if c in features)
    notes = [
        ImportNote(
            file_name,
            "",
            f"{', '.join(restriction_columns)}: selectional restrictions in DNF on {filled} cell(s), "
            "imported as restriction features; a template enforces one with `satisfies:`, "
            'like `{id: obj, lexical: {noun: "1"}, satisfies: {verb: arg_2}}`',
            "info",
        )
    ]
    missing: dict[str, int] = {}  # a column restrictions name that the file lacks -> first line
    known = columns | {"form", "lemma", "pos", "id"}
    for row, features in pending:
        for column in restriction_columns:
            for text in features.get(column, ()):
                for feature in sorted(parse_restriction(text).features - known):
                    missing.setdefault(feature, row.line)
    if missing:
        named = ", ".join(f"'{name}' (line {line})" for name, line in sorted(missing.items()))
        notes.append(
            ImportNote(
                file_name,
                "",
                f"restrictions name columns the file does not have: {named}; a condition on one "
                "holds for no item",
                "info",
            )
        )
    if rewritten:
        notes.append(
            ImportNote(
                file_name,
                "",
                f"{rewritten} restriction cell(s) name BLiMP's expression column: "
                "'expression=' is written 'form=' (the column's name here)",
                "changed",
            )
        )
    return notes


def _restriction_cell(cell: str) -> tuple[str, str]:
    """Return a restriction cell's text with `expression=` written `form=`, and "" or why the
    cell is not a restriction."""
    try:
        restriction = parse_restriction(cell)
    except RestrictionError as exc:
        return "", f"its restriction cannot be read: {exc}"
    if "expression" not in restriction.features:
        return restriction.text, ""
    return ";".join(
        "^".join(f"{'form' if f == 'expression' else f}={v}" for f, v in alternative)
        for alternative in restriction.alternatives
    ), ""


def _cell_values(
    cell: str, spec: FeatureSpec, where: str, file_name: str, notes: list[ImportNote]
) -> tuple[str, ...]:
    """Return the feature values of one cell, or () after reporting a value that does not fit."""
    if spec.type == "bool":
        if cell in _FLAGS:
            return (cell,)
        notes.append(
            ImportNote(
                file_name, where, f"'{cell}' is not 0, 1 or blank in a 0/1 column; cell left blank", "changed"
            )
        )
        return ()
    parts = [p.strip() for p in cell.split(";")] if spec.multi else [cell]
    values: list[str] = []
    for part in parts:
        if not part:
            continue
        if MULTI_SEPARATOR in part and (spec.multi or spec.type != "text"):
            notes.append(
                ImportNote(
                    file_name,
                    where,
                    f"'{part}' holds '{MULTI_SEPARATOR}', our multi-value separator; value left out",
                    "changed",
                )
            )
            continue
        if spec.values is not None and part not in spec.values:
            allowed = "/".join(spec.values)
            notes.append(
                ImportNote(file_name, where, f"'{part}' is not one of {allowed}; cell left blank", "changed")
            )
            continue
        if part not in values:
            values.append(part)
    if spec.multi and not any(parts):
        notes.append(
            ImportNote(file_name, where, f"'{cell}' holds no value between its ';'; left blank", "changed")
        )
    return tuple(values)
