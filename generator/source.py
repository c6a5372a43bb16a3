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
# A template is a few levels deep and a few thousand values long. Deeper nesting would overflow
# libyaml's C stack (a crash, not an exception), and aliases (*name) re-using anchored values
# could expand a small file into billions of values ("billion laughs"): both are refused.
MAX_DEPTH = 64
MAX_VALUES = 100_000
# libyaml's parser, where PyYAML was built with it, reads templates about ten times faster.
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# What the reader was inside when it stopped (its `context`), named for an author.
_UNCLOSED = {
    "while parsing a flow mapping": "{",
    "while parsing a flow sequence": "[",
    "while scanning a quoted scalar": "quote",
}


class SourceError(Exception):
    """The text is not YAML; carries the line where the parser stopped."""

    def __init__(self, message: str, line: int | None) -> None:
        self.line = line
        super().__init__(message)


class _Budget:
    """What building one document may still take: values left, and the nodes being built (an
    alias inside its own anchor would otherwise recurse forever)."""

    def __init__(self) -> None:
        self.values_left = MAX_VALUES
        self.open: set[int] = set()


def _check_depth(text: str) -> None:
    # The event stream is flat, so measuring it cannot overflow anything, unlike composing.
    depth = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                line = event.start_mark.line + 1 if event.start_mark is not None else None
                raise SourceError(f"the values are nested more than {MAX_DEPTH} levels deep", line)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


def _build(node: yaml.Node, budget: _Budget) -> Any:
    budget.values_left -= 1
    if budget.values_left < 0:
        raise SourceError(
            f"the file expands to more than {MAX_VALUES} values (through aliases such as *name)",
            node.start_mark.line + 1,
        )
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
        if id(node) in budget.open:
            line = node.start_mark.line + 1
            raise SourceError("an alias (*name) refers to the value that contains it", line)
        budget.open.add(id(node))
        try:
            return _build_collection(node, budget)
        finally:
            budget.open.discard(id(node))
    assert isinstance(node, yaml.ScalarNode)
    return _build_scalar(node)


def _build_collection(node: yaml.MappingNode | yaml.SequenceNode, budget: _Budget) -> Any:
    if isinstance(node, yaml.MappingNode):
        mapping = LocatedDict()
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = {}
        for key_node, value_node in node.value:
            key = _build(key_node, budget)
            key_text = "" if key is None else str(key)
            mapping[key_text] = _build(value_node, budget)
            mapping.key_lines[key_text] = key_node.start_mark.line + 1
        return mapping
    items = LocatedList()
    items.line = node.start_mark.line + 1
    items.item_lines = []
    for child in node.value:
        items.append(_build(child, budget))
        items.item_lines.append(child.start_mark.line + 1)
    return items


def _build_scalar(node: yaml.ScalarNode) -> Any:
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
        _check_depth(text)
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "unreadable YAML"
        hint = ""
        if any(ch in problem for ch in "?:,{}[]#'\"") or "expected" in problem or "mapping values" in problem:
            hint = "; a value that contains : ? , # [ ] or { } must be put in quotes"
        opened = _UNCLOSED.get(exc.context or "")
        start = exc.context_mark
        if opened and start is not None and line is not None and start.line + 1 < line:
            # The reader notices a bracket or quote left open only where the text goes on; the
            # line to fix is where it was opened.
            raise SourceError(
                f"this is not valid YAML: the {opened} opened on line {start.line + 1} is not closed "
                f"(the reader stopped on line {line}: {problem}){hint}",
                start.line + 1,
            ) from None
        raise SourceError(f"this is not valid YAML ({problem}){hint}", line) from None
    except yaml.YAMLError as exc:
        raise SourceError(f"this is not valid YAML ({exc})", None) from None
    if node is None:
        return None
    return _build(node, _Budget())
