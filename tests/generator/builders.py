"""Tiny hand-built vocabularies and a template builder for the engine tests (construct it manually)."""

from __future__ import annotations

import textwrap

from generator.generate import Generator
from generator.template import Template, template_from_text
from vocab.lexicon import FeatureSchema, FeatureSpec, Vocabulary, make_item

SCHEMA = FeatureSchema(
    {
        "number": FeatureSpec("number", values=("sg", "pl")),
        "animate": FeatureSpec("animate", type="bool"),
        "classifier": FeatureSpec("classifier", multi=True),
    }
)


def english_vocabulary() -> Vocabulary:
    """Return a 20-item English vocabulary: nouns (lemmas), verbs, adjectives, determiners."""
    items = []
    for w, animate in [
        ("dog", 1),
        ("cat", 1),
        ("teacher", 1),
        ("boy", 1),
        ("girl", 1),
        ("book", 0),
        ("ball", 0),
        ("cup", 0),
    ]:
        items.append(
            make_item(id=w, form=w, pos="NN", features={"animate": animate, "number": "sg"}, schema=SCHEMA)
        )
    for w in ["see", "like", "find", "help"]:
        items.append(make_item(id=w, form=w, pos="VB", schema=SCHEMA))
    for w in ["big", "red", "small"]:
        items.append(make_item(id=w, form=w, pos="JJ", schema=SCHEMA))
    for w, n in [("this", "sg"), ("that", "sg"), ("these", "pl"), ("those", "pl")]:
        items.append(make_item(id=w, form=w, pos="DT", features={"number": n}, schema=SCHEMA))
    items.append(make_item(id="quickly", form="quickly", pos="RB", schema=SCHEMA))
    return Vocabulary(items, SCHEMA, name="tiny_en", language="en")


def chinese_vocabulary() -> Vocabulary:
    """Return a small Chinese vocabulary with classifiers as a multi-valued join feature."""
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
        ("我", "PN", {}),
        ("他", "PN", {}),
        ("她", "PN", {}),
        ("买", "VV", {}),
        ("看", "VV", {}),
    ]
    items = [make_item(id=f, form=f, pos=p, features=feats, schema=SCHEMA) for f, p, feats in rows]
    return Vocabulary(items, SCHEMA, name="tiny_zh", language="zh")


AGREEMENT_GRAMMARS = """\
good:
  - {id: det, lexical: {pos: DT}}
  - {id: noun, lexical: {pos: NN}, form: NN}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
  - {direct: "."}
bad:
  - {same: det}
  - {same: noun}
  - {same: verb, form: VBP}
  - {same: "4"}
"""


def agreement_template(uid: str) -> str:
    """Return the YAML of a determiner-noun-verb template whose bad verb breaks agreement."""
    return f"uid: {uid}\nphenomenon: subject_verb_agreement\nlanguage: en\n{AGREEMENT_GRAMMARS}"


def build(text: str, name: str = "t.yaml") -> Template:
    """Return a template parsed from dedented YAML text."""
    return template_from_text(textwrap.dedent(text), file=name)


def generator_for(text: str, vocabulary: Vocabulary) -> Generator:
    """Return a Generator for a template text, failing the test with the problems if invalid."""
    return Generator(build(text), vocabulary)
