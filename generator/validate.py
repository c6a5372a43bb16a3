"""Static validation of a template against its vocabulary, before anything is generated."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from generator import errors as E
from generator.critical_region import template_edits
from generator.equal_length import describe_differences, length_model
from generator.errors import Problem, did_you_mean
from generator.inflection import OVERRIDE_PREFIX, TAGS
from generator.language import language_rules
from generator.plan import (
    CandidateCache,
    Plan,
    PlanError,
    compile_plan,
    enumerate_structures,
    phrase_needs,
)
from generator.template import (
    BAD_PREFIX,
    Constraint,
    Direct,
    Lexical,
    PhraseRef,
    Position,
    Reference,
    Satisfies,
    Template,
)
from vocab.lexicon import FeatureValueError, Vocabulary
from vocab.restrictions import RestrictionError, parse_restriction

STRUCTURES_CHECKED = 200


def _walk(template: Template) -> Iterable[tuple[str, Position, Sequence[Position]]]:
    """Yield (grammar label, position, its sibling list) for every position in the template."""
    for position in template.good:
        yield "good", position, template.good
    for position in template.bad:
        yield "bad", position, template.bad
    for name, phrase in template.phrases.items():
        for k, alternative in enumerate(phrase.alternatives):
            for position in alternative:
                yield f"phrase {name}, alternative {k + 1}", position, alternative


def normalize_template(template: Template, vocabulary: Vocabulary) -> tuple[Template, list[Problem]]:
    """Return the template with feature values in the vocabulary's canonical spelling.

    Also reports unknown features and values (E_UNKNOWN_FEATURE / E_UNKNOWN_VALUE), and a
    `satisfies:` column that holds no restrictions, or one that cannot be read (E_RESTRICTION).
    """
    name = Path(template.file).name if template.file else template.uid
    schema = vocabulary.schema
    problems: list[Problem] = []
    known = set(schema.features) | {"id", "form", "lemma", "pos"}
    known |= {f for item in vocabulary.items[:2000] for f in item.features}

    def norm_map(
        features: Mapping[str, tuple[str, ...]], grammar: str, position: Position, what: str
    ) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for feature, values in features.items():
            if feature not in known:
                problems.append(
                    Problem(
                        E.E_UNKNOWN_FEATURE,
                        f"'{feature}' in {what} is not a feature "
                        f"of vocabulary '{vocabulary.name}'{did_you_mean(feature, known)}",
                        name,
                        grammar,
                        position.label,
                        position.line,
                    )
                )
                continue
            spec = schema.spec(feature)
            observed = vocabulary.index(feature)
            fixed: list[str] = []
            for value in values:
                try:
                    canonical = spec.normalize(value) if spec is not None else value
                except FeatureValueError as exc:
                    problems.append(
                        Problem(
                            E.E_UNKNOWN_VALUE,
                            f"{feature}: {exc}",
                            name,
                            grammar,
                            position.label,
                            position.line,
                        )
                    )
                    continue
                declared = spec is not None and spec.values is not None
                if not declared and feature not in ("id", "form", "lemma") and canonical not in observed:
                    choices = ", ".join(sorted(observed)[:12])
                    problems.append(
                        Problem(
                            E.E_UNKNOWN_VALUE,
                            f"no item has {feature} = '{value}'{did_you_mean(canonical, observed)}; "
                            f"values in the vocabulary: {choices}",
                            name,
                            grammar,
                            position.label,
                            position.line,
                        )
                    )
                    continue
                fixed.append(canonical)
            out[feature] = tuple(fixed)
        return out

    def norm_position(grammar: str, position: Position) -> Position:
        rule = position.rule
        if isinstance(rule, Lexical):
            for constraint in rule.constraints:
                for feature in constraint.features:
                    if feature not in known:
                        problems.append(
                            Problem(
                                E.E_UNKNOWN_FEATURE,
                                f"'{feature}' (to {'agree' if constraint.agree else 'disagree'} on) is not "
                                f"a feature of vocabulary '{vocabulary.name}'"
                                f"{did_you_mean(feature, known)}",
                                name,
                                grammar,
                                position.label,
                                position.line,
                            )
                        )
            for link in rule.satisfies:
                message = restriction_column_problem(link.column, vocabulary, known)
                if message:
                    code = E.E_UNKNOWN_FEATURE if link.column not in known else E.E_RESTRICTION
                    problems.append(Problem(code, message, name, grammar, position.label, position.line))
            if rule.form is not None and not _known_form(rule.form, vocabulary):
                problems.append(_unknown_form(rule.form, name, grammar, position))
            new_rule = dataclasses.replace(
                rule,
                features=norm_map(rule.features, grammar, position, "lexical"),
                exclude=norm_map(rule.exclude, grammar, position, "not"),
            )
            return dataclasses.replace(position, rule=new_rule)
        if isinstance(rule, PhraseRef) and rule.where:
            where = {
                inner: norm_map(feats, grammar, position, f"where: {inner}")
                for inner, feats in rule.where.items()
            }
            return dataclasses.replace(position, rule=dataclasses.replace(rule, where=where))
        if isinstance(rule, Reference) and rule.form is not None and not _known_form(rule.form, vocabulary):
            problems.append(_unknown_form(rule.form, name, grammar, position))
        return position

    good = tuple(norm_position("good", p) for p in template.good)
    bad = tuple(norm_position("bad", p) for p in template.bad)
    phrases = {}
    for pname, phrase in template.phrases.items():
        alts = tuple(
            tuple(norm_position(f"phrase {pname}, alternative {k + 1}", p) for p in alt)
            for k, alt in enumerate(phrase.alternatives)
        )
        phrases[pname] = dataclasses.replace(phrase, alternatives=alts)
    return dataclasses.replace(template, good=good, bad=bad, phrases=phrases), problems


def restriction_column_problem(column: str, vocabulary: Vocabulary, known: set[str]) -> str:
    """Return why `satisfies:` cannot use `column` of the vocabulary ("" when it can): it is no
    feature, not declared `type: restriction`, or an item's cell is not a restriction."""
    if column not in known:
        return (
            f"'{column}' in satisfies is not a feature of vocabulary '{vocabulary.name}'"
            f"{did_you_mean(column, known)}"
        )
    spec = vocabulary.schema.spec(column)
    if spec is None or spec.type != "restriction":
        kind = f"a {spec.type} feature" if spec is not None else "not declared in the schema"
        return (
            f"'{column}' in satisfies is {kind}; satisfies needs a column declared "
            "`type: restriction` (like BLiMP's arg_1, arg_2)"
        )
    for text in vocabulary.index(column):
        try:
            parse_restriction(text)
        except RestrictionError as exc:
            item = vocabulary.items[vocabulary.index(column)[text][0]]
            return f"item '{item.id}', column '{column}': {exc}"
    return ""


