"""Word frequencies per million from wordfreq, two packaged English lists or a corpus file.

Named sources (`FREQUENCY_SOURCES`):

- `wordfreq`: wordfreq's multi-source estimate, for every language it covers.
- `spoken`: pyspellchecker's English list `spellchecker/resources/en.json.gz`, counted from
  OpenSubtitles 2018 (film and TV subtitles: speech) and cleaned by the package's build script.
- `written`: symspellpy's `frequency_dictionary_en_82_765.txt`, Google Books Ngram unigram
  counts (printed books) restricted to words also in SCOWL, the top ~82,000 words.

A packaged list is read once, lazily, from the installed package's own file; its rates are
per million of the list's own total count (the list is truncated, so this is relative to the
words it keeps, which is what comparing two lists needs).
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from vocab.errors import FrequencyError
from vocab.lexicon import FeatureSchema, FeatureSpec, LexicalItem, Vocabulary
from vocab.segment import chinese_words, jieba_quiet

Tokenize = Callable[[str], Iterable[str]]

# Letters, with inner apostrophes kept ("don't", "children's"); digits and "_" are not words.
_LATIN_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_HAS_LETTER = re.compile(r"[^\W\d_]")
_SOURCE_NAME = re.compile(r"^\w[\w-]*$")


def base_language(language: str) -> str:
    """Return the bare language code: "zh" for "zh-Hans" or "zh_CN", lowercased."""
    return language.strip().replace("_", "-").split("-")[0].lower()


def wordfreq_frequencies(words: Iterable[str], language: str) -> dict[str, float]:
    """Return word -> occurrences per million in wordfreq's data for `language` (0 if unseen).

    Raises:
        FrequencyError: if wordfreq has no data for the language.
    """
    import wordfreq  # a heavy data import, only when asked

    lang = base_language(language)
    if lang not in wordfreq.available_languages():
        raise FrequencyError(
            f"wordfreq has no frequencies for language '{language}' "
            f"(available: {', '.join(sorted(wordfreq.available_languages()))})"
        )
    jieba_quiet()  # wordfreq segments Chinese with jieba
    return {word: _rounded(wordfreq.word_frequency(word, lang) * 1e6) for word in words}


@dataclass(frozen=True, slots=True)
class PackagedSource:
    """A word-frequency list that ships inside an installed Python package."""

    name: str
    package: str
    resource: str  # path of the file inside the package
    distribution: str  # what `pip install` needs
    language: str
    description: str


PACKAGED_SOURCES: dict[str, PackagedSource] = {
    "spoken": PackagedSource(
        name="spoken",
        package="spellchecker",
        resource="resources/en.json.gz",
        distribution="pyspellchecker",
        language="en",
        description="OpenSubtitles 2018 counts (subtitles: speech), pyspellchecker's English list",
    ),
    "written": PackagedSource(
        name="written",
        package="symspellpy",
        resource="frequency_dictionary_en_82_765.txt",
        distribution="symspellpy",
        language="en",
        description="Google Books Ngram counts (books: writing), symspellpy's 82,765-word list",
    ),
}
FREQUENCY_SOURCES = ("wordfreq", *PACKAGED_SOURCES)


def packaged_frequencies(name: str) -> dict[str, float]:
    """Return word -> occurrences per million in the packaged list `name` ("spoken", "written").

    Words are lowercase, as the lists are. The file is read once per process.

    Raises:
        FrequencyError: for an unknown name, a package that is not installed or a file that
            is missing or unreadable (each named).
    """
    source = PACKAGED_SOURCES.get(name)
    if source is None:
        raise FrequencyError(
            f"there is no packaged frequency list '{name}' (known: {', '.join(PACKAGED_SOURCES)})"
        )
    return _packaged_table(source)


def source_frequencies(source: str, words: Iterable[str], language: str) -> dict[str, float]:
    """Return word -> occurrences per million in a named source (0 for unlisted words).

    `source` is one of `FREQUENCY_SOURCES`; a packaged list looks words up lowercased.

    Raises:
        FrequencyError: for an unknown source, or a language the source has no data for.
    """
    if source == "wordfreq":
        return wordfreq_frequencies(words, language)
    packaged = PACKAGED_SOURCES.get(source)
    if packaged is None:
        raise FrequencyError(f"unknown frequency source '{source}' (known: {', '.join(FREQUENCY_SOURCES)})")
    if base_language(language) != packaged.language:
        raise FrequencyError(
            f"the frequency source '{source}' has {packaged.language} words only, not '{language}'"
        )
    table = packaged_frequencies(source)
    return {word: table.get(word, table.get(word.lower(), 0.0)) for word in words}


@cache
def _packaged_table(source: PackagedSource) -> dict[str, float]:
    where = f"{source.distribution}'s {source.resource}"
    try:
        raw = (resources.files(source.package) / source.resource).read_bytes()
    except ModuleNotFoundError:
        raise FrequencyError(
            f"the frequency source '{source.name}' needs the package {source.distribution}: "
            f"pip install {source.distribution}"
        ) from None
    except OSError as exc:
        raise FrequencyError(
            f"the frequency source '{source.name}' cannot read {where}: {exc.strerror or exc}"
        ) from None
    counts: Counter[str] = Counter()
    try:
        if source.resource.endswith(".json.gz"):
            loaded = json.loads(gzip.decompress(raw))
            if not isinstance(loaded, dict):
                raise ValueError("not a JSON object of word counts")
            for word, count in loaded.items():
                counts[str(word).lower()] += int(count)
        else:
            for number, line in enumerate(raw.decode("utf-8").splitlines(), start=1):
                parts = line.split()
                if not parts:
                    continue
                if len(parts) != 2:
                    raise ValueError(f"line {number} is not 'word count'")
                counts[parts[0].lower()] += int(parts[1])
    except (ValueError, OSError, EOFError) as exc:
        raise FrequencyError(f"the frequency source '{source.name}' cannot parse {where}: {exc}") from None
    return {word: _rounded(rate) for word, rate in _per_million(counts).items()}


def tokenizer_for(language: str) -> Tokenize:
    """Return the word tokenizer used to count a corpus in `language` (zh: jieba; en: letters).

    Tokens are lowercased; punctuation and numbers are dropped.

    Raises:
        FrequencyError: for languages without a built-in tokenizer (pass `tokenize` instead).
    """
    lang = base_language(language)
    if lang == "zh":
        return _jieba_tokens
    if lang == "en":
        return _latin_tokens
    raise FrequencyError(
        f"no built-in tokenizer for language '{language}' (built in: en, zh); pass a tokenize function"
    )


def corpus_frequencies(
    texts: Iterable[str], language: str, *, tokenize: Tokenize | None = None
) -> dict[str, float]:
    """Return token -> occurrences per million tokens over `texts` (tokens lowercased).

    Raises:
        FrequencyError: if `language` has no built-in tokenizer and `tokenize` is None.
    """
    return _per_million(_count(texts, tokenize or tokenizer_for(language)))


def count_corpus_file(
    path: str | Path, language: str, *, tokenize: Tokenize | None = None
) -> dict[str, float]:
    """Return token -> occurrences per million in a UTF-8 text file, read line by line.

    Raises:
        FrequencyError: if a line is not UTF-8 (naming it) or the language is unsupported.
        OSError: if the file cannot be read.
    """
    path = Path(path)
    split = tokenize or tokenizer_for(language)

    def lines() -> Iterable[str]:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise FrequencyError(
                        f"{path.name}, line {number}: this line is not UTF-8 text; save the corpus as UTF-8"
                    ) from None
                yield text.removeprefix("\ufeff") if number == 1 else text

    return _per_million(_count(lines(), split))


def attach_frequencies(vocab: Vocabulary, source_name: str, freqs: Mapping[str, float]) -> Vocabulary:
    """Return a copy of `vocab` with a float feature `freq_<source_name>` on every item.

    An item's frequency is `freqs[form]`, else `freqs[form.lower()]`, else 0.0. An existing
    feature of that name is replaced.

    Raises:
        FrequencyError: if `source_name` is not a plain name (letters, digits, `_`, `-`).
    """
    if not _SOURCE_NAME.match(source_name):
        raise FrequencyError(
            f"'{source_name}' cannot name a frequency source; use letters, digits, '_' or '-'"
        )
    feature = f"freq_{source_name}"
    spec = FeatureSpec(
        name=feature, type="float", description=f"occurrences per million words in {source_name}"
    )
    lowered: dict[str, float] = {}
    for word, value in freqs.items():
        lowered.setdefault(word.lower(), value)
    items = []
    for item in vocab.items:
        found = freqs.get(item.form)
        value = found if found is not None else lowered.get(item.form.lower(), 0.0)
        features = {**item.features, feature: (spec.normalize(_rounded(float(value))),)}
        items.append(
            LexicalItem(id=item.id, form=item.form, lemma=item.lemma, pos=item.pos, features=features)
        )
    schema = FeatureSchema(
        features={**vocab.schema.features, feature: spec},
        multi_separator=vocab.schema.multi_separator,
    )
    return Vocabulary(items, schema, name=vocab.name, language=vocab.language)


def _rounded(per_million: float) -> float:
    # Six decimals of a per-million rate is one in 10**12 words, far below any corpus's
    # precision; rounding drops float noise such as 60.300000000000004 from written files.
    return round(per_million, 6)


def _count(texts: Iterable[str], tokenize: Tokenize) -> Counter[str]:
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(tokenize(text))
    return counts


def _per_million(counts: Counter[str]) -> dict[str, float]:
    total = sum(counts.values())
    if total == 0:
        return {}
    return {word: n * 1e6 / total for word, n in counts.items()}


def _latin_tokens(text: str) -> list[str]:
    return [match.group().lower().replace("’", "'") for match in _LATIN_WORD.finditer(text)]


def _jieba_tokens(text: str) -> list[str]:
    return [token.lower() for token in chinese_words(text.strip()) if _HAS_LETTER.search(token)]
