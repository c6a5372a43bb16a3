"""Read YAML into plain data that remembers the line of every mapping key and list entry.

Every scalar stays the text the author wrote (YAML 1.1 would turn a Direct literal such as
`no` or `on` into a boolean); only an empty value or `~`/`null` becomes None.
"""

from __future__ import annotations

from typing import Any

import yaml


class LocatedDict(dict[str, Any]):
    """A mapping that knows its own line and the line of each key (1-based)."""

    line: int
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        """Return the line of `key`, or of the mapping itself if the key is absent."""
        return self.key_lines.get(key, self.line)


class LocatedList(list[Any]):
    """A list that knows its own line and the line of each entry (1-based)."""

    line: int
    item_lines: list[int]


_NULLS = {"", "~", "null", "Null", "NULL"}
# libyaml's parser, where PyYAML was built with it, reads templates about ten times faster.
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class SourceError(Exception):
    """The text is not YAML; carries the line where the parser stopped."""

    def __init__(self, message: str, line: int | None) -> None:
        self.line = line
        super().__init__(message)


def _build(node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        mapping = LocatedDict()
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = {}
        for key_node, value_node in node.value:
            key = _build(key_node)
            key_text = "" if key is None else str(key)
            mapping[key_text] = _build(value_node)
            mapping.key_lines[key_text] = key_node.start_mark.line + 1
        return mapping
    if isinstance(node, yaml.SequenceNode):
        items = LocatedList()
        items.line = node.start_mark.line + 1
        items.item_lines = []
        for child in node.value:
            items.append(_build(child))
            items.item_lines.append(child.start_mark.line + 1)
        return items
    assert isinstance(node, yaml.ScalarNode)
    if not node.style and node.value in _NULLS:  # plain (libyaml says "", PyYAML None)
        return None
    try:
        node.value.encode("utf-8")
    except UnicodeEncodeError:
        # A "\ud800" escape in a quoted string decodes to half a character, which no text can hold.
        raise SourceError(
            "a quoted value holds an escape (such as \\ud800) that is not a whole character",
            node.start_mark.line + 1,
        ) from None
    return node.value


def load_yaml(text: str) -> Any:
    """Return the YAML document in `text` as LocatedDict/LocatedList/str/None values.

    Raises:
        SourceError: if the text is not a single valid YAML document.
    """
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "unreadable YAML"
        hint = ""
        if any(ch in problem for ch in "?:,{}[]#'\"") or "expected" in problem or "mapping values" in problem:
            hint = "; a value that contains : ? , # [ ] or { } must be put in quotes"
        raise SourceError(f"this is not valid YAML ({problem}){hint}", line) from None
    except yaml.YAMLError as exc:
        raise SourceError(f"this is not valid YAML ({exc})", None) from None
    if node is None:
        return None
    return _build(node)