class _StaticScope:
    def __init__(self, positions: Sequence[Position], parent: _StaticScope | None) -> None:
        self.ids = {p.id: p for p in positions}
        self.parent = parent

    def lookup(self, name: str) -> Position | None:
        scope: _StaticScope | None = self
        while scope is not None:
            if name in scope.ids:
                return scope.ids[name]
            scope = scope.parent
        return None


def _check_references(template: Template, name: str) -> list[Problem]:
    """Report references that name no position, or no single lexical position."""
    problems: list[Problem] = []
    phrases = template.phrases

    def resolve_tail(position: Position, parts: list[str]) -> str | None:
        """Return an error message if `parts` does not lead to a lexical position."""
        if not parts:
            if isinstance(position.rule, Lexical):
                return None
            return (
                f"'{position.id}' is a {position.rule.kind} position; agreement and satisfies need"
                f" a lexical one"
                + (
                    f" — name an inner position, like {position.id}.head"
                    if isinstance(position.rule, PhraseRef)
                    else ""
                )
            )
        rule = position.rule
        if not isinstance(rule, PhraseRef) or rule.name not in phrases:
            return f"'{position.id}' has no inner position '{parts[0]}'"
        for k, alternative in enumerate(phrases[rule.name].alternatives):
            inner = {p.id: p for p in alternative}
            if parts[0] not in inner:
                return (
                    f"alternative {k + 1} of phrase {rule.name} has no position '{parts[0]}'; "
                    "every alternative must name it"
                )
            message = resolve_tail(inner[parts[0]], parts[1:])
            if message:
                return message
        return None

    def check(
        grammar: str,
        position: Position,
        scope: _StaticScope,
        bad_scope: _StaticScope | None,
        chain: frozenset[str],
    ) -> None:
        rule = position.rule
        if isinstance(rule, Lexical):
            links: tuple[Constraint | Satisfies, ...] = (*rule.constraints, *rule.satisfies)
            for constraint in links:
                message = _resolve(constraint, scope, bad_scope)
                if message:
                    problems.append(
                        Problem(E.E_DANGLING_REF, message, name, grammar, position.label, position.line)
                    )
        elif isinstance(rule, PhraseRef):
            if rule.name not in phrases:
                problems.append(
                    Problem(
                        E.E_UNKNOWN_PHRASE,
                        f"there is no phrase '{rule.name}'{did_you_mean(rule.name, phrases)}",
                        name,
                        grammar,
                        position.label,
                        position.line,
                    )
                )
                return
            for inner in rule.where:
                for k, alternative in enumerate(phrases[rule.name].alternatives):
                    found = next((p for p in alternative if p.id == inner), None)
                    if found is None or not isinstance(found.rule, Lexical):
                        problems.append(
                            Problem(
                                E.E_DANGLING_REF,
                                f"'where: {inner}' but alternative {k + 1} of phrase "
                                f"{rule.name} has no lexical position '{inner}'",
                                name,
                                grammar,
                                position.label,
                                position.line,
                            )
                        )
                        break
            if rule.name in chain:
                return
            for k, alternative in enumerate(phrases[rule.name].alternatives):
                inner_scope = _StaticScope(alternative, scope)
                for child in alternative:
                    check(
                        f"phrase {rule.name}, alternative {k + 1}",
                        child,
                        inner_scope,
                        bad_scope,
                        chain | {rule.name},
                    )

    def _resolve(
        constraint: Constraint | Satisfies, scope: _StaticScope, bad_scope: _StaticScope | None
    ) -> str | None:
        target = constraint.target
        parts = target.split(".")
        if target.startswith(BAD_PREFIX):
            if bad_scope is None:
                return f"'{target}': only positions of the bad grammar can refer to bad positions"
            parts = parts[1:]
            found = bad_scope.ids.get(parts[0]) if parts else None
        else:
            found = scope.lookup(parts[0])
        if found is None:
            return (
                f"'{target}' names no position{did_you_mean(parts[0] if parts else target, _visible(scope))}"
            )
        if isinstance(found.rule, Reference):
            return f"'{target}' is a reused word; refer to the good position '{found.rule.target}' instead"
        return resolve_tail(found, parts[1:])

    good_scope = _StaticScope(template.good, None)
    new_bad = [p for p in template.bad if not isinstance(p.rule, Reference)]
    bad_scope = _StaticScope(new_bad, None)
    for position in template.good:
        check("good", position, good_scope, None, frozenset())
    for position in new_bad:
        check("bad", position, good_scope, bad_scope, frozenset())
    return problems


