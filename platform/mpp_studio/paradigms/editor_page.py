"""The template editor's page: the context its template renders with (each problem beside its
row or field, the slots htmx swaps, the choices of every select), built from the editor's state
and preview; views/editor.py only parses the request and renders it."""

import secrets
from dataclasses import dataclass, field

from django.http import HttpRequest
from django.urls import reverse

from generator.document import document_to_text
from mpp_studio.accounts.models import Project
from mpp_studio.accounts.page_context import project_context
from mpp_studio.paradigms.forms.editor import (
    BAD_TYPES,
    GOOD_TYPES,
    GRAMMARS,
    LEXICAL_TYPES,
    RULE_EXAMPLES,
    RULE_TYPES,
    TYPE_HELP,
    TYPE_LABELS,
    EditorState,
    FieldError,
    PositionRow,
    SatisfiesRow,
    document_from_state,
)
from mpp_studio.paradigms.models import Template
from mpp_studio.paradigms.selectors_editor import (
    EditorChoices,
    editor_choices,
)
from mpp_studio.paradigms.services.editor import (
    EditorPreview,
    ShownProblem,
)

# The fields of the table that show their own problems (and "extra", the other fields' box).
FIELD_SLOTS = (
    "uid",
    "version",
    "phenomenon",
    "language",
    "description",
    "source",
    "vocabulary",
    "example",
    "options",
    "extra",
)


UNIQUE_CHOICES = [
    ("", "good sentences (default)"),
    ("good", "good sentences"),
    ("bad", "bad sentences"),
    ("pair", "pairs (good and bad together)"),
]


DISTINCT_CHOICES = [("", "yes (default)"), ("true", "yes"), ("false", "no")]


CAPITALIZE_CHOICES = [("", "the language's default (en: yes, zh: no)"), ("true", "yes"), ("false", "no")]


# How words are drawn (docs/template-format.md, "Sampling"); imported ZhoBLiMP templates say zhoblimp.
SAMPLING_CHOICES = [
    ("", "uniform (default)"),
    ("uniform", "uniform"),
    ("zhoblimp", "as ZhoBLiMP's generator"),
]
# `equal_length: false` as written shows as "false (as written)" and stays as it is.
EQUAL_LENGTH_CHOICES = [
    ("", "off (default)"),
    ("characters", "the same number of characters"),
    ("words", "the same number of words"),
]


@dataclass
class RowView:
    """A row with what its fields need: names, number, the types and targets it may choose."""

    row: PositionRow
    grammar: str
    index: int
    prefix: str
    types: list[tuple[str, str]]
    help: str
    targets: list[tuple[str, str]]
    forms: list[tuple[str, str]]
    inner: list[str]
    # Each `satisfies` pair with the positions it may name (its own first if it names none).
    satisfies: list[tuple[SatisfiesRow, list[tuple[str, str]]]] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def slot(self) -> str:
        return f"{self.grammar}-{self.index}"


def _options(choices: list[tuple[str, str]], current: str, unknown: str) -> list[tuple[str, str]]:
    """Return `choices` with the current value first if it is not among them."""
    if current and current not in {value for value, _ in choices}:
        return [(current, f"{current} ({unknown})"), *choices]
    return choices


def _row_views(state: EditorState, choices: EditorChoices) -> dict[str, list[RowView]]:
    views: dict[str, list[RowView]] = {}
    for grammar in GRAMMARS:
        types = [(t, TYPE_LABELS[t]) for t in (GOOD_TYPES if grammar == "good" else BAD_TYPES)]
        out = []
        for index, row in enumerate(state.rows(grammar)):
            row.key = row.key or secrets.token_hex(4)
            if row.type in LEXICAL_TYPES:  # matched, mismatched and satisfies name these
                targets = choices.good_targets + choices.good_inner_targets
                if grammar == "bad":
                    targets = targets + choices.bad_targets
            else:
                targets = list(choices.good_targets)
            forms = _options(choices.forms, row.form, "not an inflection tag")
            inner = list(choices.inner_of(row.phrase))
            inner += [w.inner for w in row.where if w.inner and w.inner not in inner]
            out.append(
                RowView(
                    row=row,
                    grammar=grammar,
                    index=index,
                    prefix=f"{grammar}-{index}-",
                    types=types,
                    help=TYPE_HELP.get(row.type, ""),
                    targets=_options(targets, row.target, "not a position of this template"),
                    forms=forms,
                    inner=inner,
                    satisfies=[
                        (pair, _options(targets, pair.target, "not a position of this template"))
                        for pair in row.satisfies
                    ],
                )
            )
        views[grammar] = out
    return views


