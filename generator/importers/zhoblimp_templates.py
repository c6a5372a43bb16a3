"""Convert one ZhoBLiMP template JSON into our template (plain data for a YAML file).

ZhoBLiMP keeps good and bad rules cell by cell. A bad cell equal to its good cell keeps the
good word; a bad cell equal to another good cell copies the word generated there (resolved to
the FIRST equal good cell, as ZhoBLiMP's `str_good.index` does and its released data shows); an
empty bad cell leaves the slot empty; anything else is new material. Our templates say this
explicitly: the kept words in good order become `same`, the others `move` (the word leaves its
place) or `copy` (it also stays), a dropped good cell `delete`, new material a new position.

Good cell k becomes position `p<k>`, new bad material at cell k becomes `b<k>`, so every
message can be traced back to the JSON. A cell with `|` alternatives becomes a phrase local to
the template (`p<k>_choices`) whose alternatives each hold one position `w`; a phrase with extra
properties (`phrase:NP -1:<animate:1>`) becomes a local copy of the phrase with the properties
merged into the indexed rule of every alternative.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.importers.zhoblimp_phrases import (
    PlainAlternative,
    PlainPosition,
    alternative_is_lexical,
    feature_name,
    plain_values,
)
from generator.importers.zhoblimp_rules import (
    Choice,
    DirectChoice,
    LexicalChoice,
    ParsedPosition,
    PhraseChoice,
    RuleSyntaxError,
    parse_position,
)
from vocab.import_report import ImportNote, NoteLevel
from vocab.lexicon import Vocabulary

_UID = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
CHOICE_ID = "w"


class Unconvertible(ValueError):
    """A template our format cannot express; `where` names the cell."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where


@dataclass(slots=True)
class ConvertedTemplate:
    """Our template as plain data, the source file and uid, and the notes about it."""

    uid: str
    source_uid: str
    file: str
    data: dict[str, Any]
    notes: list[ImportNote] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Cell:
    """What one bad cell becomes: a reuse of good cell `good`, a deletion, new material or nothing."""

    kind: str  # "ref", "delete", "new", "empty"
    good: int = -1


def longest_increasing(values: Sequence[int]) -> list[int]:
    """Return the indexes (into `values`) of one longest strictly increasing subsequence."""
    best: list[list[int]] = []  # best[i]: a longest increasing run ending at values[i]
    for i, value in enumerate(values):
        runs = [best[j] for j in range(i) if values[j] < value]
        best.append([*max(runs, key=len, default=[]), i])
    return max(best, key=len, default=[])


def _one_fixed_text(parsed: ParsedPosition | None) -> bool:
    """Return whether a cell always produces the same text (literals only, one string).

    Equal cells of that kind produce the same word, so which one a copy is taken from does not
    matter (an ambiguous copy is reported only where the cells can produce different words).
    """
    if parsed is None or not all(isinstance(c, DirectChoice) for c in parsed.choices):
        return False
    texts = {lit for c in parsed.choices if isinstance(c, DirectChoice) for lit in c.literals or ("",)}
    return len(texts) == 1


def _absolute(index: int, length: int) -> int:
    """Return a cell index counted from the start: ZhoBLiMP indexes as Python does (-1: last)."""
    return index + length if index < 0 else index


def uid_of(raw: str) -> str:
    """Return a uid our format accepts: letters, digits and _ (others become _)."""
    uid = re.sub(r"[^A-Za-z0-9_]", "_", raw.strip())
    return uid if _UID.match(uid) else f"_{uid}"


