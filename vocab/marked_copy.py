"""Write a vocabulary file again with one more column, keeping everything else as written.

The balance report marks which words it kept in a column of the author's own vocabulary file. A
vocabulary written back from the engine's model would lose what the model does not keep: the
schema's descriptions and comments, and the cells' own spelling. So the table is copied cell for
cell with the one column set, and the schema's text is kept with that feature's declaration added.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from pathlib import Path

from vocab.errors import RowError, VocabularyError
from vocab.lexicon import FeatureSpec

_TOP_LEVEL_KEY = re.compile(r"^[^\s#][^:]*:")


def copy_with_column(
    source: Path, out: Path, column: str, values: Mapping[str, str], spec: FeatureSpec
) -> Path | None:
    """Copy the table at `source` to `out` with `column` set from `values` (item id -> cell text).

    Rows whose id is not in `values` get an empty cell; an existing column of that name is
    replaced in place. The sidecar schema `<stem>.schema.yaml`, if `source` has one, is copied
    beside `out` with `spec` declared under `features:` (unless it already declares `column`).
    Returns the schema path written, or None when the source has no schema.

    Raises:
        VocabularyError: if the table has no `id` column (rows could not be matched to items).
    """
    delimiter = "\t" if source.suffix.lower() == ".tsv" else ","
    text = source.read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if not rows or "id" not in rows[0]:
        message = "the table needs an 'id' column, so its rows can be matched to the marked items"
        raise VocabularyError([RowError(source.name, 1, "id", message)])
    header = rows[0]
    id_at = header.index("id")
    if column in header:
        at = header.index(column)
    else:
        at = len(header)
        header.append(column)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    for row in rows[1:]:
        if not any(cell.strip() for cell in row):
            writer.writerow(row)
            continue
        row = row + [""] * (len(header) - len(row))
        row[at] = values.get(row[id_at], "")
        writer.writerow(row)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(buffer.getvalue(), encoding="utf-8")

    schema_source = source.with_name(f"{source.stem}.schema.yaml")
    if not schema_source.exists():
        return None
    schema_out = out.with_name(f"{out.stem}.schema.yaml")
    schema_out.write_text(_declare(schema_source.read_text(encoding="utf-8"), column, spec), encoding="utf-8")
    return schema_out


def _declare(schema_text: str, name: str, spec: FeatureSpec) -> str:
    """Return the schema text with `name` declared under `features:` (unchanged if it already is)."""
    lines = schema_text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("features:")), None)
    description = spec.description.replace('"', "'")
    block = [f"  {name}:", f"    type: {spec.type}", f'    description: "{description}"']
    if start is None:
        return schema_text.rstrip("\n") + "\nfeatures:\n" + "\n".join(block) + "\n"
    end = next((i for i in range(start + 1, len(lines)) if _TOP_LEVEL_KEY.match(lines[i])), len(lines))
    if any(line.startswith(f"  {name}:") for line in lines[start + 1 : end]):
        return schema_text
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return "\n".join([*lines[:end], *block, *lines[end:]]) + "\n"
