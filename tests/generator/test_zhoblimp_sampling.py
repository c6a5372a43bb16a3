"""`options.sampling: zhoblimp`: words, agreement values and repeated words drawn as ZhoBLiMP's
generator draws them (docs/template-format.md), against our own uniform sampling."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from generator import errors as E
from generator.errors import TemplateError
from generator.generate import Generator
from generator.plan import row_weight
from tests.generator.builders import build
from vocab.lexicon import FeatureSchema, FeatureSpec, Vocabulary, make_item

HEAD = "uid: zs\nphenomenon: test\nlanguage: zh\n"

SCHEMA = FeatureSchema(
    {
        "classifier": FeatureSpec("classifier", multi=True),
        "verb": FeatureSpec("verb", multi=True),
        "animate": FeatureSpec("animate", values=("0", "1")),
    }
)


def vocabulary() -> Vocabulary:
    rows = [
        ("书", "NN", {"classifier": ["本"]}),
        ("杂志", "NN", {"classifier": ["本", "份"]}),
        ("报纸", "NN", {"classifier": ["份", "张"]}),
        ("桌子", "NN", {"classifier": ["张"]}),
        ("猫", "NN", {"classifier": ["只"]}),
        ("狗", "NN", {"classifier": ["只", "条"]}),
        ("本", "M", {"classifier": ["本"]}),
        ("份", "M", {"classifier": ["份"]}),
        ("张", "M", {"classifier": ["张"]}),
        ("只", "M", {"classifier": ["只"]}),
        ("条", "M", {"classifier": ["条"]}),
        # 专心 goes with nine verbs, 故意 with one: ZhoBLiMP draws 专心 nine times as often.
        ("专心", "AD", {"animate": "1", "verb": ["走", "去", "吃", "喝", "看", "写", "读", "听", "唱"]}),
        ("故意", "AD", {"animate": "1", "verb": ["走"]}),
        ("我", "PN", {}),
        ("他", "PN", {}),
        ("她", "PN", {}),
    ]
    items = [make_item(id=f, form=f, pos=p, features=feats, schema=SCHEMA) for f, p, feats in rows]
    return Vocabulary(items, SCHEMA, name="zs", language="zh")


def generator(grammars: str, sampling: str) -> Generator:
    return Generator(build(f"{HEAD}options: {{sampling: {sampling}}}\n{grammars}"), vocabulary())


def draws(gen: Generator, n: int, seed: int = 0) -> list[list[int]]:
    plan = gen.plan(())
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        values = (
            plan.sample_by_values(rng) if gen.template.options.sampling == "zhoblimp" else plan.sample(rng)
        )
        if values is not None:
            out.append(values)
    return out


def test_row_weight_counts_the_rows_zhoblimp_makes_of_an_item() -> None:
    features = {"verb": ("走", "去", "吃"), "animate": ("1",), "classifier": ("本", "份")}
    assert row_weight(features, {}) == 6  # 3 verbs x 1 x 2 classifiers
    assert row_weight(features, {"verb": ("走",)}) == 2
    assert row_weight(features, {"verb": ("走", "吃", "喝")}) == 4
    assert row_weight(features, {"classifier": ("条",)}) == 0


ADVERB = """\
good:
  - {id: adv, lexical: {pos: AD, animate: "1"}}
  - {direct: 走了。}
bad:
  - {id: b0, direct: 可能}
  - {same: "2"}
"""


def test_words_are_drawn_with_zhoblimp_row_weights() -> None:
    gen = generator(ADVERB, "zhoblimp")
    words = Counter(gen.plan(()).word(0, v[0]) for v in draws(gen, 3000))
    assert 0.85 < words["专心"] / 3000 < 0.95  # 9 of 10 rows
    uniform = generator(ADVERB, "uniform")
    words = Counter(uniform.plan(()).word(0, v[0]) for v in draws(uniform, 3000))
    assert 0.45 < words["专心"] / 3000 < 0.55


CLASSIFIER = """\
good:
  - {direct: 一}
  - {id: cl, lexical: {pos: M}, matched: {n: [classifier]}}
  - {id: n, lexical: {pos: NN}}
bad:
  - {same: "1"}
  - {id: b1, lexical: {pos: M}, mismatched: {n: [classifier]}}
  - {same: n}
"""


NOUN_FIRST = """\
good:
  - {id: n, lexical: {pos: NN}}
  - {id: cl, lexical: {pos: M}, matched: {n: [classifier]}}
bad:
  - {same: n}
  - {id: b1, direct: 个}
"""


def test_a_matched_value_is_drawn_first_then_the_words() -> None:
    gen = generator(NOUN_FIRST, "zhoblimp")
    plan = gen.plan(())
    cl = next(i for i, s in enumerate(plan.slots) if s.path == "cl")
    shares = Counter(plan.word(cl, v[cl]) for v in draws(gen, 5000))
    # five shared classifier values, each drawn a fifth of the time; 条 fits only 狗
    assert all(0.16 < shares[c] / 5000 < 0.24 for c in ("本", "份", "张", "只", "条"))
    uniform = generator(NOUN_FIRST, "uniform")
    plan = uniform.plan(())
    shares = Counter(plan.word(cl, v[cl]) for v in draws(uniform, 5000))
    assert shares["条"] / 5000 < 0.12  # our way: a noun first (狗 a sixth), then half its classifiers


def test_a_bad_agreement_reads_the_good_rule_not_its_word() -> None:
    vocab = vocabulary()
    nouns = {i.form: set(i.values("classifier")) for i in vocab.items if i.pos == "NN"}
    zhoblimp = list(generator(CLASSIFIER, "zhoblimp").pairs(25, seed=3, unique="pair"))
    # the bad classifier always differs from the good one ...
    assert all(p.bad[1] != p.good[1] for p in zhoblimp)
    # ... but, as in ZhoBLiMP, may be another classifier the noun takes (杂志: 本 and 份)
    assert any(p.bad[1] in nouns[p.good[2:]] for p in zhoblimp)
    uniform = list(generator(CLASSIFIER, "uniform").pairs(25, seed=3, unique="pair"))
    assert all(p.bad[1] not in nouns[p.good[2:]] for p in uniform)


PRONOUN = """\
good:
  - {direct: [我, 你]}
  - {direct: 说}
  - {id: who, lexical: {pos: PN}}
  - {direct: 来了。}
