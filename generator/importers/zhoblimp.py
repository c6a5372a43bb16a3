"""Import a ZhoBLiMP project (template JSONs, vocabulary TSV, phrase JSON) as our templates.

`import_zhoblimp` converts everything it can and reports, item by item, what it could not
convert or converted with a change; `write_import` writes the result in our library layout:

    OUT/zh/<uid>.yaml                 one template per ZhoBLiMP template
    OUT/vocabularies/<name>.tsv       the vocabulary, with <name>.schema.yaml
    OUT/phrases/<name>.yaml           the phrases

Every template written has been validated by our engine against the imported vocabulary and
phrases; a template that fails is reported with the engine's problems and not written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from generator.equal_length import length_model
from generator.errors import E_NO_CANDIDATE, Problem, TemplateError
from generator.generate import CAPACITY_STRUCTURES, Generator
from generator.importers.zhoblimp_json import JsonFileError, read_json
from generator.importers.zhoblimp_phrases import PlainAlternative, import_zhoblimp_phrases
from generator.importers.zhoblimp_templates import ConvertedTemplate, convert_template, uid_of
from generator.importers.zhoblimp_vocab import import_zhoblimp_vocabulary
from generator.importers.zhoblimp_yaml import alternatives_yaml, phrases_yaml, template_yaml
from generator.language import language_rules
from generator.plan import enumerate_structures
from generator.template import phrases_from_texts, template_from_text
from generator.validate import validate
from vocab.errors import VocabularyError
from vocab.import_report import ImportNote
from vocab.io import write_vocabulary
from vocab.lexicon import Vocabulary

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
TEMPLATE_FOLDER = "zh"


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One input file: its name (as reported) and its bytes."""

    name: str
    data: bytes


@dataclass(frozen=True, slots=True)
class ImportedTemplate:
    """A converted, validated template: its uid, the ZhoBLiMP file it came from and its YAML."""

    uid: str
    source_file: str
    source_uid: str
    text: str


@dataclass(slots=True)
class ZhoblimpImport:
    """Everything converted, and the report of what was not converted as written."""

    vocabulary: Vocabulary | None
    phrases: dict[str, list[PlainAlternative]]
    templates: list[ImportedTemplate]
    notes: list[ImportNote] = field(default_factory=list)
    vocabulary_name: str = ""
    phrase_file_name: str = ""

    def phrase_texts(self) -> dict[str, str]:
        """Return phrase name -> YAML text of its alternatives (how the platform stores phrases)."""
        return {name: alternatives_yaml(alts) for name, alts in self.phrases.items()}


def _phrase_name(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_]", "_", name) or "phrase"
    base = base if _NAME.match(base) else f"_{base}"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}_{n}", n + 1
    return candidate


def _rename_phrases(
    phrases: dict[str, list[PlainAlternative]], file_name: str, notes: list[ImportNote]
) -> tuple[dict[str, list[PlainAlternative]], dict[str, str]]:
    """Return the phrases under names our platform accepts, and old -> new for those renamed."""
    renames: dict[str, str] = {}
    taken = {n for n in phrases if _NAME.match(n)}
    for name in phrases:
        if not _NAME.match(name):
            renames[name] = _phrase_name(name, taken)
            taken.add(renames[name])
            notes.append(
                ImportNote(
                    file_name,
                    f"phrase '{name}'",
                    f"renamed '{renames[name]}' (phrase names are letters, digits and _)",
                    "changed",
                )
            )

    def fix(position: dict[str, Any]) -> dict[str, Any]:
        name = position.get("phrase")
        return (
            {**position, "phrase": renames[name]} if isinstance(name, str) and name in renames else position
        )

    renamed = {
        renames.get(name, name): [[fix(p) for p in alt] for alt in alts] for name, alts in phrases.items()
    }
    return renamed, renames


def _checked_phrases(
    phrases: dict[str, list[PlainAlternative]], file_name: str, notes: list[ImportNote]
) -> dict[str, list[PlainAlternative]]:
    """Return the phrases our engine reads; each one it rejects is reported and left out."""
    kept: dict[str, list[PlainAlternative]] = {}
    for name, alternatives in phrases.items():
        try:
            phrases_from_texts({name: alternatives_yaml(alternatives)})
        except TemplateError as exc:
            for problem in exc.problems:
                notes.append(
                    ImportNote(
                        file_name,
                        f"phrase '{name}'",
                        f"phrase skipped: [{problem.code}] {problem.message}",
                        "skipped",
                    )
                )
            continue
        kept[name] = alternatives
    return kept


