"""How a template's positions refer to one another, and how references follow a renamed position.

A position is named by its `id`, or by its number when it has none. A reference is that name
(`subj`, `3`), a path into a phrase placed there (`subj.head`), or in the bad grammar a bad
position's name after `bad.` (`bad.verb`); a plain name in the bad grammar means a good position.
The rules that hold references: `same`, `copy`, `move` and `delete` name one position;
`matched` and `mismatched` name one (`matched: subj` with `on:`) or map several to features
(`matched: {subj: number}`); `satisfies` maps positions to restriction columns (`{verb: arg_2}`).
"""

from typing import Any

from generator.template import BAD_PREFIX

EDIT_RULES = ("same", "copy", "move", "delete")
AGREEMENT_RULES = ("matched", "mismatched")


def reference_renamed(reference: str, old: str, new: str) -> str:
    """Return `reference` after the position it names is renamed from `old` to `new`.

    `old` and `new` are references themselves (`subj`, or `bad.subj` for a bad position); a path
    through the renamed position (`subj.head`) follows it, any other reference is unchanged.
    """
    if reference == old:
        return new
    if reference.startswith(old + "."):
        return new + reference[len(old) :]
    return reference


def position_references_renamed(position: Any, old: str, new: str) -> Any:
    """Return a position (plain data, as a document holds it) with its references to `old` renamed.

    What is not a mapping, and every key that holds no reference, comes back as it was.
    """
    if not isinstance(position, dict):
        return position
    out = dict(position)
    for key in EDIT_RULES:
        if isinstance(out.get(key), str):
            out[key] = reference_renamed(out[key], old, new)
    for key in AGREEMENT_RULES:
        value = out.get(key)
        if isinstance(value, str):
            out[key] = reference_renamed(value, old, new)
        elif isinstance(value, dict):
            out[key] = {reference_renamed(str(name), old, new): features for name, features in value.items()}
    value = out.get("satisfies")
    if isinstance(value, dict):
        out["satisfies"] = {reference_renamed(str(name), old, new): column for name, column in value.items()}
    return out


def bad_reference(name: str) -> str:
    """Return how the bad grammar names its own position `name` (`bad.name`)."""
    return BAD_PREFIX + name