bad:
  - {same: "1"}
  - {same: "2"}
  - {same: who}
  - {id: b3, direct: 来。}
"""


def test_the_repeated_word_rule_counts_literals_as_zhoblimp_does() -> None:
    made = list(generator(PRONOUN, "zhoblimp").pairs(4, seed=1))
    assert not any(p.good.startswith("我说我") for p in made)
    assert {p.good for p in made} == {"我说他来了。", "我说她来了。", "你说他来了。", "你说她来了。"}
    uniform = {p.good for p in generator(PRONOUN, "uniform").pairs(6, seed=1)}
    assert "我说我来了。" in uniform  # our own rule compares lexical words only


def test_a_generation_under_zhoblimp_sampling_is_reproducible() -> None:
    first = [(p.good, p.bad) for p in generator(CLASSIFIER, "zhoblimp").pairs(20, seed=9, unique="pair")]
    again = [(p.good, p.bad) for p in generator(CLASSIFIER, "zhoblimp").pairs(20, seed=9, unique="pair")]
    assert first == again


def test_an_unknown_sampling_mode_is_refused_with_its_line() -> None:
    with pytest.raises(TemplateError) as caught:
        build(f"{HEAD}options:\n  sampling: random\n{ADVERB}")
    (problem,) = caught.value.problems
    assert (problem.code, problem.line, problem.key) == (E.E_FIELD, 5, "options")


CHOICES = """\
phrases:
  who_choices:
    - [{id: w, lexical: {pos: PN}}]
    - [{id: w, lexical: {pos: PN}, matched: {p0: [form]}}]
good:
  - {id: p0, lexical: {pos: PN}}
  - {direct: 说}
  - {id: p2, phrase: who_choices}
  - {direct: 来了。}
bad:
  - {same: p0}
  - {same: "2"}
  - {same: p2}
  - {id: b3, direct: 来。}
"""


def test_a_cell_of_alternatives_is_judged_by_the_rule_it_drew() -> None:
    """ZhoBLiMP's BA_no_stative_verb: `PN | NR mPos:0 mPro:expression` may repeat the word at 0
    when it draws the matched rule (王大娘会把王大娘恨一整年), never when it draws the other."""
    made = [p.good for p in generator(CHOICES, "zhoblimp").pairs(9, seed=4, as_many_as_possible=True)]
    assert {g for g in made if g[0] == g[2]} == {"我说我来了。", "他说他来了。", "她说她来了。"}
    assert len(made) == 9  # 3 repeated by the matched rule, 6 of two different pronouns


FED = """\
good:
  - {id: v, lexical: {pos: VV}, matched: {n: [verb]}}
  - {direct: 了一}
  - {id: cl, lexical: {pos: M}, matched: {n: [classifier]}}
  - {id: n, lexical: {pos: NN}}
bad:
  - {same: v}
  - {same: "2"}
  - {id: b2, lexical: {pos: M}, mismatched: {n: [classifier]}}
  - {same: n}
"""


def test_a_mismatch_with_a_fixed_value_keeps_the_targets_other_values() -> None:
    """ZhoBLiMP's ellipsis_n_bar_class: the bad classifier differs from the noun's, among the
    classifiers of nouns that go with the verb (喂: 只, 条), never 本 after 喂."""
    rows = [
        ("猫", "NN", {"classifier": ["只"], "verb": ["喂"]}),
        ("狗", "NN", {"classifier": ["只", "条"], "verb": ["喂"]}),
        ("书", "NN", {"classifier": ["本"], "verb": ["看"]}),
        ("杂志", "NN", {"classifier": ["本", "份"], "verb": ["看"]}),
        ("喂", "VV", {"verb": ["喂"]}),
        ("看", "VV", {"verb": ["看"]}),
        *[(c, "M", {"classifier": [c]}) for c in ("只", "条", "本", "份")],
    ]
    vocab = Vocabulary(
        [make_item(id=f, form=f, pos=p, features=feats, schema=SCHEMA) for f, p, feats in rows],
        SCHEMA,
        name="fed",
        language="zh",
    )
    template = build(f"{HEAD}options: {{sampling: zhoblimp}}\n{FED}")
    allowed = {"喂": {"只", "条"}, "看": {"本", "份"}}
    pairs = list(Generator(template, vocab).pairs(12, seed=6, unique="pair", as_many_as_possible=True))
    assert len(pairs) >= 5
    for pair in pairs:
        verb, good_cl, bad_cl = pair.good[0], pair.good[3], pair.bad[3]
        assert bad_cl in allowed[verb] and bad_cl != good_cl
