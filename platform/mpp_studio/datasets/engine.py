"""The bridge from a dataset paradigm's recorded versions to the generator engine.

A dataset paradigm always generates from what it recorded when the dataset was created: the
stored template version's YAML, the phrase texts it used then, and the vocabulary snapshot, never
the project's live rows. So the pairs of a dataset can be made again, byte for byte, however the
project has changed since.
"""

from functools import lru_cache

from generator import errors as E
from generator.errors import Problem, TemplateError
from generator.generate import Generator
from generator.template import Template as ParsedTemplate
from generator.template import template_from_text, used_phrases
from mpp_studio.datasets.models import DatasetParadigm
from mpp_studio.lexicon.engine import vocabulary_parse
from mpp_studio.lexicon.models import VocabularySnapshot
from vocab.errors import VocabularyError
from vocab.lexicon import LexicalItem
from vocab.lexicon import Vocabulary as Lexicon


def template_file_name(uid: str) -> str:
    """Return the file name problems of a paradigm's template are reported under."""
    return f"{uid}.yaml"


def snapshot_lexicon(snapshot: VocabularySnapshot) -> Lexicon:
    """Return the engine vocabulary stored in a snapshot, named as the snapshot is.

    Raises:
        VocabularyError: if the stored text is not a valid vocabulary.
        TemplateError: E_VOCABULARY if the text reads as a different version than recorded.
    """
    return _snapshot_lexicon(snapshot.pk, snapshot.content_hash, snapshot.name, snapshot.language)


@lru_cache(maxsize=16)
def _snapshot_lexicon(snapshot_id: int, content_hash: str, name: str, language: str) -> Lexicon:
    # Snapshots never change, so a worker or web process may keep a few it has read.
    snapshot = VocabularySnapshot.objects.get(pk=snapshot_id)
    parsed = vocabulary_parse(
        file_name=f"{_file_stem(name)}.csv", items_text=snapshot.items_text, schema_text=snapshot.schema_text
    )
    lexicon = Lexicon(list(parsed.lexicon.items), parsed.lexicon.schema, name=name, language=language)
    if lexicon.version != content_hash:
        raise TemplateError(
            [
                Problem(
                    E.E_VOCABULARY,
                    f"the snapshot of vocabulary '{name}' reads as version {lexicon.version}, "
                    f"not the recorded {content_hash[:16]}; it cannot reproduce this dataset",
                )
            ]
        )
    return lexicon


def snapshot_items(snapshot: VocabularySnapshot) -> dict[str, LexicalItem]:
    """Return the snapshot's items by item id (for showing which words filled a pair)."""
    return {item.id: item for item in snapshot_lexicon(snapshot).items}


def phrase_texts_used(parsed: ParsedTemplate, phrase_texts: dict[str, str]) -> dict[str, str]:
    """Return the outside phrase texts a parsed template really uses (directly or through others)."""
    used = used_phrases(parsed.good + parsed.bad, parsed.phrases)
    return {name: text for name, text in sorted(phrase_texts.items()) if name in used}


# The vocabulary column `mpp vocab balance-report --mark-out` writes: 1 kept, 0 dropped.
BALANCE_FEATURE = "balanced"
UNBALANCED = "0"

E_IMPORTED = "E_IMPORTED"  # an imported (read-only) paradigm was asked to generate


def paradigm_generator(paradigm: DatasetParadigm) -> Generator:
    """Return the generator of a dataset paradigm, built from its recorded versions only.

    Raises:
        TemplateError: if the stored texts do not make a valid template (each problem located),
            or the paradigm has no template version (imported) or vocabulary snapshot.
        VocabularyError: if the snapshot's text is not a valid vocabulary.
    """
    file_name = template_file_name(paradigm.uid)
    if paradigm.template_version is None:  # an imported paradigm: read from files, never generated
        raise TemplateError(
            [
                Problem(
                    E_IMPORTED, "this paradigm was imported: it has no template to generate from", file_name
                )
            ]
        )
    parsed = template_from_text(
        paradigm.template_version.source_text, file=file_name, phrase_texts=paradigm.phrase_texts
    )
    snapshot = paradigm.vocabulary_snapshot
    if snapshot is None:
        raise TemplateError(
            [Problem(E.E_VOCABULARY, "no vocabulary snapshot was recorded for this paradigm", file_name)]
        )
    try:
        lexicon = snapshot_lexicon(snapshot)
    except VocabularyError as exc:
        raise TemplateError(
            [
                Problem(E.E_VOCABULARY, f"vocabulary snapshot '{snapshot.name}': {error}", file_name)
                for error in exc.errors
            ]
        ) from None
    if paradigm.dataset.balanced_words_only:
        lexicon = lexicon.excluding(BALANCE_FEATURE, [UNBALANCED])
    return Generator(parsed, lexicon)


def _file_stem(name: str) -> str:
    """Return a name usable as a file stem (the engine names a vocabulary after its file)."""
    return name.replace("/", "_").replace("\\", "_") or "vocabulary"
