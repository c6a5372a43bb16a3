"""Write vocabularies as CSV/TSV tables with a `.schema.yaml` sidecar that read back unchanged."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from vocab.csv_cells import safe_row
from vocab.errors import E_WRITE, RowError, VocabularyError
from vocab.lexicon import RESERVED_COLUMNS, FeatureSchema, FeatureSpec, Vocabulary
from vocab.schema_file import schema_to_yaml_text


def export_schema(vocab: Vocabulary) -> FeatureSchema:
    """Return the vocabulary's schema plus a text feature for each undeclared feature in use."""
    declared = vocab.schema.features
    several: dict[str, bool] = {}  # undeclared feature -> seen with more than one value
    for item in vocab.items:
        for feature, values in item.features.items():
            if feature not in declared:
                several[feature] = several.get(feature, False) or len(values) > 1
    extra = {f: FeatureSpec(name=f, type="text", multi=m) for f, m in several.items()}
    return FeatureSchema(features={**declared, **extra}, multi_separator=vocab.schema.multi_separator)


def vocabulary_to_csv_text(vocab: Vocabulary, delimiter: str = ",") -> str:
    """Return the vocabulary as table text that `read_vocabulary_text` reads back unchanged.

    Columns are id, form, lemma, pos, then the features in schema order.

    Raises:
        VocabularyError: if a value would not survive the round trip (blank, padded with
            spaces, or holding the multi-value separator), naming the item's row and column.
    """
    schema = export_schema(vocab)
    separator = schema.multi_separator
    columns = [*RESERVED_COLUMNS, *schema.features]
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    writer.writerow(safe_row(columns))
    errors: list[RowError] = []
    target = f"{vocab.name} (export)"

    def fail(line: int, column: str, message: str) -> None:
        errors.append(RowError(target, line, column, message, E_WRITE))

    for line, item in enumerate(vocab.items, start=2):
        for column in RESERVED_COLUMNS:
            value = item.values(column)[0]
            if value != value.strip() or (not value and column != "pos"):
                fail(
                    line,
                    column,
                    f"'{value}' is blank or starts or ends with spaces and would read back differently",
                )
        row = [item.id, item.form, item.lemma, item.pos]
        for feature, spec in schema.features.items():
            values = item.features.get(feature, ())
            if len(values) > 1 and not spec.multi:
                fail(
                    line,
                    feature,
                    f"the item has {len(values)} values but the feature is not declared multi: true",
                )
            for value in values:
                splits = spec.multi or spec.type != "text"
                if value != value.strip() or not value or (splits and separator in value):
                    fail(
                        line,
                        feature,
                        f"'{value}' is blank, padded with spaces or holds the "
                        f"separator '{separator}' and would read back differently",
                    )
            row.append(separator.join(values))
        writer.writerow(safe_row(row))
    if errors:
        raise VocabularyError(errors)
    return buffer.getvalue()


def write_vocabulary(
    vocab: Vocabulary,
    path: str | Path,
    *,
    delimiter: str | None = None,
    write_schema: bool = True,
) -> None:
    """Write the vocabulary to a CSV/TSV file and, by default, its sidecar `.schema.yaml`.

    The delimiter is `delimiter`, else a tab for `.tsv`/`.tab` files, else a comma.

    Raises:
        VocabularyError: if a value would not read back unchanged (nothing is written then).
        OSError: if a file cannot be written.
    """
    path = Path(path)
    if delimiter is None:
        delimiter = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    text = vocabulary_to_csv_text(vocab, delimiter=delimiter)
    path.write_text(text, encoding="utf-8", newline="")
    if write_schema:
        schema_text = schema_to_yaml_text(export_schema(vocab), vocab.language)
        path.with_name(f"{path.stem}.schema.yaml").write_text(schema_text, encoding="utf-8")