def _form_problems(errors: list[FieldError]) -> list[ShownProblem]:
    return [
        ShownProblem(
            code="",
            message=error.message,
            where="",
            line=error.line,
            grammar=error.grammar,
            row=error.row,
            field="" if error.row is not None else error.field,
        )
        for error in errors
    ]


def editor_page_context(
    request: HttpRequest,
    project: Project,
    template: Template | None,
    state: EditorState,
    errors: list[FieldError],
    preview: EditorPreview | None,
    *,
    oob: bool = False,
    original_text: str = "",
) -> dict[str, object]:
    """Return the editor page's context: the project tab's, the rows and fields with their
    problems, the htmx slots, the choices and guides, and where the page posts."""
    choices = editor_choices(project=project, state=state)
    problems = _form_problems(errors) + (preview.problems if preview is not None else [])
    for grammar in GRAMMARS:
        for index, row in enumerate(state.rows(grammar)):
            row.problems = [p for p in problems if p.grammar == grammar and p.row == index + 1]
    fields: dict[str, list[ShownProblem]] = {}
    for problem in problems:
        if problem.row is None:
            key = problem.field or (problem.grammar if problem.grammar else "")
            if key:
                fields.setdefault(key, []).append(problem)
    row_views = _row_views(state, choices)
    if state.mode == "yaml":
        # Every problem with a line is about the text: each is shown beside it, by its line.
        with_lines = [p for p in problems if p.line is not None and not p.field]
        beside_text = fields.get("yaml_text", []) + with_lines
        fields["yaml_text"] = beside_text
        slots = [("field-yaml_text", beside_text)]
    else:
        slots = [(f"field-{name}", fields.get(name, [])) for name in FIELD_SLOTS]
        for grammar in GRAMMARS:
            slots.append((f"grammar-{grammar}", fields.get(grammar, [])))
            slots += [(view.slot, view.row.problems) for view in row_views[grammar]]
    rewritten = False
    if original_text and state.mode == "table":
        document, _ = document_from_state(state)
        rewritten = document_to_text(document) != original_text
    context = project_context(request, project, active_tab="templates")
    context.update(
        template=template,
        state=state,
        choices=choices,
        rows=row_views,
        slots=slots,
        lang=state.meta.get("language", "") or (template.language if template is not None else ""),
        preview=preview,
        problems=problems,
        field_problems=fields,
        oob=oob,
        rewritten=rewritten,
        table_url=reverse("project_paradigms:template_editor_table", args=[project.pk]),
        preview_url=reverse("project_paradigms:template_editor_preview", args=[project.pk]),
        draft_url=reverse("project_paradigms:template_editor_draft", args=[project.pk]),
        draft_discard_url=reverse("project_paradigms:template_editor_draft_discard", args=[project.pk]),
        page_url=(
            reverse("project_paradigms:template_edit", args=[project.pk, template.pk])
            if template is not None
            else reverse("project_paradigms:template_new", args=[project.pk])
        ),
        next_number=_next_number(template),
        unique_choices=_options(UNIQUE_CHOICES, state.options.get("unique", ""), "as written"),
        yes_no_choices={
            "distinct_words": _options(
                DISTINCT_CHOICES, state.options.get("distinct_words", ""), "as written"
            ),
            "capitalize": _options(CAPITALIZE_CHOICES, state.options.get("capitalize", ""), "as written"),
        },
        equal_length_choices=_options(
            EQUAL_LENGTH_CHOICES, state.options.get("equal_length", ""), "as written"
        ),
        sampling_choices=_options(SAMPLING_CHOICES, state.options.get("sampling", ""), "as written"),
        value_lists={f.name: f.list_id for f in choices.features if f.values},
        rule_guide=[
            (label, help_text, RULE_EXAMPLES[value], value in BAD_TYPES and value not in GOOD_TYPES)
            for value, label, help_text in RULE_TYPES
        ],
        yaml_rows=min(max(state.yaml_text.count("\n") + 3, 14), 40),
    )
    return context


def _next_number(template: Template | None) -> int:
    latest = template.latest_version() if template is not None else None
    return latest.number + 1 if latest is not None else 1