class _Converter:
    """Converts one template object; `notes` collects what it reports on the way."""

    def __init__(
        self,
        obj: Mapping[str, Any],
        file: str,
        phrases: Mapping[str, list[PlainAlternative]] | None,
        renames: Mapping[str, str],
        vocabulary: Vocabulary | None = None,
    ) -> None:
        self.obj = obj
        self.vocabulary = vocabulary
        self.renames = renames
        self.file = file
        self.phrases = phrases
        self.notes: list[ImportNote] = []
        self.local_phrases: dict[str, list[PlainAlternative]] = {}
        self.good_cells: list[str] = []
        self.bad_cells: list[str] = []
        self.good: list[ParsedPosition | None] = []
        self.bad: list[ParsedPosition | None] = []
        self.cells: list[_Cell] = []

    def note(self, where: str, message: str, level: NoteLevel = "changed") -> None:
        self.notes.append(ImportNote(self.file, where, message, level))

    # -- reading ---------------------------------------------------------------------------

    def rules(self, key: str) -> list[str]:
        raw = self.obj.get(key)
        if not isinstance(raw, list) or not raw or not all(isinstance(c, str) for c in raw):
            raise Unconvertible(key, f"'{key}' must be a non-empty list of rule strings")
        return list(raw)

    def parse(self, side: str, cells: Sequence[str]) -> list[ParsedPosition | None]:
        out: list[ParsedPosition | None] = []
        for k, cell in enumerate(cells):
            if not cell.strip():
                out.append(None)
                continue
            try:
                parsed = parse_position(cell)
            except RuleSyntaxError as exc:
                raise Unconvertible(f"{side}[{k}]", f"'{cell}': {exc}") from None
            for warning in parsed.warnings:
                self.note(f"{side}[{k}]", warning)
            out.append(parsed)
        return out

    # -- the bad side as edits ---------------------------------------------------------------

    def plan_bad(self) -> None:
        good, bad = self.good_cells, self.bad_cells
        for k, cell in enumerate(bad):
            if cell == good[k]:
                self.cells.append(_Cell("ref", k) if cell.strip() else _Cell("empty"))
            elif not cell.strip():
                self.cells.append(_Cell("delete", k) if good[k].strip() else _Cell("empty"))
            elif cell in good:
                g = good.index(cell)
                if good.count(cell) > 1 and not _one_fixed_text(self.good[g]):
                    equal = [str(i) for i, c in enumerate(good) if c == cell]
                    self.note(
                        f"bad_rule[{k}]",
                        f"'{cell}' equals good_rule[{'], good_rule['.join(equal)}]; the copy is ambiguous "
                        f"and is taken from good_rule[{g}], the first, as ZhoBLiMP does",
                    )
                self.cells.append(_Cell("ref", g))
            else:
                self.cells.append(_Cell("new"))
        referenced = {c.good for c in self.cells if c.kind == "ref"}
        self.cells = [
            _Cell("empty") if c.kind == "delete" and c.good in referenced else c for c in self.cells
        ]
        self.follow_replaced_words()

    def follow_replaced_words(self) -> None:
        """Make a kept cell that repeats (is matched on the expression of) a replaced cell new
        material repeating the bad word there: ZhoBLiMP's released data repeats the new word
        ("…启程了一天，张夫人也启程了"), not the good one. Other agreements with a replaced cell
        keep the good word, as the release does."""
        for k, cell in enumerate(self.cells):
            parsed = self.good[k]
            if cell.kind != "ref" or cell.good != k or parsed is None or len(parsed.choices) != 1:
                continue
            choice = parsed.choices[0]
            if not isinstance(choice, LexicalChoice):
                continue
            for agreement in choice.agreements:
                index = _absolute(agreement.index, len(self.cells))
                if (
                    agreement.agree
                    and "expression" in agreement.properties
                    and 0 <= index < len(self.cells)
                    and self.cells[index].kind == "new"
                ):
                    self.cells[k] = _Cell("new")
                    self.note(
                        f"bad_rule[{k}]",
                        f"repeats the expression of bad_rule[{index}], which replaces the good word "
                        f"there: it becomes b{k}, the bad word of bad_rule[{index}] again (as "
                        "ZhoBLiMP's released data has it), not the good word",
                        "info",
                    )
                    break

    def reference_modes(self) -> dict[int, str]:
        """Return bad cell -> same / move / copy for every reuse of a good word."""
        refs = [(k, c.good) for k, c in enumerate(self.cells) if c.kind == "ref"]
        anchors = {refs[i][0] for i in longest_increasing([g for _, g in refs])}
        anchored = {g for k, g in refs if k in anchors}
        modes: dict[int, str] = {}
        moved: set[int] = set()
        for k, g in refs:
            if k in anchors:
                modes[k] = "same"
            elif g in anchored:
                modes[k] = "copy"
            elif g in moved:
                raise Unconvertible(
                    f"bad_rule[{k}]",
                    f"the word of good_rule[{g}] leaves its place and appears at several new places; "
                    "our templates can move a word once and copy only a word that stays",
                )
            else:
                modes[k] = "move"
                moved.add(g)
        return modes

    # -- choices ZhoBLiMP can never fill -------------------------------------------------------

    def _values(self, choice: LexicalChoice, prop: str) -> set[str]:
        """Return the values of `prop` among the vocabulary items a lexical choice selects."""
        assert self.vocabulary is not None
        wanted = {feature_name(k): set(v) for k, v in choice.properties.items()}
        out: set[str] = set()
        for item in self.vocabulary.items:
            if all(wanted_values & set(item.values(f)) for f, wanted_values in wanted.items()):
                out.update(item.values(feature_name(prop)))
        return out

    def report_unfillable_choices(self) -> None:
        """Report each choice whose agreement ZhoBLiMP can never satisfy with this vocabulary.

        ZhoBLiMP draws an agreement's value from the rules, not the words: a Mismatched choice
        gets another value of the target's rule, a Matched one a value both rules have. When the
        choice's own words have none of the target's values, ZhoBLiMP finds no word, drops the
        try, and the choice never appears in its data; under `sampling: zhoblimp` ours does
        the same, so the report says which choice is dead.
        """
        if self.vocabulary is None:
            return
        for side, parsed_cells in (("good_rule", self.good), ("bad_rule", self.bad)):
            for k, parsed in enumerate(parsed_cells):
                if parsed is None or (side == "bad_rule" and self.cells[k].kind != "new"):
                    continue
                for number, choice in enumerate(parsed.choices, start=1):
                    if not isinstance(choice, LexicalChoice):
                        continue
                    for agreement in choice.agreements:
                        index = _absolute(agreement.index, len(parsed_cells))
                        target_cells = self.good if side == "good_rule" else self.bad
                        if not 0 <= index < len(target_cells):
                            continue
                        target = target_cells[index]
                        if side == "bad_rule" and self.cells[index].kind == "ref":
                            target = self.good[self.cells[index].good]
                        if target is None or len(target.choices) != 1:
                            continue
                        (target_choice,) = target.choices
                        if not isinstance(target_choice, LexicalChoice):
                            continue
                        for prop in agreement.properties:
                            if self._values(choice, prop) & self._values(target_choice, prop):
                                continue
                            what = f"choice {number}" if len(parsed.choices) > 1 else "the rule"
                            self.note(
                                f"{side}[{k}]",
                                f"{what} can never be filled: it "
                                f"{'agrees' if agreement.agree else 'differs'} on {prop} with "
                                f"{side}[{index}], and ZhoBLiMP draws the value from the words "
                                f"there, none of which its own words have; ZhoBLiMP's data never "
                                f"uses it, nor do ours (sampling: zhoblimp); under uniform "
                                f"sampling it would",
                            )
                            break

    def _fixed_by_good(self, index: int) -> set[str]:
        """Return the properties a good-grammar agreement fixes to one value at good cell `index`."""
        fixed: set[str] = set()
        for k, parsed in enumerate(self.good):
            for choice in parsed.choices if parsed is not None else ():
                if not isinstance(choice, LexicalChoice):
                    continue
                for agreement in choice.agreements:
                    target = _absolute(agreement.index, len(self.good))
                    if index in (k, target):
                        fixed.update(agreement.properties)
        return fixed

    def report_rule_agreements(self) -> None:
        """Name each new bad word that agrees with a good cell's rule rather than its word.

        Under ZhoBLiMP's semantics (`sampling: zhoblimp`) the value is drawn from the good
        rule, so where that rule allows several values the bad word can disagree with the good
        word (a 她 for a male head noun); `sampling: uniform` agrees with the word instead.
        """
        if self.vocabulary is None:
            return
        for k, parsed in enumerate(self.bad):
            if parsed is None or self.cells[k].kind != "new":
                continue
            for choice in parsed.choices:
                if not isinstance(choice, LexicalChoice):
                    continue
                for agreement in choice.agreements:
                    index = _absolute(agreement.index, len(self.cells))
                    if not 0 <= index < len(self.cells) or self.cells[index].kind != "ref":
                        continue
                    good = self.cells[index].good
                    target = self.good[good]
                    if target is None or len(target.choices) != 1:
                        continue
                    (target_choice,) = target.choices
                    if not isinstance(target_choice, LexicalChoice):
                        continue
                    for prop in agreement.properties:
                        if prop == "expression" or prop in self._fixed_by_good(good):
                            continue  # the good grammar's own agreement fixes one value there
                        values = sorted(self._values(target_choice, prop))
                        if len(values) < 2:
                            continue
                        shown = ", ".join(values[:6]) + (", …" if len(values) > 6 else "")
                        self.note(
                            f"bad_rule[{k}]",
                            f"{'agrees' if agreement.agree else 'differs'} on {prop} with the rule of "
                            f"good_rule[{good}] ({len(values)} values: {shown}), not with the word "
                            "drawn there, as ZhoBLiMP does (sampling: zhoblimp): the bad word can "
                            f"{'disagree' if agreement.agree else 'agree'} with the good word; "
                            "sampling: uniform compares the words instead",
                            "info",
                        )

    # -- agreement targets -----------------------------------------------------------------

    def target(self, side: str, k: int, index: int, key: str) -> str:
        where = f"{side}[{k}]"
        cells = self.good_cells if side == "good_rule" else self.bad_cells
        if index < 0:
            self.note(
                where, f"{key} {index} counts from the end (Python indexing): read as {index + len(cells)}"
            )
            index += len(cells)
        if not 0 <= index < len(cells):
            raise Unconvertible(where, f"{key} {index} is outside the template ({len(cells)} cells)")
        if index == k:
            raise Unconvertible(where, f"{key} {index} points to the cell itself")
        if side == "good_rule":
            name, parsed = f"p{index}", self.good[index]
        else:
            cell = self.cells[index]
            if cell.kind == "ref":
                name, parsed = f"p{cell.good}", self.good[cell.good]
            elif cell.kind == "new":
                name, parsed = f"bad.b{index}", self.bad[index]
            else:
                raise Unconvertible(
                    where, f"{key} {index} points to a cell that is empty in the bad sentence"
                )
        if parsed is None:
            raise Unconvertible(where, f"{key} {index} points to an empty cell")
        if not all(isinstance(c, LexicalChoice) for c in parsed.choices):
            raise Unconvertible(
                where,
                f"{key} {index} points to a cell that is not a word rule (a phrase or literal); "
                "our templates agree only with words (ZhoBLiMP compares the rule, not the word there)",
            )
        return name if len(parsed.choices) == 1 else f"{name}.{CHOICE_ID}"

    # -- rules ---------------------------------------------------------------------------------

    def choice_rule(self, choice: Choice, side: str, k: int) -> PlainPosition:
        if isinstance(choice, DirectChoice):
            return {"direct": plain_values(choice.literals) if choice.literals else ""}
        if isinstance(choice, PhraseChoice):
            return {"phrase": self.phrase_name(choice, f"{side}[{k}]")}
        rule: PlainPosition = {}
        if choice.properties:
            rule["lexical"] = {feature_name(key): plain_values(v) for key, v in choice.properties.items()}
        for agreement in choice.agreements:
            word = "matched" if agreement.agree else "mismatched"
            key = "matchedPosition" if agreement.agree else "mismatchedPosition"
            name = self.target(side, k, agreement.index, key)
            rule.setdefault(word, {})[name] = [feature_name(p) for p in agreement.properties]
        return rule

    def phrase_name(self, choice: PhraseChoice, where: str) -> str:
        base = self.renames.get(choice.name, choice.name)
        if not choice.extras:
            return base
        if self.phrases is None or base not in self.phrases:
            raise Unconvertible(
                where, f"phrase '{choice.name}' has extra properties but the phrase file does not define it"
            )
        alternatives: list[PlainAlternative] = []
        for a, alternative in enumerate(self.phrases[base]):
            copied = [dict(p) for p in alternative]
            for index, properties in choice.extras:
                i = index + len(copied) if index < 0 else index
                if not 0 <= i < len(copied):
                    raise Unconvertible(
                        where,
                        f"extra properties at {index}: alternative {a} of '{choice.name}' has "
                        f"{len(copied)} rules",
                    )
                if not alternative_is_lexical(copied[i]):
                    raise Unconvertible(
                        where,
                        f"extra properties at {index}: rule {i} of alternative {a} of "
                        f"'{choice.name}' is not a word rule",
                    )
                lexical = dict(copied[i].get("lexical", {}))
                lexical.update({feature_name(key): plain_values(v) for key, v in properties.items()})
                copied[i]["lexical"] = lexical
            alternatives.append(copied)
        derived = sum(1 for n in self.local_phrases if not n.endswith("_choices"))
        name = f"{base}_with_{derived + 1}"
        self.local_phrases[name] = alternatives
        shown = " ".join(
            f"{i}:<{' '.join(k + ':' + '/'.join(v) for k, v in p.items())}>" for i, p in choice.extras
        )
        self.note(where, f"phrase:{choice.name} {shown} became the local phrase '{name}'", "info")
        return name

    def position(self, parsed: ParsedPosition, side: str, k: int, pid: str) -> PlainPosition:
        if len(parsed.choices) == 1:
            return {"id": pid, **self.choice_rule(parsed.choices[0], side, k)}
        name = f"{pid}_choices"
        self.local_phrases[name] = [
            [{"id": CHOICE_ID, **self.choice_rule(c, side, k)}] for c in parsed.choices
        ]
        return {"id": pid, "phrase": name}

    # -- the whole template ----------------------------------------------------------------

    def convert(self, uid: str) -> dict[str, Any]:
        self.good_cells = self.rules("good_rule")
        self.bad_cells = self.rules("bad_rule")
        if len(self.good_cells) != len(self.bad_cells):
            raise Unconvertible(
                "bad_rule",
                f"good_rule has {len(self.good_cells)} cells and bad_rule {len(self.bad_cells)}; "
                "ZhoBLiMP pairs them cell by cell, so they must be equally long",
            )
        if self.good_cells == self.bad_cells:
            raise Unconvertible("bad_rule", "good_rule and bad_rule are the same")
        self.good = self.parse("good_rule", self.good_cells)
        self.bad = self.parse("bad_rule", self.bad_cells)
        self.plan_bad()
        self.report_unfillable_choices()
        self.report_rule_agreements()
        modes = self.reference_modes()
        good_positions = [
            self.position(parsed, "good_rule", k, f"p{k}")
            for k, parsed in enumerate(self.good)
            if parsed is not None
        ]
        bad_positions: list[PlainPosition] = []
        for k, cell in enumerate(self.cells):
            if cell.kind == "ref":
                bad_positions.append({modes[k]: f"p{cell.good}"})
            elif cell.kind == "delete":
                bad_positions.append({"delete": f"p{k}"})
            elif cell.kind == "new":
                parsed = self.bad[k]
                assert parsed is not None
                bad_positions.append(self.position(parsed, "bad_rule", k, f"b{k}"))
        return self.metadata(uid, good_positions, bad_positions)

    def metadata(self, uid: str, good: list[PlainPosition], bad: list[PlainPosition]) -> dict[str, Any]:
        obj = self.obj
        source_uid = str(obj.get("uid", ""))
        phenomenon = obj.get("phenomenon")
        if not isinstance(phenomenon, str) or not phenomenon.strip():
            self.note("phenomenon", "the phenomenon is empty; set to 'unlabelled' (give it one)")
            phenomenon = "unlabelled"
        sep = obj.get("sep", "")
        language = "zh"
        if sep != "":
            self.note("sep", f"sep {sep!r}: words are joined with spaces (language 'und'), not as Chinese")
            language = "und"
        # Draw words, agreement values and repeated words as ZhoBLiMP's generator does, so the
        # rebuilt paradigm has the release's distributions (docs/importing.md).
        options: dict[str, str] = {"sampling": "zhoblimp"}
        strict = obj.get("strict_MP")
        if strict is True:
            options["equal_length"] = "characters"
            self.note(
                "strict_MP",
                "strict_MP is true (good and bad of equal character length): set the option "
                "equal_length: characters",
                "info",
            )
        elif strict not in (None, False):
            self.note("strict_MP", f"strict_MP {strict!r} is not true or false; ignored")
        user = obj.get("user")
        by = f" by {user}" if isinstance(user, str) and user else ""
        data: dict[str, Any] = {
            "uid": uid,
            "version": "1",
            "phenomenon": phenomenon.strip(),
            "language": language,
            "description": f"Imported from the ZhoBLiMP template {self.file}{by}. Position p<k> is "
            "good_rule[k] and b<k> is bad_rule[k].",
            "source": f"ZhoBLiMP {source_uid}",
        }
        data["options"] = options
        if self.local_phrases:
            data["phrases"] = self.local_phrases
        data["good"] = good
        data["bad"] = bad
        return data


