"""The import page: upload released-dataset files (BLiMP, ZhoBLiMP, Zorro) as a read-only dataset."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.datasets.forms_import import DatasetImportForm
from mpp_studio.datasets.report import import_outcome_text, report_rows
from mpp_studio.datasets.services import DatasetImportRejected, UploadedFile, dataset_import
from mpp_studio.datasets.views import page_context


@login_required
@require_http_methods(["GET", "POST"])
def dataset_import_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """GET: the upload form; POST: import the files, then the new dataset's page (or every reason
    nothing could be imported, on this page)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    form = DatasetImportForm(request.POST or None, request.FILES or None)
    rejected: DatasetImportRejected | None = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            outcome = dataset_import(
                project=project,
                name=data["name"],
                description=data["description"],
                files=[UploadedFile(f.name, f) for f in data["files"]],
                source_format=data["source_format"],
                zorro_order=data["zorro_order"],
                created_by=request.user,
            )
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        except DatasetImportRejected as exc:
            rejected = exc
        else:
            messages.success(request, import_outcome_text(outcome.dataset, outcome.result))
            return redirect("datasets:dataset_detail", project_id=project.pk, dataset_id=outcome.dataset.pk)
    context = page_context(
        request,
        project,
        form=form,
        rejected=rejected,
        rejected_rows=report_rows([i.to_dict() for i in rejected.result.issues]) if rejected else [],
        rejected_files=rejected.result.files if rejected else [],
    )
    status = 400 if rejected is not None or (request.method == "POST" and form.errors) else 200
    return render(request, "datasets/import.html", context, status=status)
