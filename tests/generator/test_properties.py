"""Property tests over random vocabularies and random templates with random edits.

For every template the engine either reports TemplateError (never another exception) or makes
pairs in which every word satisfies its position's features and agreement constraints, the two
sentences differ exactly inside the critical region, and the same seed gives the same bytes.
"""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from generator.errors import GenerationError, TemplateError
from generator.generate import Generator, Pair
from generator.template import template_from_text
from vocab.lexicon import FeatureSchema, FeatureSpec, Vocabulary, make_item

SCHEMA = FeatureSchema(
    {
        "number": FeatureSpec("number", values=("sg", "pl")),
        "animate": FeatureSpec("animate", type="bool"),
        "classifier": FeatureSpec("classifier", values=("a", "b", "c"), multi=True),
    }
)
POS = ("NN", "VB", "JJ")
FEATURES = ("number", "animate", "classifier")


@st.composite
def vocabularies(draw: st.DrawFn) -> Vocabulary:
    size = draw(st.integers(6, 30))
    items = []
    for i in range(size):
        features: dict[str, Any] = {
            "number": draw(st.sampled_from(["sg", "pl"])),
            "animate": draw(st.sampled_from(["1", "0"])),
            "classifier": draw(
                st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=2, unique=True)
            ),
        }
        items.append(make_item(id=f"w{i}", form=f"w{i}", pos=POS[i % 3], features=features, schema=SCHEMA))
    return Vocabulary(items, SCHEMA, name="random", language="en")


@st.composite
def templates(draw: st.DrawFn) -> dict[str, Any]:
    size = draw(st.integers(2, 5))
    good: list[dict[str, Any]] = []
    lexical_ids: list[str] = []
    for k in range(size):
        pid = f"p{k}"
        kind = draw(st.sampled_from(["direct", "lexical", "agree"] if lexical_ids else ["direct", "lexical"]))
        if kind == "direct":
            good.append(
                {
                    "id": pid,
                    "direct": draw(
                        st.lists(
                            st.sampled_from(["the", "a", "very", "so"]), min_size=1, max_size=2, unique=True
                        )
                    ),
                }
            )
            continue
        rule: dict[str, Any] = {"id": pid, "lexical": {"pos": draw(st.sampled_from(POS))}}
        if draw(st.booleans()):
            rule["lexical"]["number"] = draw(st.sampled_from(["sg", "pl"]))
        if kind == "agree":
            key = draw(st.sampled_from(["matched", "mismatched"]))
            rule[key] = draw(st.sampled_from(lexical_ids))
            rule["on"] = draw(st.sampled_from(FEATURES))
        good.append(rule)
        lexical_ids.append(pid)
    bad: list[dict[str, Any]] = [{"same": p["id"]} for p in good]
    operation = draw(st.sampled_from(["substitute", "insert", "delete", "move", "copy"]))
    index = draw(st.integers(0, size - 1))
    target = good[index]["id"]
    if operation == "substitute":
        if "direct" in good[index]:
            bad[index] = {"id": "x", "direct": ["not", "never"]}
        else:
            bad[index] = {
                "id": "x",
                "mismatched": target,
                "on": draw(st.sampled_from(FEATURES)),
                "lexical": {"pos": good[index]["lexical"]["pos"]},
            }
    elif operation == "insert":
        bad.insert(draw(st.integers(0, size)), {"id": "x", "direct": "not"})
    elif operation == "delete":
        bad[index] = {"delete": target}
    elif operation == "move":
        entry = bad.pop(index)
        places = [i for i in range(size) if i != index]
        assume(places)
        bad.insert(draw(st.sampled_from(places)), {"move": entry["same"]})
    else:
        bad.insert(draw(st.integers(0, size)), {"copy": target})
    return {
        "uid": "prop",
        "phenomenon": "test",
        "language": "en",
        "options": {"distinct_words": draw(st.booleans())},
        "good": good,
        "bad": bad,
    }


def _has(item_values: tuple[str, ...], wanted: Any) -> bool:
    wanted = wanted if isinstance(wanted, list) else [wanted]
    return any(v in item_values for v in wanted)


def check_pair(pair: Pair, spec: dict[str, Any], vocabulary: Vocabulary) -> None:
    """Assert the pair keeps every constraint and differs only in its critical region."""
    assert pair.good != pair.bad
    fillers = {**pair.fillers["good"], **pair.fillers["bad"]}
    positions = {p["id"]: p for p in spec["good"]}
    positions.update({f"bad.{p['id']}": p for p in spec["bad"] if "id" in p})
    for path, item_id in fillers.items():
        item = vocabulary.get(item_id)
        rule = positions[path]
        for feature, wanted in rule.get("lexical", {}).items():
            assert _has(item.values(feature), wanted), (path, feature)
        for key in ("matched", "mismatched"):
            if key in rule:
                other = vocabulary.get(pair.fillers["good"][rule[key]])
                shared = set(item.values(rule["on"])) & set(other.values(rule["on"]))
                assert bool(shared) == (key == "matched"), (path, rule)
    good_outside = list(pair.words_good)
    bad_outside = list(pair.words_bad)
    for _, good, _, _ in sorted(pair.critical_region, key=lambda r: -r[1].tokens[0]):
        del good_outside[good.tokens[0] : good.tokens[1]]
    for _, _, bad, _ in sorted(pair.critical_region, key=lambda r: -r[2].tokens[0]):
        del bad_outside[bad.tokens[0] : bad.tokens[1]]
    assert [w.lower() for w in good_outside] == [w.lower() for w in bad_outside]
    for _, good, _, _ in pair.critical_region:
        assert pair.good[good.chars[0] : good.chars[1]] == " ".join(
            pair.words_good[good.tokens[0] : good.tokens[1]]
        )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vocabulary=vocabularies(), spec=templates(), seed=st.integers(0, 2**32))
def test_generated_pairs_keep_constraints_and_differ_only_in_region(
    vocabulary: Vocabulary, spec: dict[str, Any], seed: int
) -> None:
    text = yaml.safe_dump(spec, sort_keys=False)
    try:
        generator = Generator(template_from_text(text, file="prop.yaml"), vocabulary)
    except TemplateError as exc:
        assert exc.problems and all(p.code.startswith("E_") for p in exc.problems)
        event(f"rejected: {exc.problems[0].code}")
        return
    n = min(5, max(1, generator.capacity().count))
    try:
        pairs = list(generator.pairs(n, seed))
    except GenerationError as exc:
        assert exc.problem.code == "E_SHORTFALL"
        event("shortfall")
        return
    event(f"generated: {'+'.join(sorted({t for p in pairs for t in p.edit_types()}))}")
    for pair in pairs:
        check_pair(pair, spec, vocabulary)
    again = Generator(template_from_text(text, file="prop.yaml"), vocabulary)
    assert b"".join(again.jsonl_lines(n, seed)) == b"".join(generator.jsonl_lines(n, seed))


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=300))
def test_template_parser_never_crashes_on_arbitrary_text(text: str) -> None:
    try:
        template_from_text(text, file="fuzz.yaml")
    except TemplateError as exc:
        assert all(p.template == "fuzz.yaml" for p in exc.problems)