def convert_template(
    obj: Any,
    *,
    file: str,
    uid: str | None = None,
    phrases: Mapping[str, list[PlainAlternative]] | None = None,
    renames: Mapping[str, str] | None = None,
    vocabulary: Vocabulary | None = None,
) -> tuple[ConvertedTemplate | None, list[ImportNote]]:
    """Return our template for a parsed ZhoBLiMP template JSON (None if it cannot be converted)
    and the notes: what was changed, or why nothing was converted, each naming the cell.

    `uid` overrides the file's uid (when several files share one); `phrases` are the converted
    phrase file (needed for phrases with extra properties), keyed by our names; `renames` maps
    ZhoBLiMP phrase names to ours where they differ; with the `vocabulary`, a choice ZhoBLiMP
    can never fill is reported.
    """
    if not isinstance(obj, dict):
        return None, [ImportNote(file, "", "template skipped: the file must hold one JSON object", "skipped")]
    source_uid = obj.get("uid")
    if not isinstance(source_uid, str) or not source_uid.strip():
        return None, [ImportNote(file, "uid", "template skipped: it has no uid", "skipped")]
    converter = _Converter(obj, file, phrases, renames or {}, vocabulary)
    final_uid = uid or uid_of(source_uid)
    if final_uid != source_uid and uid is None:
        converter.note("uid", f"uid '{source_uid}' became '{final_uid}' (letters, digits and _ only)")
    try:
        data = converter.convert(final_uid)
    except Unconvertible as exc:
        converter.notes.append(ImportNote(file, exc.where, f"template skipped: {exc}", "skipped"))
        return None, converter.notes
    return ConvertedTemplate(final_uid, source_uid, file, data, converter.notes), converter.notes
