"""The template editor's form: plain HTML fields (`good-0-type`, `good-0-id`, ...) and a document.

The editor is one HTML form that works with and without JavaScript. Its fields are read into an
`EditorState` (`state_from_post`), turned into a template document (`document_from_state`, with
an error naming the row and field for anything that cannot be written as YAML), and an existing
document is shown in the fields with `state_from_document`. A position the fields cannot show
exactly (say, agreement with two positions at once) becomes a row of type "yaml" holding that
position as one line of YAML, so nothing a document says is lost by showing it in the table.

Field names (row numbers `i` and pair numbers `j` start at 0):

    uid, version, phenomenon, language, description, source, vocabulary,
    example_good, example_bad, opt-<option>, extra (other fields, as YAML),
    <grammar>-<i>-key | -drawn | -type | -was | -id | -words | -target | -on | -form | -uncapped
        | -phrase | -yaml,
    <grammar>-<i>-feat-<j>-name | -value,  <grammar>-<i>-not-<j>-name | -value,
    <grammar>-<i>-where-<j>-inner | -name | -value,  <grammar>-<i>-sat-<j>-target | -column,
    mode (table | yaml), yaml_text, seed, note, action.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.document import (
    DocumentError,
    document_from_text,
    document_to_text,
    position_from_text,
    position_to_text,
)
from generator.references import bad_reference, position_references_renamed, reference_renamed
from generator.template import BAD_PREFIX, BLIMP_FLAG_KEYS, BLIMP_TEXT_KEYS, OPTION_KEYS

GRAMMARS = ("good", "bad")
GRAMMAR_NAMES = {"good": "Good grammar", "bad": "Bad grammar"}

# Rule types: (value, label, help). The bad grammar offers all; the good one the first six.
RULE_TYPES: tuple[tuple[str, str, str], ...] = (
    ("lexical", "Lexical", "A word from the vocabulary whose features match, optionally inflected."),
    ("direct", "Direct", "A fixed word, or one of several (separate them with |)."),
    (
        "matched",
        "Matched",
        "A vocabulary word that shares the value of the named feature(s) with another position.",
    ),
    (
        "mismatched",
        "Mismatched",
        "A vocabulary word that has the feature(s) but shares no value with another position.",
    ),
    ("phrase", "Phrase", "One alternative of a named phrase; constraints can narrow its inner positions."),
    ("same", "Same", "The word made at a good-grammar position, in the same place; it may be re-inflected."),
    ("copy", "Copy", "The word of a good-grammar position again (it also stays where it was)."),
    ("move", "Move", "The word of a good-grammar position, moved here (it is gone from its old place)."),
    ("delete", "Delete", "Says that a good-grammar position is left out of the bad sentence."),
    ("yaml", "YAML", "This position written as one line of YAML, for what the fields cannot say."),
)
# How each rule type reads in YAML (docs/template-format.md), for the editor's guide.
RULE_EXAMPLES = {
    "lexical": '{id: noun, lexical: {pos: NN, number: pl}, not: {animate: "0"}}',
    "direct": "{direct: [a, the]}",
    "matched": "{id: verb, matched: subj, on: number, lexical: {pos: VB}, form: VBZ}",
    "mismatched": "{id: cl_bad, mismatched: noun, on: classifier, lexical: {pos: M}}",
    "phrase": "{id: subj, phrase: NP, where: {head: {number: sg}}}",
    "same": "{same: verb, form: VBP}",
    "copy": "{copy: aux}",
    "move": "{move: obj}",
    "delete": "{delete: obj}",
    "yaml": "{id: verb, lexical: {pos: VB}, matched: {subj: subj_class, obj: obj_class}}",
}
TYPE_LABELS = {value: label for value, label, _ in RULE_TYPES}
TYPE_HELP = {value: help_text for value, _, help_text in RULE_TYPES}
GOOD_TYPES = ("lexical", "direct", "matched", "mismatched", "phrase", "yaml")
BAD_TYPES = ("lexical", "direct", "matched", "mismatched", "phrase", "same", "copy", "move", "delete", "yaml")
LEXICAL_TYPES = ("lexical", "matched", "mismatched")
REFERENCE_TYPES = ("same", "copy", "move")

META_FIELDS = ("uid", "version", "phenomenon", "language", "description", "source", "vocabulary")
# BLiMP's own fields (`blimp:`): two texts and two flags the export reads (generator.template).
BLIMP_FIELDS = (*BLIMP_TEXT_KEYS, *BLIMP_FLAG_KEYS)
# Top-level fields the table shows; any other field lives in the "extra" YAML box.
TABLE_KEYS = frozenset((*META_FIELDS, "example", "options", "good", "bad"))

SEPARATOR = "|"  # between alternatives in one field: "sg | pl", "a | the"


@dataclass
class FeatureRow:
    """One feature and its value(s) in a field: `number` = "sg | pl"."""

    name: str = ""
    value: str = ""
    list_id: str = ""  # the datalist of known values (set for rendering)


@dataclass
class WhereRow:
    """One constraint on an inner position of a phrase: `head`: `number` = "pl"."""

    inner: str = ""
    name: str = ""
    value: str = ""
    list_id: str = ""


@dataclass
class SatisfiesRow:
    """One selectional restriction of a word: it satisfies the restriction the word at position
    `target` holds in `column` (`satisfies: {verb: arg_2}`)."""

    target: str = ""
    column: str = ""


@dataclass
class PositionRow:
    """One position of a grammar as the table shows it."""

    type: str = "lexical"
    was: str = ""  # the type the fields were shown for (the type select may have changed since)
    id: str = ""
    # The id the row was drawn with (None: not known, as for a row written as YAML); when the Id
    # box no longer says it, every reference to the position follows (see `follow_renames`).
    drawn_id: str | None = None
    # Names the row in the page while it is edited, wherever it moves (set for rendering), so
    # what is typed while the form is drawn again lands in the same row.
    key: str = ""
    words: str = ""  # direct
    target: str = ""  # matched/mismatched/same/copy/move/delete
    on: str = ""  # matched/mismatched
    # A matched row that must also differ from a position (a mismatched row that must also agree
    # with one) on some features: keep gender, break number, in one position.
    also: str = ""
    also_on: str = ""
    form: str = ""
    uncapped: bool = False
    phrase: str = ""
    yaml: str = ""
    features: list[FeatureRow] = field(default_factory=list)
    exclusions: list[FeatureRow] = field(default_factory=list)
    where: list[WhereRow] = field(default_factory=list)
    satisfies: list[SatisfiesRow] = field(default_factory=list)
    problems: list[Any] = field(default_factory=list)  # shown beside the row (set for rendering)


@dataclass
class EditorState:
    """Everything the editor form holds."""

    meta: dict[str, str] = field(default_factory=lambda: dict.fromkeys(META_FIELDS, ""))
    example_good: str = ""
    example_bad: str = ""
    options: dict[str, str] = field(default_factory=lambda: dict.fromkeys(OPTION_KEYS, ""))
    # `blimp:` as the table shows it: texts, and "true" or "" for each flag.
    blimp: dict[str, str] = field(default_factory=lambda: dict.fromkeys(BLIMP_FIELDS, ""))
    good: list[PositionRow] = field(default_factory=list)
    bad: list[PositionRow] = field(default_factory=list)
    extra: str = ""  # other top-level fields (phrases, phrase_files, notes, ...) as YAML
    mode: str = "table"  # or "yaml": the whole template is edited as text in `yaml_text`
    yaml_text: str = ""
    seed: str = "0"
    note: str = ""

    def rows(self, grammar: str) -> list[PositionRow]:
        return self.good if grammar == "good" else self.bad


@dataclass(frozen=True, slots=True)
class FieldError:
    """A form field that cannot be turned into YAML; `message` names its place in words."""

    field: str  # the form field's name ("good-2-yaml", "extra", "yaml_text")
    message: str
    grammar: str = ""
    row: int | None = None  # 1-based, the number the table shows
    line: int | None = None


# -- the form's fields ----------------------------------------------------------------------------


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name, "")
    # Browsers send line breaks in text areas as CRLF.
    return str(value).replace("\r\n", "\n").replace("\r", "\n") if value is not None else ""


def _indices(data: Mapping[str, Any], pattern: str) -> list[int]:
    regex = re.compile(pattern)
    found = {int(m.group(1)) for key in data for m in [regex.fullmatch(str(key))] if m}
    return sorted(found)


def state_from_post(data: Mapping[str, Any]) -> EditorState:
    """Return the editor state the submitted form fields describe (nothing is checked here)."""
    state = EditorState(
        meta={name: _text(data, name) for name in META_FIELDS},
        example_good=_text(data, "example_good"),
        example_bad=_text(data, "example_bad"),
        options={name: _text(data, f"opt-{name}").strip() for name in OPTION_KEYS},
        blimp={name: _blimp_value(name, _text(data, f"blimp-{name}")) for name in BLIMP_FIELDS},
        extra=_text(data, "extra"),
        mode="yaml" if _text(data, "mode") == "yaml" else "table",
        yaml_text=_text(data, "yaml_text"),
        seed=_text(data, "seed").strip() or "0",
        note=_text(data, "note"),
    )
    for grammar in GRAMMARS:
        rows = state.rows(grammar)
        for i in _indices(data, rf"{grammar}-(\d+)-type"):
            p = f"{grammar}-{i}-"
            row = PositionRow(
                type=_text(data, p + "type"),
                was=_text(data, p + "was"),
                id=_text(data, p + "id").strip(),
                drawn_id=_text(data, p + "drawn").strip() if p + "drawn" in data else None,
                key=_text(data, p + "key").strip(),
                words=_text(data, p + "words"),
                target=_text(data, p + "target").strip(),
                on=_text(data, p + "on"),
                also=_text(data, p + "also"),
                also_on=_text(data, p + "also_on"),
                form=_text(data, p + "form").strip(),
                uncapped=bool(_text(data, p + "uncapped")),
                phrase=_text(data, p + "phrase").strip(),
                yaml=_text(data, p + "yaml"),
            )
            for kind, target in (("feat", row.features), ("not", row.exclusions)):
                for j in _indices(data, rf"{re.escape(p)}{kind}-(\d+)-name"):
                    target.append(
                        FeatureRow(
                            name=_text(data, f"{p}{kind}-{j}-name").strip(),
                            value=_text(data, f"{p}{kind}-{j}-value"),
                        )
                    )
            for j in _indices(data, rf"{re.escape(p)}sat-(\d+)-target"):
                row.satisfies.append(
                    SatisfiesRow(
                        target=_text(data, f"{p}sat-{j}-target").strip(),
                        column=_text(data, f"{p}sat-{j}-column").strip(),
                    )
                )
            for j in _indices(data, rf"{re.escape(p)}where-(\d+)-inner"):
                row.where.append(
                    WhereRow(
                        inner=_text(data, f"{p}where-{j}-inner").strip(),
                        name=_text(data, f"{p}where-{j}-name").strip(),
                        value=_text(data, f"{p}where-{j}-value"),
                    )
                )
            rows.append(row)
    return follow_renames(state)


# -- renamed positions ----------------------------------------------------------------------------


def _agrees_and_differs(position: dict[str, Any]) -> tuple[tuple[str, Any], tuple[str, Any]] | None:
    """Return ((position, features it agrees on), (position, features it differs on)) of a
    position that is matched with one position and mismatched with one (`matched: {noun:
    gender}, mismatched: {noun: number}`), as one table row shows it; else None."""
    matched, mismatched = position.get("matched"), position.get("mismatched")
    if "on" in position or not isinstance(matched, dict) or not isinstance(mismatched, dict):
        return None
    if len(matched) != 1 or len(mismatched) != 1:
        return None
    agree, differ = next(iter(matched.items())), next(iter(mismatched.items()))
    if not all(isinstance(name, str) and name for name, _ in (agree, differ)):
        return None
    return (agree, differ)


def follow_renames(state: EditorState) -> EditorState:
    """Carry every reference to a position whose Id box was changed over to its new name.

    A row knows the id it was drawn with; when its name changed, each Matched, Mismatched, Same,
    Copy, Move and Delete that named it, and each path through it (`subj.head`), names it anew,
    in the table's fields and in rows written as YAML. A name that is now ambiguous (another
    row already has it, or still has the old one) moves nothing: the engine reports the clash.
    """
    renames: list[tuple[str, str]] = []
    for grammar in GRAMMARS:
        rows = state.rows(grammar)
        # A position without an id is named by its number.
        names = [row.id or str(i + 1) for i, row in enumerate(rows)]
        for i, row in enumerate(rows):
            if row.drawn_id is None or row.type == "yaml" or row.drawn_id == row.id:
                continue
            old, new = row.drawn_id or str(i + 1), names[i]
            if old == new or names.count(new) > 1 or old in names:
                continue
            if grammar == "good":
                renames.append((old, new))
            else:
                renames.append((bad_reference(old), bad_reference(new)))
        for row in rows:
            row.drawn_id = row.id
        for old, new in renames:
            _rename_references(state, old, new)
        renames = []
    return state


def _rename_references(state: EditorState, old: str, new: str) -> None:
    """Rename the references `old` (a good position, or `bad.x`) to `new` in every row."""
    for grammar in GRAMMARS:
        if grammar == "good" and old.startswith(BAD_PREFIX):
            continue
        for row in state.rows(grammar):
            if row.type != "yaml":
                row.target = reference_renamed(row.target, old, new)
                row.also = reference_renamed(row.also, old, new)
                for restriction in row.satisfies:
                    restriction.target = reference_renamed(restriction.target, old, new)
                continue
            try:
                position = position_from_text(row.yaml)
            except DocumentError:
                continue
            renamed = position_references_renamed(position, old, new)
            if renamed != position:
                row.yaml = position_to_text(renamed)


# -- values in fields -----------------------------------------------------------------------------


def split_alternatives(text: str) -> str | list[str] | None:
    """Return "sg | pl" as ["sg", "pl"], "sg" as "sg" and "" as None (YAML null)."""
    parts = [part.strip() for part in text.split(SEPARATOR)]
    parts = [part for part in parts if part]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else parts


def join_alternatives(value: Any) -> str:
    """Return a value or list of values as field text (the inverse of `split_alternatives`)."""
    if value is None:
        return ""
    if isinstance(value, list):
        return f" {SEPARATOR} ".join(str(v) for v in value)
    return str(value)


# -- state -> document ----------------------------------------------------------------------------


def _where_words(grammar: str, number: int) -> str:
    return f"{GRAMMAR_NAMES[grammar]}, row {number}"


def _feature_map(
    pairs: list[FeatureRow], grammar: str, number: int, name: str, what: str, errors: list[FieldError]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for j, pair in enumerate(pairs):
        if not pair.name and not pair.value.strip():
            continue
        if not pair.name:
            errors.append(
                FieldError(
                    f"{name}-{j}-name",
                    f"{_where_words(grammar, number)}, {what}: the value '{pair.value.strip()}' has no "
                    "feature; choose the feature it belongs to",
                    grammar,
                    number,
                )
            )
            continue
        if pair.name in out:
            errors.append(
                FieldError(
                    f"{name}-{j}-name",
                    f"{_where_words(grammar, number)}, {what}: the feature '{pair.name}' is given twice; "
                    f"put all its values in one field, separated by {SEPARATOR}",
                    grammar,
                    number,
                )
            )
            continue
        out[pair.name] = split_alternatives(pair.value)
    return out


def _satisfies_map(
    restrictions: list[SatisfiesRow], grammar: str, number: int, p: str, errors: list[FieldError]
) -> dict[str, Any]:
    """Return `satisfies:` as the rows say it (position -> column), with an error for a row that
    names only one of the two or a position twice; a row left empty is skipped."""
    out: dict[str, Any] = {}
    for j, restriction in enumerate(restrictions):
        if not restriction.target and not restriction.column:
            continue
        where = f"{_where_words(grammar, number)}, satisfies"
        if not restriction.target or not restriction.column:
            missing = "target" if not restriction.target else "column"
            what = "the position whose word holds the restriction" if missing == "target" else "its column"
            errors.append(FieldError(f"{p}sat-{j}-{missing}", f"{where}: choose {what}", grammar, number))
        elif restriction.target in out:
            errors.append(
                FieldError(
                    f"{p}sat-{j}-target",
                    f"{where}: the position '{restriction.target}' is named twice; a word satisfies "
                    "one restriction column of each position",
                    grammar,
                    number,
                )
            )
        else:
            out[restriction.target] = restriction.column
    return out


def position_from_row(row: PositionRow, grammar: str, number: int) -> tuple[Any, list[FieldError]]:
    """Return the position (plain data) a row describes, and errors naming the row's fields.

    Missing values are written as null, so the engine names what is missing at this position;
    only what cannot be written as YAML at all is a field error.
    """
    errors: list[FieldError] = []
    p = f"{grammar}-{number - 1}-"
    allowed = GOOD_TYPES if grammar == "good" else BAD_TYPES
    kind = row.type
    if kind not in allowed:
        label = TYPE_LABELS.get(kind, kind or "(none)")
        message = f"{_where_words(grammar, number)}: '{label}' is not a rule type of the {grammar} grammar"
        return None, [FieldError(p + "type", message, grammar, number)]
    if kind == "yaml":
        if not row.yaml.strip():
            message = f"{_where_words(grammar, number)}: write the position as YAML, like {{direct: the}}"
            return None, [FieldError(p + "yaml", message, grammar, number)]
        try:
            return position_from_text(row.yaml), []
        except DocumentError as exc:
            message = (
                f"{_where_words(grammar, number)}: the YAML of this position is not valid: {exc.message}"
            )
            return None, [FieldError(p + "yaml", message, grammar, number)]
    position: dict[str, Any] = {}
    if row.id:
        position["id"] = row.id
    if kind == "direct":
        position["direct"] = split_alternatives(row.words)
    elif kind == "phrase":
        position["phrase"] = row.phrase or None
        where: dict[str, Any] = {}
        for j, constraint in enumerate(row.where):
            if not (constraint.inner or constraint.name or constraint.value.strip()):
                continue
            if not constraint.inner:
                errors.append(
                    FieldError(
                        f"{p}where-{j}-inner",
                        f"{_where_words(grammar, number)}, constraints: choose the inner position of "
                        f"the phrase that '{constraint.name or constraint.value.strip()}' is about",
                        grammar,
                        number,
                    )
                )
                continue
            pair = FeatureRow(constraint.name, constraint.value)
            features = _feature_map([pair], grammar, number, f"{p}where-{j}", "constraints", errors)
            where.setdefault(constraint.inner, {}).update(features)
        if where:
            position["where"] = where
    elif kind in REFERENCE_TYPES or kind == "delete":
        position[kind] = row.target or None
        if kind != "delete" and row.form:
            position["form"] = row.form
    else:  # lexical, matched, mismatched
        if kind != "lexical" and row.also:
            other = "mismatched" if kind == "matched" else "matched"
            position[kind] = {row.target: split_alternatives(row.on)}
            position[other] = {row.also: split_alternatives(row.also_on)}
        elif kind != "lexical":
            position[kind] = row.target or None
            position["on"] = split_alternatives(row.on)
        features = _feature_map(row.features, grammar, number, p + "feat", "features", errors)
        if kind == "lexical" or features:
            position["lexical"] = features
        if row.form:
            position["form"] = row.form
        exclusions = _feature_map(row.exclusions, grammar, number, p + "not", "exclusions", errors)
        if exclusions:
            position["not"] = exclusions
        satisfies = _satisfies_map(row.satisfies, grammar, number, p, errors)
        if satisfies:
            position["satisfies"] = satisfies
        if row.uncapped:
            position["uncapped"] = "true"
    return position, errors


def document_from_state(state: EditorState) -> tuple[dict[str, Any], list[FieldError]]:
    """Return the template document the table describes, and the fields that could not be read."""
    errors: list[FieldError] = []
    document: dict[str, Any] = {}
    for name in META_FIELDS:
        if state.meta.get(name, ""):
            document[name] = state.meta[name]
    example = {k: v for k, v in (("good", state.example_good), ("bad", state.example_bad)) if v}
    if example:
        document["example"] = example
    options = {k: v for k, v in state.options.items() if v}
    if options:
        document["options"] = options
    blimp = {k: v for k, v in state.blimp.items() if v}
    if blimp:
        document["blimp"] = blimp
    if state.extra.strip():
        try:
            extra = document_from_text(state.extra)
        except DocumentError as exc:
            line = f", line {exc.line}" if exc.line is not None else ""
            errors.append(FieldError("extra", f"Other fields{line}: {exc.message}", line=exc.line))
            extra = {}
        for key, value in extra.items():
            if key in TABLE_KEYS or (key == "blimp" and blimp):
                errors.append(
                    FieldError(
                        "extra",
                        f"Other fields: '{key}' has its own place in the form; remove it from this box",
                    )
                )
            else:
                document[key] = value
    for grammar in GRAMMARS:
        positions = []
        for i, row in enumerate(state.rows(grammar)):
            position, row_errors = position_from_row(row, grammar, i + 1)
            errors += row_errors
            positions.append(position)
        document[grammar] = positions
    return document, errors


def source_text_from_state(state: EditorState) -> tuple[str, list[FieldError]]:
    """Return the template text the form holds: the YAML view's text, or the table's as YAML."""
    if state.mode == "yaml":
        return state.yaml_text, []
    document, errors = document_from_state(state)
    return document_to_text(document), errors


# -- document -> state ----------------------------------------------------------------------------


def _pairs(mapping: Any) -> list[FeatureRow]:
    if not isinstance(mapping, dict):
        return []
    return [FeatureRow(name=str(k), value=join_alternatives(v)) for k, v in mapping.items()]


def row_from_position(position: Any, grammar: str) -> PositionRow:
    """Return the row showing a position: its own type if the fields can say it exactly, else YAML."""
    row = guess_row(position)
    if row is not None and row.type in (GOOD_TYPES if grammar == "good" else BAD_TYPES):
        back, errors = position_from_row(row, grammar, 1)
        if not errors and _normalized(back) == _normalized(position):
            row.was = row.type
            return row
    return PositionRow(type="yaml", was="yaml", yaml=position_to_text(position))


def guess_row(position: Any) -> PositionRow | None:
    """Return the row that shows as much of a position as the fields can (None: not a mapping)."""
    if not isinstance(position, dict):
        return None
    rules = [
        k
        for k in ("direct", "phrase", "same", "copy", "move", "delete", "matched", "mismatched")
        if k in position
    ]
    kind = rules[0] if len(rules) == 1 else "lexical"
    both = _agrees_and_differs(position)
    if both is not None:
        kind = "matched"
    row = PositionRow(type=kind, id=str(position.get("id") or ""))
    if kind == "direct":
        row.words = join_alternatives(position.get("direct"))
    elif kind == "phrase":
        row.phrase = str(position.get("phrase") or "")
        where = position.get("where")
        if isinstance(where, dict):
            for inner, features in where.items():
                row.where += [WhereRow(str(inner), pair.name, pair.value) for pair in _pairs(features)]
    else:
        target = position.get(kind) if kind != "lexical" else None
        row.target = target if isinstance(target, str) else ""
        form = position.get("form")
        row.form = form if isinstance(form, str) else ""
        row.on = join_alternatives(position.get("on"))
        if both is not None:
            (row.target, on), (row.also, also_on) = both
            row.on, row.also_on = join_alternatives(on), join_alternatives(also_on)
        row.features = _pairs(position.get("lexical"))
        row.exclusions = _pairs(position.get("not"))
        satisfies = position.get("satisfies")
        if isinstance(satisfies, dict):
            row.satisfies = [
                SatisfiesRow(str(k), v if isinstance(v, str) else "") for k, v in satisfies.items()
            ]
        row.uncapped = str(position.get("uncapped", "")).lower() in ("true", "yes")
    return row


def _normalized(position: Any) -> Any:
    """Return a position with `uncapped` in one spelling, so yes/true compare equal."""
    if not isinstance(position, dict) or "uncapped" not in position:
        return position
    out = dict(position)
    value = str(out.pop("uncapped")).lower()
    if value in ("true", "yes"):
        out["uncapped"] = "true"
    elif value not in ("false", "no"):
        out["uncapped"] = value  # not a yes/no: kept, so only the YAML row can show it
    return out


def state_from_document(document: dict[str, Any], *, mode: str = "table", yaml_text: str = "") -> EditorState:
    """Return the editor state showing a document; fields the table has no place for go to `extra`."""
    state = EditorState(mode=mode, yaml_text=yaml_text)
    extra: dict[str, Any] = {}
    for key, value in document.items():
        if key in META_FIELDS and (isinstance(value, str) or value is None):
            state.meta[key] = value or ""
        elif key == "example" and _text_mapping(value, ("good", "bad")):
            state.example_good = value.get("good") or ""
            state.example_bad = value.get("bad") or ""
        elif key == "options" and _text_mapping(value, OPTION_KEYS):
            state.options.update({k: v or "" for k, v in value.items()})
        elif key == "blimp" and _blimp_shown(value):
            state.blimp.update({k: v for k, v in value.items()})
        elif key in ("good", "bad") and isinstance(value, list):
            state.rows(key).extend(row_from_position(position, key) for position in value)
        else:
            extra[key] = value
    state.extra = document_to_text(extra) if extra else ""
    return state


def _blimp_value(name: str, value: str) -> str:
    """Return a `blimp:` field as the table holds it: a flag's checkbox is "true" or ""."""
    if name in BLIMP_FLAG_KEYS:
        return "true" if value.strip() else ""
    return value.strip()