def _visible(scope: _StaticScope) -> list[str]:
    names: list[str] = []
    current: _StaticScope | None = scope
    while current is not None:
        names += list(current.ids)
        current = current.parent
    return names


def _explain_empty(vocabulary: Vocabulary, features: Mapping[str, tuple[str, ...]], form: str | None) -> str:
    """Return which constraint leaves a position without candidates, in plain words."""
    selected: set[int] | None = None
    said: list[str] = []
    for feature, values in features.items():
        index = vocabulary.index(feature)
        matching: set[int] = set()
        for value in values:
            matching.update(index.get(value, ()))
        narrowed = matching if selected is None else selected & matching
        said.append(f"{feature} = {'/'.join(values)}")
        if not narrowed:
            return f"no vocabulary item has {' and '.join(said)}"
        selected = narrowed
    if form is not None:
        return (
            f"none of the {len(selected or ())} items with {' and '.join(said) or 'these features'} "
            f"has a dictionary form for '{form}'"
        )
    return "no vocabulary item fits"


def _known_form(form: str, vocabulary: Vocabulary) -> bool:
    """Return whether `form:` names an inflection tag or a `form_<TAG>` column of the vocabulary."""
    return form in TAGS or any(OVERRIDE_PREFIX + form in item.features for item in vocabulary.items)


