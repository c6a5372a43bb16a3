"""Compare rebuilt ZhoBLiMP paradigms with ZhoBLiMP's released data, UID by UID.

A lab taking over ZhoBLiMP asks whether the imported templates make the benchmark it already
has. Generated sentences cannot be equal to the released ones (the seeds differ), so each UID is
compared as a *distribution*: the released file is one sample of its paradigm, the rebuilt pairs
(as many, under each seed asked for) another, and a chi-square test of homogeneity asks of each
profile whether the two samples could come from the same generator:

- **length**: the difference in characters, bad minus good (ZhoBLiMP's `strict_MP` asks for 0);
- **edit shape**: the kinds of word-level edit that turn good into bad (replace, insert, delete,
  in order), words segmented the same way on both sides;
- **differing words**: each stretch of text that differs, as good → bad (which words the
  contrast is made of);
- **fillers**: the words of the good sentences (how often each word is drawn).

The overlap of good sentences (the share of rebuilt good sentences the release also has) is
shown, not tested: it depends on how many sentences the paradigm can make.

A seed's verdict is `released shape` when no profile differs (p >= `ALPHA`) and as many pairs
were made as the release has, `approximate` when only the differing words or the fillers differ
or fewer pairs were made, and `not reproduced` when the length or edit shape differs or nothing
was made. A UID with the same verdict under every seed keeps it; one whose verdict changes with
the seed `depends on seed`. A released UID no imported template rebuilds is `not imported`.

`ComparisonReport.to_dict()` is the report as plain data (JSON), bounded for storage: the
categories that differ most are kept only for the profiles that differ.
"""

from __future__ import annotations

import difflib
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from formats.record import ImportIssue
from generator.importers.zhoblimp import ImportedTemplate, ZhoblimpImport
from vocab.lexicon import Vocabulary

ALPHA = 0.001  # a profile differs when the chi-square test's p-value is below this
MIN_CELL = 10  # categories with fewer observations (both samples together) are pooled
TOP_WORDS = 5  # words shown per profile where the samples differ most

SHAPE = "released shape"
APPROXIMATE = "approximate"
NOT_REPRODUCED = "not reproduced"
DEPENDS_ON_SEED = "depends on seed"
NOT_IMPORTED = "not imported"
VERDICTS = (SHAPE, APPROXIMATE, DEPENDS_ON_SEED, NOT_REPRODUCED, NOT_IMPORTED)
# Each verdict in one line, for readers of a report (the rules are the module docstring's).
VERDICT_MEANINGS = {
    SHAPE: "under every seed no profile differs from the release and as many pairs were made",
    APPROXIMATE: "the length and edit shape are the release's, but the differing words or the "
    "fillers differ, or fewer pairs were made",
    DEPENDS_ON_SEED: "the verdict is not the same under every seed",
    NOT_REPRODUCED: "the length or the edit shape differs from the release, or nothing was made",
    NOT_IMPORTED: "no imported template rebuilds this released UID",
}

Tokenize = Callable[[str], Sequence[str]]


@dataclass(frozen=True, slots=True)
class SentencePair:
    """One good/bad pair, released or rebuilt."""

    good: str
    bad: str


@dataclass(frozen=True, slots=True)
class ProfileTest:
    """One profile of the two samples and the test of whether they differ."""

    name: str
    p_value: float
    released: Mapping[str, int]
    rebuilt: Mapping[str, int]

    @property
    def differs(self) -> bool:
        """Whether the samples differ: p below `ALPHA` (an untested profile, p NaN, does not)."""
        return self.p_value < ALPHA

    @property
    def tested(self) -> bool:
        """Whether there was anything to test (NaN: every category too rare to test alone)."""
        return not math.isnan(self.p_value)

    @property
    def distance(self) -> float:
        """Return the total variation distance of the two samples' shares (0 same, 1 disjoint),
        over every category, unpooled: how far apart they are, whatever the test could tell."""
        n_rel = sum(self.released.values())
        n_reb = sum(self.rebuilt.values())
        if not n_rel or not n_reb:
            return 0.0
        keys = sorted(set(self.released) | set(self.rebuilt))  # sorted: the same sum every run
        return sum(abs(self.released.get(c, 0) / n_rel - self.rebuilt.get(c, 0) / n_reb) for c in keys) / 2

    def most_different(self, k: int = TOP_WORDS) -> list[tuple[str, int, int]]:
        """Return up to `k` categories whose shares differ most: (category, released, rebuilt)."""
        n_rel = sum(self.released.values()) or 1
        n_reb = sum(self.rebuilt.values()) or 1
        keys = set(self.released) | set(self.rebuilt)
        ranked = sorted(
            keys,
            key=lambda c: (-abs(self.released.get(c, 0) / n_rel - self.rebuilt.get(c, 0) / n_reb), c),
        )
        return [(c, self.released.get(c, 0), self.rebuilt.get(c, 0)) for c in ranked[:k]]

    def to_dict(self) -> dict[str, object]:
        """Return the test as plain data: name, p_value (None if not a number), differs and, only
        when it differs, `most_different` ({category, released, rebuilt}, the top `TOP_WORDS`)."""
        shown = self.most_different() if self.differs else []
        return {
            "name": self.name,
            "p_value": self.p_value if math.isfinite(self.p_value) else None,
            "differs": self.differs,
            "distance": round(self.distance, 4),
            "most_different": [{"category": c, "released": a, "rebuilt": b} for c, a, b in shown],
        }


