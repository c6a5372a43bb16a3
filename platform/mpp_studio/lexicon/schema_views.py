"""Pages of a vocabulary's feature schema: the feature list, add/edit/delete a feature, edit as YAML."""

from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from mpp_studio.accounts.roles import Role
from mpp_studio.lexicon.engine import schema_from_json
from mpp_studio.lexicon.forms import FeatureForm, SchemaYamlForm
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.lexicon.selectors import feature_usage, vocabulary_get
from mpp_studio.lexicon.services import (
    SchemaChangeRefused,
    SchemaProblem,
    vocabulary_feature_add,
    vocabulary_feature_delete,
    vocabulary_feature_update,
    vocabulary_schema_yaml_replace,
)
from mpp_studio.lexicon.views import page_context, project_for
from vocab.errors import VocabularyError
from vocab.schema_file import schema_to_yaml_text

# A refused schema change lists this many offending items and says how many there are in all.
SHOWN_SCHEMA_PROBLEMS = 200


def _usage(vocabulary: Vocabulary) -> Counter[str]:
    """Return feature -> how many items hold a value for it."""
    counts: Counter[str] = Counter()
    for features in vocabulary.items.values_list("features", flat=True):
        counts.update(name for name, values in features.items() if values)
    return counts


def _refusal_context(refused: SchemaChangeRefused | None) -> dict[str, object]:
    problems: list[SchemaProblem] = refused.problems if refused is not None else []
    return {
        "refused": refused,
        "problems": problems[:SHOWN_SCHEMA_PROBLEMS],
        "problem_count": len(problems),
        "problem_items": len({p.item_pk for p in problems}),
    }


@login_required
@require_GET
def schema(request: HttpRequest, project_id: int, vocabulary_id: int) -> HttpResponse:
    """The features a vocabulary declares: type, allowed values, multi, description, items using it."""
    project, role = project_for(request, project_id)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    usage = _usage(vocabulary)
    declared = schema_from_json(vocabulary.schema)
    features = [(spec, usage[name]) for name, spec in declared.features.items()]
    context = page_context(
        project,
        role,
        vocabulary=vocabulary,
        features=features,
        separator=declared.multi_separator,
    )
    return render(request, "lexicon/schema.html", context)


def _feature_page(
    request: HttpRequest, project_id: int, vocabulary_id: int, feature: str | None
) -> HttpResponse:
    project, role = project_for(request, project_id, Role.EDITOR)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    declared = schema_from_json(vocabulary.schema)
    if feature is not None and feature not in declared.features:
        raise Http404("This vocabulary has no such feature.")
    initial = FeatureForm.initial_for(declared.features[feature]) if feature is not None else None
    form = FeatureForm(request.POST or None, initial=initial)
    refused: SchemaChangeRefused | None = None
    if request.method == "POST" and form.is_valid():
        try:
            if feature is None:
                vocabulary_feature_add(vocabulary=vocabulary, **form.feature_values())
            else:
                vocabulary_feature_update(
                    vocabulary=vocabulary,
                    feature=feature,
                    **form.feature_values(),
                )
        except SchemaChangeRefused as exc:
            refused = exc
        except ValidationError as exc:
            form.add_service_errors(exc)
        else:
            name = form.cleaned_data["name"].strip()
            messages.success(request, f"Feature “{name}” {'added' if feature is None else 'saved'}.")
            return redirect("lexicon:schema", project.pk, vocabulary.pk)
    context = page_context(
        project, role, vocabulary=vocabulary, feature=feature, form=form, **_refusal_context(refused)
    )
    status = 400 if form.errors or refused else 200
    return render(request, "lexicon/feature_form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def feature_new(request: HttpRequest, project_id: int, vocabulary_id: int) -> HttpResponse:
    """Declare a new feature (editors)."""
    return _feature_page(request, project_id, vocabulary_id, None)


@login_required
@require_http_methods(["GET", "POST"])
def feature_edit(request: HttpRequest, project_id: int, vocabulary_id: int, feature: str) -> HttpResponse:
    """Change a feature; refused, listing the items, while items hold values it would not allow."""
    return _feature_page(request, project_id, vocabulary_id, feature)


@login_required
@require_http_methods(["GET", "POST"])
def feature_delete(request: HttpRequest, project_id: int, vocabulary_id: int, feature: str) -> HttpResponse:
    """Delete a feature and its values from every item, after confirmation (editors)."""
    project, role = project_for(request, project_id, Role.EDITOR)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    declared = schema_from_json(vocabulary.schema)
    if feature not in declared.features:
        raise Http404("This vocabulary has no such feature.")
    if request.method == "POST":
        held = vocabulary_feature_delete(vocabulary=vocabulary, feature=feature)
        messages.success(
            request,
            f"Feature “{feature}” deleted; its values were removed from "
            f"{held} item{'s' if held != 1 else ''}.",
        )
        return redirect("lexicon:schema", project.pk, vocabulary.pk)
    holders = feature_usage(vocabulary=vocabulary, feature=feature)
    examples = [(item, declared.multi_separator.join(item.features[feature])) for item in holders[:10]]
    context = page_context(
        project, role, vocabulary=vocabulary, feature=feature, holder_count=len(holders), examples=examples
    )
    return render(request, "lexicon/feature_delete.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def schema_yaml(request: HttpRequest, project_id: int, vocabulary_id: int) -> HttpResponse:
    """Edit the whole schema as `.schema.yaml` text; problems are shown by line (editors)."""
    project, role = project_for(request, project_id, Role.EDITOR)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    current = schema_to_yaml_text(schema_from_json(vocabulary.schema), vocabulary.language)
    form = SchemaYamlForm(request.POST or None, initial={"text": current})
    yaml_errors: tuple[object, ...] = ()
    refused: SchemaChangeRefused | None = None
    if request.method == "POST" and form.is_valid():
        try:
            vocabulary_schema_yaml_replace(vocabulary=vocabulary, text=form.cleaned_data["text"])
        except VocabularyError as exc:
            yaml_errors = exc.errors
        except SchemaChangeRefused as exc:
            refused = exc
        except ValidationError as exc:
            for messages_ in exc.message_dict.values():
                for message in messages_:
                    form.add_error("text", message)
        else:
            messages.success(request, "Schema saved.")
            return redirect("lexicon:schema", project.pk, vocabulary.pk)
    text = str(form["text"].value() or "")
    context = page_context(
        project,
        role,
        vocabulary=vocabulary,
        form=form,
        yaml_errors=yaml_errors,
        text_rows=min(40, max(12, text.count("\n") + 3)),
        **_refusal_context(refused),
    )
    status = 400 if form.errors or yaml_errors or refused else 200
    return render(request, "lexicon/schema_yaml.html", context, status=status)