def _blimp_shown(value: Any) -> bool:
    """Whether the table's BLiMP fields show a `blimp:` mapping exactly (texts, flags true);
    any other mapping stays in the "other fields" box, as written."""
    return (
        _text_mapping(value, BLIMP_FIELDS)
        and all(value.get(k) in (None, "true") for k in BLIMP_FLAG_KEYS)
        and all(v for v in value.values())
    )


def _text_mapping(value: Any, keys: tuple[str, ...]) -> bool:
    return (
        isinstance(value, dict)
        and all(k in keys for k in value)
        and all(v is None or isinstance(v, str) for v in value.values())
    )


def state_to_fields(state: EditorState) -> dict[str, str]:
    """Return the form fields that show a state, as a browser posts them (see `state_from_post`)."""
    fields = {name: state.meta.get(name, "") for name in META_FIELDS}
    fields.update(
        example_good=state.example_good,
        example_bad=state.example_bad,
        extra=state.extra,
        mode=state.mode,
        yaml_text=state.yaml_text,
        seed=state.seed,
        note=state.note,
    )
    fields.update({f"opt-{name}": value for name, value in state.options.items()})
    fields.update({f"blimp-{name}": value for name, value in state.blimp.items() if value})
    for grammar in GRAMMARS:
        for i, row in enumerate(state.rows(grammar)):
            p = f"{grammar}-{i}-"
            fields.update(
                {
                    p + "key": row.key,
                    p + "drawn": row.id if row.drawn_id is None else row.drawn_id,
                    p + "type": row.type,
                    p + "was": row.was or row.type,
                    p + "id": row.id,
                    p + "words": row.words,
                    p + "target": row.target,
                    p + "on": row.on,
                    p + "also": row.also,
                    p + "also_on": row.also_on,
                    p + "form": row.form,
                    p + "phrase": row.phrase,
                    p + "yaml": row.yaml,
                }
            )
            if row.uncapped:
                fields[p + "uncapped"] = "true"
            for kind, pairs in (("feat", row.features), ("not", row.exclusions)):
                for j, pair in enumerate(pairs):
                    fields[f"{p}{kind}-{j}-name"] = pair.name
                    fields[f"{p}{kind}-{j}-value"] = pair.value
            for j, restriction in enumerate(row.satisfies):
                fields[f"{p}sat-{j}-target"] = restriction.target
                fields[f"{p}sat-{j}-column"] = restriction.column
            for j, constraint in enumerate(row.where):
                fields[f"{p}where-{j}-inner"] = constraint.inner
                fields[f"{p}where-{j}-name"] = constraint.name
                fields[f"{p}where-{j}-value"] = constraint.value
    return fields
