"""The paradigms API: a project's templates, versions, previews and phrases; the library and its import.

Project endpoints live under /api/projects/<project_id>/ and get `self.project` from
`ProjectRolePermission` (reading needs the viewer role, writing the editor role; non-members get
404). The library endpoints (/api/library/) need only a signed-in user; importing needs the editor
role in the chosen project. Every error is JSON naming the field, and for engine problems the line,
grammar and position.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.accounts.users import signed_in_user
from mpp_studio.core.api_errors import errors_response
from mpp_studio.paradigms.apis_imports import LibraryImportJobOutputSerializer
from mpp_studio.paradigms.models import Phrase, Template
from mpp_studio.paradigms.selectors import (
    PhraseRow,
    library_template_list,
    library_templates_get,
    phrase_alternative_count,
    phrase_get,
    phrase_list_get,
    phrase_usage_get,
    project_template_get,
    project_template_list,
    project_template_version_get,
    template_latest_versions_attach,
)
from mpp_studio.paradigms.serializers import (
    LibraryImportInputSerializer,
    LibraryTemplateOutputSerializer,
    ParadigmErrorsSerializer,
    PhraseChangeOutputSerializer,
    PhraseInputSerializer,
    PhraseOutputSerializer,
    PhrasePatchInputSerializer,
    PreviewInputSerializer,
    PreviewOutputSerializer,
    TemplateCreateInputSerializer,
    TemplateDetailOutputSerializer,
    TemplateListOutputSerializer,
    TemplateVersionCreateInputSerializer,
    TemplateVersionCreateOutputSerializer,
    TemplateVersionOutputSerializer,
    TemplateVersionSummarySerializer,
)
from mpp_studio.paradigms.services.library_into_project import (
    library_import_report,
    library_templates_import_start,
)
from mpp_studio.paradigms.services.phrases import (
    PhraseChange,
    PhraseInUseError,
    PhraseTextError,
    phrase_create,
    phrase_delete,
    phrase_update,
)
from mpp_studio.paradigms.services.project_templates import template_save
from mpp_studio.paradigms.services.template_lifecycle import template_create_valid, template_delete
from mpp_studio.paradigms.services.text_preview import template_text_preview

TEMPLATES_TAG = "Templates"
PHRASES_TAG = "Phrases"
LIBRARY_TAG = "Library"

ERRORS = OpenApiResponse(ParadigmErrorsSerializer, description="Errors, each naming its field (and line).")
NOT_FOUND = OpenApiResponse(ParadigmErrorsSerializer, description="No such object in this project.")
FILTERS = [
    OpenApiParameter("language", str, description="Only this language code (en, zh, ...)."),
    OpenApiParameter("phenomenon", str, description="Only this phenomenon (subject_verb_agreement, ...)."),
]


class _ProjectApi(GenericAPIView):
    """Base of the project endpoints: `self.project` is set by ProjectRolePermission."""

    project: Project

    def _template(self, template_id: int) -> Template:
        template = project_template_get(project=self.project, template_id=template_id)
        if template is None:
            raise Http404("No template with this id in this project.")
        return template

    def _phrase(self, phrase_id: int) -> Phrase:
        phrase = phrase_get(project=self.project, phrase_id=phrase_id)
        if phrase is None:
            raise Http404("No phrase with this id in this project.")
        return phrase


# -- Templates ---------------------------------------------------------------------------------


class TemplateListApi(_ProjectApi):
    """The project's templates; creating one stores version 1 if the engine finds no problem."""

    serializer_class = TemplateListOutputSerializer

    @extend_schema(
        tags=[TEMPLATES_TAG], parameters=FILTERS, responses=TemplateListOutputSerializer(many=True)
    )
    def get(self, request: Request, project_id: int) -> Response:
        templates = project_template_list(
            project=self.project,
            language=request.query_params.get("language", "").strip(),
            phenomenon=request.query_params.get("phenomenon", "").strip(),
        )
        page = self.paginate_queryset(templates)
        template_latest_versions_attach(page or [])
        return self.get_paginated_response(TemplateListOutputSerializer(page, many=True).data)

    @extend_schema(
        tags=[TEMPLATES_TAG],
        request=TemplateCreateInputSerializer,
        responses={201: TemplateDetailOutputSerializer, 400: ERRORS},
        description="Store a new template as version 1. A text with problems is refused with 400 and "
        'every problem as {"field": "source_text", "code", "message", "line", "grammar", "position"}; '
        "nothing is stored.",
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = TemplateCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = template_create_valid(
            project=self.project, user=signed_in_user(request), **data.validated_data
        )
        return Response(TemplateDetailOutputSerializer(version.template).data, status=status.HTTP_201_CREATED)


class TemplateDetailApi(_ProjectApi):
    """One template with its latest version; deleting it deletes all its versions."""

    serializer_class = TemplateDetailOutputSerializer

    @extend_schema(tags=[TEMPLATES_TAG], responses={200: TemplateDetailOutputSerializer, 404: NOT_FOUND})
    def get(self, request: Request, project_id: int, template_id: int) -> Response:
        return Response(TemplateDetailOutputSerializer(self._template(template_id)).data)

    @extend_schema(
        tags=[TEMPLATES_TAG],
        responses={204: None, 404: NOT_FOUND, 409: ERRORS},
        description="Delete the template and its versions (refused with 409 while a dataset uses one).",
    )
    def delete(self, request: Request, project_id: int, template_id: int) -> Response:
        template = self._template(template_id)
        try:
            template_delete(template=template)
        except ValidationError as exc:
            return errors_response(
                [{"field": "", "message": m} for m in exc.messages], status.HTTP_409_CONFLICT
            )
        return Response(status=status.HTTP_204_NO_CONTENT)


class TemplateVersionListApi(_ProjectApi):
    """A template's versions, newest first; posting a text saves the next version."""

    serializer_class = TemplateVersionSummarySerializer

    @extend_schema(tags=[TEMPLATES_TAG], responses=TemplateVersionSummarySerializer(many=True))
    def get(self, request: Request, project_id: int, template_id: int) -> Response:
        template = self._template(template_id)
        page = self.paginate_queryset(template.versions.select_related("created_by").order_by("-number"))
        return self.get_paginated_response(TemplateVersionSummarySerializer(page, many=True).data)

    @extend_schema(
        tags=[TEMPLATES_TAG],
        request=TemplateVersionCreateInputSerializer,
        responses={201: TemplateVersionCreateOutputSerializer, 400: ERRORS, 404: NOT_FOUND},
        description="Save the text as the next version. It is stored even when the engine finds "
        "problems (nothing an author writes is lost): they are in the body's `problems`.",
    )
    def post(self, request: Request, project_id: int, template_id: int) -> Response:
        template = self._template(template_id)
        data = TemplateVersionCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = template_save(
            project=self.project, template=template, user=signed_in_user(request), **data.validated_data
        )
        return Response(TemplateVersionCreateOutputSerializer(version).data, status=status.HTTP_201_CREATED)


class TemplateVersionDetailApi(_ProjectApi):
    """One version of a template, by number."""

    serializer_class = TemplateVersionOutputSerializer

    @extend_schema(tags=[TEMPLATES_TAG], responses={200: TemplateVersionOutputSerializer, 404: NOT_FOUND})
    def get(self, request: Request, project_id: int, template_id: int, number: int) -> Response:
        version = project_template_version_get(template=self._template(template_id), number=number)
        if version is None:
            raise Http404("This template has no version with this number.")
        return Response(TemplateVersionOutputSerializer(version).data)


class TemplatePreviewApi(_ProjectApi):
    """Pairs from an unsaved template text; nothing is stored, so viewers may use it too."""

    serializer_class = PreviewOutputSerializer
    write_role = Role.VIEWER  # a POST that stores nothing

    @extend_schema(
        tags=[TEMPLATES_TAG],
        request=PreviewInputSerializer,
        responses={200: PreviewOutputSerializer, 400: ERRORS},
        description="Check the text against the project's vocabulary and phrases and generate up to "
        "`n` (at most 50) pairs for `seed`, each in the engine's record layout with its critical "
        "region. A text with problems gives no pairs and lists them.",
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = PreviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preview = template_text_preview(project=self.project, **data.validated_data)
        body = {
            "valid": preview.valid,
            "capacity_text": preview.capacity_text,
            "problems": [p.to_dict() for p in preview.problems],
            "message": preview.message,
            "pairs": preview.records,
        }
        return Response(PreviewOutputSerializer(body).data)


# -- Phrases -----------------------------------------------------------------------------------


def _phrase_text_errors(exc: PhraseTextError) -> Response:
    return errors_response(
        [{"field": "text", **p.to_dict()} for p in exc.problems], status.HTTP_400_BAD_REQUEST
    )


def _change_body(change: PhraseChange, used_by: list[Template]) -> dict[str, Any]:
    return {
        "phrase": change.phrase,
        "alternative_count": phrase_alternative_count(change.phrase),
        "used_by": [{"id": t.pk, "uid": t.uid} for t in used_by],
        "rechecked": change.rechecks,
    }


def _row_body(row: PhraseRow) -> dict[str, Any]:
    return {
        "phrase": row.phrase,
        "alternative_count": row.alternative_count,
        "used_by": [{"id": t.pk, "uid": t.uid} for t in row.used_by],
    }


class PhraseListApi(_ProjectApi):
    """The project's phrases, with the templates that use each; creating one checks its YAML first."""

    serializer_class = PhraseOutputSerializer

    @extend_schema(tags=[PHRASES_TAG], responses=PhraseOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        rows = phrase_list_get(project=self.project)
        page: list[PhraseRow] = (
            self.paginate_queryset(rows) or []  # type: ignore[arg-type]  # DRF pages lists too
        )
        return self.get_paginated_response(
            PhraseOutputSerializer([_row_body(r) for r in page], many=True).data
        )

    @extend_schema(
        tags=[PHRASES_TAG],
        request=PhraseInputSerializer,
        responses={201: PhraseChangeOutputSerializer, 400: ERRORS},
        description="Create a phrase. Problems in `text` come back as 400 with the line of each.",
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = PhraseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            change = phrase_create(project=self.project, **data.validated_data)
        except PhraseTextError as exc:
            return _phrase_text_errors(exc)
        users = phrase_usage_get(project=self.project).get(change.phrase.name, [])
        return Response(
            PhraseChangeOutputSerializer(_change_body(change, users)).data, status=status.HTTP_201_CREATED
        )


class PhraseDetailApi(_ProjectApi):
    """One phrase: read, change (its templates are checked again) or delete (refused while used)."""

    serializer_class = PhraseOutputSerializer

    @extend_schema(tags=[PHRASES_TAG], responses={200: PhraseOutputSerializer, 404: NOT_FOUND})
    def get(self, request: Request, project_id: int, phrase_id: int) -> Response:
        phrase = self._phrase(phrase_id)
        users = phrase_usage_get(project=self.project).get(phrase.name, [])
        row = PhraseRow(phrase, phrase_alternative_count(phrase), users)
        return Response(PhraseOutputSerializer(_row_body(row)).data)

    @extend_schema(
        tags=[PHRASES_TAG],
        request=PhraseInputSerializer,
        responses={200: PhraseChangeOutputSerializer, 400: ERRORS, 404: NOT_FOUND},
        description="Replace the phrase. `rechecked` lists every template whose latest version uses "
        "it (or used it under its old name), checked again now.",
    )
    def put(self, request: Request, project_id: int, phrase_id: int) -> Response:
        return self._update(request, phrase_id, PhraseInputSerializer)

    @extend_schema(
        tags=[PHRASES_TAG],
        request=PhrasePatchInputSerializer,
        responses={200: PhraseChangeOutputSerializer, 400: ERRORS, 404: NOT_FOUND},
    )
    def patch(self, request: Request, project_id: int, phrase_id: int) -> Response:
        return self._update(request, phrase_id, PhrasePatchInputSerializer)

    def _update(self, request: Request, phrase_id: int, serializer: type[Any]) -> Response:
        phrase = self._phrase(phrase_id)
        data = serializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = {"name": phrase.name, "text": phrase.text, "description": phrase.description}
        values.update(data.validated_data)
        try:
            change = phrase_update(phrase=phrase, **values)
        except PhraseTextError as exc:
            return _phrase_text_errors(exc)
        users = phrase_usage_get(project=self.project).get(change.phrase.name, [])
        return Response(PhraseChangeOutputSerializer(_change_body(change, users)).data)

    @extend_schema(
        tags=[PHRASES_TAG],
        responses={204: None, 404: NOT_FOUND, 409: ERRORS},
        description="Delete the phrase; refused with 409 (naming them) while templates' latest "
        "versions use it.",
    )
    def delete(self, request: Request, project_id: int, phrase_id: int) -> Response:
        phrase = self._phrase(phrase_id)
        try:
            phrase_delete(phrase=phrase)
        except PhraseInUseError as exc:
            return errors_response(
                [{"field": "", "message": exc.messages[0], "templates": [t.uid for t in exc.templates]}],
                status.HTTP_409_CONFLICT,
            )
        return Response(status=status.HTTP_204_NO_CONTENT)


# -- The library (not in a project) ---------------------------------------------------------------


class LibraryListApi(GenericAPIView):
    """The shipped paradigm library: the newest version of each template file."""

    serializer_class = LibraryTemplateOutputSerializer

    @extend_schema(
        tags=[LIBRARY_TAG], parameters=FILTERS, responses=LibraryTemplateOutputSerializer(many=True)
    )
    def get(self, request: Request) -> Response:
        templates = library_template_list(
            language=request.query_params.get("language", "").strip(),
            phenomenon=request.query_params.get("phenomenon", "").strip(),
        )
        page = self.paginate_queryset(templates)
        return self.get_paginated_response(LibraryTemplateOutputSerializer(page, many=True).data)


class LibraryDetailApi(GenericAPIView):
    """One library template version."""

    serializer_class = LibraryTemplateOutputSerializer

    @extend_schema(tags=[LIBRARY_TAG], responses={200: LibraryTemplateOutputSerializer, 404: NOT_FOUND})
    def get(self, request: Request, template_id: int) -> Response:
        found = library_templates_get(ids=[template_id])
        if not found:
            raise Http404("No library template has this id.")
        return Response(LibraryTemplateOutputSerializer(found[0]).data)


class LibraryImportApi(GenericAPIView):
    """Import library templates (with their vocabularies and phrases) into a project you edit."""

    serializer_class = LibraryImportJobOutputSerializer

    @extend_schema(
        tags=[LIBRARY_TAG],
        request=LibraryImportInputSerializer,
        responses={202: LibraryImportJobOutputSerializer, 400: ERRORS, 403: ERRORS, 404: NOT_FOUND},
        description="Answers 202 with the import, whose `job` imports the templates in the "
        "background, in order: poll `/api/projects/<project>/templates/import/library/<id>/` until "
        "the job has finished. Each template is imported on its own: its vocabulary and phrases are "
        "created or reused, and it becomes version 1 of a new project template; one whose uid, "
        "vocabulary or phrase the project has with other content is skipped with the reason. 404 "
        "for a project you are not a member of, 403 if you are only its viewer.",
    )
    def post(self, request: Request) -> Response:
        data = LibraryImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        project = project_get_for_user(
            user=request.user, project_id=data.validated_data["project"], needed=Role.EDITOR
        )
        wanted = list(dict.fromkeys(data.validated_data["templates"]))
        templates = library_templates_get(ids=wanted)
        missing = sorted(set(wanted) - {t.pk for t in templates})
        if missing:
            return errors_response(
                [{"field": "templates", "message": f"No library template has the id {n}."} for n in missing],
                status.HTTP_400_BAD_REQUEST,
            )
        by_id = {t.pk: t for t in templates}
        row = library_templates_import_start(
            project=project, templates=[by_id[i] for i in wanted], user=request.user
        )
        return Response(
            LibraryImportJobOutputSerializer(library_import_report(row=row)).data,
            status=status.HTTP_202_ACCEPTED,
        )