def _unknown_form(form: str, name: str, grammar: str, position: Position) -> Problem:
    return Problem(
        E.E_INFLECTION,
        f"'form: {form}' is not an inflection tag (use one of {', '.join(sorted(TAGS))}) "
        f"and the vocabulary has no column '{OVERRIDE_PREFIX}{form}'",
        name,
        grammar,
        position.label,
        position.line,
    )


def validate(template: Template, vocabulary: Vocabulary) -> tuple[Template, list[Problem]]:
    """Return the normalised template and every problem that would stop generation."""
    name = Path(template.file).name if template.file else template.uid
    normalized, problems = normalize_template(template, vocabulary)
    need = phrase_needs(normalized)
    for pname, depth in need.items():
        phrase = normalized.phrases[pname]
        if depth == float("inf"):
            problems.append(
                Problem(
                    E.E_NO_BASE_CASE,
                    f"phrase {pname} always contains itself (or another "
                    "phrase that never stops): give it an alternative without recursion",
                    name,
                    f"phrase {pname}",
                    "",
                    phrase.line,
                )
            )
        elif depth > normalized.options.max_depth:
            problems.append(
                Problem(
                    E.E_NO_BASE_CASE,
                    f"phrase {pname} needs {int(depth)} levels of nesting "
                    f"but options.max_depth is {normalized.options.max_depth}",
                    name,
                    f"phrase {pname}",
                    "",
                    phrase.line,
                )
            )
    problems += _check_references(normalized, name)
    _, edit_problems = template_edits(normalized)
    problems += edit_problems
    if problems:
        return normalized, problems
    problems += _check_same_literals(normalized, name)
    cache: CandidateCache = {}
    reported: set[str] = set()
    usable = 0
    structures = 0
    first_failure: Problem | None = None
    balanced = _LengthCheck(normalized)
    for structure in enumerate_structures(normalized, need, STRUCTURES_CHECKED):
        structures += 1
        try:
            plan = compile_plan(normalized, vocabulary, structure, cache)
        except PlanError as exc:
            problems.append(Problem(E.E_DANGLING_REF, str(exc), name))
            return normalized, problems
        for slot in plan.slots:
            if slot.lexical and not slot.words and slot.path not in reported:
                reported.add(slot.path)
                position = _position_at(normalized, slot.path)
                rule = position.rule if position is not None else None
                why = (
                    _explain_empty(vocabulary, rule.features, rule.form)
                    if isinstance(rule, Lexical)
                    else "no vocabulary item fits"
                )
                problems.append(
                    Problem(
                        E.E_NO_CANDIDATE,
                        f"no word can fill '{slot.path}': {why}",
                        name,
                        slot.grammar,
                        slot.path,
                        slot.line,
                    )
                )
        if plan.empty_slot is None:
            usable += 1
            balanced.add(plan)
        elif first_failure is None:
            slot = plan.slots[plan.empty_slot]
            first_failure = Problem(
                E.E_UNSATISFIABLE,
                f"the agreement constraints leave no word for "
                f"'{slot.path}': no candidate agrees with the positions it is linked to",
                name,
                slot.grammar,
                slot.path,
                slot.line,
            )
    if not reported and usable == 0 and first_failure is not None:
        problems.append(first_failure)
    if not reported and usable and structures < STRUCTURES_CHECKED:
        problems += balanced.problems(name)
    return normalized, problems


