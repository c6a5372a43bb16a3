"""Find template files and load each with its vocabulary, reporting problems per file."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from generator import errors as E
from generator.errors import Problem, TemplateError
from generator.template import Template, load_template
from vocab.errors import VocabularyError
from vocab.io import read_vocabulary
from vocab.lexicon import Vocabulary

_TEMPLATE_MARK = re.compile(r"^uid\s*:", re.MULTILINE)


def is_template_file(path: Path) -> bool:
    """Return whether a YAML file is a grammar template (it has a top-level `uid:`)."""
    try:
        head = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return bool(_TEMPLATE_MARK.search(head))


def find_templates(paths: Iterable[str | Path]) -> list[Path]:
    """Return the template files named by `paths`: files as given, folders searched recursively.

    A folder's files come in sorted order, so runs never depend on directory listing order.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += [p for p in sorted(path.rglob("*.yaml")) if is_template_file(p)]
        else:
            found.append(path)
    return found


@dataclass(slots=True)
class VocabularyCache:
    """Reads each vocabulary file once, however many templates use it."""

    loaded: dict[Path, Vocabulary]

    def __init__(self) -> None:
        self.loaded = {}

    def get(self, path: Path) -> Vocabulary:
        """Return the vocabulary at `path`. Raises VocabularyError or FileNotFoundError."""
        vocabulary = self.loaded.get(path)
        if vocabulary is None:
            vocabulary = read_vocabulary(path)
            self.loaded[path] = vocabulary
        return vocabulary


def load_with_vocabulary(path: Path, cache: VocabularyCache) -> tuple[Template, Vocabulary]:
    """Return a template and its vocabulary.

    Raises:
        TemplateError: if either cannot be read; the problems name the file and line.
    """
    if not path.exists():
        raise TemplateError([Problem(E.E_SYNTAX, "there is no such file", str(path))])
    template = load_template(path)
    vocab_path = template.vocabulary_path()
    if vocab_path is None:
        raise TemplateError([Problem(E.E_FIELD, "the template names no 'vocabulary' file", path.name)])
    try:
        return template, cache.get(vocab_path)
    except FileNotFoundError:
        raise TemplateError(
            [Problem(E.E_VOCABULARY, f"vocabulary file '{template.vocabulary}' does not exist", path.name)]
        ) from None
    except VocabularyError as exc:
        raise TemplateError(
            [Problem(E.E_VOCABULARY, f"vocabulary '{template.vocabulary}' cannot be used:\n{exc}", path.name)]
        ) from None
