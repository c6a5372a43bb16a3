"""Pages that move template files in and out of a project: the upload, and a version's YAML download."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods

from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.accounts.users import signed_in_user
from mpp_studio.paradigms.forms.library import TemplateUploadForm
from mpp_studio.paradigms.selectors import project_template_get, project_template_version_get
from mpp_studio.paradigms.services.template_upload import Upload, template_files_upload, upload_size_limit
from mpp_studio.paradigms.yaml_download import yaml_attachment


@login_required
@require_http_methods(["GET", "POST"])
def template_upload(request: HttpRequest, project_id: int) -> HttpResponse:
    """Upload template files (or a zip with vocabularies and phrases) and report on each file."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    report = None
    if request.method == "POST":
        form = TemplateUploadForm(request.POST, request.FILES)
        if form.is_valid():
            uploads = []
            for file in form.cleaned_data["files"]:
                # A file over its limit is reported, never read into memory.
                fits = file.size <= upload_size_limit(file.name)
                uploads.append(Upload(file.name, file.size, file.read() if fits else None))
            report = template_files_upload(project=project, uploads=uploads, user=signed_in_user(request))
            form = TemplateUploadForm()
    else:
        form = TemplateUploadForm()
    return render(
        request,
        "paradigms/library/upload.html",
        project_context(request, project, active_tab="templates", form=form, report=report),
    )


@login_required
@require_GET
def template_download(request: HttpRequest, project_id: int, template_id: int) -> HttpResponse:
    """A template version's YAML as `<uid>.yaml`: the latest, or `?version=N`."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    template = project_template_get(project=project, template_id=template_id)
    if template is None:
        raise Http404("No template with this id in this project.")
    raw = request.GET.get("version", "").strip()
    if raw and not raw.isdigit():
        raise Http404("The version must be a version number, such as ?version=2.")
    version = project_template_version_get(template=template, number=int(raw) if raw else None)
    if version is None:
        raise Http404("This template has no version with this number.")
    return yaml_attachment(version.source_text, template.uid)