class _LengthCheck:
    """Under options.equal_length: whether some structure can make equally long sentences.

    The check ignores agreement (it sums the lengths each differing slot's candidates can add),
    so it reports only templates that can never balance; a template whose agreement alone rules
    every balanced pair out passes here and ends in E_SHORTFALL at generation.
    """

    def __init__(self, template: Template) -> None:
        self.template = template
        self.mode = template.options.equal_length
        self.never: list[tuple[set[int], list[str]]] = []  # per structure: differences, slot paths
        self.can_balance = self.mode is None
        if self.mode is not None:
            self.rules = language_rules(template.language)
            capitalize = template.options.capitalize
            self.capitalize = self.rules.capitalize_default if capitalize is None else capitalize

    def add(self, plan: Plan) -> None:
        """Take one usable structure's plan into account."""
        if self.can_balance or self.mode is None:
            return
        model = length_model(plan, self.mode, self.rules, self.capitalize)
        if model is None:  # lengths this check cannot add up: generation decides
            self.can_balance = True
            return
        differences = model.differences()
        if 0 in differences:
            self.can_balance = True
            return
        self.never.append((differences, [plan.slots[s].path for s in model.slots]))

    def problems(self, name: str) -> list[Problem]:
        """Return E_UNEQUAL_LENGTH if no structure seen can balance, else nothing."""
        if self.can_balance or self.mode is None or not self.never:
            return []
        differences = set().union(*(found for found, _ in self.never))
        paths = list(dict.fromkeys(path for _, found in self.never for path in found))
        return [
            Problem(
                E.E_UNEQUAL_LENGTH,
                f"options.equal_length is {self.mode}, but the good and bad sentences can never "
                f"have the same number of {self.mode}: {describe_differences(differences, self.mode)} "
                f"(positions that differ: {', '.join(paths)}); change what differs or leave the option "
                "out",
                name,
                line=self.template.key_lines.get("options"),
                key="options",
            )
        ]


def _position_at(template: Template, path: str) -> Position | None:
    parts = path.split(".")
    grammar = template.good
    if parts[0] == "bad":
        grammar, parts = template.bad, parts[1:]
    found = next((p for p in grammar if p.id == parts[0]), None)
    for part in parts[1:]:
        if found is None or not isinstance(found.rule, PhraseRef):
            return None
        phrase = template.phrases.get(found.rule.name)
        found = next(
            (p for alt in (phrase.alternatives if phrase else ()) for p in alt if p.id == part), None
        )
    return found


def _check_same_literals(template: Template, name: str) -> list[Problem]:
    """Report a template whose only differences are identical literal choices."""
    edits, _ = template_edits(template)
    for edit in edits:
        if edit.type != "substitution":
            return []
        good = [template.good[i].rule for i in edit.good]
        bad = [template.bad[j].rule for j in edit.bad]
        if not (
            all(isinstance(r, Direct) for r in good + bad)
            and len(good) == len(bad)
            and all(
                set(g.options) == set(b.options) and len(g.options) == 1  # type: ignore[union-attr]
                for g, b in zip(good, bad, strict=True)
            )
        ):
            return []
    return [
        Problem(
            E.E_SAME_GRAMMARS,
            "every difference between the grammars is the same literal "
            "word, so good and bad sentences would be identical",
            name,
            "bad",
            "",
            template.bad[0].line if template.bad else None,
        )
    ]