def _phrases_fit_vocabulary(
    phrases: dict[str, list[PlainAlternative]],
    vocabulary: Vocabulary,
    file_name: str,
    notes: list[ImportNote],
) -> dict[str, list[PlainAlternative]]:
    """Return the phrases our engine accepts with this vocabulary, each with the alternatives
    it can fill; an alternative no word can fill is reported and left out, and a phrase with
    none left is reported and left out.

    ZhoBLiMP draws an alternative, fails on one it cannot fill and tries again, so leaving it out
    changes nothing it makes. A phrase file is validated with every template that names it, so
    one phrase the vocabulary cannot fill would fail them all; only the templates that really
    use a phrase left out are reported.
    """
    texts = {name: alternatives_yaml(alts) for name, alts in phrases.items()}
    kept: dict[str, list[PlainAlternative]] = {}
    for name, alternatives in phrases.items():
        fillable: list[PlainAlternative] = []
        refusals: list[tuple[int, list[Problem]]] = []
        for number, alternative in enumerate(alternatives):
            problems = _alternative_problems(name, alternative, texts, phrases, vocabulary)
            if problems:
                refusals.append((number, problems))
            else:
                fillable.append(alternative)
        for number, problems in refusals:
            for problem in problems:
                where = problem.grammar + (f", position {problem.position}" if problem.position else "")
                what = "phrase skipped" if not fillable else f"alternative {number} left out"
                notes.append(
                    ImportNote(
                        file_name,
                        f"phrase '{name}'" + (f", alternative {number}" if fillable else ""),
                        f"{what}: with this vocabulary our engine reports [{problem.code}] "
                        f"{problem.message}"
                        + (f" ({where})" if where else "")
                        + (
                            "; ZhoBLiMP never fills it either, so nothing it makes changes"
                            if fillable and problem.code == E_NO_CANDIDATE
                            else ""
                        ),
                        "skipped" if not fillable else "changed",
                    )
                )
        if fillable:
            kept[name] = fillable
    return kept


def _alternative_problems(
    name: str,
    alternative: PlainAlternative,
    texts: Mapping[str, str],
    phrases: Mapping[str, list[PlainAlternative]],
    vocabulary: Vocabulary,
) -> list[Problem]:
    """Return what our engine reports for one alternative of a phrase with this vocabulary."""
    alone = {**phrases, name: [alternative]}
    alone_texts = {**texts, name: alternatives_yaml([alternative])}
    probe = {"good": [{"phrase": name}], "bad": [{"same": "1"}, {"direct": "。"}]}
    used = _used_phrase_texts(probe, alone_texts, alone)
    text = template_yaml({"uid": "phrase_check", "phenomenon": "check", "language": "zh", **probe})
    try:
        template = template_from_text(text, file="phrase_check.yaml", phrase_texts=used)
        return list(validate(template, vocabulary)[1])
    except TemplateError as exc:
        return list(exc.problems)


def _read_templates(files: Sequence[SourceFile], notes: list[ImportNote]) -> list[tuple[SourceFile, Any]]:
    read: list[tuple[SourceFile, Any]] = []
    for file in files:
        try:
            read.append((file, read_json(file.data)))
        except JsonFileError as exc:
            notes.append(ImportNote(file.name, exc.where, f"template skipped: {exc}", "skipped"))
    return read


def _uids(read: list[tuple[SourceFile, Any]], notes: list[ImportNote]) -> dict[str, str]:
    """Return file name -> uid, giving each file of a shared uid its own (none is overwritten)."""
    by_uid: dict[str, list[tuple[SourceFile, Any]]] = {}
    for file, obj in read:
        raw = obj.get("uid") if isinstance(obj, dict) else None
        if isinstance(raw, str) and raw.strip():
            by_uid.setdefault(uid_of(raw), []).append((file, obj))
    uids: dict[str, str] = {}
    taken = set(by_uid)
    for uid, group in by_uid.items():
        if len(group) == 1:
            continue
        names = ", ".join(f.name for f, _ in group)
        for number, (file, obj) in enumerate(group, start=1):
            stem = PurePosixPath(file.name).stem
            user = obj.get("user")
            tail = stem[len(uid) :].strip("_") if stem.startswith(uid) else ""
            suffix = uid_of(tail or (user if isinstance(user, str) and user else str(number)))
            candidate = f"{uid}__{suffix.strip('_') or number}"
            while candidate in taken:
                candidate += "_"
            taken.add(candidate)
            uids[file.name] = candidate
            notes.append(
                ImportNote(
                    file.name,
                    "uid",
                    f"uid '{obj.get('uid')}' is used by {len(group)} files ({names}); none overwrites "
                    f"another: this one is imported as '{candidate}' (ZhoBLiMP itself kept whichever "
                    "file it read last)",
                    "changed",
                )
            )
    return uids


