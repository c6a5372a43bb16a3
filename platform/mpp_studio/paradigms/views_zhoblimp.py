"""The page that imports a ZhoBLiMP project (templates, vocabulary, phrases) with its report."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.accounts.views import project_context
from mpp_studio.paradigms.forms_zhoblimp import ZhoblimpImportForm
from mpp_studio.paradigms.services.template_upload import Upload, upload_size_limit
from mpp_studio.paradigms.services.zhoblimp_import import ZhoblimpUploadRejected, zhoblimp_project_import
from vocab.import_report import count_levels


@login_required
@require_http_methods(["GET", "POST"])
def zhoblimp_import(request: HttpRequest, project_id: int) -> HttpResponse:
    """Upload a ZhoBLiMP project; store it as vocabulary, phrases and templates and show the report."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    form = (
        ZhoblimpImportForm(request.POST, request.FILES) if request.method == "POST" else ZhoblimpImportForm()
    )
    outcome = rejected = None
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            uploads = [
                # A file over its limit is reported, never read into memory.
                Upload(f.name, f.size, f.read() if f.size <= upload_size_limit(f.name) else None)
                for f in form.cleaned_data["files"]
            ]
            try:
                outcome = zhoblimp_project_import(
                    project=project,
                    uploads=uploads,
                    user=request.user,
                    vocabulary_name=form.cleaned_data["vocabulary_name"],
                )
                status = 201
            except ZhoblimpUploadRejected as exc:
                rejected = exc
            except ValidationError as exc:
                for field, messages in exc.message_dict.items():
                    for message in messages:
                        form.add_error(field if field in form.fields else None, message)
    notes = outcome.notes if outcome else rejected.notes if rejected else []
    context = project_context(
        request,
        project,
        active_tab="templates",
        form=form,
        outcome=outcome,
        rejected=rejected,
        notes=notes,
        counts=count_levels(notes),
    )
    return render(request, "paradigms/zhoblimp_import.html", context, status=status)
