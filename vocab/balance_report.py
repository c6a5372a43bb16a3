"""Frequency balance of a vocabulary's content-word lists across frequency sources.

For each word class (nouns, verbs, adjectives by default) the report sums the frequencies of
its words in every source, gives the relative bias between the sources (as in
`vocab.counterbalance`), and, when the full list misses the tolerance, uses the
counterbalance search to find the fewest words to drop: the largest subset within tolerance.

A class's unit is the lemma. Its frequency in a source is the sum over the forms a paradigm
can put in a sentence: the vocabulary's forms of that lemma (a noun's singular and plural
rows), and for verbs also every inflection lemminflect gives (VBZ, VBD, VBG, VBN), since
templates inflect verb lemmas in place. See `counterbalance.md` for the bias and the search.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from vocab.counterbalance import BalanceResult, absolute_bias, counterbalance, relative_bias
from vocab.errors import BalanceError
from vocab.lexicon import FeatureSchema, FeatureSpec, LexicalItem, Vocabulary

# Given words, return word -> occurrences per million in one source.
SourceLookup = Callable[[Sequence[str]], Mapping[str, float]]


@dataclass(frozen=True, slots=True)
class WordClass:
    """A content-word list of a vocabulary: the items with part of speech `pos`."""

    name: str
    pos: str
    inflect_verb: bool = False


DEFAULT_CLASSES = (
    WordClass("nouns", "NN"),
    WordClass("verbs", "VB", inflect_verb=True),
    WordClass("adjectives", "JJ"),
)


@dataclass(frozen=True, slots=True)
class ClassBalance:
    """The balance of one word class: totals per source for the full list and the kept subset.

    `kept` are the lemmas of the largest subset found within tolerance (the full list when it
    is already within), `dropped` the others; `met` is False when even dropping
    `max_drop` words did not reach the tolerance (then `kept` is the best subset found).
    """

    name: str
    pos: str
    lemmas: tuple[str, ...]
    forms: Mapping[str, tuple[str, ...]]
    frequencies: Mapping[str, Mapping[str, float]]  # lemma -> source -> per million
    totals: Mapping[str, float]
    bias: float
    absolute_bias: float
    kept: tuple[str, ...]
    dropped: tuple[str, ...]
    kept_totals: Mapping[str, float]
    kept_bias: float
    met: bool
    unseen: Mapping[str, tuple[str, ...]]  # source -> lemmas with frequency 0 there


@dataclass(frozen=True, slots=True)
class BalanceReport:
    """The balance of every word class of a vocabulary across the named sources."""

    vocabulary: str
    vocabulary_version: str
    sources: Mapping[str, str]  # name -> description
    tolerance: float
    seed: int
    classes: tuple[ClassBalance, ...]

    def kept_lemmas(self) -> dict[str, set[str]]:
        """Return part of speech -> the lemmas kept in its balanced list."""
        return {c.pos: set(c.kept) for c in self.classes}

    def markdown(self) -> str:
        """Return the report as Markdown: a summary table, then each class with its words."""
        return render_markdown(self)


def class_forms(vocab: Vocabulary, word_class: WordClass) -> dict[str, tuple[str, ...]]:
    """Return lemma -> the forms counted for it (vocabulary forms, plus verb inflections)."""
    forms: dict[str, dict[str, None]] = {}
    for item in vocab.items:
        if item.pos == word_class.pos:
            forms.setdefault(item.lemma, {})[item.form] = None
    if word_class.inflect_verb:
        from lemminflect import getAllInflections  # loads its tables, only for verbs

        for lemma, seen in forms.items():
            for tag_forms in getAllInflections(lemma, upos="VERB").values():
                seen.update((form, None) for form in tag_forms)
    return {lemma: tuple(seen) for lemma, seen in forms.items()}


def balance_report(
    vocab: Vocabulary,
    sources: Mapping[str, SourceLookup],
    *,
    tolerance: float,
    seed: int = 0,
    classes: Sequence[WordClass] = DEFAULT_CLASSES,
    descriptions: Mapping[str, str] | None = None,
    max_drop: float = 0.5,
    max_iterations: int = 20_000,
) -> BalanceReport:
    """Return the balance of each word class across `sources` (two or more), with what to drop.

    For each class with words, drop counts 0, 1, 2, ... are tried (at most `max_drop` of the
    list) until the counterbalance search finds a subset within `tolerance`.

    Raises:
        BalanceError: for fewer than two sources, a bad tolerance, or no word in any class.
    """
    if len(sources) < 2:
        raise BalanceError(f"a balance report needs two or more frequency sources, got {len(sources)}")
    if tolerance < 0 or math.isnan(tolerance):
        raise BalanceError(f"the tolerance must be 0 or more, got {tolerance}")
    results = []
    for word_class in classes:
        forms = class_forms(vocab, word_class)
        if forms:
            results.append(
                _class_balance(word_class, forms, sources, tolerance, seed, max_drop, max_iterations)
            )
    if not results:
        wanted = ", ".join(f"{c.name} ({c.pos})" for c in classes)
        raise BalanceError(f"the vocabulary '{vocab.name}' has no words of the classes {wanted}")
    return BalanceReport(
        vocabulary=vocab.name,
        vocabulary_version=vocab.version,
        sources={name: (descriptions or {}).get(name, name) for name in sources},
        tolerance=tolerance,
        seed=seed,
        classes=tuple(results),
    )


def _class_balance(
    word_class: WordClass,
    forms: Mapping[str, tuple[str, ...]],
    sources: Mapping[str, SourceLookup],
    tolerance: float,
    seed: int,
    max_drop: float,
    max_iterations: int,
) -> ClassBalance:
    lemmas = list(forms)
    all_forms = sorted({f for fs in forms.values() for f in fs})
    per_source = {name: lookup(all_forms) for name, lookup in sources.items()}
    frequencies = {
        lemma: {
            name: math.fsum(table.get(f, 0.0) for f in forms[lemma]) for name, table in per_source.items()
        }
        for lemma in lemmas
    }
    by_source = {name: {lemma: frequencies[lemma][name] for lemma in lemmas} for name in sources}
    totals = {name: math.fsum(values.values()) for name, values in by_source.items()}
    bias = relative_bias(list(totals.values()))
    kept, met = list(lemmas), bias <= tolerance
    if not met:
        kept, met = _fewest_drops(lemmas, by_source, tolerance, seed, max_drop, max_iterations)
    kept_set = set(kept)
    kept_totals = {name: math.fsum(values[lemma] for lemma in kept) for name, values in by_source.items()}
    return ClassBalance(
        name=word_class.name,
        pos=word_class.pos,
        lemmas=tuple(lemmas),
        forms=dict(forms),
        frequencies=frequencies,
        totals=totals,
        bias=bias,
        absolute_bias=absolute_bias(list(totals.values())),
        kept=tuple(kept),
        dropped=tuple(lemma for lemma in lemmas if lemma not in kept_set),
        kept_totals=kept_totals,
        kept_bias=relative_bias(list(kept_totals.values())),
        met=met,
        unseen={
            name: tuple(lemma for lemma in lemmas if values[lemma] <= 0) for name, values in by_source.items()
        },
    )


def _fewest_drops(
    lemmas: Sequence[str],
    by_source: Mapping[str, Mapping[str, float]],
    tolerance: float,
    seed: int,
    max_drop: float,
    max_iterations: int,
) -> tuple[list[str], bool]:
    """Return the largest subset the counterbalance search finds within tolerance, and whether it did.

    The drop count is found by bisection: a search that succeeds with d words dropped almost
    always succeeds with more, and each failed search costs `max_iterations` swap attempts.
    When even `max_drop` of the list is not enough, the best subset at that size is returned if
    it is closer to balance than the full list, else the full list.
    """
    n = len(lemmas)
    ceiling = min(n - 1, max(1, int(n * max_drop)))
    if ceiling < 1:
        return list(lemmas), False
    found: dict[int, BalanceResult] = {}

    def search(drop: int) -> BalanceResult:
        if drop not in found:
            found[drop] = counterbalance(
                lemmas,
                by_source,
                n - drop,
                seed=seed,
                tolerance=tolerance,
                max_iterations=max_iterations,
                require_met=False,
            )
        return found[drop]

    if not search(ceiling).met:
        # Dropping words is only worth it when it brings the totals closer together.
        full_bias = relative_bias([math.fsum(values.values()) for values in by_source.values()])
        closer = search(ceiling).bias < full_bias
        return list(search(ceiling).words if closer else lemmas), False
    low, high = 0, ceiling  # dropping `low` fails (the full list), dropping `high` succeeds
    while high - low > 1:
        middle = (low + high) // 2
        if search(middle).met:
            high = middle
        else:
            low = middle
    return list(search(high).words), True


def mark_balanced(vocab: Vocabulary, report: BalanceReport, feature: str = "balanced") -> Vocabulary:
    """Return a copy of `vocab` with a bool feature: 1 on items whose lemma is kept, 0 if dropped.

    Items of parts of speech the report does not cover get no value. An existing feature of
    that name is replaced.
    """
    spec = FeatureSpec(
        name=feature,
        type="bool",
        description=(
            f"1: in the frequency-balanced list ({' vs '.join(report.sources)}, relative bias "
            f"within {report.tolerance:g}); 0: dropped to balance it"
        ),
    )
    kept = report.kept_lemmas()
    items = []
    for item in vocab.items:
        features = {k: v for k, v in item.features.items() if k != feature}
        if item.pos in kept:
            features[feature] = (spec.normalize(item.lemma in kept[item.pos]),)
        items.append(
            LexicalItem(id=item.id, form=item.form, lemma=item.lemma, pos=item.pos, features=features)
        )
    schema = FeatureSchema(
        features={**{k: v for k, v in vocab.schema.features.items() if k != feature}, feature: spec},
        multi_separator=vocab.schema.multi_separator,
    )
    return Vocabulary(items, schema, name=vocab.name, language=vocab.language)


def render_markdown(report: BalanceReport) -> str:
    """Return the report as Markdown."""
    names = list(report.sources)
    pair = " vs ".join(names)
    out = [
        f"# Frequency balance of `{report.vocabulary}` ({pair})",
        "",
        f"Vocabulary version `{report.vocabulary_version}` (its content hash).",
        "",
        "Frequencies are occurrences per million words; a lemma counts all the forms a paradigm can "
        "use (see each class). Relative bias = largest |total_a − total_b| / mean(total_a, total_b) "
        f"over source pairs. Tolerance {report.tolerance:g}; search seed {report.seed}.",
        "",
        *(f"- **{name}**: {description}" for name, description in report.sources.items()),
        "",
        "| class | words | "
        + " | ".join(f"{n} total" for n in names)
        + " | relative bias | kept | "
        + " | ".join(f"{n} total (kept)" for n in names)
        + " | bias (kept) | within tolerance |",
        "|---|---:|" + "---:|" * len(names) + "---:|---:|" + "---:|" * len(names) + "---:|---|",
    ]
    for c in report.classes:
        out.append(
            f"| {c.name} ({c.pos}) | {len(c.lemmas)} | "
            + " | ".join(f"{c.totals[n]:,.1f}" for n in names)
            + f" | {c.bias:.4f} | {len(c.kept)} | "
            + " | ".join(f"{c.kept_totals[n]:,.1f}" for n in names)
            + f" | {c.kept_bias:.4f} | {'yes' if c.met else 'NO'} |"
        )
    for c in report.classes:
        forms_note = (
            "vocabulary forms plus lemminflect's inflections" if c.pos == "VB" else "the vocabulary's forms"
        )
        out += [
            "",
            f"## {c.name} ({c.pos}, {len(c.lemmas)} lemmas; frequency of {forms_note})",
            "",
            f"Full list: relative bias {c.bias:.4f}, absolute bias {c.absolute_bias:,.1f} per million "
            f"({'within' if c.bias <= report.tolerance else 'outside'} the tolerance).",
        ]
        if c.dropped:
            verdict = "within" if c.met else "still outside"
            out.append(
                f"Drop {len(c.dropped)} to reach relative bias {c.kept_bias:.4f} ({verdict} the tolerance): "
                + ", ".join(f"`{lemma}`" for lemma in c.dropped)
                + "."
            )
        else:
            out.append("Nothing to drop.")
        for name, lemmas in c.unseen.items():
            if lemmas:
                out.append(f"Not in {name} (frequency 0): {', '.join(lemmas)}.")
        out += [
            "",
            "| lemma | forms | " + " | ".join(names) + " | ratio | kept |",
            "|---|---|" + "---:|" * len(names) + "---:|---|",
        ]
        kept = set(c.kept)
        for lemma in sorted(c.lemmas, key=lambda w: (-_ratio(c.frequencies[w], names), w)):
            values = c.frequencies[lemma]
            out.append(
                f"| {lemma} | {' '.join(c.forms[lemma])} | "
                + " | ".join(f"{values[n]:,.2f}" for n in names)
                + f" | {_ratio(values, names):.2f} | {'yes' if lemma in kept else '**dropped**'} |"
            )
    return "\n".join(out) + "\n"


def _ratio(values: Mapping[str, float], names: Sequence[str]) -> float:
    # First source over second: how much more a word is used in one than the other.
    first, second = values[names[0]], values[names[1]]
    if second <= 0:
        return math.inf if first > 0 else 1.0
    return first / second


def lookups_for(
    names: Iterable[str], language: str, frequencies: Callable[[str, Sequence[str], str], Mapping[str, float]]
) -> dict[str, SourceLookup]:
    """Return source name -> lookup for `balance_report`, calling `frequencies(name, words, language)`."""

    def bind(name: str) -> SourceLookup:
        return lambda words: frequencies(name, words, language)

    out: dict[str, SourceLookup] = {}
    for name in names:
        if name in out:
            raise BalanceError(f"the frequency source '{name}' is named twice")
        out[name] = bind(name)
    return out