def _used_phrase_texts(
    data: Mapping[str, Any], phrase_texts: Mapping[str, str], phrases: Mapping[str, list[PlainAlternative]]
) -> dict[str, str]:
    """Return the texts of the shared phrases a template uses, directly or through other phrases.

    Only these are validated with the template: a shared phrase it never uses (and that the
    vocabulary may not support) must not fail it.
    """
    local = data.get("phrases") or {}
    pending = [p.get("phrase") for p in [*data["good"], *data["bad"]]]
    pending += [p.get("phrase") for alts in local.values() for alt in alts for p in alt]
    used: set[str] = set()
    while pending:
        name = pending.pop()
        if not isinstance(name, str) or name in used or name in local or name not in phrases:
            continue
        used.add(name)
        pending += [p.get("phrase") for alt in phrases[name] for p in alt]
    return {name: text for name, text in phrase_texts.items() if name in used}


def _validated(
    converted: ConvertedTemplate,
    text: str,
    phrase_texts: Mapping[str, str],
    vocabulary: Vocabulary | None,
    notes: list[ImportNote],
) -> bool:
    """Return whether our engine accepts the template; report its problems if not."""
    try:
        template = template_from_text(text, file=f"{converted.uid}.yaml", phrase_texts=phrase_texts)
        problems = validate(template, vocabulary)[1] if vocabulary is not None else []
    except TemplateError as exc:
        problems = list(exc.problems)
    for problem in problems:
        where = " ".join(
            part
            for part in (problem.grammar, f"position {problem.position}" if problem.position else "")
            if part
        )
        notes.append(
            ImportNote(
                converted.file,
                where or "template",
                f"template skipped: our engine reports [{problem.code}] {problem.message}",
                "skipped",
            )
        )
    return not problems


def _equal_length_effect(
    converted: ConvertedTemplate, text: str, phrase_texts: Mapping[str, str], vocabulary: Vocabulary
) -> ImportNote:
    """Return what `equal_length: characters` (from `strict_MP: true`) changes in a template with
    this vocabulary: nothing where every pair it can make is equally long, else the differences
    it removes (agreement aside, so a difference named may be one agreement never makes)."""
    template = template_from_text(text, file=f"{converted.uid}.yaml", phrase_texts=phrase_texts)
    generator = Generator(template, vocabulary)
    rules = language_rules(template.language)
    differences: set[int] = set()
    known = True
    for number, structure in enumerate(
        enumerate_structures(generator.template, generator.need, CAPACITY_STRUCTURES + 1)
    ):
        if number == CAPACITY_STRUCTURES:  # more structures than are read: not all are known
            known = False
            break
        model = length_model(generator.plan(structure), "characters", rules, generator.capitalize)
        if model is None:
            known = False
            continue
        differences |= model.differences()
    unequal = sorted(d for d in differences if d)
    if not unequal and known:
        return ImportNote(
            converted.file,
            "strict_MP",
            "equal_length: characters changes nothing here: every pair this vocabulary allows has "
            "good and bad of equal length",
            "info",
        )
    longer = sorted(-d for d in unequal)  # bad minus good
    shown = ", ".join(f"{d:+d}" for d in longer) if longer else "a number this check cannot add up"
    return ImportNote(
        converted.file,
        "strict_MP",
        "equal_length: characters changes this paradigm: without it, bad minus good could be "
        f"{shown} characters; such pairs are not made, as in ZhoBLiMP",
        "changed",
    )


