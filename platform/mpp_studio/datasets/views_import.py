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
from mpp_studio.datasets.services import UploadedFile, dataset_import_start
from mpp_studio.datasets.views import page_context


@login_required
@require_http_methods(["GET", "POST"])
def dataset_import_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """GET: the upload form; POST: keep the files and start their import as a job, then the new
    dataset's page, which follows the job and shows the import report at the end."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    form = DatasetImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            dataset = dataset_import_start(
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
        else:
            messages.success(
                request,
                f"“{dataset.name}” is being imported: the files are read in the background. This page "
                "shows the progress, then what was imported and every line that could not be.",
            )
            return redirect("datasets:dataset_detail", project_id=project.pk, dataset_id=dataset.pk)
    context = page_context(request, project, form=form)
    status = 400 if request.method == "POST" and form.errors else 200
    return render(request, "datasets/import.html", context, status=status)