@dataclass(frozen=True, slots=True)
class SeedComparison:
    """The released pairs of one UID against the pairs rebuilt under one seed."""

    seed: int
    made: int
    asked: int
    tests: tuple[ProfileTest, ...]
    good_overlap: float  # share of rebuilt good sentences the release also has
    problem: str = ""  # why generation stopped early or failed, in words

    def test(self, name: str) -> ProfileTest:
        """Return the named profile test."""
        return next(t for t in self.tests if t.name == name)

    @property
    def verdict(self) -> str:
        """Return this seed's verdict (the module docstring gives the rules)."""
        if self.made == 0:
            return NOT_REPRODUCED
        if any(t.differs for t in self.tests if t.name in ("length", "edit shape")):
            return NOT_REPRODUCED
        if self.made < self.asked or any(t.differs for t in self.tests):
            return APPROXIMATE
        return SHAPE

    def to_dict(self) -> dict[str, object]:
        """Return the seed's comparison as plain data, its verdict and each test included."""
        return {
            "seed": self.seed,
            "verdict": self.verdict,
            "made": self.made,
            "asked": self.asked,
            "good_overlap": self.good_overlap,
            "problem": self.problem,
            "tests": [t.to_dict() for t in self.tests],
        }


@dataclass(frozen=True, slots=True)
class UidComparison:
    """One released UID: the template that rebuilds it and each seed's comparison."""

    uid: str
    released: int
    template: str = ""  # our template's uid; empty when none rebuilds it
    seeds: tuple[SeedComparison, ...] = ()
    notes: tuple[str, ...] = ()  # the import report's lines about this template

    @property
    def verdict(self) -> str:
        """Return the UID's verdict: the seeds' one when they agree, else `DEPENDS_ON_SEED`."""
        if not self.template:
            return NOT_IMPORTED
        verdicts = {s.verdict for s in self.seeds}
        return verdicts.pop() if len(verdicts) == 1 else DEPENDS_ON_SEED

    def to_dict(self) -> dict[str, object]:
        """Return the UID's comparison as plain data, its verdict and each seed's included."""
        return {
            "uid": self.uid,
            "verdict": self.verdict,
            "released": self.released,
            "template": self.template,
            "seeds": [s.to_dict() for s in self.seeds],
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class ComparisonReport:
    """Every released UID compared, in the release's order of names."""

    uids: tuple[UidComparison, ...]
    seeds: tuple[int, ...]
    unreleased: tuple[str, ...] = ()  # imported templates the release has no file for

    def counts(self) -> dict[str, int]:
        """Return verdict -> number of UIDs, every verdict present."""
        counted = Counter(u.verdict for u in self.uids)
        return {v: counted.get(v, 0) for v in VERDICTS}

    def summary(self) -> str:
        """Return one sentence: how many released UIDs are in the released shape, and the others."""
        counts = self.counts()
        return (
            f"{counts[SHAPE]} of {len(self.uids)} released UIDs in the released shape under seeds "
            f"{', '.join(map(str, self.seeds))}; "
            + ", ".join(f"{n} {v}" for v, n in counts.items() if v != SHAPE)
        )

    def to_dict(self) -> dict[str, object]:
        """Return the report as plain data (JSON): seeds, counts, summary, each UID, unreleased."""
        return {
            "seeds": list(self.seeds),
            "counts": self.counts(),
            "summary": self.summary(),
            "uids": [u.to_dict() for u in self.uids],
            "unreleased": list(self.unreleased),
        }


@dataclass(slots=True)
class _Profiles:
    length: Counter[str] = field(default_factory=Counter)
    shape: Counter[str] = field(default_factory=Counter)
    differing: Counter[str] = field(default_factory=Counter)
    fillers: Counter[str] = field(default_factory=Counter)


def _profiles(pairs: Iterable[SentencePair], tokenize: Tokenize) -> _Profiles:
    out = _Profiles()
    for pair in pairs:
        out.length[f"{len(pair.bad) - len(pair.good):+d}"] += 1
        good, bad = list(tokenize(pair.good)), list(tokenize(pair.bad))
        ops = [
            op
            for op in difflib.SequenceMatcher(None, good, bad, autojunk=False).get_opcodes()
            if op[0] != "equal"
        ]
        out.shape[" ".join(op[0] for op in ops) or "none"] += 1
        # Differing text is read character by character: word segmentation depends on the
        # context, and would split one contrast into several "words" in some sentences only.
        for tag, g0, g1, b0, b1 in difflib.SequenceMatcher(
            None, pair.good, pair.bad, autojunk=False
        ).get_opcodes():
            if tag != "equal":
                out.differing[f"{pair.good[g0:g1]}→{pair.bad[b0:b1]}"] += 1
        out.fillers.update(good)
    return out


def chi_square_p(released: Mapping[str, int], rebuilt: Mapping[str, int]) -> float:
    """Return the p-value of a chi-square test that two samples share one distribution.

    Categories seen fewer than `MIN_CELL` times in both samples together are pooled into one.
    An empty sample, or one category alone in both, cannot differ: 1.0; when every category was
    too rare and only the pooled rest is left, the test cannot tell: NaN (shown as untested).
    """
    if not sum(released.values()) or not sum(rebuilt.values()):
        return 1.0
    rows: list[tuple[int, int]] = []
    pooled = [0, 0]
    for key in sorted(set(released) | set(rebuilt)):
        a, b = released.get(key, 0), rebuilt.get(key, 0)
        if a + b >= MIN_CELL:
            rows.append((a, b))
        else:
            pooled[0] += a
            pooled[1] += b
    if sum(pooled):
        rows.append((pooled[0], pooled[1]))
    if len(rows) < 2:
        # One category in both samples: nothing can differ. Only the pooled rest: untested.
        return math.nan if sum(pooled) else 1.0
    from scipy.stats import chi2_contingency  # here: scipy.stats takes ~0.5 s to import

    result = chi2_contingency([[a for a, _ in rows], [b for _, b in rows]], correction=False)
    return float(result.pvalue)


def compare_samples(
    released: Sequence[SentencePair],
    rebuilt: Sequence[SentencePair],
    tokenize: Tokenize,
    *,
    seed: int,
    problem: str = "",
) -> SeedComparison:
    """Return the comparison of one UID's released pairs with the pairs rebuilt under `seed`."""
    rel, reb = _profiles(released, tokenize), _profiles(rebuilt, tokenize)
    tests = tuple(
        ProfileTest(name, chi_square_p(a, b), dict(a), dict(b))
        for name, a, b in (
            ("length", rel.length, reb.length),
            ("edit shape", rel.shape, reb.shape),
            ("differing words", rel.differing, reb.differing),
            ("fillers", rel.fillers, reb.fillers),
        )
    )
    released_good = {p.good for p in released}
    overlap = sum(p.good in released_good for p in rebuilt) / len(rebuilt) if rebuilt else 0.0
    return SeedComparison(seed, len(rebuilt), len(released), tests, overlap, problem)


def report_lines(report: ComparisonReport, *, detail: bool = True) -> list[str]:
    """Return the comparison as text: one block per UID (or one line each without `detail`),
    then the count of each verdict."""
    lines: list[str] = []
    for uid in report.uids:
        head = f"{uid.uid}: {uid.verdict}"
        if uid.template and uid.template != uid.uid:
            head += f" (template {uid.template})"
        lines.append(head)
        if not detail or not uid.template:
            continue
        for seed in uid.seeds:
            tests = ", ".join(
                f"{t.name} "
                + (
                    f"{'DIFFERS' if t.differs else 'same'} (p={t.p_value:.3g}, distance {t.distance:.2f})"
                    if t.tested
                    else f"untested (every category too rare; distance {t.distance:.2f})"
                )
                for t in seed.tests
            )
            lines.append(
                f"  seed {seed.seed}: {seed.verdict}; made {seed.made} of {seed.asked}; "
                f"good sentences also released {seed.good_overlap:.0%}; {tests}"
            )
            if seed.problem:
                lines.append(f"    stopped: {seed.problem}")
            for test in seed.tests:
                if test.differs:
                    shown = ", ".join(f"{c} {a}→{b}" for c, a, b in test.most_different())
                    lines.append(f"    {test.name}, released → rebuilt: {shown}")
        for note in uid.notes:
            lines.append(f"  import: {note}")
    lines.append(report.summary())
    if report.unreleased:
        lines.append(f"imported templates with no released file: {', '.join(report.unreleased)}")
    return lines


# -- rebuilding an import's templates ---------------------------------------------------------


def read_released(
    paths: Iterable[tuple[str, bytes]],
) -> tuple[dict[str, list[SentencePair]], list[ImportIssue]]:
    """Return UID -> released pairs (in file order) from ZhoBLiMP JSONL files, and the reader's
    problems (each naming the file and line; `str()` gives it in words)."""
    import io

    from formats.zhoblimp import read_zhoblimp

    by_uid: dict[str, list[SentencePair]] = {}
    problems: list[ImportIssue] = []
    for name, data in paths:
        result = read_zhoblimp(io.BytesIO(data), name)
        problems += result.errors
        for pair in result.pairs:
            by_uid.setdefault(pair.uid, []).append(SentencePair(pair.sentence_good, pair.sentence_bad))
    return by_uid, problems


def _rebuild(
    template_text: str, uid: str, phrase_texts: Mapping[str, str], vocabulary: Vocabulary, n: int, seed: int
) -> tuple[list[SentencePair], str]:
    """Return up to `n` pairs of a template under `seed`, and why it stopped short (or '')."""
    from generator.errors import GenerationError, TemplateError
    from generator.generate import GenerationStats, Generator
    from generator.template import template_from_text

    try:
        template = template_from_text(template_text, file=f"{uid}.yaml", phrase_texts=phrase_texts)
        generator = Generator(template, vocabulary)
        stats = GenerationStats()
        pairs = [
            SentencePair(p.good, p.bad)
            for p in generator.pairs(n, seed, stats=stats, as_many_as_possible=True)
        ]
    except (TemplateError, GenerationError) as exc:
        problems = getattr(exc, "problems", None) or [getattr(exc, "problem", None)]
        return [], "; ".join(f"[{p.code}] {p.message}" for p in problems if p is not None)
    return pairs, stats.short.message if stats.short is not None else ""


def comparison_units(result: ZhoblimpImport, released: Mapping[str, object]) -> int:
    """Return how many templates `compare_import` rebuilds: one `progress` call each."""
    return sum(1 for template in result.templates if template.source_uid in released)


def compare_import(
    result: ZhoblimpImport,
    released: Mapping[str, Sequence[SentencePair]],
    seeds: Sequence[int] = (1, 2),
    *,
    progress: Callable[[str], None] | None = None,
) -> ComparisonReport:
    """Rebuild every released UID from the import's templates and compare, seed by seed.

    Each template is asked for as many pairs as its UID has released. Where several templates
    share a UID (ZhoBLiMP's files can), the one closest to the release is kept and named.
    `progress` is called with each template's uid before it is rebuilt (`comparison_units` calls
    in all); an exception it raises stops the comparison.
    """
    from generator.language import language_rules

    tokenize = language_rules("zh").tokenize
    vocabulary = result.vocabulary
    if vocabulary is None:
        raise ValueError("the import has no vocabulary: its templates cannot be rebuilt")
    phrase_texts = result.phrase_texts()
    by_source: dict[str, list[ImportedTemplate]] = {}
    for template in result.templates:
        by_source.setdefault(template.source_uid, []).append(template)
    notes_by_file: dict[str, list[str]] = {}
    for note in result.notes:
        if note.level != "info":
            notes_by_file.setdefault(note.file, []).append(f"{note.where}: [{note.level}] {note.message}")
    compared: list[UidComparison] = []
    for uid in sorted(released):
        pairs = released[uid]
        candidates = by_source.get(uid, [])
        best: UidComparison | None = None
        for template in candidates:
            if progress is not None:
                progress(template.uid)
            seed_results = []
            for seed in seeds:
                rebuilt, problem = _rebuild(
                    template.text, template.uid, phrase_texts, vocabulary, len(pairs), seed
                )
                seed_results.append(compare_samples(pairs, rebuilt, tokenize, seed=seed, problem=problem))
            candidate = UidComparison(
                uid,
                len(pairs),
                template.uid,
                tuple(seed_results),
                tuple(notes_by_file.get(template.source_file, ())),
            )
            if best is None or VERDICTS.index(candidate.verdict) < VERDICTS.index(best.verdict):
                best = candidate
        compared.append(best or UidComparison(uid, len(pairs)))
    unreleased = tuple(sorted(t.uid for t in result.templates if t.source_uid not in released))
    return ComparisonReport(tuple(compared), tuple(seeds), unreleased)