def import_zhoblimp(
    templates: Sequence[SourceFile],
    *,
    vocabulary: SourceFile | None = None,
    phrases: SourceFile | None = None,
    vocabulary_name: str = "",
    phrase_file_name: str = "",
    for_project: bool = False,
) -> ZhoblimpImport:
    """Return the templates, vocabulary and phrases converted from ZhoBLiMP files, with the report.

    Templates name the vocabulary `../vocabularies/<vocabulary_name>.tsv` and the phrase file
    `../phrases/<phrase_file_name>.yaml` (defaults: the input files' stems); `for_project`
    templates name the vocabulary by its name alone and no phrase file, as the platform's
    project templates do (they see the project's phrases). Without a
    vocabulary the templates are parsed but cannot be validated, and the report says so.
    Never raises for bad input: every problem is a note.
    """
    notes: list[ImportNote] = []
    lexicon: Vocabulary | None = None
    vocab_stem = ""
    if vocabulary is not None:
        vocab_stem = vocabulary_name.strip() or uid_of(PurePosixPath(vocabulary.name).stem)
        try:
            converted_vocab = import_zhoblimp_vocabulary(
                vocabulary.data, file_name=vocabulary.name, name=vocab_stem
            )
            lexicon = converted_vocab.vocabulary
            notes += converted_vocab.notes
        except VocabularyError as exc:
            for error in exc.errors:
                where = ", ".join(
                    part
                    for part in (
                        f"line {error.line}" if error.line else "",
                        f"column '{error.column}'" if error.column else "",
                    )
                    if part
                )
                notes.append(
                    ImportNote(vocabulary.name, where, f"vocabulary not imported: {error.message}", "skipped")
                )
    converted_phrases: dict[str, list[PlainAlternative]] = {}
    renames: dict[str, str] = {}
    phrase_stem = ""
    if phrases is not None:
        phrase_stem = phrase_file_name.strip() or uid_of(PurePosixPath(phrases.name).stem)
        phrase_import = import_zhoblimp_phrases(phrases.data, file_name=phrases.name)
        notes += phrase_import.notes
        renamed, renames = _rename_phrases(phrase_import.phrases, phrases.name, notes)
        converted_phrases = _checked_phrases(renamed, phrases.name, notes)
        if lexicon is not None:
            converted_phrases = _phrases_fit_vocabulary(converted_phrases, lexicon, phrases.name, notes)
    phrase_texts = {name: alternatives_yaml(alts) for name, alts in converted_phrases.items()}

    read = _read_templates(templates, notes)
    uids = _uids(read, notes)
    imported: list[ImportedTemplate] = []
    for file, obj in read:
        converted, template_notes = convert_template(
            obj,
            file=file.name,
            uid=uids.get(file.name),
            phrases=converted_phrases,
            renames=renames,
            vocabulary=lexicon,
        )
        notes += template_notes
        if converted is None:
            continue
        data = dict(converted.data)
        refs: dict[str, Any] = {}
        if vocabulary is not None:
            refs["vocabulary"] = vocab_stem if for_project else f"../vocabularies/{vocab_stem}.tsv"
        if phrases is not None and not for_project:
            refs["phrase_files"] = [f"../phrases/{phrase_stem}.yaml"]
        position = list(data).index("phrases") if "phrases" in data else list(data).index("good")
        items = list(data.items())
        data = dict(items[:position] + list(refs.items()) + items[position:])
        text = template_yaml(data)
        used = _used_phrase_texts(data, phrase_texts, converted_phrases)
        if not _validated(converted, text, used, lexicon, notes):
            continue
        if lexicon is not None and obj.get("strict_MP") is True:
            notes.append(_equal_length_effect(converted, text, used, lexicon))
        imported.append(ImportedTemplate(converted.uid, file.name, converted.source_uid, text))
    if lexicon is None and imported:
        notes.append(
            ImportNote(
                "",
                "",
                "no usable vocabulary: the templates were parsed but not validated against one",
                "info",
            )
        )
    return ZhoblimpImport(lexicon, converted_phrases, imported, notes, vocab_stem, phrase_stem)


def write_import(result: ZhoblimpImport, out_dir: str | Path) -> list[Path]:
    """Write the converted templates, vocabulary and phrases under `out_dir`; return the paths.

    Raises:
        OSError: if a file cannot be written.
        VocabularyError: if the vocabulary would not read back unchanged (nothing of it is written).
    """
    out = Path(out_dir)
    written: list[Path] = []
    if result.vocabulary is not None:
        path = out / "vocabularies" / f"{result.vocabulary_name}.tsv"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_vocabulary(result.vocabulary, path)
        written += [path, path.with_name(f"{path.stem}.schema.yaml")]
    if result.phrase_file_name:
        path = out / "phrases" / f"{result.phrase_file_name}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        header = "Phrases imported from ZhoBLiMP; inner position i<k> is rule k of the alternative."
        path.write_text(phrases_yaml(result.phrases, header), encoding="utf-8")
        written.append(path)
    for template in result.templates:
        path = out / TEMPLATE_FOLDER / f"{template.uid}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.text, encoding="utf-8")
        written.append(path)
    return written
