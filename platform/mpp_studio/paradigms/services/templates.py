"""Storing one version of a template file together with the outcome of the engine's check."""

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path

from django.db import models, transaction

from generator import errors as E
from generator.errors import Problem
from mpp_studio.lexicon.models import LibraryVocabulary
from mpp_studio.paradigms.engine import template_check
from mpp_studio.paradigms.models import LibraryTemplate

_LIMITED_FIELDS = ("uid", "phenomenon", "language")


def template_content_hash(
    *, source_text: str, phrase_texts: Mapping[str, str], vocabulary: LibraryVocabulary | None
) -> str:
    """Return the SHA-256 hex digest identifying one template version.

    It covers everything the check and the pairs depend on: the YAML text, each phrase file
    (name and text) and the vocabulary version (file and content hash) the template is bound to.
    """
    digest = hashlib.sha256(source_text.encode())
    for name in sorted(phrase_texts):
        digest.update(b"\0phrase\0" + name.encode() + b"\0" + phrase_texts[name].encode())
    if vocabulary is not None:
        digest.update(b"\0vocabulary\0" + f"{vocabulary.file_name}\0{vocabulary.content_hash}".encode())
    return digest.hexdigest()


@transaction.atomic
def template_import(
    *,
    file_name: str,
    source_text: str,
    phrase_texts: Mapping[str, str] | None = None,
    vocabulary: LibraryVocabulary | None = None,
    vocabulary_problem: str = "",
    file_problems: Sequence[Problem] = (),
) -> tuple[LibraryTemplate, bool]:
    """Store this version of a template file, checked by the engine, unless it is stored already.

    The template is stored even when it has problems (nothing an author wrote is lost): text
    that is not YAML, a malformed template, one that fails validation against `vocabulary`, or
    one without a usable vocabulary (`vocabulary_problem` says why, where the caller knows).
    The problems, each with its line, grammar and position, are kept on the row with the
    capacity of a valid template. A template without a uid is named after its file.

    Args:
        phrase_texts: the text of each phrase file the template names, by the path as written.
        file_problems: problems the caller found reading the files around the template.

    Returns:
        The row for (file_name, content hash) and whether it was created now.

    Raises:
        ValidationError: if the file name does not fit (longer than 255 characters).
    """
    phrase_texts = dict(phrase_texts or {})
    content_hash = template_content_hash(
        source_text=source_text, phrase_texts=phrase_texts, vocabulary=vocabulary
    )
    existing = LibraryTemplate.objects.filter(file_name=file_name, content_hash=content_hash).first()
    if existing is not None:
        return existing, False

    check = template_check(
        source_text=source_text,
        file_name=file_name,
        phrase_texts=phrase_texts,
        vocabulary=vocabulary,
        vocabulary_problem=vocabulary_problem,
    )
    fields = check.fields
    problems = [*file_problems, *check.problems]
    limited = {
        "uid": fields.uid or Path(file_name).stem,
        "phenomenon": fields.phenomenon,
        "language": fields.language,
    }
    for name in _LIMITED_FIELDS:
        model_field = LibraryTemplate._meta.get_field(name)
        limit = model_field.max_length if isinstance(model_field, models.Field) else None
        if limit is not None and len(limited[name]) > limit:
            problems.append(
                Problem(
                    E.E_FIELD,
                    f"'{name}' is longer than {limit} characters; the platform keeps the first {limit}",
                    Path(file_name).name,
                )
            )
            limited[name] = limited[name][:limit]
    template = LibraryTemplate(
        file_name=file_name,
        content_hash=content_hash,
        source_text=source_text,
        phrase_texts=phrase_texts,
        vocabulary=vocabulary,
        description=fields.description,
        source=fields.source,
        example_good=fields.example_good,
        example_bad=fields.example_bad,
        engine_hash=check.parsed.content_hash if check.parsed is not None else "",
        problems=[problem.to_dict() for problem in problems],
        capacity_text=check.capacity_text,
        **limited,
    )
    template.full_clean()
    template.save()
    return template, True
