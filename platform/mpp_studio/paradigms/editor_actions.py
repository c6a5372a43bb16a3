"""What the template editor's buttons do to the form's state: rows added, removed, moved, retyped.

Each function takes and returns a `forms_editor.EditorState`; the views draw the result. Nothing
here reads or writes the database.
"""

from dataclasses import replace
from typing import Any

from generator.document import (
    DocumentError,
    document_from_text,
    document_to_text,
    position_from_text,
    position_to_text,
)
from mpp_studio.paradigms.forms.editor import (
    GRAMMARS,
    LEXICAL_TYPES,
    REFERENCE_TYPES,
    EditorState,
    FeatureRow,
    FieldError,
    PositionRow,
    SatisfiesRow,
    WhereRow,
    document_from_state,
    guess_row,
    position_from_row,
    state_from_document,
)


def new_row(grammar: str) -> PositionRow:
    """Return an empty row: a Lexical position in the good grammar, a Same one in the bad."""
    if grammar == "good":
        return PositionRow(type="lexical", was="lexical", features=[FeatureRow()])
    return PositionRow(type="same", was="same")


def new_state(*, vocabulary: str = "", language: str = "") -> EditorState:
    """Return the state of a new template: empty fields, one row in each grammar."""
    state = EditorState()
    state.meta["vocabulary"] = vocabulary
    state.meta["language"] = language
    state.good.append(new_row("good"))
    state.bad.append(new_row("bad"))
    return state


def state_settle(state: EditorState) -> EditorState:
    """Carry each row's fields over to the type now chosen in its select, ready to show.

    A row turned into YAML gets its position as YAML; a YAML row turned into another type gets
    its fields filled from the YAML. A Lexical-like row keeps one empty feature pair to fill in.
    """
    for grammar in GRAMMARS:
        rows = state.rows(grammar)
        for i, row in enumerate(rows):
            if row.type == "yaml" and row.was not in ("", "yaml") and not row.yaml.strip():
                position, _ = position_from_row(replace(row, type=row.was), grammar, i + 1)
                row.yaml = position_to_text(position)
            elif row.was == "yaml" and row.type != "yaml" and row.yaml.strip():
                try:
                    guess = guess_row(position_from_text(row.yaml))
                except DocumentError:
                    guess = None
                if guess is not None:
                    guess.type = row.type
                    rows[i] = row = guess
            if row.type in LEXICAL_TYPES and not row.features:
                row.features.append(FeatureRow())
            row.was = row.type
    return state


def _renumber(state: EditorState, grammar: str, order: list[int | None]) -> None:
    """Follow a reordering of a grammar in the references that name its positions by number.

    `order[new_index]` is the old index of the row now there (None: a new row). References by
    id need nothing; "3" must follow position 3 to its new place.
    """
    moved = {str(old + 1): str(new + 1) for new, old in enumerate(order) if old is not None}
    prefix = "bad." if grammar == "bad" else ""

    def follow(target: str) -> str:
        if grammar == "good" and not target.startswith("bad.") and target in moved:
            return moved[target]
        if prefix and target.startswith(prefix) and target[len(prefix) :] in moved:
            return prefix + moved[target[len(prefix) :]]
        return target

    for rows in (state.good, state.bad):
        for row in rows:
            for restriction in row.satisfies if row.type in LEXICAL_TYPES else ():
                restriction.target = follow(restriction.target)
            if row.type in (*REFERENCE_TYPES, "delete", "matched", "mismatched"):
                row.target = follow(row.target)


def state_apply(state: EditorState, action: str) -> EditorState:
    """Apply an editing button's action to the state; an unknown action changes nothing.

    Actions: `add <grammar>`, `up|down|remove <grammar> <row>`, `add-feat|add-not|add-where|add-sat
    <grammar> <row>`, `remove-feat|remove-not|remove-where|remove-sat <grammar> <row> <pair>`,
    `bad-from-good` (rows 0-based).
    """
    parts = action.split()
    if parts == ["bad-from-good"]:
        state.bad = [
            PositionRow(type="same", was="same", target=row.id or str(i + 1))
            for i, row in enumerate(state.good)
        ]
        return state
    if len(parts) < 2 or parts[1] not in GRAMMARS:
        return state
    verb, grammar = parts[0], parts[1]
    rows = state.rows(grammar)
    numbers = [int(p) for p in parts[2:] if p.isdigit()]
    if verb == "add" and not numbers:
        rows.append(new_row(grammar))
        return state
    if not numbers or not 0 <= numbers[0] < len(rows):
        return state
    i = numbers[0]
    order: list[int | None] = list(range(len(rows)))
    if verb == "remove":
        del rows[i]
        del order[i]
    elif verb in ("up", "down"):
        j = i - 1 if verb == "up" else i + 1
        if not 0 <= j < len(rows):
            return state
        rows[i], rows[j] = rows[j], rows[i]
        order[i], order[j] = order[j], order[i]
    elif verb in ("add-feat", "add-not", "add-where", "add-sat"):
        row = rows[i]
        if verb == "add-feat":
            row.features.append(FeatureRow())
        elif verb == "add-not":
            row.exclusions.append(FeatureRow())
        elif verb == "add-sat":
            row.satisfies.append(SatisfiesRow())
        else:
            row.where.append(WhereRow())
        return state
    elif verb in ("remove-feat", "remove-not", "remove-where", "remove-sat") and len(numbers) == 2:
        row = rows[i]
        lists: dict[str, list[Any]] = {
            "remove-feat": row.features,
            "remove-not": row.exclusions,
            "remove-sat": row.satisfies,
        }
        pairs = lists.get(verb, row.where)
        if 0 <= numbers[1] < len(pairs):
            del pairs[numbers[1]]
        return state
    else:
        return state
    _renumber(state, grammar, order)
    return state


def state_to_yaml(state: EditorState) -> tuple[EditorState, list[FieldError]]:
    """Switch to the YAML view: the table's template as canonical YAML (stays if fields are bad)."""
    if state.mode == "yaml":
        return state, []
    document, errors = document_from_state(state)
    if errors:
        return state, errors
    return EditorState(
        mode="yaml", yaml_text=document_to_text(document), seed=state.seed, note=state.note
    ), []


def state_to_table(state: EditorState) -> tuple[EditorState, list[FieldError]]:
    """Switch to the table: read the YAML view's text (stays in YAML with the line of an error)."""
    if state.mode != "yaml":
        return state, []
    try:
        document = document_from_text(state.yaml_text)
    except DocumentError as exc:
        line = f"line {exc.line}: " if exc.line is not None else ""
        message = f"The YAML cannot be shown in the table until it is fixed ({line}{exc.message})."
        return state, [FieldError("yaml_text", message, line=exc.line)]
    table = state_from_document(document)
    table.seed, table.note = state.seed, state.note
    return state_settle(table), []


def state_after_action(state: EditorState, action: str) -> tuple[EditorState, list[FieldError]]:
    """Return the state after a button of the editor (`to-yaml`, `to-table` or `state_apply`'s)."""
    if action == "to-yaml":
        return state_to_yaml(state)
    if action == "to-table":
        return state_to_table(state)
    if state.mode == "yaml":
        return state, []
    return state_settle(state_apply(state, action)), []
