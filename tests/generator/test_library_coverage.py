"""What the shipped library covers: every Zorro and every BLiMP paradigm in English (BLiMP's over the
general vocabulary), all fifteen ZhoBLiMP phenomena with at least three paradigms each in Chinese,
and no paradigm whose pairs lean on one word."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from generator.blimp_paradigms import BLIMP_PARADIGMS, blimp_uids_named
from generator.generate import Generator
from generator.library import VocabularyCache, find_templates, load_with_vocabulary
from generator.template import Lexical, Template
from generator.zhoblimp_paradigms import ZHOBLIMP_PHENOMENA

LIBRARY = Path(__file__).resolve().parents[2] / "templates"
TARGET = {"en": 1000, "zh": 300}

# Zorro's 23 paradigms (Huebner et al. 2021, Table 5), as `phenomenon-paradigm` file names.
ZORRO_PARADIGMS = (
    "agreement_determiner_noun-across_1_adjective",
    "agreement_determiner_noun-between_neighbors",
    "agreement_subject_verb-across_prepositional_phrase",
    "agreement_subject_verb-across_relative_clause",
    "agreement_subject_verb-in_question_with_aux",
    "agreement_subject_verb-in_simple_question",
    "anaphor_agreement-pronoun_gender",
    "argument_structure-dropped_argument",
    "argument_structure-swapped_arguments",
    "argument_structure-transitive",
    "binding-principle_a",
    "case-subjective_pronoun",
    "ellipsis-n_bar",
    "filler-gap-wh_question_object",
    "filler-gap-wh_question_subject",
    "irregular-verb",
    "island-effects-adjunct_island",
    "island-effects-coordinate_structure_constraint",
    "local_attractor-in_question_with_aux",
    "npi_licensing-matrix_question",
    "npi_licensing-only_npi_licensor",
    "quantifiers-existential_there",
    "quantifiers-superlative",
)


_CACHE = VocabularyCache()


@cache
def _templates() -> tuple[Template, ...]:
    return tuple(load_with_vocabulary(path, _CACHE)[0] for path in find_templates([LIBRARY]))


def _by_language(language: str) -> list[Template]:
    return [t for t in _templates() if t.language == language]


def _zorro_name_in(source: str, name: str) -> bool:
    # "Zorro island-effects-adjunct_island", also written with "_" for "-" in the phenomenon.
    pattern = re.escape(name).replace(r"\-", "[-_]")
    return re.search(rf"Zorro\W+{pattern}\b", source) is not None


@pytest.mark.parametrize("name", ZORRO_PARADIGMS)
def test_every_zorro_paradigm_has_an_english_template(name: str) -> None:
    sources = [t for t in _by_language("en") if _zorro_name_in(t.source, name)]
    assert sources, f"no English template names 'Zorro {name}' as its source"


def test_blimp_control_raising_is_covered() -> None:
    raising = [t for t in _by_language("en") if t.phenomenon == "control_raising"]
    assert len(raising) >= 3, [t.uid for t in raising]
    assert all("BLiMP" in t.source for t in raising)


@pytest.mark.parametrize("phenomenon", ZHOBLIMP_PHENOMENA)
def test_every_zhoblimp_phenomenon_has_three_chinese_paradigms(phenomenon: str) -> None:
    uids = [t.uid for t in _by_language("zh") if t.phenomenon == phenomenon]
    assert len(uids) >= 3, f"{phenomenon}: {uids}"


def test_chinese_phenomenon_labels_are_zhoblimps() -> None:
    labels = {t.phenomenon for t in _by_language("zh")}
    assert labels <= set(ZHOBLIMP_PHENOMENA), sorted(labels - set(ZHOBLIMP_PHENOMENA))


# -- no paradigm leans on one word ---------------------------------------------------------

# The most reused content word (noun, name, verb or adjective) may fill at most this share of a
# paradigm's pairs. Function words (pronouns, determiners, classifiers) are left out, and so are
# positions marked `uncapped: true`: some contrasts have only a few such words by nature
# (himself/herself, this/these, 答应 as the one subject-control verb that takes an object).
MAX_SHARE = 0.25
CONTENT_POS = re.compile(r"^(NN|NR|VB|VV|VA|JJ)")


def _uncapped_ids(template: Template) -> set[str]:
    """Return the ids of lexical positions marked `uncapped`, in the grammars and phrases."""
    positions = [*template.good, *template.bad]
    for phrase in template.phrases.values():
        for alternative in phrase.alternatives:
            positions += alternative
    return {p.id for p in positions if isinstance(p.rule, Lexical) and not p.rule.capped}


@pytest.mark.parametrize("path", find_templates([LIBRARY]), ids=lambda p: str(p.relative_to(LIBRARY)))
def test_no_content_word_fills_too_many_pairs(path: Path) -> None:
    template, vocabulary = load_with_vocabulary(path, _CACHE)
    generator = Generator(template, vocabulary)
    pos_of = {item.id: item.pos for item in vocabulary.items}
    uncapped = _uncapped_ids(generator.template)
    counts: Counter[str] = Counter()
    pairs = list(generator.pairs(TARGET[template.language], 0))
    for pair in pairs:
        fillers = {**pair.fillers["good"], **pair.fillers["bad"]}
        counts.update(
            {
                item
                for path, item in fillers.items()
                if path.rsplit(".", 1)[-1] not in uncapped and CONTENT_POS.match(pos_of[item])
            }
        )
    if counts:
        item, count = counts.most_common(1)[0]
        assert count <= MAX_SHARE * len(pairs), f"'{item}' fills {count} of {len(pairs)} pairs"


def test_phrase_names_are_unique_across_the_library() -> None:
    # A project holds one phrase per name, so importing the library into a project (the demo
    # project does) refuses a paradigm whose phrase clashes with another file's phrase.
    from generator.source import load_yaml

    seen: dict[str, tuple[str, object]] = {}
    clashes = []
    for path in sorted((LIBRARY / "phrases").glob("*.yaml")):
        for name, alternatives in (load_yaml(path.read_text(encoding="utf-8")) or {}).items():
            if name in seen and seen[name][1] != alternatives:
                clashes.append(f"{name}: {seen[name][0]} and {path.name}")
            seen.setdefault(name, (path.name, alternatives))
    assert clashes == []


# -- the English word lists are counterbalanced ----------------------------------------------

BALANCE_TOLERANCE = 0.05  # as in docs/en_child-frequency-balance.md and en_general-frequency-balance.md


@pytest.mark.parametrize("name", ["en_child.csv", "en_general.csv"])
def test_english_vocabulary_marks_its_counterbalanced_words(name: str) -> None:
    # Recomputed from the two packaged sources: the nouns, verbs and adjectives the column
    # `balanced` keeps are within the tolerance of each other, spoken against written.
    from vocab.balance_report import balance_report, lookups_for
    from vocab.frequency import source_frequencies

    vocabulary = _CACHE.get(LIBRARY / "vocabularies" / name)
    assert "balanced" in vocabulary.schema.features
    kept = vocabulary.excluding("balanced", ["0"])
    report = balance_report(
        kept, lookups_for(["spoken", "written"], "en", source_frequencies), tolerance=BALANCE_TOLERANCE
    )
    for word_class in report.classes:
        assert word_class.bias <= BALANCE_TOLERANCE, (word_class.name, word_class.bias)
        assert len(word_class.lemmas) >= 20, word_class.name
    marked = {item.features.get("balanced") for item in vocabulary.items if item.pos in ("NN", "VB", "JJ")}
    assert None not in marked, "every noun, verb and adjective is marked 1 or 0"


@pytest.mark.parametrize("path", find_templates([LIBRARY / "en"]), ids=lambda p: str(p.relative_to(LIBRARY)))
def test_english_paradigm_reaches_its_target_with_counterbalanced_words_only(path: Path) -> None:
    template, vocabulary = load_with_vocabulary(path, _CACHE)
    generator = Generator(template, vocabulary.excluding("balanced", ["0"]))
    assert sum(1 for _ in generator.pairs(TARGET["en"], 0)) == TARGET["en"]


@pytest.mark.parametrize("uid", [uid for uid, _ in BLIMP_PARADIGMS])
def test_every_blimp_paradigm_has_an_english_template(uid: str) -> None:
    # Each of BLiMP's 67 paradigms is reproduced by an English template naming its UID in `source`.
    named = [t.uid for t in _by_language("en") if uid in blimp_uids_named(t.source)]
    assert named, f"no English template names 'BLiMP {uid}' as its source"


def test_general_vocabulary_paradigms_are_blimps_with_its_fields() -> None:
    # The paradigms over en_general.csv are our own BLiMP-style ones: each names the BLiMP UID it
    # reproduces and carries BLiMP's own fields for the BLiMP export.
    templates = [t for t in _by_language("en") if t.vocabulary.endswith("en_general.csv")]
    assert len(templates) >= 44, len(templates)
    for template in templates:
        assert blimp_uids_named(template.source), template.uid
        assert template.blimp.get("linguistics_term") and template.blimp.get("field"), template.uid
