"""The vocabulary import page for BLiMP and ZhoBLiMP files: convert, store, show the report."""

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from mpp_studio.accounts.models import Project
from mpp_studio.lexicon.forms import VocabularyImportForm, upload_limit_text
from mpp_studio.lexicon.services.converted_imports import (
    SOURCE_FORMATS,
    ImportRejected,
    vocabulary_import_converted,
)
from vocab.import_report import count_levels

SHOWN_PROBLEMS = 1000


def converted_import_response(
    request: HttpRequest, project: Project, role: str, form: VocabularyImportForm
) -> HttpResponse:
    """Import the valid form's file in its BLiMP/ZhoBLiMP format; show the report or the problems."""
    from mpp_studio.lexicon.views import page_context  # the page helpers live with the other views

    data = form.cleaned_data
    try:
        result = vocabulary_import_converted(
            project=project,
            table=data["file"],
            source_format=data["format"],
            name=data["name"],
            language=data["language"],
            description=data["description"],
        )
    except ImportRejected as rejected:
        context = page_context(
            project,
            role,
            form=form,
            rejected=rejected,
            problems=rejected.errors[:SHOWN_PROBLEMS],
            hidden_problems=max(0, len(rejected.errors) - SHOWN_PROBLEMS),
            max_upload=upload_limit_text(),
        )
        return render(request, "lexicon/vocabulary_import.html", context, status=400)
    except ValidationError as exc:
        for field, messages in exc.message_dict.items():
            for message in messages:
                form.add_error(field if field in form.fields else None, message)
        context = page_context(project, role, form=form, max_upload=upload_limit_text())
        return render(request, "lexicon/vocabulary_import.html", context, status=400)
    context = page_context(
        project,
        role,
        vocabulary=result.vocabulary,
        item_count=result.vocabulary.items.count(),
        source_label=SOURCE_FORMATS[data["format"]],
        file_name=data["file"].name,
        notes=result.notes,
        counts=count_levels(result.notes),
    )
    return render(request, "lexicon/vocabulary_import_report.html", context, status=201)
